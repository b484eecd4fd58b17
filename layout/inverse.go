package layout

// CondLeftInverse is CuTe's assertion text for a left inverse that cannot exist.
const CondLeftInverse = "Left inverse divisibility condition"

// RightInverse is CuTe's right_inverse(A): the largest layout R, built from
// the modes of coalesce(A) that chain up from stride 1 (each stride the
// extent of the ones before it), such that A o R is the identity on R's
// domain.
//
// Law: A(R(i)) == i for all i < size(R).
func RightInverse(a Layout) (Layout, error) {
	var sb, db [flatInline]int64
	ls, ld, err := coalesceModes("right_inverse", a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	var pb [flatInline]int64
	pre, ok := exclusivePrefixProduct(ls, pb[:0])
	if !ok {
		return Layout{}, errorf("right_inverse", CondOverflow, "the size of %v overflows int64", a)
	}
	var ob [flatInline]int
	order := sortByStride(ld, ob[:0])
	// The result starts with the mode 1:0 as CuTe's does; coalesce drops it.
	var rsb, rdb [flatInline + 1]int64
	rs, rd := append(rsb[:0], 1), append(rdb[:0], 0)
	next := int64(1)
	for _, i := range order {
		if ld[i] != next {
			continue
		}
		rs, rd = append(rs, ls[i]), append(rd, pre[i])
		if next, ok = mulChecked(ls[i], ld[i]); !ok {
			return Layout{}, errorf("right_inverse", CondOverflow, "the cosize of %v overflows int64", a)
		}
	}
	n := len(rs)
	rs, rd, ok = bwCoalesceInt(rs, rd, rs[n-1], rd[n-1])
	if !ok {
		return Layout{}, errorf("right_inverse", CondOverflow, "the right inverse of %v overflows int64", a)
	}
	// flatLayout, written out (see there).
	if len(rs) == 1 {
		return Layout{Shape: Int(rs[0]), Stride: Int(rd[0])}, nil
	}
	return slabLayout(flatSlab(rs, rd)), nil
}

// LeftInverse is CuTe's left_inverse(A): the layout L over A's codomain,
// mode by mode in increasing stride of coalesce(A), with stride-0 modes
// skipped, so that L undoes A. Each stride must be a multiple of the extent
// of the modes of smaller stride; otherwise A has no left inverse of this
// form and it is an error.
//
// Law: L(A(i)) == i for all i < size(A) when A is injective.
func LeftInverse(a Layout) (Layout, error) {
	var sb, db [flatInline]int64
	ls, ld, err := coalesceModes("left_inverse", a, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	var pb [flatInline]int64
	pre, ok := exclusivePrefixProduct(ls, pb[:0])
	if !ok {
		return Layout{}, errorf("left_inverse", CondOverflow, "the size of %v overflows int64", a)
	}
	var ob [flatInline]int
	order := sortByStride(ld, ob[:0])
	var rsb, rdb [flatInline + 1]int64
	rs, rd := rsb[:0], append(rdb[:0], 0)
	extent := int64(1) // size of the result's modes so far
	for _, i := range order {
		d := ld[i]
		if d == 0 {
			continue
		}
		if d%extent != 0 {
			return Layout{}, errorf("left_inverse", CondLeftInverse,
				"stride %d of mode %d:%d of %v is not a multiple of %d, the extent of the modes of smaller stride",
				d, ls[i], d, a, extent)
		}
		rs, rd = append(rs, d/extent), append(rd, pre[i])
		extent = d // the product of the shapes so far: d/extent times extent
	}
	rs = append(rs, ls[order[len(order)-1]])
	n := len(rs)
	rs, rd, ok = bwCoalesceInt(rs, rd, rs[n-1], rd[n-1])
	if !ok {
		return Layout{}, errorf("left_inverse", CondOverflow, "the left inverse of %v overflows int64", a)
	}
	return flatLayout(rs, rd), nil
}

// coalesceModes is CuTe's coalesce(A) on flat modes: size-1 modes dropped,
// modes merged where stride[i+1] == shape[i]*stride[i]; all gone is 1:0.
func coalesceModes(op string, a Layout, shape, stride []int64) ([]int64, []int64, error) {
	shape, stride, err := flattenModes(op, a, shape, stride)
	if err != nil {
		return nil, nil, err
	}
	n := len(shape)
	shape, stride, ok := bwCoalesceInt(shape, stride, shape[n-1], stride[n-1])
	if !ok {
		return nil, nil, errorf(op, CondOverflow, "coalescing %v overflows int64", a)
	}
	return shape, stride, nil
}

// exclusivePrefixProduct appends 1, s0, s0*s1, ... (one per shape) to out.
func exclusivePrefixProduct(shape []int64, out []int64) ([]int64, bool) {
	p := int64(1)
	for i, s := range shape {
		out = append(out, p)
		if i == len(shape)-1 {
			break // the full product is not needed, and may not fit
		}
		var ok bool
		if p, ok = mulChecked(p, s); !ok {
			return nil, false
		}
	}
	return out, true
}

// sortByStride appends to order the indices of stride sorted by stride in
// the order CuTe's exchange sort leaves them (which is not stable: equal
// strides may swap, and which of them comes first decides the inverse).
func sortByStride(stride []int64, order []int) []int {
	for i := range stride {
		order = append(order, i)
	}
	for i := range order {
		for j := i + 1; j < len(order); j++ {
			if stride[order[j]] < stride[order[i]] {
				order[i], order[j] = order[j], order[i]
			}
		}
	}
	return order
}

// inverseOf resolves right_inverse / left_inverse on the kind of its
// argument; inverses of swizzled layouts are not implemented here yet.
func inverseOf(op string, v Value) (Value, error) {
	switch v := v.(type) {
	case Layout:
		if op == "right_inverse" {
			return RightInverse(v)
		}
		return LeftInverse(v)
	case IntTuple:
		if v.IsLeaf() {
			if err := checkIntLeaf(op, v); err != nil {
				return nil, err
			}
			return inverseOf(op, Layout{Shape: v, Stride: Int(1)})
		}
	case Composed:
		return nil, &Error{Op: op, Detail: op + " of " + kindName(v) + " is not supported yet"}
	}
	return nil, &Error{Op: op, Detail: op + " takes a layout, not " + kindName(v)}
}
