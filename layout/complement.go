package layout

import (
	"math"
	"slices"
)

// CondNonInjective is CuTe's assertion text for a complement of a layout
// that maps two coordinates to one index.
const CondNonInjective = "Non-injective Layout detected in complement."

// Complement is CuTe's complement(A): ComplementTo(A, cosize(filter(A))),
// the complement within the span A itself reaches.
func Complement(a Layout) (Layout, error) {
	if runTimePlain(a.Shape, a.Stride) {
		return complementDyn(a, nil) // see dynamic.go
	}
	var sb, db [flatInline]int64
	var rsb, rdb [flatInline + 1]int64
	fs, fd, err := flattenModes("complement", a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	if n, ok := complementQuick(fs, fd, -1, &rsb, &rdb); ok {
		// flatLayout, written out (see there).
		if n == 1 {
			return Layout{Shape: Int(rsb[0]), Stride: Int(rdb[0])}, nil
		}
		return slabLayout(flatSlab(rsb[:n], rdb[:n])), nil
	}
	fs, fd, err = filterModes("complement", a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	cosize, ok := cosizeOf(fs, fd)
	if !ok {
		return Layout{}, errorf("complement", CondOverflow, "the cosize of %v overflows int64", a)
	}
	rs, rd, err := complementOf(a, fs, fd, cotargetInt(cosize), rsb[:0], rdb[:0])
	if err != nil {
		return Layout{}, err
	}
	// flatLayout, written out (see there).
	if len(rs) == 1 {
		return Layout{Shape: Int(rs[0]), Stride: Int(rd[0])}, nil
	}
	return slabLayout(flatSlab(rs, rd)), nil
}

// ComplementTo is CuTe's complement(A, M), M an integer or a shape: the
// layout R of the indices below M that A does not reach, built from the
// gaps between A's modes taken in increasing stride, then a last mode up to
// M, rounded up (complement(4:2, 19) is (2,3):(1,8), reaching 23; a shape M
// rounds mode by mode, as CuTe's ceil_div does). Stride-0 and size-1 modes
// of A are ignored (CuTe filters A first). A mode whose stride falls inside
// the span of the smaller-stride modes is CuTe's "Non-injective Layout"
// error; this also rejects a few injective layouts, such as (2,2):(3,4).
//
// Law: R is increasing, and R(j) != filter(A)(i) except R(0) == A(0) == 0;
// when each stride of filter(A), in increasing order, is a multiple of the
// extent of the modes below it, the layout (filter(A), R) is a bijection
// onto [0, size(filter(A))*size(R)), which reaches an integer M.
func ComplementTo(a Layout, m IntTuple) (Layout, error) {
	if runTimePlain(a.Shape, a.Stride, m) {
		return complementDyn(a, &m) // see dynamic.go
	}
	var sb, db [flatInline]int64
	var rsb, rdb [flatInline + 1]int64
	fs, fd, err := flattenModes("complement", a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	if err := checkLeaves("complement", m); err != nil {
		return Layout{}, err
	}
	if m.IsLeaf() && m.val > 0 {
		if n, ok := complementQuick(fs, fd, m.val, &rsb, &rdb); ok {
			// flatLayout, written out (see there).
			if n == 1 {
				return Layout{Shape: Int(rsb[0]), Stride: Int(rdb[0])}, nil
			}
			return slabLayout(flatSlab(rsb[:n], rdb[:n])), nil
		}
	} else if fs, fd, ok := usedModes(fs, fd); ok {
		if rs, rd, _, ok := complementModes(fs, fd, cotargetTuple(m), rsb[:0], rdb[:0]); ok {
			// flatLayout, written out (see there).
			if len(rs) == 1 {
				return Layout{Shape: Int(rs[0]), Stride: Int(rd[0])}, nil
			}
			return slabLayout(flatSlab(rs, rd)), nil
		}
	}
	fs, fd, err = filterModes("complement", a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	rs, rd, err := complementOf(a, fs, fd, cotargetTuple(m), rsb[:0], rdb[:0])
	if err != nil {
		return Layout{}, err
	}
	// flatLayout, written out (see there).
	if len(rs) == 1 {
		return Layout{Shape: Int(rs[0]), Stride: Int(rd[0])}, nil
	}
	return slabLayout(flatSlab(rs, rd)), nil
}

// cotarget is M, an integer or a shape, without building an IntTuple for
// the integer case.
type cotarget struct {
	n       int64
	shape   IntTuple // when isShape
	isShape bool
}

func cotargetInt(n int64) cotarget { return cotarget{n: n} }
func cotargetTuple(m IntTuple) cotarget {
	if m.IsLeaf() {
		return cotarget{n: m.val}
	}
	return cotarget{shape: m, isShape: true}
}

// restShape is CuTe's coalesce(ceil_div(M, stride)): the number of times
// the block of the given stride fits in M, rounded up, multiplied over M's
// modes as ceil_div folds stride through them.
func (c cotarget) restShape(stride int64) (int64, bool) {
	if !c.isShape {
		return ceilDivC(c.n, stride)
	}
	prod := int64(1)
	_, ok := ceilDivTuple(c.shape, stride, &prod)
	return prod, ok
}

// ceilDivTuple multiplies into prod the leaves of ceil_div(t, b) and returns
// what is left of b (ceil_div(b, product(t))).
func ceilDivTuple(t IntTuple, b int64, prod *int64) (int64, bool) {
	if t.IsLeaf() {
		q, ok := ceilDivC(t.val, b)
		if ok {
			*prod, ok = mulChecked(*prod, q)
		}
		if !ok {
			return 0, false
		}
		return ceilDivC(b, t.val)
	}
	// A nested mode passes on ceil_div(b, product(mode)) in CuTe; for the
	// positive sizes of a shape that is what the fold through the mode
	// leaves, ceil(ceil(b/x)/y) being ceil(b/(x*y)).
	for _, e := range t.elems() {
		var ok bool
		if b, ok = ceilDivTuple(e, b, prod); !ok {
			return 0, false
		}
	}
	return b, true
}

func productOf(t IntTuple) (int64, bool) {
	if t.IsLeaf() {
		return t.val, true
	}
	p := int64(1)
	for _, e := range t.elems() {
		q, ok := productOf(e)
		if ok {
			p, ok = mulChecked(p, q)
		}
		if !ok {
			return 0, false
		}
	}
	return p, true
}

// complementFault is why complementModes failed, in plain integers.
type complementFault struct {
	kind                            faultKind // faultOverflow, faultZero or faultShape (non-injective)
	minShape, minStride, lastStride int64
}

// complementModes is the complement of the filtered flat modes fs:fd
// within m, appended to rs/rd: one gap below each mode in stride
// order, the rest up to m, coalesced.
func complementModes(fs, fd []int64, m cotarget, rs, rd []int64) ([]int64, []int64, complementFault, bool) {
	if len(fs) == 1 && fd[0] == 0 {
		// Nothing is left after filtering: the complement is all of M.
		n := m.n
		if m.isShape {
			var ok bool
			if n, ok = productOf(m.shape); !ok {
				return nil, nil, complementFault{kind: faultOverflow}, false
			}
		}
		if n == 1 {
			return append(rs, 1), append(rd, 0), complementFault{}, true
		}
		return append(rs, n), append(rd, 1), complementFault{}, true
	}
	// Modes are taken in increasing stride, equal strides in their order
	// (CuTe's min picks the first of equals): a stable insertion sort.
	var orderb [flatInline]int
	order := orderb[:0]
	if len(fs) > len(orderb) {
		order = make([]int, 0, len(fs))
	}
	for j := range fs {
		order = append(order, j)
		for i := len(order) - 1; i > 0 && fd[order[i]] < fd[order[i-1]]; i-- {
			order[i], order[i-1] = order[i-1], order[i]
		}
	}
	start := len(rs)
	lastStride := int64(1)
	for _, k := range order {
		minStride, minShape := fd[k], fs[k]
		if lastStride == 0 {
			return nil, nil, complementFault{faultZero, minShape, minStride, lastStride}, false
		}
		gap := minStride
		switch {
		case lastStride == 1:
		case minStride > 0 && lastStride > 0:
			gap, _ = divmod(minStride, lastStride)
		default:
			gap = minStride / lastStride
		}
		if gap == 0 {
			return nil, nil, complementFault{faultShape, minShape, minStride, lastStride}, false
		}
		next, ok := mulChecked(minStride, minShape)
		if !ok {
			return nil, nil, complementFault{faultOverflow, minShape, minStride, lastStride}, false
		}
		rs, rd = append(rs, gap), append(rd, lastStride)
		lastStride = next
	}
	rest, ok := m.restShape(lastStride)
	if !ok {
		f := complementFault{kind: faultOverflow, lastStride: lastStride}
		if lastStride == 0 || (m.isShape && hasZeroLeaf(m.shape)) {
			f.kind = faultZero
		}
		return nil, nil, f, false
	}
	restStride := lastStride
	if rest == 1 {
		restStride = 0
	}
	rs, rd = append(rs, rest), append(rd, restStride)
	n := len(rs)
	cs, cd, ok := bwCoalesceInt(rs[start:], rd[start:], rs[n-1], rd[n-1])
	if !ok {
		return nil, nil, complementFault{kind: faultOverflow}, false
	}
	return rs[:start+len(cs)], rd[:start+len(cd)], complementFault{}, true
}

// usedModes is the flat modes of A that filter keeps (size above 1,
// stride not 0), in place and not coalesced, for complement's quick path:
// with every stride positive, two modes that coalesce would merge are taken
// one after the other and only add a size-1 gap, which the complement's
// own coalesce drops, so the result is filter's whenever the complement
// succeeds. ok is false when a stride is negative; the caller then goes
// through filterModes, as it does when the quick path fails, so that
// errors name the modes filter makes. No mode left is the mode 1:0.
func usedModes(shape, stride []int64) ([]int64, []int64, bool) {
	w := 0
	for i := range shape {
		switch {
		case shape[i] == 1 || stride[i] == 0:
			continue
		case stride[i] < 0:
			return nil, nil, false
		}
		shape[w], stride[w] = shape[i], stride[i]
		w++
	}
	if w == 0 {
		return append(shape[:0], 1), append(stride[:0], 0), true
	}
	return shape[:w], stride[:w], true
}

// cosizeOf is 1 + the sum of (s-1)*|d| over the modes; false on overflow.
func cosizeOf(shape, stride []int64) (int64, bool) {
	cosize := int64(1)
	for i := range shape {
		span, ok := mulChecked(shape[i]-1, abs64(stride[i]))
		if ok {
			cosize, ok = addChecked(cosize, span)
		}
		if !ok || stride[i] == minInt64 {
			return 0, false
		}
	}
	return cosize, true
}

// complementOf is the complement of the filtered flat modes fs:fd of a
// within m, appended to rs and rd; a failure is worded for a.
func complementOf(a Layout, fs, fd []int64, m cotarget, rs, rd []int64) ([]int64, []int64, error) {
	rs, rd, f, ok := complementModes(fs, fd, m, rs, rd)
	if !ok {
		return nil, nil, complementError(a, m, f)
	}
	return rs, rd, nil
}

func complementError(a Layout, m cotarget, f complementFault) error {
	switch {
	case f.kind == faultShape:
		return errorf("complement", CondNonInjective,
			"mode %d:%d of %v starts inside [0, %d), the span of its modes of smaller stride, so two coordinates map to the same index",
			f.minShape, f.minStride, a, f.lastStride)
	case f.kind == faultZero && m.isShape && hasZeroLeaf(m.shape):
		return errorf("complement", CondDivideByZero, "the cotarget %v has a mode of size 0", m.shape)
	case f.kind == faultZero && f.minStride == 0:
		return errorf("complement", CondDivideByZero, "the modes of %v span 0 elements", a)
	case f.kind == faultZero:
		return errorf("complement", CondDivideByZero, "a mode of %v below stride %d spans 0 elements", a, f.minStride)
	}
	return errorf("complement", CondOverflow, "the complement of %v overflows int64", a)
}

// complementQuick is the complement of the flat modes shape:stride within
// m (m < 0: within their cosize) when every mode of size above 1 and
// stride not 0 has a positive size and stride and there are at most
// MaxFlatRank of them: the result's n modes are written to rs and rd.
// false where it does not answer (other modes, an error of CuTe's,
// overflow, m of 0); the caller then takes the general path, which words
// the error.
//
// It is complementModes for that case in one pass: such modes, in stride
// order, leave gaps that never coalesce with each other (gap_k*L_k <=
// stride_k < L_(k+1), where L is the extent reached so far), so coalescing
// the result only drops its size-1 modes.
func complementQuick(shape, stride []int64, m int64, rs, rd *[MaxFlatRank + 1]int64) (int, bool) {
	if len(shape) > MaxFlatRank || len(stride) != len(shape) {
		return 0, false
	}
	// The used modes in increasing stride, equal strides in their order
	// (CuTe's min picks the first of equals).
	var fs, fd [MaxFlatRank]int64
	k := 0
	cosize := int64(1)
	for i, s := range shape {
		d := stride[i]
		if s == 1 || d == 0 {
			continue
		}
		if s <= 0 || d < 0 {
			return 0, false
		}
		if m < 0 {
			span, ok := mulChecked(s-1, d)
			if ok {
				cosize, ok = addChecked(cosize, span)
			}
			if !ok {
				return 0, false
			}
		}
		j := k
		for ; j > 0 && d < fd[j-1]; j-- {
			fs[j], fd[j] = fs[j-1], fd[j-1]
		}
		fs[j], fd[j] = s, d
		k++
	}
	if m < 0 {
		m = cosize
	}
	if m == 0 {
		return 0, false
	}
	n := 0
	last := int64(1)
	for j := range k {
		gap := fd[j] / last
		if gap == 0 {
			return 0, false // non-injective
		}
		if gap != 1 {
			rs[n], rd[n] = gap, last
			n++
		}
		next, ok := mulChecked(fd[j], fs[j])
		if !ok {
			return 0, false
		}
		last = next
	}
	// CuTe's ceil_div adds last-1 to m: past int64 that is an error.
	if m > math.MaxInt64-(last-1) {
		return 0, false
	}
	if rest := (m-1)/last + 1; rest != 1 {
		rs[n], rd[n] = rest, last
		n++
	}
	if n == 0 {
		rs[0], rd[0] = 1, 0
		n = 1
	}
	return n, true
}

const minInt64 = -1 << 63

// filterModes is CuTe's filter(A) on flat modes: stride-0 modes become size
// 1, then coalesce drops size-1 modes and merges; all gone is the mode 1:0.
func filterModes(op string, a Layout, shape, stride []int64) ([]int64, []int64, error) {
	shape, stride, err := flattenModes(op, a, shape, stride)
	if err != nil {
		return nil, nil, err
	}
	for i := range stride {
		if stride[i] == 0 {
			shape[i] = 1
		}
	}
	n := len(shape)
	shape, stride, ok := bwCoalesceInt(shape, stride, shape[n-1], stride[n-1])
	if !ok {
		return nil, nil, errorf(op, CondOverflow, "coalescing %v overflows int64", a)
	}
	return shape, stride, nil
}

// checkLeaves checks that every leaf of t is a known integer.
func checkLeaves(op string, t IntTuple) error {
	if t.IsLeaf() {
		return checkIntLeaf(op, t)
	}
	for _, e := range t.elems() {
		if err := checkLeaves(op, e); err != nil {
			return err
		}
	}
	return nil
}

func hasZeroLeaf(t IntTuple) bool {
	if t.IsLeaf() {
		return t.val == 0
	}
	return slices.ContainsFunc(t.elems(), hasZeroLeaf)
}
