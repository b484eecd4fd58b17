package analysis

import (
	"github.com/cute-lsp/cute-lsp/analysis/prop"
	"github.com/cute-lsp/cute-lsp/layout"
)

// get<I...>, slice_and_offset and the properties the analyzer computes
// (is_injective, ... image).

// property is a predicate of a layout (an integer N: N:1) or a swizzled layout.
func property(op string, args []layout.Value, f func(layout.Value) (bool, error)) (layout.Value, error) {
	if err := argCount(op, args, 1, 1); err != nil {
		return nil, err
	}
	ok, err := f(propertyArg(args[0]))
	return layout.Bool(ok), err
}

func applyIsInjective(args []layout.Value) (layout.Value, error) {
	return property("is_injective", args, prop.IsInjective)
}

func applyIsSurjective(args []layout.Value) (layout.Value, error) {
	return property("is_surjective", args, prop.IsSurjective)
}

func applyIsBijective(args []layout.Value) (layout.Value, error) {
	return property("is_bijective", args, prop.IsBijective)
}

func applyIsCompact(args []layout.Value) (layout.Value, error) {
	return property("is_compact", args, prop.IsCompact)
}

func applyImage(args []layout.Value) (layout.Value, error) {
	if err := argCount("image", args, 1, 1); err != nil {
		return nil, err
	}
	iv, err := prop.Image(propertyArg(args[0]))
	return layout.Intervals(iv), err
}

// propertyArg reads an integer N as the layout N:1, as CuTe's operations do.
func propertyArg(v layout.Value) layout.Value {
	if t, ok := v.(layout.IntTuple); ok && layout.IsPlainInt(t) {
		return &layout.Layout{Shape: t, Stride: layout.Int(1)}
	}
	return v
}

func applyGet(args []layout.Value) (layout.Value, error) {
	if err := argCount("get", args, 2, -1); err != nil {
		return nil, err
	}
	if t, ok := args[0].(layout.IntTuple); ok {
		var buf [maxIndices]int
		is, err := coreIndexArgs("get", args[1:], &buf)
		if err != nil {
			return nil, err
		}
		return layout.GetMode("get", t, is)
	}
	var buf [maxIndices]int
	l, is, err := layoutAndIndices("get", args, 1, -2, &buf)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(l.Get(is...))
}

func applySliceAndOffset(args []layout.Value) (layout.Value, error) {
	if coord, c, ok := composedSliceArgs(args); ok {
		v, off, err := layout.SliceAndOffsetComposed(coord, c)
		if err != nil {
			return nil, err
		}
		return layout.ComposedPartition{Layout: v, Offset: off}, nil
	}
	c, l, err := sliceArgs("slice_and_offset", args)
	if err != nil {
		return nil, err
	}
	s, off, err := layout.SliceAndOffset(c, l)
	if err != nil {
		return nil, err
	}
	return layout.Partition{Layout: s, Offset: off}, nil
}
