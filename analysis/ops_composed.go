package analysis

import "github.com/cute-lsp/cute-lsp/layout"

// The swizzle operations (swizzle, upcast, downcast, recast_layout), and
// CuTe's rules for the other operations on a swizzled layout Sw o off o L:
// the queries read L alone (fromInner), most constructions apply to L and
// keep Sw o off around the result (onInner).

// applyFunc is an operation's adapter: it reads its arguments, resolving
// CuTe's overloads on their kinds, and calls the algebra.
type applyFunc func(args []layout.Value) (layout.Value, error)

// fromInner answers op of a swizzled layout (its first argument) as op of
// its inner layout with the same other arguments, which is how CuTe answers
// size, cosize, rank, depth, shape and complement; handled is false when the
// first argument is not swizzled.
func fromInner(op string, args []layout.Value, f applyFunc) (v layout.Value, handled bool, err error) {
	if len(args) == 0 {
		return nil, false, nil
	}
	switch c := args[0].(type) {
	case layout.Composed:
		if err := c.Outer.Validate(op); err != nil {
			return nil, true, err
		}
		v, err := f(withFirst(layout.Box(c.Inner), args))
		return v, true, err
	case layout.NestedComposed:
		v, err := f(withFirst(c.Inner, args))
		return v, true, err
	}
	return nil, false, nil
}

// onInner is op of a swizzled layout c (its first argument) as CuTe makes
// it for the divides, the products, tile_to_shape, coalesce, flatten, group,
// take, layout<I...>, zip and tile_unzip: op of the inner layout, with the
// swizzle and offset put back around the result.
func onInner(op string, c layout.Composed, args []layout.Value, f applyFunc) (layout.Value, error) {
	if err := c.Outer.Validate(op); err != nil {
		return nil, err
	}
	inner, err := f(withFirst(layout.Box(c.Inner), args))
	if err != nil {
		return nil, err
	}
	return layout.ComposeSwizzle(op, c.Outer, c.Offset, inner)
}

// withFirst is args with its first argument replaced by v (a swizzled
// layout's inner one); the caller's arguments stay as they were.
func withFirst(v layout.Value, args []layout.Value) []layout.Value {
	out := make([]layout.Value, len(args))
	copy(out, args)
	out[0] = v
	return out
}

func applySwizzle(args []layout.Value) (layout.Value, error) {
	if len(args) != 2 {
		return nil, arityError("swizzle", "swizzle(Sw, x)", args)
	}
	sw, ok := args[0].(layout.Swizzle)
	x, okx := args[1].(layout.IntTuple)
	if !ok || !okx || !x.IsLeaf() || x.IsUnknown() || x.IsBasis() {
		return nil, layout.Errorf("swizzle", layout.CondComposedOperand, "swizzle(%v, %v) needs a Swizzle and an integer", args[0], args[1])
	}
	y, err := sw.Apply(x.Value())
	if err != nil {
		return nil, err
	}
	return layout.Dyn(y), nil
}

func applyUpcast(args []layout.Value) (layout.Value, error) {
	return castOp("upcast", args, layout.Upcast, layout.UpcastComposed, layout.UpcastSwizzle, layout.UpcastInteger)
}

func applyDowncast(args []layout.Value) (layout.Value, error) {
	return castOp("downcast", args, layout.Downcast, layout.DowncastComposed, layout.DowncastSwizzle, layout.DowncastInteger)
}

func applyRecastLayout(args []layout.Value) (layout.Value, error) {
	const op = "recast_layout"
	if len(args) != 3 {
		return nil, arityError(op, "recast_layout(L, old_bits, new_bits)", args)
	}
	oldBits, ok1 := intArg(args[1])
	newBits, ok2 := intArg(args[2])
	if !ok1 || !ok2 {
		return nil, layout.Errorf(op, layout.CondUnknown, "element widths %v and %v must be integers", args[1], args[2])
	}
	switch l := args[0].(type) {
	case layout.Composed:
		return layout.RecastComposed(l, oldBits, newBits)
	case layout.Swizzle:
		return layout.RecastSwizzle(l, oldBits, newBits)
	case *layout.Layout:
		return layout.Boxed(layout.RecastLayout(*l, oldBits, newBits))
	}
	return nil, layout.Errorf(op, layout.CondComposedOperand, "recast_layout of %v: CuTe recasts a layout, a swizzled layout or a swizzle", args[0])
}

// composedSliceArgs reads (c, S) for slicing a swizzled layout S; false
// when the arguments are not of those kinds.
func composedSliceArgs(args []layout.Value) (layout.IntTuple, layout.Composed, bool) {
	if len(args) != 2 {
		return layout.IntTuple{}, layout.Composed{}, false
	}
	c, ok := args[1].(layout.Composed)
	coord, okc := args[0].(layout.IntTuple)
	return coord, c, ok && okc
}

// castOp is upcast or downcast (op) of a layout, a swizzled layout, a
// swizzle or an integer offset.
func castOp(op string, args []layout.Value,
	plain func(layout.Layout, int64) (layout.Layout, error),
	composed func(layout.Composed, int64) (layout.Value, error),
	swizzle func(layout.Swizzle, int64) (layout.Swizzle, error),
	integer func(layout.IntTuple, int64) (layout.IntTuple, error),
) (layout.Value, error) {
	if len(args) != 2 {
		return nil, arityError(op, op+"(L, N)", args)
	}
	n, ok := intArg(args[1])
	if _, first := intArg(args[0]); !ok && first {
		// upcast(2, L): the factor came first.
		return nil, layout.AtArg(1, layout.KindErrorf(op, "the arguments are in the wrong order: the value to cast comes first and the factor N second, %s(L, %v) or %s<%v>(L)", op, args[0], op, args[0]))
	}
	if !ok {
		if t, isTuple := args[1].(layout.IntTuple); isTuple && t.IsUnknown() {
			return nil, layout.AtArg(2, layout.Errorf(op, layout.CondUnknown, "the factor N is ? : it must be an integer"))
		}
		return nil, layout.AtArg(2, layout.KindErrorf(op, "the factor N must be an integer, got %v (%s)", args[1], layout.KindName(args[1])))
	}
	switch l := args[0].(type) {
	case layout.Composed:
		return composed(l, n)
	case layout.Swizzle:
		return swizzle(l, n)
	case *layout.Layout:
		return layout.Boxed(plain(*l, n))
	case layout.IntTuple:
		if l.IsLeaf() {
			return integer(l, n)
		}
	}
	return nil, layout.AtArg(1, layout.Errorf(op, layout.CondComposedOperand, "%s of %v: CuTe casts a layout, a swizzled layout, a swizzle or an integer", op, args[0]))
}

// intArg reads a known integer argument (a template parameter).
func intArg(v layout.Value) (int64, bool) {
	t, ok := v.(layout.IntTuple)
	if !ok || !t.IsLeaf() || t.IsUnknown() || t.IsBasis() {
		return 0, false
	}
	return t.Value(), true
}

func arityError(op, signature string, args []layout.Value) error {
	return layout.Errorf(op, "wrong number of arguments", "%s takes the arguments of %s, got %d", op, signature, len(args))
}
