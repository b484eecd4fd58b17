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
	return f(l, args[1])
}

func applyLogicalDivide(args []layout.Value) (layout.Value, error) {
	return tiledOp("logical_divide", args, layout.LogicalDivide, applyLogicalDivide)
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
		if t, ok := args[1].(layout.Composed); ok {
			if a, ok := layout.AsLayout(args[0]); ok {
				return layout.LogicalProductSwizzled(a, t)
			}
		}
	}
	return tiledOp("logical_product", args, layout.LogicalProduct, applyLogicalProduct)
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
	return f(a, b)
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
	return layout.TileToShape(b, s, order)
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
	return layout.Zip(ls...)
}

// The partitions answer a layout.Partition: the sliced layout and its
// offset; of a swizzled layout, layout.PartitionComposed's.

func applyInnerPartition(args []layout.Value) (layout.Value, error) {
	return coordPartition("inner_partition", args, 3, layout.InnerPartition)
}

func applyOuterPartition(args []layout.Value) (layout.Value, error) {
	return coordPartition("outer_partition", args, 3, layout.OuterPartition)
}

func applyLocalTile(args []layout.Value) (layout.Value, error) {
	return coordPartition("local_tile", args, 4, layout.LocalTile)
}

// coordPartition is op(L, T, c [, proj]) (at most most arguments).
func coordPartition(name string, args []layout.Value, most int, f func(layout.Layout, layout.Value, layout.IntTuple) (layout.Partition, error)) (layout.Value, error) {
	if len(args) > 0 {
		if c, ok := args[0].(layout.Composed); ok {
			return layout.PartitionComposed(name, c, args[1:]...)
		}
	}
	if err := wantArgs(name, args, 3, most); err != nil {
		return nil, err
	}
	l, err := layoutArg(name, args, 0)
	if err != nil {
		return nil, err
	}
	c, ok := args[2].(layout.IntTuple)
	if !ok {
		return nil, layout.Errorf(name, "", "the coordinate %v is not an IntTuple", args[2])
	}
	if len(args) == 4 {
		proj, ok := args[3].(layout.IntTuple)
		if !ok {
			return nil, layout.Errorf(name, "", "the projection %v is not an IntTuple", args[3])
		}
		return layout.LocalTileProj(l, args[1], c, proj)
	}
	return f(l, args[1], c)
}

func applyLocalPartition(args []layout.Value) (layout.Value, error) {
	const name = "local_partition"
	if len(args) > 0 {
		if c, ok := args[0].(layout.Composed); ok {
			return layout.PartitionComposed(name, c, args[1:]...)
		}
	}
	if err := wantArgs(name, args, 3, 4); err != nil {
		return nil, err
	}
	l, err := layoutArg(name, args, 0)
	if err != nil {
		return nil, err
	}
	tile, err := layoutArg(name, args, 1)
	if err != nil {
		return nil, err
	}
	i, ok := intArg(args[2])
	if !ok {
		return nil, layout.Errorf(name, layout.CondUnknown, "the index %v must be an integer", args[2])
	}
	if len(args) == 4 {
		proj, ok := args[3].(layout.IntTuple)
		if !ok {
			return nil, layout.Errorf(name, "", "the projection %v is not an IntTuple", args[3])
		}
		return layout.LocalPartitionProj(l, tile, i, proj)
	}
	return layout.LocalPartition(l, tile, i)
}
