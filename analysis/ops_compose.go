package analysis

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// composition, complement, the inverses, max_common_* and nullspace, with
// CuTe's overloads resolved on the kinds of the arguments: a swizzle or a
// swizzled layout on either side, an integer N as the layout N:1, a tiler
// applied by mode.

func applyComposition(args []layout.Value) (layout.Value, error) {
	if err := wantArgs("composition", args, 2, 2); err != nil {
		return nil, err
	}
	if a, ok := args[0].(*layout.Layout); ok { // two layouts, the common call, without the overloads' tests
		if b, ok := args[1].(*layout.Layout); ok {
			return result(layout.Composition(a, b))
		}
	}
	return composition(args[0], args[1])
}

// composition is CuTe's composition(A, B) on the kinds of A and B.
// (Sw o off o L) o B = Sw o off o (L o B); A o (Sw o 0 o L) = (A o Sw) o L,
// with A o Sw as layout.ComposeLayoutSwizzle moves the swizzle to A's left
// (CuTe requires the right-hand offset to be 0); Sw o L and Sw1 o Sw2 as
// layout.ComposeSwizzleLayout and layout.ComposeSwizzles; A o B of plain
// layouts, tilers and integers as compositionOf.
func composition(a, b layout.Value) (layout.Value, error) {
	const op = "composition"
	switch a := a.(type) {
	case layout.Swizzle:
		switch b := b.(type) {
		case layout.Swizzle:
			return layout.ComposeSwizzles(a, b)
		case *layout.Layout:
			return layout.ComposeSwizzleLayout(a, *b)
		case layout.IntTuple:
			if b.IsLeaf() {
				return layout.ComposeSwizzleLayout(a, layout.Make(b, layout.Int(1)))
			}
		}
		return nil, layout.Errorf(op, layout.CondComposedOperand, "composition(%v, %v)", a, b)
	case layout.Composed:
		if err := a.Outer.Validate(op); err != nil {
			return nil, err
		}
		inner, err := composition(layout.Box(a.Inner), b)
		if err != nil {
			return nil, err
		}
		return layout.ComposeSwizzle(op, a.Outer, a.Offset, inner)
	case layout.NestedComposed:
		if err := a.Outer.Validate(op); err != nil {
			return nil, err
		}
		inner, err := composition(a.Inner, b)
		if err != nil {
			return nil, err
		}
		return layout.ComposeSwizzle(op, a.Outer, a.Offset, inner)
	}
	switch b := b.(type) {
	case layout.Swizzle:
		al, ok := layout.AsLayout(a)
		if !ok {
			return nil, layout.Errorf(op, layout.CondComposedOperand, "composition(%v, %v)", a, b)
		}
		return layout.ComposeLayoutSwizzle(op, al, b)
	case layout.Composed:
		al, ok := layout.AsLayout(a)
		if !ok {
			return nil, layout.Errorf(op, layout.CondComposedOperand, "composition(%v, %v)", a, b)
		}
		if err := b.Outer.Validate(op); err != nil {
			return nil, err
		}
		if !layout.IsStaticZero(b.Offset) {
			return nil, layout.Errorf(op, layout.CondComposedOffset, "composition(%v, %v): the swizzled layout's offset is %v", a, b, b.Offset)
		}
		left, err := layout.ComposeLayoutSwizzle(op, al, b.Outer)
		if err != nil {
			return nil, err
		}
		return composition(left, layout.Box(b.Inner))
	case layout.NestedComposed:
		return nil, layout.Errorf(op, layout.CondComposedNesting, "composition(%v, %v)", a, b)
	}
	return compositionOf(a, b)
}

// compositionOf is composition(A, B) of a plain layout A with a layout, a
// tiler (by mode), "_" (A itself), an integer N (N:1) or a tuple read as a
// tiler (each integer N:1, each sub-tuple a nested tiler).
func compositionOf(a, b layout.Value) (layout.Value, error) {
	if a, ok := a.(*layout.Layout); ok {
		switch bl := b.(type) {
		case *layout.Layout:
			return result(layout.Composition(a, bl))
		case layout.Tiler:
			return layout.Boxed(layout.CompositionTiler(*a, bl))
		case layout.IntTuple:
			if bl.IsUnderscore() {
				return a, nil // composition(A, _) is A
			}
			if bl.IsLeaf() {
				if err := layout.CheckIntLeaf("composition", bl); err != nil {
					return nil, err
				}
				// N:1 with N's own static mark (as composition(A, N) reads a static N).
				out, err := layout.Composition(a, &layout.Layout{Shape: bl, Stride: layout.Int(1)})
				if err != nil {
					return nil, err
				}
				return out.Value(), nil // boxed: out may be that N:1, which then stays on the stack
			}
			t, err := tilerOfTuple(bl)
			if err != nil {
				return nil, err
			}
			return layout.Boxed(layout.CompositionTiler(*a, t))
		}
	}
	return nil, &layout.Error{Op: "composition", Detail: fmt.Sprintf(
		"composition takes a layout (or swizzle, or swizzled layout) and a layout, tiler or integer, not %s and %s",
		layout.Described(a), layout.Described(b))}
}

// tilerOfTuple reads an IntTuple as CuTe reads a tuple used as a tiler:
// each integer N is the layout N:1, each sub-tuple a nested tiler.
func tilerOfTuple(t layout.IntTuple) (layout.Tiler, error) {
	modes := make([]layout.TilerMode, t.Len())
	for i, e := range t.Elems() {
		if e.IsUnderscore() {
			modes[i] = layout.TilerMode{Skip: true}
			continue
		}
		if e.IsTuple() {
			sub, err := tilerOfTuple(e)
			if err != nil {
				return layout.Tiler{}, err
			}
			modes[i] = layout.TilerMode{Sub: &sub}
			continue
		}
		if err := layout.CheckIntLeaf("composition", e); err != nil {
			return layout.Tiler{}, err
		}
		modes[i] = layout.TilerMode{Layout: layout.Layout{Shape: e, Stride: layout.Int(1)}}
	}
	return layout.Tiler{Modes: modes}, nil
}

func applyComplement(args []layout.Value) (layout.Value, error) {
	if a := args0Layout(args); a != nil { // complement(L [, M]) of a layout, the common call
		switch len(args) {
		case 1:
			return result(layout.Complement(a))
		case 2:
			if m, ok := args[1].(layout.IntTuple); ok {
				return result(layout.ComplementTo(a, m))
			}
		}
	}
	if v, ok, err := fromInner("complement", args, applyComplement); ok {
		return v, err
	}
	if err := wantArgs("complement", args, 1, 2); err != nil {
		return nil, err
	}
	a, err := layoutArg("complement", args, 0)
	if err != nil {
		return nil, err
	}
	if len(args) == 1 {
		return result(layout.Complement(&a))
	}
	m, ok := args[1].(layout.IntTuple)
	if !ok {
		return nil, &layout.Error{Op: "complement", Detail: "the cotarget must be an integer or a shape, not " + layout.Described(args[1])}
	}
	return result(layout.ComplementTo(&a, m))
}

func applyRightInverse(args []layout.Value) (layout.Value, error) {
	if a := args0Layout(args); a != nil && len(args) == 1 { // of a layout, the common call
		return result(layout.RightInverse(a))
	}
	return applyInverse("right_inverse", args)
}

func applyLeftInverse(args []layout.Value) (layout.Value, error) {
	return applyInverse("left_inverse", args)
}

// applyInverse is right_inverse or left_inverse (op) of a layout, an
// integer N (N:1), a swizzle (its own inverse) or a swizzled layout
// Sw o off o L. With a non-zero offset CuTe inverts the parts and keeps
// them apart, inverse(L) o -off o Sw (a layout.LayoutAfterSwizzle). With
// offset 0 it is inverse(L) o Sw, which CuTe rewrites as
// layout.ComposeLayoutSwizzle does, so CuTe rejects it where L's inverse
// does not carry Sw's masks to masks (often: make_swizzle's static_asserts).
// Law: for compact L whose size is whole swizzle blocks and whose inverse
// maps bits to bits in order, the result R is an inverse (C(R(i)) == i for
// right_inverse, R(C(i)) == i for left_inverse). Elsewhere CuTe's answer,
// reproduced here, need not be one.
func applyInverse(op string, args []layout.Value) (layout.Value, error) {
	if err := wantArgs(op, args, 1, 1); err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case *layout.Layout:
		out, err := inverse(op, *v)
		return out.Value(), err
	case layout.IntTuple:
		if v.IsLeaf() {
			if err := layout.CheckIntLeaf(op, v); err != nil {
				return nil, err
			}
			out, err := inverse(op, layout.Layout{Shape: v, Stride: layout.Int(1)})
			return out.Value(), err
		}
	case layout.Swizzle:
		if err := v.Validate(op); err != nil {
			return nil, err
		}
		return v.Inverse(), nil
	case layout.Composed:
		if err := v.Outer.Validate(op); err != nil {
			return nil, err
		}
		inv, err := inverse(op, v.Inner)
		if err != nil {
			return nil, err
		}
		if !layout.IsStaticZero(v.Offset) {
			// CuTe inverts each part and keeps them apart: inverse(L) o -off o Sw.
			neg, err := layout.NegateOffset(op, v.Offset)
			if err != nil {
				return nil, err
			}
			return layout.LayoutAfterSwizzle{Outer: inv, Offset: neg, Inner: v.Outer}, nil
		}
		return layout.ComposeLayoutSwizzle(op, inv, v.Outer)
	case layout.NestedComposed:
		return nil, layout.Errorf(op, layout.CondComposedNesting, "%s(%v)", op, v)
	}
	return nil, &layout.Error{Op: op, Detail: op + " takes a layout, not " + layout.Described(args[0])}
}

func inverse(op string, l layout.Layout) (layout.Layout, error) {
	if op == "right_inverse" {
		return layout.Deref(layout.RightInverse(&l))
	}
	return layout.LeftInverse(l)
}

func applyMaxCommonLayout(args []layout.Value) (layout.Value, error) {
	const op = "max_common_layout"
	if len(args) == 2 {
		if v, ok, err := maxCommonLayoutComposed(args[0], args[1]); ok {
			return v, err
		}
	}
	a, b, err := layoutPair(op, args)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(layout.MaxCommonLayout(a, b))
}

// maxCommonLayoutComposed is CuTe's max_common_layout of a swizzled layout
// and a plain one (either order): the plain answer for the inner layout,
// truncated to 2^M elements. CuTe defines no form for two swizzled layouts.
// handled is false when neither is swizzled.
func maxCommonLayoutComposed(a, b layout.Value) (v layout.Value, handled bool, err error) {
	const op = "max_common_layout"
	c, ok := a.(layout.Composed)
	other := b
	if !ok {
		if c, ok = b.(layout.Composed); !ok {
			return nil, false, nil
		}
		other = a
	}
	if err := c.Outer.Validate(op); err != nil {
		return nil, true, err
	}
	l, ok := layout.AsLayout(other)
	if !ok {
		return nil, true, layout.Errorf(op, layout.CondComposedOperand, "max_common_layout(%v, %v)", a, b)
	}
	common, err := layout.MaxCommonLayout(c.Inner, l)
	if err != nil {
		return nil, true, err
	}
	size, err := common.Size()
	if err != nil {
		return nil, true, err
	}
	if base := int64(1) << c.Outer.M; base < size {
		v, err := layout.Composition(&common, &layout.Layout{Shape: layout.Int(base), Stride: layout.Int(1)}) // the first base values
		if err != nil {
			return nil, true, err
		}
		return v.Value(), true, nil
	}
	return layout.Box(common), true, nil
}

func applyMaxCommonVector(args []layout.Value) (layout.Value, error) {
	const op = "max_common_vector"
	if len(args) == 2 {
		if v, ok, err := maxCommonVectorComposed(args[0], args[1]); ok {
			return v, err
		}
	}
	a, b, err := layoutPair(op, args)
	if err != nil {
		return nil, err
	}
	n, err := layout.MaxCommonVector(a, b)
	if err != nil {
		return nil, err
	}
	return layout.Int(n), nil
}

// maxCommonVectorComposed is CuTe's max_common_vector with a swizzled
// layout on one or both sides: the plain answer for the inner layouts,
// capped at 2^M (the run a swizzle leaves whole) unless both sides carry
// the same swizzle. handled is false when neither is swizzled.
func maxCommonVectorComposed(a, b layout.Value) (v layout.Value, handled bool, err error) {
	const op = "max_common_vector"
	ca, aok := a.(layout.Composed)
	cb, bok := b.(layout.Composed)
	if !aok && !bok {
		return nil, false, nil
	}
	inner := func(v layout.Value) (layout.Layout, error) {
		switch v := v.(type) {
		case layout.Composed:
			return v.Inner, v.Outer.Validate(op)
		case *layout.Layout:
			return *v, nil
		}
		return layout.Layout{}, layout.Errorf(op, layout.CondComposedOperand, "max_common_vector(%v, %v)", a, b)
	}
	la, err := inner(a)
	if err != nil {
		return nil, true, err
	}
	lb, err := inner(b)
	if err != nil {
		return nil, true, err
	}
	n, err := layout.MaxCommonVector(la, lb)
	if err != nil {
		return nil, true, err
	}
	if aok && bok && ca.Outer == cb.Outer {
		return layout.Int(n), true, nil
	}
	if aok {
		n = min(n, int64(1)<<ca.Outer.M)
	}
	if bok {
		n = min(n, int64(1)<<cb.Outer.M)
	}
	return layout.Int(n), true, nil
}

func applyNullspace(args []layout.Value) (layout.Value, error) {
	if err := wantArgs("nullspace", args, 1, 1); err != nil {
		return nil, err
	}
	if _, ok := args[0].(layout.Composed); ok {
		// CuTe does not attempt a nullspace of a swizzled layout: it answers 1:0.
		return layout.Box(layout.Make(layout.Int(1), layout.Int(0))), nil
	}
	a, err := layoutArg("nullspace", args, 0)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(layout.Nullspace(a))
}

// args0Layout is the first argument when it is a layout (not a copy: a
// Layout passed on is copied again), or nil.
func args0Layout(args []layout.Value) *layout.Layout {
	if len(args) == 0 {
		return nil
	}
	l, _ := args[0].(*layout.Layout)
	return l
}

// wantArgs checks the argument count of op (inlined: every call asks it).
func wantArgs(op string, args []layout.Value, least, most int) error {
	if len(args) >= least && len(args) <= most {
		return nil
	}
	return argCountError(op, len(args), least, most)
}

func argCountError(op string, n, least, most int) error {
	want := fmt.Sprint(least)
	if most > least {
		want = fmt.Sprintf("%d to %d", least, most)
	}
	return layout.KindErrorf(op, "takes %s arguments, got %d", want, n)
}

// layoutArg is argument i of op as a layout; an integer N is the layout N:1.
func layoutArg(op string, args []layout.Value, i int) (layout.Layout, error) {
	switch v := args[i].(type) {
	case *layout.Layout:
		return *v, nil
	case layout.IntTuple:
		if v.IsLeaf() {
			if err := layout.CheckIntLeaf(op, v); err != nil {
				return layout.Layout{}, err
			}
			return layout.Layout{Shape: v, Stride: layout.Int(1)}, nil
		}
	}
	return layout.Layout{}, &layout.Error{Op: op, Detail: fmt.Sprintf("expected a layout, not %s", layout.Described(args[i])), Kind: true, Arg: i + 1}
}

func layoutPair(op string, args []layout.Value) (layout.Layout, layout.Layout, error) {
	if err := wantArgs(op, args, 2, 2); err != nil {
		return layout.Layout{}, layout.Layout{}, err
	}
	a, err := layoutArg(op, args, 0)
	if err != nil {
		return layout.Layout{}, layout.Layout{}, err
	}
	b, err := layoutArg(op, args, 1)
	if err != nil {
		return layout.Layout{}, layout.Layout{}, err
	}
	return a, b, nil
}
