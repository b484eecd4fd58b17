package layout

// Reinterpreting a layout for a different element width: a layout over
// 16-bit elements read as 32-bit elements (upcast<2>), or as 8-bit elements
// (downcast<2>), and recast_layout between two bit widths.

// Conditions of the recast static_asserts, with CuTe's text.
const (
	CondUpcastDivisibility = "Divisibility condition"
	CondDowncastAdjacent   = "Downcast requires adjacent elements"
	CondCastFactor         = "the element-width factor must be positive"
)

// Upcast is CuTe's upcast<N>(L): the layout of the same memory counted in
// elements N times wider. Mode by mode, a static stride d (d % N == 0 or
// N % d == 0, else "Divisibility condition") becomes sign(d)*ceil(|d|/N) and
// its shape s becomes ceil(s / ceil(N/|d|)) (a unit-stride mode shrinks by N,
// a wide stride is divided by N); a static 0 stride is unchanged, a run-time
// stride is divided by N (CuTe assumes it divisible; we check).
// Law: Upcast(Downcast(L, N), N) == L for every L that Downcast accepts
// whose unit-stride modes are static.
func Upcast(l Layout, n int64) (Layout, error) {
	const op = "upcast"
	if n <= 0 {
		return Layout{}, Errorf(op, CondCastFactor, "N = %d", n)
	}
	shape, stride, err := transformLeaves(op, l, func(s, d IntTuple) (IntTuple, IntTuple, error) {
		return upcastMode(op, s, d, n)
	})
	if err != nil {
		return Layout{}, err
	}
	return Make(shape, stride), nil
}

func upcastMode(op string, s, d IntTuple, n int64) (IntTuple, IntTuple, error) {
	switch {
	case d.IsBasis():
		return s, d, Errorf(op, CondUnknown, "stride %v is a scaled basis, not an integer", d)
	case d.IsUnknown():
		return s, d, nil
	case d.IsStatic() && d.Value() == 0:
		return s, d, nil
	case !d.IsStatic():
		if d.Value()%n != 0 {
			return s, d, Errorf(op, CondUpcastDivisibility, "run-time stride %d is not a multiple of %d", d.Value(), n)
		}
		return s, Dyn(d.Value() / n), nil
	}
	dv := d.Value()
	if dv%n != 0 && n%dv != 0 {
		return s, d, Errorf(op, CondUpcastDivisibility, "stride %d and N = %d: neither divides the other", dv, n)
	}
	ad := abs64(dv)
	newStride := ceilDivPos(ad, n)
	if dv < 0 {
		newStride = -newStride
	}
	shrink := ceilDivPos(n, ad)
	var newShape IntTuple
	switch {
	case s.IsUnknown():
		newShape = s
	case s.IsStatic():
		newShape = Int(ceilDivPos(s.Value(), shrink))
	default:
		newShape = Dyn(ceilDivPos(s.Value(), shrink))
	}
	return newShape, Int(newStride), nil
}

// Downcast is CuTe's downcast<N>(L): the layout of the same memory counted in
// elements N times narrower. A mode of static stride 1 or -1 gets N times
// the shape (each old element is N adjacent new ones); every other stride is
// multiplied by N. CuTe requires a static stride-1 mode somewhere ("Downcast
// requires adjacent elements").
func Downcast(l Layout, n int64) (Layout, error) {
	const op = "downcast"
	if n <= 0 {
		return Layout{}, Errorf(op, CondCastFactor, "N = %d", n)
	}
	if !hasStaticOne(l.Stride) {
		return Layout{}, Errorf(op, CondDowncastAdjacent, "%v has no static stride-1 mode", l)
	}
	shape, stride, err := transformLeaves(op, l, func(s, d IntTuple) (IntTuple, IntTuple, error) {
		return downcastMode(op, s, d, n)
	})
	if err != nil {
		return Layout{}, err
	}
	return Make(shape, stride), nil
}

func downcastMode(op string, s, d IntTuple, n int64) (IntTuple, IntTuple, error) {
	if d.IsBasis() {
		return s, d, Errorf(op, CondUnknown, "stride %v is a scaled basis, not an integer", d)
	}
	if d.IsStatic() && (d.Value() == 1 || d.Value() == -1) {
		ns, err := scaleLeaf(op, s, n)
		return ns, d, err
	}
	nd, err := scaleLeaf(op, d, n)
	return s, nd, err
}

// RecastLayout is CuTe's recast_layout<Old,New>(L) for element types of
// oldBits and newBits bits: with new/old reduced to num/den, it is L itself
// (equal widths), Downcast by den (narrower), Upcast by num (wider), or
// Downcast by den of Upcast by num.
func RecastLayout(l Layout, oldBits, newBits int64) (Layout, error) {
	return recast(l, oldBits, newBits, Upcast, Downcast)
}

// recast is recast_layout's rule on x, with the upcast and downcast of its kind.
func recast[T any](x T, oldBits, newBits int64, up, down func(T, int64) (T, error)) (T, error) {
	num, den, err := castRatio(oldBits, newBits)
	switch {
	case err != nil:
		var zero T
		return zero, err
	case num == 1 && den == 1:
		return x, nil
	case num == 1:
		return down(x, den)
	case den == 1:
		return up(x, num)
	}
	if x, err = up(x, num); err != nil {
		return x, err
	}
	return down(x, den)
}

// castRatio is newBits/oldBits in lowest terms.
func castRatio(oldBits, newBits int64) (num, den int64, err error) {
	if oldBits <= 0 || newBits <= 0 {
		return 0, 0, Errorf("recast_layout", CondCastFactor, "element widths %d and %d bits", oldBits, newBits)
	}
	g := gcd64(oldBits, newBits)
	return newBits / g, oldBits / g, nil
}

// UpcastComposed is CuTe's upcast<N> of Sw o off o L: the swizzle, the offset
// (divided by N) and the inner layout each upcast. The result stays a
// swizzled layout even when the swizzle becomes the identity, as in CuTe.
func UpcastComposed(c Composed, n int64) (Value, error) {
	const op = "upcast"
	sw, err := UpcastSwizzle(c.Outer, n)
	if err != nil {
		return nil, err
	}
	off, err := divideOffset(op, c.Offset, n)
	if err != nil {
		return nil, err
	}
	inner, err := Upcast(c.Inner, n)
	if err != nil {
		return nil, err
	}
	// No identity collapse: CuTe's cast offset is an unsigned constant, which
	// its composition(Swizzle<0,M,S>, Int<0>, L) shortcut does not match.
	return Composed{Outer: sw, Offset: off, Inner: inner}, nil
}

// DowncastComposed is CuTe's downcast<N> of Sw o off o L: the swizzle, the
// offset (times N) and the inner layout each downcast.
func DowncastComposed(c Composed, n int64) (Value, error) {
	const op = "downcast"
	sw, err := DowncastSwizzle(c.Outer, n)
	if err != nil {
		return nil, err
	}
	off, err := scaleLeaf(op, c.Offset, n)
	if err != nil {
		return nil, err
	}
	inner, err := Downcast(c.Inner, n)
	if err != nil {
		return nil, err
	}
	return Composed{Outer: sw, Offset: off, Inner: inner}, nil // no collapse, as in UpcastComposed
}

// RecastComposed is recast_layout of a swizzled layout, by the same rule as RecastLayout.
func RecastComposed(c Composed, oldBits, newBits int64) (Value, error) {
	return recast(Value(c), oldBits, newBits,
		func(v Value, n int64) (Value, error) { return UpcastComposed(v.(Composed), n) },
		func(v Value, n int64) (Value, error) { return DowncastComposed(v.(Composed), n) })
}

// RecastSwizzle is recast_layout of a swizzle, by the same rule as RecastLayout
// (CuTe's own else-branch refers to an undefined name and does not compile,
// so a ratio that is neither N nor 1/N is rejected).
func RecastSwizzle(s Swizzle, oldBits, newBits int64) (Swizzle, error) {
	num, den, err := castRatio(oldBits, newBits)
	if err != nil {
		return Swizzle{}, err
	}
	switch {
	case num == 1 && den == 1:
		return s, s.Validate("recast_layout")
	case num == 1:
		return DowncastSwizzle(s, den)
	case den == 1:
		return UpcastSwizzle(s, num)
	}
	return Swizzle{}, Errorf("recast_layout", CondPowerOfTwo, "the width ratio %d/%d is not a power of two or its inverse", num, den)
}

// divideOffset is CuTe's safe_div of a swizzle offset by n (static offsets must divide).
func divideOffset(op string, off IntTuple, n int64) (IntTuple, error) {
	switch {
	case off.IsUnknown():
		return off, nil
	case !off.IsLeaf() || off.IsBasis():
		return off, Errorf(op, CondUnknown, "offset %v is not an integer", off)
	case off.Value()%n != 0:
		return off, Errorf(op, "Static safe_div requires t % u == 0", "offset %d is not a multiple of %d", off.Value(), n)
	case off.IsStatic():
		return Int(off.Value() / n), nil
	}
	return Dyn(off.Value() / n), nil
}

// scaleLeaf is the integer leaf v times n, keeping its static mark; unknowns stay unknown.
func scaleLeaf(op string, v IntTuple, n int64) (IntTuple, error) {
	switch {
	case v.IsUnknown():
		return v, nil
	case !v.IsLeaf() || v.IsBasis():
		return v, Errorf(op, CondUnknown, "%v is not an integer", v)
	}
	p, ok := MulChecked(v.Value(), n)
	if !ok {
		return v, Errorf(op, CondOverflow, "%d * %d", v.Value(), n)
	}
	if v.IsStatic() {
		return Int(p), nil
	}
	return Dyn(p), nil
}

// hasStaticOne reports whether t holds a static 1 leaf anywhere (CuTe's has_int1).
func hasStaticOne(t IntTuple) bool {
	if t.IsTuple() {
		for _, e := range t.Elems() {
			if hasStaticOne(e) {
				return true
			}
		}
		return false
	}
	return t.IsStatic() && !t.IsBasis() && t.Value() == 1
}

// transformLeaves rebuilds l mode by mode: f maps each (shape, stride) leaf
// pair; the trees must be congruent.
func transformLeaves(op string, l Layout, f func(s, d IntTuple) (IntTuple, IntTuple, error)) (IntTuple, IntTuple, error) {
	var walk func(s, d IntTuple) (IntTuple, IntTuple, error)
	walk = func(s, d IntTuple) (IntTuple, IntTuple, error) {
		if s.IsTuple() != d.IsTuple() || (s.IsTuple() && s.Len() != d.Len()) {
			return s, d, Errorf(op, CondCongruent, "shape %v and stride %v", s, d)
		}
		if !s.IsTuple() {
			return f(s, d)
		}
		ss := make([]IntTuple, s.Len())
		ds := make([]IntTuple, s.Len())
		for i := range ss {
			var err error
			if ss[i], ds[i], err = walk(s.At(i), d.At(i)); err != nil {
				return s, d, err
			}
		}
		return Tup(ss...), Tup(ds...), nil
	}
	return walk(l.Shape, l.Stride)
}

// ceilDivPos is ceil(a/b) for a >= 0, b > 0, without overflow.
func ceilDivPos(a, b int64) int64 {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}
