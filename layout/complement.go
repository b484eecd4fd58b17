package layout

import "slices"

// CondNonInjective is CuTe's assertion text for a complement of a layout
// that maps two coordinates to one index.
const CondNonInjective = "Non-injective Layout detected in complement."

// Complement is CuTe's complement(A): ComplementTo(A, cosize(filter(A))),
// the complement within the span A itself reaches.
func Complement(a Layout) (Layout, error) {
	var sb, db [flatInline]int64
	fs, fd, err := filterModes("complement", a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	cosize := int64(1)
	for i := range fs {
		span, ok := mulChecked(fs[i]-1, abs64(fd[i]))
		if ok {
			cosize, ok = addChecked(cosize, span)
		}
		if !ok || fd[i] == minInt64 {
			return Layout{}, errorf("complement", CondOverflow, "the cosize of %v overflows int64", a)
		}
	}
	return complementFlat(a, fs, fd, cotargetInt(cosize))
}

// ComplementTo is CuTe's complement(A, M), M an integer or a shape: the
// layout R, sorted by stride, whose image is disjoint from A's image and
// such that (A, R) enumerates [0, size(M)) in order, when A's strides each
// divide the next stride and its modes fit inside M. The last mode of R is
// rounded up so that (A, R) covers all of M: complement(4:2, 19) is
// (2,3):(1,8), reaching 23. A with two coordinates at one index is an error.
//
// Law: for i < size(A) and j < size(R), A(i) != R(j) unless both are 0,
// and the layout (A, R) maps [0, size(A)*size(R)) one-to-one onto [0, M)
// whenever size(A)*size(R) == M.
func ComplementTo(a Layout, m IntTuple) (Layout, error) {
	var sb, db [flatInline]int64
	fs, fd, err := filterModes("complement", a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	if err := checkLeaves("complement", m); err != nil {
		return Layout{}, err
	}
	return complementFlat(a, fs, fd, cotargetTuple(m))
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
	for _, e := range t.elems {
		if e.IsLeaf() {
			var ok bool
			if b, ok = ceilDivTuple(e, b, prod); !ok {
				return 0, false
			}
			continue
		}
		// A nested mode divides by the rest as a whole, then passes on
		// ceil_div(rest, product(mode)).
		if _, ok := ceilDivTuple(e, b, prod); !ok {
			return 0, false
		}
		p, ok := productOf(e)
		if !ok {
			return 0, false
		}
		if b, ok = ceilDivC(b, p); !ok {
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
	for _, e := range t.elems {
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

// complementFlat is the complement of the filtered flat modes fs:fd of a
// within cotarget m.
func complementFlat(a Layout, fs, fd []int64, m cotarget) (Layout, error) {
	overflow := func() (Layout, error) {
		return Layout{}, errorf("complement", CondOverflow, "the complement of %v overflows int64", a)
	}
	if len(fs) == 1 && fd[0] == 0 {
		// Nothing of a is left after filtering: the complement is all of M.
		n := m.n
		if m.isShape {
			var ok bool
			if n, ok = productOf(m.shape); !ok {
				return overflow()
			}
		}
		if n == 1 {
			return Layout{Shape: Int(1), Stride: Int(0)}, nil
		}
		return Layout{Shape: Int(n), Stride: Int(1)}, nil
	}
	r := len(fs)
	// The result's modes: one gap below each of a's modes in stride order,
	// then the rest up to M; at most r+1 of them.
	var rsb, rdb [flatInline + 1]int64
	rs, rd := rsb[:0], rdb[:0]
	lastStride := int64(1)
	for range r {
		// The mode of least stride still left (the first of equals, as CuTe's min and find pick).
		k := 0
		for j := 1; j < len(fd); j++ {
			if fd[j] < fd[k] {
				k = j
			}
		}
		minStride, minShape := fd[k], fs[k]
		if lastStride == 0 {
			return Layout{}, errorf("complement", CondDivideByZero,
				"a mode of %v below stride %d spans 0 elements", a, minStride)
		}
		gap := minStride / lastStride
		if gap == 0 {
			return Layout{}, errorf("complement", CondNonInjective,
				"mode %d:%d of %v starts inside [0, %d), the span of its modes of smaller stride, so two coordinates map to the same index",
				minShape, minStride, a, lastStride)
		}
		next, ok := mulChecked(minStride, minShape)
		if !ok {
			return overflow()
		}
		rs, rd = append(rs, gap), append(rd, lastStride)
		lastStride = next
		fs = append(fs[:k], fs[k+1:]...)
		fd = append(fd[:k], fd[k+1:]...)
	}
	rest, ok := m.restShape(lastStride)
	if !ok {
		switch {
		case lastStride == 0:
			return Layout{}, errorf("complement", CondDivideByZero, "the modes of %v span 0 elements", a)
		case m.isShape && hasZeroLeaf(m.shape):
			return Layout{}, errorf("complement", CondDivideByZero, "the cotarget %v has a mode of size 0", m.shape)
		}
		return overflow()
	}
	restStride := lastStride
	if rest == 1 {
		restStride = 0
	}
	rs, rd = append(rs, rest), append(rd, restStride)
	n := len(rs)
	rs, rd, ok = bwCoalesce(rs, rd, rs[n-1], rd[n-1])
	if !ok {
		return overflow()
	}
	return flatLayout(rs, rd), nil
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
	shape, stride, ok := bwCoalesce(shape, stride, shape[n-1], stride[n-1])
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
	for _, e := range t.elems {
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
	return slices.ContainsFunc(t.elems, hasZeroLeaf)
}
