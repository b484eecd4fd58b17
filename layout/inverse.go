package layout

// CondLeftInverse is CuTe's assertion text for a left inverse that cannot exist.
const CondLeftInverse = "Left inverse divisibility condition"

// RightInverse is CuTe's right_inverse(A): the largest layout R, built from
// the modes of coalesce(A) that chain up from stride 1 (each stride the
// extent of the ones before it), such that A o R is the identity on R's
// domain.
//
// Law: A(R(i)) == i for all i < size(R).
func RightInverse(a *Layout) (*Layout, error) {
	const op = "right_inverse"
	var mb [flatInline]mode
	m, err := coalescedStatic(op, a, mb[:0])
	if err != nil {
		return nil, err
	}
	var pb [flatInline]int64
	pre, ok := exclusivePrefixProduct(m, pb[:0])
	if !ok {
		return nil, Errorf(op, CondOverflow, "the size of %v overflows int64", *a)
	}
	sortByStride(m, pre)
	// The result starts with the mode 1:0 as CuTe's does; coalesce drops it.
	var rb [flatInline + 1]mode
	r := append(rb[:0], mode{numInt(1, true), numInt(0, true)})
	next := int64(1)
	for i, x := range m {
		if x.d.v != next {
			continue
		}
		r = append(r, mode{x.s, numInt(pre[i], true)})
		if next, ok = MulChecked(x.s.v, x.d.v); !ok {
			return nil, Errorf(op, CondOverflow, "the cosize of %v overflows int64", *a)
		}
	}
	if r, err = bwCoalesce(op, r); err != nil {
		return nil, Errorf(op, CondOverflow, "the right inverse of %v overflows int64", *a)
	}
	return flatLayoutOf(r, nil), nil
}

// LeftInverse is CuTe's left_inverse(A): the layout L over A's codomain,
// mode by mode in increasing stride of coalesce(A), with stride-0 modes
// skipped, so that L undoes A. Each stride must be a multiple of the extent
// of the modes of smaller stride; otherwise A has no left inverse of this
// form and it is an error.
//
// Law: L(A(i)) == i for all i < size(A) when A is injective.
func LeftInverse(a Layout) (Layout, error) {
	const op = "left_inverse"
	var mb [flatInline]mode
	m, err := coalescedStatic(op, &a, mb[:0])
	if err != nil {
		return Layout{}, err
	}
	var pb [flatInline]int64
	pre, ok := exclusivePrefixProduct(m, pb[:0])
	if !ok {
		return Layout{}, Errorf(op, CondOverflow, "the size of %v overflows int64", a)
	}
	sortByStride(m, pre)
	// Each mode's stride is the place in A of the mode before it (0 first).
	var rb [flatInline + 1]mode
	r := rb[:0]
	stride := numInt(0, true)
	extent := int64(1) // size of the result's modes so far
	for i, x := range m {
		k := x.d.v
		if k == 0 {
			continue
		}
		if k%extent != 0 {
			return Layout{}, Errorf(op, CondLeftInverse,
				"stride %d of mode %d:%d of %v is not a multiple of %d, the extent of the modes of smaller stride",
				k, x.s.v, k, a, extent)
		}
		r = append(r, mode{numInt(k/extent, true), stride})
		stride = numInt(pre[i], true)
		extent = k // the product of the shapes so far: k/extent times extent
	}
	r = append(r, mode{m[len(m)-1].s, stride})
	if r, err = bwCoalesce(op, r); err != nil {
		return Layout{}, Errorf(op, CondOverflow, "the left inverse of %v overflows int64", a)
	}
	return *flatLayoutOf(r, nil), nil
}

// coalescedStatic is coalesce(A) as flat modes appended to s and d, every
// integer read as static (the inverses do not follow CuTe's run-time rules
// yet); all gone is the mode 1:0.
func coalescedStatic(op string, a *Layout, m []mode) ([]mode, error) {
	var tb bases
	m, err := leafModes(op, a, m, &tb)
	if err == nil {
		err = checkInts(op, m, &tb, false)
	}
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		m = append(m, mode{numInt(1, true), numInt(0, true)})
	}
	for i := range m {
		m[i].s.f, m[i].d.f = 0, 0 // plain integers, now static
	}
	if m, err = bwCoalesce(op, m); err != nil {
		return nil, Errorf(op, CondOverflow, "coalescing %v overflows int64", *a)
	}
	return m, nil
}

// exclusivePrefixProduct appends 1, s0, s0*s1, ... (one per mode of m) to out.
func exclusivePrefixProduct(m []mode, out []int64) ([]int64, bool) {
	p := int64(1)
	for i, x := range m {
		out = append(out, p)
		if i == len(m)-1 {
			break // the full product is not needed, and may not fit
		}
		var ok bool
		if p, ok = MulChecked(p, x.s.v); !ok {
			return nil, false
		}
	}
	return out, true
}

// sortByStride sorts m by stride in place, and pre (one per mode) along,
// in the order CuTe's exchange sort leaves them (which is not stable: equal
// strides may swap, and which of them comes first decides the inverse).
func sortByStride(m []mode, pre []int64) {
	pre = pre[:len(m)]
	for i := range m {
		for j := i + 1; j < len(m); j++ {
			if m[j].d.v < m[i].d.v {
				m[i], m[j] = m[j], m[i]
				pre[i], pre[j] = pre[j], pre[i]
			}
		}
	}
}
