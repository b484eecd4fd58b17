package layout

// Swizzled layouts: CuTe's ComposedLayout<Swizzle<B,M,S>, Offset, Layout>,
// the function i -> Sw(Offset + L(i)). CuTe treats the inner layout L as the
// domain: shape, size, rank, depth, cosize, the divides and products, and
// slicing all act on L and keep Sw and Offset around it.

// Conditions of CuTe's composed-layout static_asserts, with CuTe's text.
const (
	CondComposedOffset  = "Require offset == 0."
	CondComposedNesting = "swizzled layouts nest at most two deep here"
	CondComposedOperand = "operand kind not supported for a swizzled layout"
)

// LayoutAfterSwizzle is L o Offset o Sw, the function i -> L(Offset + Sw(i)):
// what CuTe's inverses of a swizzled layout with a non-zero offset return
// (ComposedLayout<Layout, Offset, Swizzle>). CuTe defines little else on it.
type LayoutAfterSwizzle struct {
	Outer  Layout
	Offset IntTuple
	Inner  Swizzle
}

func (l LayoutAfterSwizzle) String() string { return l.Format(false) }

// Format prints l as CuTe does: (_2,_4):(_1,_2) o _-8 o Sw<3,4,-5>.
func (l LayoutAfterSwizzle) Format(static bool) string {
	return l.Outer.Format(static) + " o " + l.Offset.Format(static) + " o " + l.Inner.String()
}

// Eval is L(Offset + Sw(i)).
// Law: for C = Sw o off o L and its left inverse R = inverse(L) o -off o Sw,
// R.Eval(C.Eval(i)) == i where L's left inverse inverts L.
func (l LayoutAfterSwizzle) Eval(i int64) (int64, error) {
	const op = "composed layout"
	if err := l.Inner.Validate(op); err != nil {
		return 0, err
	}
	off, err := offsetValue(op, l.Offset)
	if err != nil {
		return 0, err
	}
	x, err := addOffset(op, off, l.Inner.apply(i))
	if err != nil {
		return 0, err
	}
	return l.Outer.Eval(x)
}

// NegateOffset is CuTe's right_inverse/left_inverse of an integer offset:
// -t, the offset of an inverse of a swizzled layout.
func NegateOffset(op string, t IntTuple) (IntTuple, error) {
	v, err := offsetValue(op, t)
	if err != nil {
		return t, err
	}
	if v == -1<<63 {
		return t, Errorf(op, CondOverflow, "-(%d)", v)
	}
	return intLeaf(-v, t.IsStatic()), nil
}

// NestedComposed is Sw o Offset o (Sw' o Offset' o L): what CuTe's
// composition of two swizzled layouts returns when the right one's swizzle,
// moved across the left one's inner layout, is not the identity
// (ComposedLayout<Swizzle, Offset, ComposedLayout<...>>).
type NestedComposed struct {
	Outer  Swizzle
	Offset IntTuple
	Inner  Composed
}

func (n NestedComposed) String() string { return n.Format(false) }

// Format prints n as CuTe does: Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8).
func (n NestedComposed) Format(static bool) string {
	return n.Outer.String() + " o " + n.Offset.Format(static) + " o " + n.Inner.Format(static)
}

// ComposeSwizzle is CuTe's composition(Sw, offset, inner): the swizzled
// layout Sw o offset o inner, nested when inner is itself swizzled, except
// that an identity swizzle (B == 0) with a static zero offset over a plain
// layout is that layout itself (CuTe's "ignore identity case"). The
// operations CuTe applies to a swizzled layout's inner layout put the
// swizzle back around their result with it.
func ComposeSwizzle(op string, sw Swizzle, off IntTuple, inner Value) (Value, error) {
	if err := sw.Validate(op); err != nil {
		return nil, err
	}
	switch in := inner.(type) {
	case *Layout:
		if sw.B == 0 && off.IsStatic() && !off.IsBasis() && off.Value() == 0 {
			return in, nil
		}
		return Composed{Outer: sw, Offset: off, Inner: *in}, nil
	case IntTuple:
		if in.IsLeaf() {
			return ComposeSwizzle(op, sw, off, Box(Make(in, Int(1))))
		}
	case Composed:
		return NestedComposed{Outer: sw, Offset: off, Inner: in}, nil
	case NestedComposed:
		return nil, Errorf(op, CondComposedNesting, "%v o %v o %v", sw, off, in)
	}
	return nil, Errorf(op, CondComposedOperand, "%v o %v o %v", sw, off, inner)
}

// ComposeSwizzleLayout is CuTe's composition(Swizzle, L): the swizzled layout
// Sw o 0 o L, or L itself when Sw is the identity (B == 0).
// Law: its Eval(i) == Sw(L(i)).
func ComposeSwizzleLayout(sw Swizzle, l Layout) (Value, error) {
	return ComposeSwizzle("composition", sw, Int(0), Box(l))
}

// ComposeLayoutSwizzle is CuTe's composition(A, Swizzle): CuTe moves the
// swizzle to the left of A, as the swizzle whose Y and Z masks are A's images
// of Sw's masks (make_swizzle<A(Y), A(Z)>), giving Sw' o 0 o A. This equals
// A o Sw only where A maps bits to bits (CuTe: "works in simple cases");
// make_swizzle rejects the cases where A's images are no swizzle masks.
func ComposeLayoutSwizzle(op string, a Layout, sw Swizzle) (Value, error) {
	if err := sw.Validate(op); err != nil {
		return nil, err
	}
	y, err := a.Eval(sw.YMask())
	if err != nil {
		return nil, err
	}
	z, err := a.Eval(sw.ZMask())
	if err != nil {
		return nil, err
	}
	moved, err := makeSwizzle(op, y, z)
	if err != nil {
		return nil, err
	}
	return ComposeSwizzle(op, moved, Int(0), Box(a))
}

// MakeSwizzleLayout is CuTe's make_layout(Swizzle<B,M,S>): Sw o 0 o (M+B+|S|):1.
// CuTe uses the bit count M+B+|S| itself as the domain size (not 2^(M+B+|S|));
// we reproduce that. An identity swizzle gives the plain layout (M+|S|):1.
func MakeSwizzleLayout(sw Swizzle) (Value, error) {
	const op = "make_layout"
	if err := sw.Validate(op); err != nil {
		return nil, err
	}
	return ComposeSwizzle(op, sw, Int(0), Box(Make(Int(int64(sw.Bits())), Int(1))))
}

// Eval is the swizzled layout as a function of a 1-D index (colexicographic
// over the inner shape, CuTe's layout(i)): Sw(Offset + Inner(i)).
// Law: c.Eval(i) == c.Outer.Apply(off + c.Inner(i)).
func (c Composed) Eval(i int64) (int64, error) {
	x, err := c.Inner.Eval(i)
	return swizzled(c.Outer, c.Offset, x, err)
}

// Eval of a nested swizzled layout: Sw(Offset + Inner.Eval(i)).
func (n NestedComposed) Eval(i int64) (int64, error) {
	x, err := n.Inner.Eval(i)
	return swizzled(n.Outer, n.Offset, x, err)
}

// Size is the number of indices of the swizzled layout: its inner layout's size.
func (c Composed) Size() (int64, error) { return c.Inner.Size() }

// Cosize is CuTe's cosize of a swizzled layout: its inner layout's cosize
// (the swizzle is not consulted, as in CuTe).
func (c Composed) Cosize() (int64, error) { return c.Inner.Cosize() }

// Size of a nested swizzled layout: its innermost layout's size.
func (n NestedComposed) Size() (int64, error) { return n.Inner.Size() }

// Cosize of a nested swizzled layout: its innermost layout's cosize.
func (n NestedComposed) Cosize() (int64, error) { return n.Inner.Cosize() }

// swizzled is sw(offset + x), x being the inner function's value or
// failure; a bad swizzle or offset is reported before the inner failure.
func swizzled(sw Swizzle, offset IntTuple, x int64, innerErr error) (int64, error) {
	const op = "composed layout"
	if err := sw.Validate(op); err != nil {
		return 0, err
	}
	off, err := offsetValue(op, offset)
	if err == nil {
		err = innerErr
	}
	if err == nil {
		x, err = addOffset(op, off, x)
	}
	if err != nil {
		return 0, err
	}
	return sw.apply(x), nil
}

// offsetValue is the integer a swizzle offset holds.
func offsetValue(op string, off IntTuple) (int64, error) {
	if !off.IsLeaf() || off.IsUnknown() || off.IsBasis() {
		return 0, Errorf(op, CondUnknown, "offset %v is not a known integer", off)
	}
	return off.Value(), nil
}

// IsStaticZero reports whether t is the static integer 0.
func IsStaticZero(t IntTuple) bool {
	return t.IsStatic() && !t.IsBasis() && t.Value() == 0
}

// AsLayout reads a layout operand: a Layout, or an integer N meaning N:1.
func AsLayout(v Value) (Layout, bool) {
	switch v := v.(type) {
	case *Layout:
		return *v, true
	case IntTuple:
		if v.IsLeaf() {
			return Make(v, Int(1)), true
		}
	}
	return Layout{}, false
}

// addOffset is off + x, checked.
func addOffset(op string, off, x int64) (int64, error) {
	s, ok := AddChecked(off, x)
	if !ok {
		return 0, Errorf(op, CondOverflow, "offset %d + %d", off, x)
	}
	return s, nil
}

// Condition of CuTe's logical_product with a swizzled tiler.
const CondSwizzleTilerOffset = "Require Swizzle offset == 0."

// LogicalProductSwizzled is CuTe's logical_product(A, Sw o 0 o T): the
// product A x T, with the swizzle carried over to the product's strides.
// CuTe finds the bits of T's codomain that Sw actually reads and writes
// (T composed with the projection of Sw's Y and Z bits, at T's last index),
// sends them through T and the product's second mode, and builds the new
// swizzle from those images (make_swizzle), giving Sw' o 0 o (A x T).
// Law: for a tiler T = n:1 (n whole swizzle blocks) and A compact of
// power-of-two size, the result R is the
// product with the swizzle applied to the tile index: R(a, j) == P(a, Sw(j))
// with P = A x T; e.g. logical_product(2:1, Sw<1,0,1> o 0 o 4:1) =
// Sw<1,1,1> o 0 o (2,4):(1,2). For other tilers CuTe's construction (which
// this follows step by step) need not be that function.
func LogicalProductSwizzled(a Layout, tiler Composed) (Value, error) {
	const op = "logical_product"
	sw := tiler.Outer
	if err := sw.Validate(op); err != nil {
		return nil, err
	}
	if !IsStaticZero(tiler.Offset) {
		return nil, Errorf(op, CondSwizzleTilerOffset, "the swizzled tiler %v has offset %v", tiler, tiler.Offset)
	}
	product, err := LogicalProduct(&a, Box(tiler.Inner))
	if err != nil {
		return nil, err
	}
	// The projection onto Sw's Z and Y bits: (2^M, 2^B, 2^(|S|-B), 2^B, 1):(0, 2^M, 0, 2^(M+|S|), 0).
	m, b, s := int64(1)<<sw.M, int64(1)<<sw.B, absInt(sw.S)
	onlyZY := Make(
		Tup(Int(m), Int(b), Int(int64(1)<<(s-sw.B)), Int(b), Int(1)),
		Tup(Int(0), Int(m), Int(0), Int(int64(1)<<(sw.M+s)), Int(0)))
	pl, err := Composition(&onlyZY, &tiler.Inner)
	if err != nil {
		return nil, err
	}
	n, err := pl.Size()
	if err != nil {
		return nil, err
	}
	active, err := pl.Eval(n - 1)
	if err != nil {
		return nil, err
	}
	through := func(bits int64) (int64, error) {
		t, err := tiler.Inner.Eval(bits)
		if err != nil {
			return 0, err
		}
		v, err := product.EvalCoord(Tup(Int(0), Int(t)))
		if err != nil {
			return 0, err
		}
		x, ok := intArg(v)
		if !ok {
			return 0, Errorf(op, CondUnknown, "%v at (0,%d) is %v", product, t, v)
		}
		return x, nil
	}
	newZ, err := through(active & sw.ZMask())
	if err != nil {
		return nil, err
	}
	newY, err := through(active & sw.YMask())
	if err != nil {
		return nil, err
	}
	moved, err := makeSwizzle(op, newY, newZ)
	if err != nil {
		return nil, err
	}
	return ComposeSwizzle(op, moved, Int(0), product)
}
