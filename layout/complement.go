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
func Complement(a *Layout) (*Layout, error) {
	var ab [flatInline + 1]mode // A's modes, then the complement's (one more)
	var tb bases
	am, err := leafModes("complement", a, ab[:0], &tb)
	if err != nil {
		return nil, err
	}
	r, err := complement(a, am, &tb, nil, IntTuple{}, ab[:0])
	if err != nil {
		return nil, err
	}
	return flatLayoutOf(r, nil), nil
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
func ComplementTo(a *Layout, m IntTuple) (*Layout, error) {
	const op = "complement"
	var mb [flatInline]mode
	var tb bases
	cot, _ := appendLeafModes(&m, &m, mb[:0], &tb)
	if err := checkInts(op, cot, &tb, false); err != nil {
		return nil, err // M's leaves are known integers
	}
	var ab [flatInline + 1]mode // A's modes, then the complement's (one more)
	am, err := leafModes(op, a, ab[:0], &tb)
	if err != nil {
		return nil, err
	}
	r, err := complement(a, am, &tb, cot, m, ab[:0])
	if err != nil {
		return nil, err
	}
	return flatLayoutOf(r, nil), nil
}

// complement is CuTe's detail::complement, the one body of Complement and
// ComplementTo: A's complement within the cotarget M, given by the shapes
// of cot (nil: M is cosize(filter(A))), appended to r as flat modes.
// A comes as its leaf modes m (bases in tb), which it overwrites: the
// callers have walked A already, and one walk is enough; r may start where
// m does (each mode's gap is written after the mode is read).
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
func complement(a *Layout, m []mode, tb *bases, cot []mode, mText IntTuple, r []mode) ([]mode, error) {
	const op = "complement"
	var err error
	// filter(A): a static-0 stride makes its mode size 1, coalesce drops it.
	if len(m) == 0 {
		m = append(m, mode{numInt(1, true), numInt(0, true)})
	}
	for i := range m {
		if !m[i].s.plain() || !m[i].d.plain() {
			return nil, checkInts(op, m[i:i+1], tb, false)
		}
		if m[i].d.is(0) {
			m[i].s = numInt(1, true)
		}
	}
	if m, err = bwCoalesce(op, m); err != nil {
		return nil, Errorf(op, CondOverflow, "coalescing %v overflows int64", *a)
	}
	var cb [1]mode
	if cot == nil {
		if cb[0].s, err = cosize(op, m); err != nil {
			return nil, Errorf(op, CondOverflow, "the cosize of %v overflows int64", *a)
		}
		cot = cb[:]
	}
	if len(m) == 1 && m[0].d.is(0) {
		// Nothing is left after filtering: make_layout(coalesce(M)).
		var qb [flatInline]num
		q := qb[:0]
		for _, c := range cot {
			q = append(q, c.s)
		}
		return appendRest(op, r, q, numInt(1, true))
	}
	if len(m) > 1 && !stridesStatic(m) {
		return nil, Errorf(op, CondDynamicStrideComplement, "%v (filtered %v) has rank %d and a run-time stride; CuTe complements those only at rank 1", *a, flatLayoutOf(m, nil), len(m))
	}
	// The modes in increasing stride, equal strides in their order (CuTe's
	// min picks the first of equals): a stable insertion sort, in place.
	for j := 1; j < len(m); j++ {
		for i := j; i > 0 && m[i].d.v < m[i-1].d.v; i-- {
			m[i], m[i-1] = m[i-1], m[i]
		}
	}
	extent := numInt(1, true) // the extent of the modes taken so far
	for _, x := range m {
		s, d := x.s, x.d
		if extent.v == 0 {
			if d.v == 0 {
				return nil, Errorf(op, CondDivideByZero, "the modes of %v span 0 elements", *a)
			}
			return nil, Errorf(op, CondDivideByZero, "a mode of %v below stride %v spans 0 elements", *a, d.v)
		}
		gap, ok := divSmall(d, extent)
		if !ok {
			if gap, err = divAny(op, d, extent); err != nil {
				return nil, err
			}
		}
		if gap.is(0) {
			return nil, Errorf(op, CondNonInjective,
				"mode %v:%v of %v starts inside [0, %v), the span of its modes of smaller stride, so two coordinates map to the same index",
				s.v, d.v, *a, extent.v)
		}
		r = append(r, mode{gap, extent})
		if extent, ok = mulSmall(d, s); !ok {
			if extent, err = mulAny(op, d, s); err != nil {
				return nil, Errorf(op, CondOverflow, "the complement of %v overflows int64", *a)
			}
		}
	}
	// ceil_div(M, extent), folded through M's leaves.
	var qb [flatInline]num
	q := qb[:0]
	rest := extent
	for _, c := range cot {
		x := c.s
		if x.v == 0 {
			return nil, Errorf(op, CondDivideByZero, "the cotarget %s has a mode of size 0", mText.String())
		}
		y, rr := numOfBoth(1, x, rest), numOfBoth(1, x, rest)
		if x.v > 0 && rest.v > 0 && (x.v|rest.v)>>31 == 0 { // one ceiling is 1: one division
			if x.v >= rest.v {
				c, m := divmod(x.v, rest.v)
				y.v = c + min(m, 1)
			} else {
				c, m := divmod(rest.v, x.v)
				rr.v = c + min(m, 1)
			}
		} else if y, err = ceilDiv(op, x, rest); err == nil {
			rr, err = ceilDiv(op, rest, x)
		}
		if err != nil {
			return nil, Errorf(op, CondOverflow, "the complement of %v overflows int64", *a)
		}
		rest = rr
		q = append(q, y)
	}
	if r, err = appendRest(op, r, q, extent); err != nil {
		return nil, err
	}
	return bwCoalesce(op, r)
}

// appendRest appends to r CuTe's last mode of the complement,
// make_layout(coalesce(q), compact strides from extent): q's leaves in
// runs of equal static marks multiplied, each run a mode of stride extent
// times the runs before it (0 for a static 1).
func appendRest(op string, r []mode, q []num, extent num) ([]mode, error) {
	for i := 0; i < len(q); {
		run := q[i]
		for i++; i < len(q) && q[i].static() == run.static(); i++ {
			v, ok := MulChecked(run.v, q[i].v)
			if !ok {
				return nil, Errorf(op, CondOverflow, "%v * %v overflows int64", run.v, q[i].v)
			}
			run.v = v
		}
		if run.is(1) {
			r = append(r, mode{run, numInt(0, true)})
			continue
		}
		r = append(r, mode{run, extent})
		v, ok := MulChecked(extent.v, run.v)
		if !ok {
			return nil, Errorf(op, CondOverflow, "%v * %v overflows int64", extent.v, run.v)
		}
		extent = numOfBoth(v, extent, run)
	}
	return r, nil
}

// cosize is CuTe's cosize of the flat modes m: 1 + the sum of
// (s-1)*|d|, folded from a static 0 for more than one mode.
func cosize(op string, m []mode) (num, error) {
	sum := numInt(0, true)
	for _, x := range m {
		m1, ok := addSmall(x.s, numInt(-1, true))
		if !ok {
			return add(op, x.s, numInt(-1, true)) // its error
		}
		term, ok := mulSmall(m1, abs(x.d))
		if !ok {
			var err error
			if term, err = mulAny(op, m1, abs(x.d)); err != nil || x.d.v == minInt64 {
				return num{}, Errorf(op, CondOverflow, "%v * |%v| overflows int64", m1.v, x.d.v)
			}
		}
		if len(m) == 1 {
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

// stridesStatic reports whether every stride of m is static.
func stridesStatic(m []mode) bool {
	for _, x := range m {
		if !x.d.static() {
			return false
		}
	}
	return true
}

// checkInts checks that every leaf mode of m is of known integers; with
// basisStrides the strides may also be scaled bases (an identity layout's).
func checkInts(op string, m []mode, tb *bases, basisStrides bool) error {
	for _, x := range m {
		if !x.s.plain() {
			return CheckIntLeaf(op, x.s.leaf(tb))
		}
		if !x.d.plain() && !(basisStrides && x.d.kind() == kindInt) {
			return CheckIntLeaf(op, x.d.leaf(tb))
		}
	}
	return nil
}
