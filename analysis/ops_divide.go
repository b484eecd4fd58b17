package analysis

import "github.com/cute-lsp/cute-lsp/layout"

// The divides, the products, tile_to_shape, zip, tile_unzip and the
// partitions: each reads a layout (an integer N: N:1) and a tiler, or
// applies to the inner layout of a swizzled one as CuTe does.

// tiledOp is op(L, T) = f(L, T) for a layout L, onInner for a swizzled L.
func tiledOp(op string, args []layout.Value, f func(layout.Layout, layout.Value) (layout.Layout, error), self applyFunc) (layout.Value, error) {
	if len(args) > 0 {
		if c, ok := args[0].(layout.Composed); ok {
			return onInner(op, c, args, self)
		}
	}
	if err := wantArgs(op, args, 2, 2); err != nil {
		return nil, err
	}
	l, err := layoutArg(op, args, 0)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(f(l, args[1]))
}

func applyLogicalDivide(args []layout.Value) (layout.Value, error) {
	if l := args0Layout(args); l != nil && len(args) == 2 { // of a layout, the common call
		return result(layout.LogicalDivide(l, args[1]))
	}
	return tiledOp("logical_divide", args, func(l layout.Layout, t layout.Value) (layout.Layout, error) {
		return layout.Deref(layout.LogicalDivide(&l, t))
	}, applyLogicalDivide)
}

func applyZippedDivide(args []layout.Value) (layout.Value, error) {
	return tiledOp("zipped_divide", args, layout.ZippedDivide, applyZippedDivide)
}

func applyTiledDivide(args []layout.Value) (layout.Value, error) {
	return tiledOp("tiled_divide", args, layout.TiledDivide, applyTiledDivide)
}

func applyFlatDivide(args []layout.Value) (layout.Value, error) {
	return tiledOp("flat_divide", args, layout.FlatDivide, applyFlatDivide)
}

// applyLogicalProduct is logical_product(A, T); a swizzled tiler
// Sw o 0 o T gives layout.LogicalProductSwizzled.
func applyLogicalProduct(args []layout.Value) (layout.Value, error) {
	if len(args) == 2 {
		switch t := args[1].(type) { // not t, ok := args[1].(layout.Composed): a failed assertion zeroes a Composed
		case layout.Composed:
			if a, ok := layout.AsLayout(args[0]); ok {
				return layout.LogicalProductSwizzled(a, t)
			}
		}
	}
	if l := args0Layout(args); l != nil && len(args) == 2 { // of a layout, the common call
		return result(layout.LogicalProduct(l, args[1]))
	}
	return tiledOp("logical_product", args, func(l layout.Layout, t layout.Value) (layout.Layout, error) {
		return layout.Deref(layout.LogicalProduct(&l, t))
	}, applyLogicalProduct)
}

func applyZippedProduct(args []layout.Value) (layout.Value, error) {
	return tiledOp("zipped_product", args, layout.ZippedProduct, applyZippedProduct)
}

func applyTiledProduct(args []layout.Value) (layout.Value, error) {
	return tiledOp("tiled_product", args, layout.TiledProduct, applyTiledProduct)
}

func applyFlatProduct(args []layout.Value) (layout.Value, error) {
	return tiledOp("flat_product", args, layout.FlatProduct, applyFlatProduct)
}

func applyTileUnzip(args []layout.Value) (layout.Value, error) {
	return tiledOp("tile_unzip", args, layout.TileUnzip, applyTileUnzip)
}

// rankedOp is op(A, B) = f(A, B) of two layouts, onInner for a swizzled A.
func rankedOp(op string, args []layout.Value, f func(a, b layout.Layout) (layout.Layout, error), self applyFunc) (layout.Value, error) {
	if len(args) > 0 {
		if c, ok := args[0].(layout.Composed); ok {
			return onInner(op, c, args, self)
		}
	}
	a, b, err := layoutPair(op, args)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(f(a, b))
}

func applyBlockedProduct(args []layout.Value) (layout.Value, error) {
	return rankedOp("blocked_product", args, layout.BlockedProduct, applyBlockedProduct)
}

func applyRakedProduct(args []layout.Value) (layout.Value, error) {
	return rankedOp("raked_product", args, layout.RakedProduct, applyRakedProduct)
}

func applyTileToShape(args []layout.Value) (layout.Value, error) {
	const name = "tile_to_shape"
	if len(args) > 0 {
		if c, ok := args[0].(layout.Composed); ok {
			return onInner(name, c, args, applyTileToShape)
		}
	}
	if err := wantArgs(name, args, 2, 3); err != nil {
		return nil, err
	}
	b, err := layoutArg(name, args, 0)
	if err != nil {
		return nil, err
	}
	s, ok := args[1].(layout.IntTuple)
	if !ok {
		return nil, layout.Errorf(name, "", "the target %v is not a shape", args[1])
	}
	var order layout.Value
	if len(args) == 3 {
		order = args[2]
	}
	return layout.Boxed(layout.TileToShape(b, s, order))
}

func applyZip(args []layout.Value) (layout.Value, error) {
	if len(args) > 0 {
		if c, ok := args[0].(layout.Composed); ok {
			return onInner("zip", c, args, applyZip)
		}
	}
	ls := make([]layout.Layout, len(args))
	for i := range args {
		l, err := layoutArg("zip", args, i)
		if err != nil {
			return nil, err
		}
		ls[i] = l
	}
	return layout.Boxed(layout.Zip(ls...))
}

// The partitions answer a layout.Partition, the sliced layout and its
// offset; of a swizzled layout, a layout.ComposedPartition. A swizzled
// layout's swizzle is checked before the other arguments are read.

func applyInnerPartition(args []layout.Value) (layout.Value, error) {
	return coordPartition("inner_partition", args, 3, layout.InnerPartition, layout.InnerPartitionComposed)
}

func applyOuterPartition(args []layout.Value) (layout.Value, error) {
	return coordPartition("outer_partition", args, 3, layout.OuterPartition, layout.OuterPartitionComposed)
}

func applyLocalTile(args []layout.Value) (layout.Value, error) {
	return coordPartition("local_tile", args, 4, layout.LocalTile, layout.LocalTileComposed)
}

// coordPartition is op(L, T, c [, proj]) (at most most arguments) of a
// layout (f) or a swizzled layout (fc).
func coordPartition(name string, args []layout.Value, most int,
	f func(layout.Layout, layout.Value, layout.IntTuple) (layout.Partition, error),
	fc func(layout.Composed, layout.Value, layout.IntTuple) (layout.ComposedPartition, error),
) (layout.Value, error) {
	c, composed := firstComposed(args)
	if composed {
		if err := c.Outer.Validate(name); err != nil {
			return nil, err
		}
	}
	if err := wantArgs(name, args, 3, most); err != nil {
		return nil, err
	}
	var l layout.Layout
	if !composed {
		var err error
		if l, err = layoutArg(name, args, 0); err != nil {
			return nil, err
		}
	}
	// The projection is read first for a swizzled layout, after the
	// coordinate for a plain one, as each form always has.
	proj, hasProj := layout.IntTuple{}, len(args) == 4
	if hasProj && composed {
		var ok bool
		if proj, ok = args[3].(layout.IntTuple); !ok {
			return nil, layout.Errorf(name, "", "the projection %v is not an IntTuple", args[3])
		}
	}
	coord, ok := args[2].(layout.IntTuple)
	if !ok {
		return nil, layout.Errorf(name, "", "the coordinate %v is not an IntTuple", args[2])
	}
	if hasProj && !composed {
		if proj, ok = args[3].(layout.IntTuple); !ok {
			return nil, layout.Errorf(name, "", "the projection %v is not an IntTuple", args[3])
		}
	}
	if hasProj {
		if composed {
			return layout.LocalTileProjComposed(c, args[1], coord, proj)
		}
		return layout.LocalTileProj(l, args[1], coord, proj)
	}
	if composed {
		return fc(c, args[1], coord)
	}
	return f(l, args[1], coord)
}

func applyLocalPartition(args []layout.Value) (layout.Value, error) {
	const name = "local_partition"
	c, composed := firstComposed(args)
	if composed {
		if err := c.Outer.Validate(name); err != nil {
			return nil, err
		}
	}
	if err := wantArgs(name, args, 3, 4); err != nil {
		return nil, err
	}
	var l layout.Layout
	if !composed {
		var err error
		if l, err = layoutArg(name, args, 0); err != nil {
			return nil, err
		}
	}
	// The projection is read first for a swizzled layout, last for a
	// plain one, as each form always has.
	proj, hasProj := layout.IntTuple{}, len(args) == 4
	if hasProj && composed {
		var ok bool
		if proj, ok = args[3].(layout.IntTuple); !ok {
			return nil, layout.Errorf(name, "", "the projection %v is not an IntTuple", args[3])
		}
	}
	tile, err := layoutArg(name, args, 1)
	if err != nil {
		return nil, err
	}
	i, ok := intArg(args[2])
	if !ok {
		return nil, layout.Errorf(name, layout.CondUnknown, "the index %v must be an integer", args[2])
	}
	if hasProj && !composed {
		if proj, ok = args[3].(layout.IntTuple); !ok {
			return nil, layout.Errorf(name, "", "the projection %v is not an IntTuple", args[3])
		}
	}
	switch {
	case composed && hasProj:
		return layout.LocalPartitionProjComposed(c, tile, i, proj)
	case composed:
		return layout.LocalPartitionComposed(c, tile, i)
	case hasProj:
		return layout.LocalPartitionProj(l, tile, i, proj)
	}
	return layout.LocalPartition(l, tile, i)
}
