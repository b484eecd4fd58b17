package layout

// CondNonInjective is CuTe's assertion text for a complement of a layout
// that maps two coordinates to one index.
const CondNonInjective = "Non-injective Layout detected in complement."

// CondDynamicStrideComplement is CuTe's static_assert text for a
// complement of a layout of rank > 1 with a run-time stride.
const CondDynamicStrideComplement = "Dynamic-stride complement only for rank-1 layouts"

// Complement is CuTe's complement(A): ComplementTo(A, cosize(filter(A))),
// the complement within the span A itself reaches.
//
// Law: as ComplementTo's, with M = cosize(filter(A)).
func Complement(a *Layout) (Layout, error) {
	var sb, db [flatInline]num
	var tb bases
	as, ad, err := leafModes("complement", a, sb[:0], db[:0], &tb)
	if err != nil {
		return Layout{}, err
	}
	var rs, rd [flatInline + 1]num
	s, d, err := complement(a, as, ad, &tb, nil, IntTuple{}, rs[:0], rd[:0])
	if err != nil {
		return Layout{}, err
	}
	return flatLayoutOf(s, d, nil), nil
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
func ComplementTo(a *Layout, m IntTuple) (Layout, error) {
	const op = "complement"
	if err := checkLeaves(op, m); err != nil {
		return Layout{}, err
	}
	var sb, db [flatInline]num
	var tb bases
	as, ad, err := leafModes(op, a, sb[:0], db[:0], &tb)
	if err != nil {
		return Layout{}, err
	}
	var mb, mdb [flatInline]num
	ms, _, _ := appendLeafModes(&m, &m, mb[:0], mdb[:0], nil)
	var rs, rd [flatInline + 1]num
	s, d, err := complement(a, as, ad, &tb, ms, m, rs[:0], rd[:0])
	if err != nil {
		return Layout{}, err
	}
	return flatLayoutOf(s, d, nil), nil
}

// complement is CuTe's detail::complement, the one body of Complement and
// ComplementTo: A's complement within the cotarget M, given by its leaves
// m (nil: M is cosize(filter(A))), appended to rs and rd as flat modes.
// A comes as its leaf modes s:d (bases in tb), which it overwrites: the
// callers have walked A already, and one walk is enough.
// Step by step as CuTe takes them, with CuTe's static rules: A is filtered
// (static-0 strides dropped, then coalesced); the modes, in increasing
// stride (the first of equal strides first), each leave the gap
// stride/extent below them, a static 0 gap being the non-injective error;
// the rest up to M is ceil_div(M, extent) with compact strides; and the
// whole is coalesced. A run-time stride is allowed only in a rank-1
// filter(A), as in CuTe. mText is M, for messages.
//
// @pre every leaf of A and M a known integer, M's leaves not 0.
// @post the result's modes are coalesced, increasing, and reach at least M.
func complement(a *Layout, s, d []num, tb *bases, m []num, mText IntTuple, rs, rd []num) ([]num, []num, error) {
	const op = "complement"
	var err error
	// filter(A): a static-0 stride makes its mode size 1, coalesce drops it.
	if len(s) == 0 {
		s, d = append(s, numInt(1, true)), append(d, numInt(0, true))
	}
	for i := range s {
		if !s[i].plain() || !d[i].plain() {
			return nil, nil, checkInts(op, s[i:i+1], d[i:i+1], tb, false)
		}
		if d[i].is(0) {
			s[i] = numInt(1, true)
		}
	}
	if s, d, err = bwCoalesce(op, s, d); err != nil {
		return nil, nil, Errorf(op, CondOverflow, "coalescing %v overflows int64", *a)
	}
	var cot [1]num
	if m == nil {
		if cot[0], err = cosize(op, s, d); err != nil {
			return nil, nil, Errorf(op, CondOverflow, "the cosize of %v overflows int64", *a)
		}
		m = cot[:]
	}
	if len(s) == 1 && d[0].is(0) {
		// Nothing is left after filtering: make_layout(coalesce(M)).
		return appendRest(op, rs, rd, m, numInt(1, true))
	}
	if len(s) > 1 && !allStatic(d) {
		return nil, nil, Errorf(op, CondDynamicStrideComplement, "%v (filtered %v) has rank %d and a run-time stride; CuTe complements those only at rank 1", *a, flatLayoutOf(s, d, nil), len(s))
	}
	// The modes in increasing stride, equal strides in their order (CuTe's
	// min picks the first of equals): a stable insertion sort.
	var ob [flatInline]int
	order := ob[:0]
	for j := range s {
		order = append(order, j)
		for i := j; i > 0 && d[order[i]].v < d[order[i-1]].v; i-- {
			order[i], order[i-1] = order[i-1], order[i]
		}
	}
	extent := numInt(1, true) // the extent of the modes taken so far
	for _, k := range order {
		if extent.v == 0 {
			if d[k].v == 0 {
				return nil, nil, Errorf(op, CondDivideByZero, "the modes of %v span 0 elements", *a)
			}
			return nil, nil, Errorf(op, CondDivideByZero, "a mode of %v below stride %v spans 0 elements", *a, d[k].v)
		}
		gap, ok := divSmall(d[k], extent)
		if !ok {
			if gap, err = divAny(op, d[k], extent); err != nil {
				return nil, nil, err
			}
		}
		if gap.is(0) {
			return nil, nil, Errorf(op, CondNonInjective,
				"mode %v:%v of %v starts inside [0, %v), the span of its modes of smaller stride, so two coordinates map to the same index",
				s[k].v, d[k].v, *a, extent.v)
		}
		rs, rd = append(rs, gap), append(rd, extent)
		if extent, ok = mulSmall(d[k], s[k]); !ok {
			if extent, err = mulAny(op, d[k], s[k]); err != nil {
				return nil, nil, Errorf(op, CondOverflow, "the complement of %v overflows int64", *a)
			}
		}
	}
	// ceil_div(M, extent), folded through M's leaves.
	var qb [flatInline]num
	q := qb[:0]
	rest := extent
	for _, x := range m {
		if x.v == 0 {
			return nil, nil, Errorf(op, CondDivideByZero, "the cotarget %s has a mode of size 0", mText.String())
		}
		y, ok1 := ceilDivSmall(x, rest)
		r, ok2 := ceilDivSmall(rest, x)
		if !ok1 || !ok2 {
			y, err = ceilDiv(op, x, rest)
			if err == nil {
				r, err = ceilDiv(op, rest, x)
			}
			if err != nil {
				return nil, nil, Errorf(op, CondOverflow, "the complement of %v overflows int64", *a)
			}
		}
		rest = r
		q = append(q, y)
	}
	if rs, rd, err = appendRest(op, rs, rd, q, extent); err != nil {
		return nil, nil, err
	}
	return bwCoalesce(op, rs, rd)
}

// appendRest appends to rs and rd CuTe's last mode of the complement,
// make_layout(coalesce(q), compact strides from extent): q's leaves in
// runs of equal static marks multiplied, each run a mode of stride extent
// times the runs before it (0 for a static 1).
func appendRest(op string, rs, rd, q []num, extent num) ([]num, []num, error) {
	for i := 0; i < len(q); {
		run := q[i]
		for i++; i < len(q) && q[i].static() == run.static(); i++ {
			v, ok := MulChecked(run.v, q[i].v)
			if !ok {
				return nil, nil, Errorf(op, CondOverflow, "%v * %v overflows int64", run.v, q[i].v)
			}
			run.v = v
		}
		if run.is(1) {
			rs, rd = append(rs, run), append(rd, numInt(0, true))
			continue
		}
		rs, rd = append(rs, run), append(rd, extent)
		v, ok := MulChecked(extent.v, run.v)
		if !ok {
			return nil, nil, Errorf(op, CondOverflow, "%v * %v overflows int64", extent.v, run.v)
		}
		extent = numOfBoth(v, extent, run)
	}
	return rs, rd, nil
}

// cosize is CuTe's cosize of the flat modes s:d: 1 + the sum of
// (s-1)*|d|, folded from a static 0 for more than one mode.
func cosize(op string, s, d []num) (num, error) {
	sum := numInt(0, true)
	for i := range s {
		m1, ok := addSmall(s[i], numInt(-1, true))
		if !ok {
			return add(op, s[i], numInt(-1, true)) // its error
		}
		term, ok := mulSmall(m1, abs(d[i]))
		if !ok {
			var err error
			if term, err = mulAny(op, m1, abs(d[i])); err != nil || d[i].v == minInt64 {
				return num{}, Errorf(op, CondOverflow, "%v * |%v| overflows int64", m1.v, d[i].v)
			}
		}
		if len(s) == 1 {
			sum = term
		} else if next, ok := addSmall(sum, term); ok {
			sum = next
		} else {
			return add(op, sum, term) // its error
		}
	}
	return add(op, sum, numInt(1, true))
}

const minInt64 = -1 << 63

// allStatic reports whether every integer of ns is static.
func allStatic(ns []num) bool {
	for _, x := range ns {
		if !x.static() {
			return false
		}
	}
	return true
}

// checkInts checks that every leaf mode s:d is of known integers; with
// basisStrides the strides may also be scaled bases (an identity layout's).
func checkInts(op string, s, d []num, tb *bases, basisStrides bool) error {
	for i := range s {
		if !s[i].plain() {
			return CheckIntLeaf(op, s[i].leaf(tb))
		}
		if !d[i].plain() && !(basisStrides && d[i].kind() == kindInt) {
			return CheckIntLeaf(op, d[i].leaf(tb))
		}
	}
	return nil
}

// checkLeaves checks that every leaf of t is a known integer.
func checkLeaves(op string, t IntTuple) error {
	if t.IsLeaf() {
		return CheckIntLeaf(op, t)
	}
	for _, e := range t.elems() {
		if err := checkLeaves(op, e); err != nil {
			return err
		}
	}
	return nil
}
