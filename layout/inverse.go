package layout

// CondLeftInverse is CuTe's assertion text for a left inverse that cannot exist.
const CondLeftInverse = "Left inverse divisibility condition"

// RightInverse is CuTe's right_inverse(A): the largest layout R, built from
// the modes of coalesce(A) that chain up from stride 1 (each stride the
// extent of the ones before it), such that A o R is the identity on R's
// domain.
//
// Law: A(R(i)) == i for all i < size(R).
func RightInverse(a *Layout) (Layout, error) {
	const op = "right_inverse"
	var sb, db [flatInline]num
	s, d, err := coalescedStatic(op, a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	var pb [flatInline]int64
	pre, ok := exclusivePrefixProduct(s, pb[:0])
	if !ok {
		return Layout{}, Errorf(op, CondOverflow, "the size of %v overflows int64", *a)
	}
	var ob [flatInline]int
	order := sortByStride(d, ob[:0])
	// The result starts with the mode 1:0 as CuTe's does; coalesce drops it.
	var rsb, rdb [flatInline + 1]num
	rs, rd := append(rsb[:0], numInt(1, true)), append(rdb[:0], numInt(0, true))
	next := int64(1)
	for _, i := range order {
		if d[i].v != next {
			continue
		}
		rs, rd = append(rs, s[i]), append(rd, numInt(pre[i], true))
		if next, ok = MulChecked(s[i].v, d[i].v); !ok {
			return Layout{}, Errorf(op, CondOverflow, "the cosize of %v overflows int64", *a)
		}
	}
	if rs, rd, err = bwCoalesce(op, rs, rd); err != nil {
		return Layout{}, Errorf(op, CondOverflow, "the right inverse of %v overflows int64", *a)
	}
	return flatLayoutOf(rs, rd, nil), nil
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
	var sb, db [flatInline]num
	s, d, err := coalescedStatic(op, &a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	var pb [flatInline]int64
	pre, ok := exclusivePrefixProduct(s, pb[:0])
	if !ok {
		return Layout{}, Errorf(op, CondOverflow, "the size of %v overflows int64", a)
	}
	var ob [flatInline]int
	order := sortByStride(d, ob[:0])
	var rsb, rdb [flatInline + 1]num
	rs, rd := rsb[:0], append(rdb[:0], numInt(0, true))
	extent := int64(1) // size of the result's modes so far
	for _, i := range order {
		k := d[i].v
		if k == 0 {
			continue
		}
		if k%extent != 0 {
			return Layout{}, Errorf(op, CondLeftInverse,
				"stride %d of mode %d:%d of %v is not a multiple of %d, the extent of the modes of smaller stride",
				k, s[i].v, k, a, extent)
		}
		rs, rd = append(rs, numInt(k/extent, true)), append(rd, numInt(pre[i], true))
		extent = k // the product of the shapes so far: k/extent times extent
	}
	rs = append(rs, s[order[len(order)-1]])
	if rs, rd, err = bwCoalesce(op, rs, rd); err != nil {
		return Layout{}, Errorf(op, CondOverflow, "the left inverse of %v overflows int64", a)
	}
	return flatLayoutOf(rs, rd, nil), nil
}

// coalescedStatic is coalesce(A) as flat modes appended to s and d, every
// integer read as static (the inverses do not follow CuTe's run-time rules
// yet); all gone is the mode 1:0.
func coalescedStatic(op string, a *Layout, s, d []num) ([]num, []num, error) {
	var tb bases
	s, d, err := leafModes(op, a, s, d, &tb)
	if err == nil {
		err = checkInts(op, s, d, &tb, false)
	}
	if err != nil {
		return nil, nil, err
	}
	if len(s) == 0 {
		s, d = append(s, numInt(1, true)), append(d, numInt(0, true))
	}
	for i := range s {
		s[i].f &^= dynBit
		d[i].f &^= dynBit
	}
	if s, d, err = bwCoalesce(op, s, d); err != nil {
		return nil, nil, Errorf(op, CondOverflow, "coalescing %v overflows int64", *a)
	}
	return s, d, nil
}

// exclusivePrefixProduct appends 1, s0, s0*s1, ... (one per shape) to out.
func exclusivePrefixProduct(shape []num, out []int64) ([]int64, bool) {
	p := int64(1)
	for i, s := range shape {
		out = append(out, p)
		if i == len(shape)-1 {
			break // the full product is not needed, and may not fit
		}
		var ok bool
		if p, ok = MulChecked(p, s.v); !ok {
			return nil, false
		}
	}
	return out, true
}

// sortByStride appends to order the indices of stride sorted by stride in
// the order CuTe's exchange sort leaves them (which is not stable: equal
// strides may swap, and which of them comes first decides the inverse).
func sortByStride(stride []num, order []int) []int {
	for i := range stride {
		order = append(order, i)
	}
	for i := range order {
		for j := i + 1; j < len(order); j++ {
			if stride[order[j]].v < stride[order[i]].v {
				order[i], order[j] = order[j], order[i]
			}
		}
	}
	return order
}
