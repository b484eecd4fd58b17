package layout

// MaxCommonLayout is CuTe's max_common_layout(A, B): the layout R over the
// longest run of indices i = 0, 1, 2, ... that A and B both reach at the
// same coordinate, R = B⁻¹ restricted to that run (B⁻¹ = RightInverse(B)).
// It is 1:0 when not even index 0 continues into index 1 in both.
//
// Law: A(R(i)) == i and B(R(i)) == i for all i < size(R).
func MaxCommonLayout(a, b Layout) (Layout, error) {
	invB, n, err := commonRun("max_common_layout", a, b)
	if err != nil {
		return Layout{}, err
	}
	if n == 0 {
		return Layout{Shape: Int(1), Stride: Int(0)}, nil
	}
	return Deref(Composition(&invB, &Layout{Shape: Int(n), Stride: Int(1)}))
}

// MaxCommonVector is CuTe's max_common_vector(A, B): the number N of
// contiguous indices that A and B both reach at the same coordinates, the
// size of MaxCommonLayout(A, B); at least 1.
//
// Law: A(R(i)) == B(R(i)) == i for i < N, R = MaxCommonLayout(A, B).
func MaxCommonVector(a, b Layout) (int64, error) {
	_, n, err := commonRun("max_common_vector", a, b)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 1, nil
	}
	return n, nil
}

// commonRun is B⁻¹ and the size of the leading stride-1 mode of
// coalesce(A o B⁻¹), or 0 when that mode's stride is not 1.
func commonRun(op string, a, b Layout) (Layout, int64, error) {
	invB, err := Deref(RightInverse(&b))
	if err != nil {
		return Layout{}, 0, relabel(op, err)
	}
	ab, err := Deref(Composition(&a, &invB))
	if err != nil {
		return Layout{}, 0, relabel(op, err)
	}
	var mb [flatInline]mode
	c, err := coalescedStatic(op, &ab, mb[:0])
	if err != nil {
		return Layout{}, 0, err
	}
	if c[0].d.v != 1 {
		return invB, 0, nil
	}
	return invB, c[0].s.v, nil
}

// relabel names op as the failing operation of an error raised inside it,
// keeping the inner operation in the detail.
func relabel(op string, err error) error {
	if e, ok := err.(*Error); ok && e.Op != op {
		return &Error{Op: op, Condition: e.Condition, Detail: "in " + e.Op + ": " + e.Detail}
	}
	return err
}

// Nullspace is CuTe's nullspace(A): the layout over the coordinates of A's
// stride-0 modes, each with the stride it has in A's column-major
// (compact) index space, so that A maps every index of the result to 0;
// 1:0 when A has no stride-0 mode.
//
// Law: A(R(i)) == 0 for all i < size(R), and size(R) == size(A)/size(filter(A)).
func Nullspace(a Layout) (Layout, error) {
	const op = "nullspace"
	var mb [flatInline]mode
	var tb bases
	m, err := leafModes(op, &a, mb[:0], &tb)
	if err == nil {
		err = checkInts(op, m, &tb, false)
	}
	if err != nil {
		return Layout{}, err
	}
	var rb [flatInline]mode
	r := rb[:0]
	compact := int64(1)
	for _, x := range m {
		if x.d.v == 0 {
			d := compact
			if x.s.v == 1 {
				d = 0
			}
			r = append(r, mode{numInt(x.s.v, true), numInt(d, true)})
		}
		var ok bool
		if compact, ok = MulChecked(compact, x.s.v); !ok {
			return Layout{}, Errorf("nullspace", CondOverflow, "the size of %v overflows int64", a)
		}
	}
	if len(r) == 0 {
		return Layout{Shape: Int(1), Stride: Int(0)}, nil
	}
	return *flatLayoutOf(r, nil), nil
}
