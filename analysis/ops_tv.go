package analysis

import (
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// The sheet's names for CuTe's TiledMMA and TiledCopy (tiled/mma.go,
// tiled/copy.go). size(M) is the sizer of TiledMMA and TiledCopy; template
// parameters (tile_size<I>) come as a trailing integer.
// The adapters of the operations per operand (A, B, C of a TiledMMA; S, D of a TiledCopy).

func applyMakeTiledCopyA(args []layout.Value) (layout.Value, error) {
	return applyMakeTiledCopyMMA("A", args)
}
func applyMakeTiledCopyB(args []layout.Value) (layout.Value, error) {
	return applyMakeTiledCopyMMA("B", args)
}
func applyMakeTiledCopyC(args []layout.Value) (layout.Value, error) {
	return applyMakeTiledCopyMMA("C", args)
}
func applyGetLayoutATV(args []layout.Value) (layout.Value, error) { return applyMMALayoutTV("A", args) }
func applyGetLayoutBTV(args []layout.Value) (layout.Value, error) { return applyMMALayoutTV("B", args) }
func applyGetLayoutCTV(args []layout.Value) (layout.Value, error) { return applyMMALayoutTV("C", args) }
func applyPartitionA(args []layout.Value) (layout.Value, error)   { return applyMMAPartition("A", args) }
func applyPartitionB(args []layout.Value) (layout.Value, error)   { return applyMMAPartition("B", args) }
func applyPartitionC(args []layout.Value) (layout.Value, error)   { return applyMMAPartition("C", args) }
func applyGetLayoutSTV(args []layout.Value) (layout.Value, error) {
	return applyCopyLayoutTV("S", args)
}
func applyGetLayoutDTV(args []layout.Value) (layout.Value, error) {
	return applyCopyLayoutTV("D", args)
}
func applyPartitionS(args []layout.Value) (layout.Value, error) { return applyCopyPartition("S", args) }
func applyPartitionD(args []layout.Value) (layout.Value, error) { return applyCopyPartition("D", args) }

func applyMakeTiledMMA(args []layout.Value) (layout.Value, error) {
	const op = "make_tiled_mma"
	if err := wantArgs(op, args, 1, 3); err != nil {
		return nil, err
	}
	atom, err := mmaAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	thr, err := layout.MakeLayout(layout.Tup(layout.Int(1), layout.Int(1), layout.Int(1)))
	if err != nil {
		return nil, err
	}
	if len(args) > 1 {
		l, ok := args[1].(*layout.Layout)
		if !ok {
			return nil, layout.KindErrorf(op, "the atom layout must be a layout such as make_layout((2,2,1)), not %s", layout.Described(args[1]))
		}
		thr = *l
	}
	var perm layout.Tiler
	if len(args) > 2 {
		if perm, err = permutationArg(op, args[2]); err != nil {
			return nil, err
		}
	}
	return tiled.MakeTiledMMA(atom, thr, perm)
}

// permutationArg reads a TiledMMA's permutation: a tiler [P0;P1;P2] or a
// tuple (32,32,16) (CuTe's Tile<_32,_32,_16>), each mode a layout, an
// integer N (make_layout(N)) or _.
func permutationArg(op string, v layout.Value) (layout.Tiler, error) {
	switch v := v.(type) {
	case layout.Tiler:
		return v, nil
	case layout.IntTuple:
		if !v.IsTuple() {
			break
		}
		t := layout.Tiler{Modes: make([]layout.TilerMode, v.Len())}
		for i, e := range v.Elems() {
			switch {
			case e.IsUnderscore():
				t.Modes[i] = layout.TilerMode{Skip: true}
			case e.IsLeaf() && !e.IsBasis() && !e.IsUnknown():
				if e.Value() <= 0 {
					return layout.Tiler{}, layout.Errorf(op, "", "the permutation's mode %d is %v, not a positive size", i, e)
				}
				t.Modes[i] = layout.TilerMode{Layout: layout.Make(e, layout.Int(1)), Int: true}
			default:
				return layout.Tiler{}, layout.KindErrorf(op, "the permutation's mode %d is %v, not a layout, an integer or _", i, e)
			}
		}
		return t, nil
	}
	return layout.Tiler{}, layout.KindErrorf(op, "the permutation must be a tile such as [32:1;32:1;16:1] or (32,32,16), not %s", layout.Described(v))
}

func mmaAtomArg(op string, v layout.Value) (tiled.MMAAtom, error) {
	a, ok := v.(tiled.MMAAtomValue)
	if !ok {
		return tiled.MMAAtom{}, layout.KindErrorf(op, "the first argument must be an MMA atom such as mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), not %s", layout.Described(v))
	}
	atom, err := a.TiledMMAAtom()
	if err != nil {
		return tiled.MMAAtom{}, layout.KindErrorf(op, "%v", err)
	}
	return atom, nil
}

func copyAtomArg(op string, v layout.Value) (tiled.CopyAtom, error) {
	a, ok := v.(tiled.CopyAtomValue)
	if !ok {
		return tiled.CopyAtom{}, layout.KindErrorf(op, "the first argument must be a copy atom of an element type such as copy_atom(\"SM75_U32x4_LDSM_N\", \"half_t\"), not %s", layout.Described(v))
	}
	atom, err := a.TiledCopyAtom()
	if err != nil {
		e := layout.Errorf(op, tiled.CondCopyElemType, "%v", err)
		e.Kind = true // a misuse: the atom was named without its type
		return tiled.CopyAtom{}, e
	}
	return atom, nil
}

func tiledMMAArg(op string, v layout.Value) (tiled.TiledMMA, error) {
	m, ok := v.(tiled.TiledMMA)
	if !ok {
		return tiled.TiledMMA{}, layout.KindErrorf(op, "expected a TiledMMA such as make_tiled_mma(mma_atom(...), make_layout((2,2,1))), got %s", layout.Described(v))
	}
	return m, nil
}

func tiledCopyArg(op string, v layout.Value) (tiled.TiledCopy, error) {
	c, ok := v.(tiled.TiledCopy)
	if !ok {
		return tiled.TiledCopy{}, layout.KindErrorf(op, "expected a TiledCopy such as make_tiled_copy(copy_atom(...), thr, val), got %s", layout.Described(v))
	}
	return c, nil
}

func applyMakeTiledCopy(args []layout.Value) (layout.Value, error) {
	const op = "make_tiled_copy"
	if err := wantArgs(op, args, 2, 3); err != nil {
		return nil, err
	}
	atom, err := copyAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	thr, err := layoutArg(op, args, 1)
	if err != nil {
		return nil, err
	}
	val := layout.Make(layout.Int(1), layout.Int(0)) // CuTe's default Layout<_1>
	if len(args) == 3 {
		if val, err = layoutArg(op, args, 2); err != nil {
			return nil, err
		}
	}
	return tiled.MakeTiledCopy(atom, thr, val)
}

func applyMakeTiledCopyMMA(x string, args []layout.Value) (layout.Value, error) {
	op := "make_tiled_copy_" + x
	if err := wantArgs(op, args, 2, 2); err != nil {
		return nil, err
	}
	atom, err := copyAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	m, err := tiledMMAArg(op, args[1])
	if err != nil {
		return nil, err
	}
	return tiled.MakeTiledCopyMMA(x, atom, m)
}

func applyMMALayoutTV(x string, args []layout.Value) (layout.Value, error) {
	op := "get_layout" + x + "_TV"
	if err := wantArgs(op, args, 1, 1); err != nil {
		return nil, err
	}
	m, err := tiledMMAArg(op, args[0])
	if err != nil {
		return nil, err
	}
	return layout.Boxed(m.LayoutTV(x))
}

func applyCopyLayoutTV(x string, args []layout.Value) (layout.Value, error) {
	op := "get_layout" + x + "_TV"
	if err := wantArgs(op, args, 1, 1); err != nil {
		return nil, err
	}
	c, err := tiledCopyArg(op, args[0])
	if err != nil {
		return nil, err
	}
	return layout.Boxed(c.LayoutTV(x))
}

// threadArgs reads (thread, L) of a partition: a thread index and the
// layout of the tensor partitioned.
func threadArgs(op string, args []layout.Value) (int64, layout.Layout, error) {
	t, err := threadArg(op, args)
	if err != nil {
		return 0, layout.Layout{}, err
	}
	l, err := layoutArg(op, args, 2)
	if err != nil {
		return 0, layout.Layout{}, err
	}
	if err := layout.CheckCongruent(op, l.Shape, l.Stride); err != nil {
		return 0, layout.Layout{}, err
	}
	return t, l, nil
}

// threadArg reads the thread index of a partition, args[1].
func threadArg(op string, args []layout.Value) (int64, error) {
	t, ok := intArg(args[1])
	if !ok {
		return 0, layout.KindErrorf(op, "the thread index must be an integer, not %s", layout.Described(args[1]))
	}
	if t < 0 {
		return 0, layout.Errorf(op, "", "the thread index %d is negative", t)
	}
	return t, nil
}

func applyMMAPartition(x string, args []layout.Value) (layout.Value, error) {
	op := "partition_" + x
	if err := wantArgs(op, args, 3, 3); err != nil {
		return nil, err
	}
	m, err := tiledMMAArg(op, args[0])
	if err != nil {
		return nil, err
	}
	return partitionOf(op, x, m, args)
}

func applyCopyPartition(x string, args []layout.Value) (layout.Value, error) {
	op := "partition_" + x
	if err := wantArgs(op, args, 3, 3); err != nil {
		return nil, err
	}
	c, err := tiledCopyArg(op, args[0])
	if err != nil {
		return nil, err
	}
	return partitionOf(op, x, c, args)
}

// threadPartitioner is a TiledMMA or a TiledCopy: what partition_A/B/C and
// partition_S/D cut a tensor with.
type threadPartitioner interface {
	Partition(side string, thread int64, l layout.Layout) (layout.Partition, error)
	PartitionComposed(side string, thread int64, c layout.Composed) (layout.ComposedPartition, error)
}

// partitionOf is thread args[1]'s share of the tensor args[2], a layout or
// a swizzled layout, on side x of p.
func partitionOf(op, x string, p threadPartitioner, args []layout.Value) (layout.Value, error) {
	if s, ok := args[2].(layout.Composed); ok {
		t, err := threadArg(op, args)
		if err != nil {
			return nil, err
		}
		return p.PartitionComposed(x, t, s)
	}
	t, l, err := threadArgs(op, args)
	if err != nil {
		return nil, err
	}
	return p.Partition(x, t, l)
}

func applyMakeLayoutTV(args []layout.Value) (layout.Value, error) {
	const op = "make_layout_tv"
	if err := wantArgs(op, args, 2, 2); err != nil {
		return nil, err
	}
	thr, err := layoutArg(op, args, 0)
	if err != nil {
		return nil, err
	}
	val, err := layoutArg(op, args, 1)
	if err != nil {
		return nil, err
	}
	tv, _, err := tiled.MakeLayoutTV(op, thr, val)
	if err != nil {
		return nil, err
	}
	return layout.Box(tv), nil
}

func applyTileSize(args []layout.Value) (layout.Value, error) {
	const op = "tile_size"
	if err := wantArgs(op, args, 1, 2); err != nil {
		return nil, err
	}
	i := -1
	if len(args) == 2 {
		n, err := coreIndexArg(op, args[1])
		if err != nil {
			return nil, err
		}
		i = n
	}
	switch v := args[0].(type) {
	case tiled.TiledMMA:
		if i < 0 {
			return nil, layout.Errorf(op, "", "tile_size of a TiledMMA needs the mode: tile_size<0> (M), <1> (N) or <2> (K)")
		}
		return v.TileSize(i)
	case tiled.TiledCopy:
		return v.TileSize(i)
	}
	return nil, layout.KindErrorf(op, "expected a TiledMMA or a TiledCopy, got %s", layout.Described(args[0]))
}
