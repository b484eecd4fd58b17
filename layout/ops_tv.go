package layout

// The sheet's names for CuTe's TiledMMA and TiledCopy (tv_mma.go,
// tv_copy.go). size(M) is the sizer of TiledMMA and TiledCopy; template
// parameters (tile_size<I>) come as a trailing integer.
func init() {
	register(Op{Name: "make_tiled_mma", Signature: "make_tiled_mma(atom, atom_layout [, permutation])",
		Doc:   "the TiledMMA of an MMA atom repeated over atom_layout (padded to rank 3 with 1:0), its M, N, K permuted by the tile permutation (_ where left out)",
		Apply: applyMakeTiledMMA})
	register(Op{Name: "make_tiled_copy", Signature: "make_tiled_copy(copy_atom, thr [, val])",
		Doc:   "the TiledCopy whose thread-value layout is right_inverse(raked_product(thr, val)) shaped (size(thr), size(val)), over the tile product_each(shape(raked_product(thr, val)))",
		Apply: applyMakeTiledCopy})
	for _, x := range []string{"A", "B", "C"} {
		register(Op{Name: "make_tiled_copy_" + x, Signature: "make_tiled_copy_" + x + "(copy_atom, tiled_mma)",
			Doc:   "the TiledCopy of the MMA's " + x + " operand: its get_layout" + x + "_TV over its " + x + " tile",
			Apply: func(args []Value) (Value, error) { return applyMakeTiledCopyMMA(x, args) }})
		register(Op{Name: "get_layout" + x + "_TV", Signature: "get_layout" + x + "_TV(tiled_mma)",
			Doc:   "(thread index, value) -> the column-major index of the " + x + " element it holds in the TiledMMA's tile",
			Apply: func(args []Value) (Value, error) { return applyMMALayoutTV(x, args) }})
		register(Op{Name: "partition_" + x, Signature: "partition_" + x + "(tiled_mma, thread, L)",
			Doc:   "the " + x + " values thread holds of a tensor of layout L: (FrgV, Rest...) + the offset of its first",
			Apply: func(args []Value) (Value, error) { return applyMMAPartition(x, args) }})
	}
	for _, x := range []string{"S", "D"} {
		side := map[string]string{"S": "source", "D": "destination"}[x]
		register(Op{Name: "get_layout" + x + "_TV", Signature: "get_layout" + x + "_TV(tiled_copy)",
			Doc:   "(thread index, value) -> the column-major index in the copy's tile of the " + side + " element it moves",
			Apply: func(args []Value) (Value, error) { return applyCopyLayoutTV(x, args) }})
		register(Op{Name: "partition_" + x, Signature: "partition_" + x + "(tiled_copy, thread, L)",
			Doc:   "the " + side + " values thread moves of a tensor of layout L: (Frg, Rest...) + the offset of its first",
			Apply: func(args []Value) (Value, error) { return applyCopyPartition(x, args) }})
	}
	register(Op{Name: "make_layout_tv", Signature: "make_layout_tv(thr, val)",
		Doc:   "right_inverse(raked_product(thr, val)) shaped (size(thr), size(val)): (thread, value) -> tile coordinate, as make_tiled_copy builds it",
		Apply: applyMakeLayoutTV})
	register(Op{Name: "tile_size", Signature: "tile_size<I>(tiled_mma | tiled_copy)",
		Doc:   "the extent of the tile along mode I (M, N, K of a TiledMMA; of a TiledCopy's tile, all of it without I)",
		Apply: applyTileSize})
}

func applyMakeTiledMMA(args []Value) (Value, error) {
	const op = "make_tiled_mma"
	if err := wantArgs(op, args, 1, 3); err != nil {
		return nil, err
	}
	atom, err := mmaAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	thr, err := MakeLayout(Tup(Int(1), Int(1), Int(1)))
	if err != nil {
		return nil, err
	}
	if len(args) > 1 {
		l, ok := args[1].(Layout)
		if !ok {
			return nil, kindErrorf(op, "the atom layout must be a layout such as make_layout((2,2,1)), not %s", kindName(args[1]))
		}
		thr = l
	}
	var perm Tiler
	if len(args) > 2 {
		if perm, err = permutationArg(op, args[2]); err != nil {
			return nil, err
		}
	}
	return MakeTiledMMA(atom, thr, perm)
}

// permutationArg reads a TiledMMA's permutation: a tiler [P0;P1;P2] or a
// tuple (32,32,16) (CuTe's Tile<_32,_32,_16>), each mode a layout, an
// integer N (make_layout(N)) or _.
func permutationArg(op string, v Value) (Tiler, error) {
	switch v := v.(type) {
	case Tiler:
		return v, nil
	case IntTuple:
		if !v.IsTuple() {
			break
		}
		t := Tiler{Modes: make([]TilerMode, v.Len())}
		for i, e := range v.Elems() {
			switch {
			case e.IsUnderscore():
				t.Modes[i] = TilerMode{Skip: true}
			case e.IsLeaf() && !e.IsBasis() && !e.IsUnknown():
				if e.Value() <= 0 {
					return Tiler{}, errorf(op, "", "the permutation's mode %d is %v, not a positive size", i, e)
				}
				t.Modes[i] = TilerMode{Layout: Make(e, Int(1)), Int: true}
			default:
				return Tiler{}, kindErrorf(op, "the permutation's mode %d is %v, not a layout, an integer or _", i, e)
			}
		}
		return t, nil
	}
	return Tiler{}, kindErrorf(op, "the permutation must be a tile such as [32:1;32:1;16:1] or (32,32,16), not %s", kindName(v))
}

func mmaAtomArg(op string, v Value) (MMAAtom, error) {
	a, ok := v.(MMAAtomValue)
	if !ok {
		return MMAAtom{}, kindErrorf(op, "the first argument must be an MMA atom such as mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), not %s", kindName(v))
	}
	atom, err := a.TiledMMAAtom()
	if err != nil {
		return MMAAtom{}, kindErrorf(op, "%v", err)
	}
	return atom, nil
}

func copyAtomArg(op string, v Value) (CopyAtom, error) {
	a, ok := v.(CopyAtomValue)
	if !ok {
		return CopyAtom{}, kindErrorf(op, "the first argument must be a copy atom of an element type such as copy_atom(\"SM75_U32x4_LDSM_N\", \"half_t\"), not %s", kindName(v))
	}
	atom, err := a.TiledCopyAtom()
	if err != nil {
		e := errorf(op, CondCopyElemType, "%v", err)
		e.Kind = true // a misuse: the atom was named without its type
		return CopyAtom{}, e
	}
	return atom, nil
}

func tiledMMAArg(op string, v Value) (TiledMMA, error) {
	m, ok := v.(TiledMMA)
	if !ok {
		return TiledMMA{}, kindErrorf(op, "expected a TiledMMA such as make_tiled_mma(mma_atom(...), make_layout((2,2,1))), got %s", kindName(v))
	}
	return m, nil
}

func tiledCopyArg(op string, v Value) (TiledCopy, error) {
	c, ok := v.(TiledCopy)
	if !ok {
		return TiledCopy{}, kindErrorf(op, "expected a TiledCopy such as make_tiled_copy(copy_atom(...), thr, val), got %s", kindName(v))
	}
	return c, nil
}

func applyMakeTiledCopy(args []Value) (Value, error) {
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
	val := Make(Int(1), Int(0)) // CuTe's default Layout<_1>
	if len(args) == 3 {
		if val, err = layoutArg(op, args, 2); err != nil {
			return nil, err
		}
	}
	return MakeTiledCopy(atom, thr, val)
}

func applyMakeTiledCopyMMA(x string, args []Value) (Value, error) {
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
	return MakeTiledCopyMMA(x, atom, m)
}

func applyMMALayoutTV(x string, args []Value) (Value, error) {
	op := "get_layout" + x + "_TV"
	if err := wantArgs(op, args, 1, 1); err != nil {
		return nil, err
	}
	m, err := tiledMMAArg(op, args[0])
	if err != nil {
		return nil, err
	}
	return m.LayoutTV(x)
}

func applyCopyLayoutTV(x string, args []Value) (Value, error) {
	op := "get_layout" + x + "_TV"
	if err := wantArgs(op, args, 1, 1); err != nil {
		return nil, err
	}
	c, err := tiledCopyArg(op, args[0])
	if err != nil {
		return nil, err
	}
	return c.LayoutTV(x)
}

// threadArgs reads (thread, L) of a partition: a thread index and the
// layout of the tensor partitioned.
func threadArgs(op string, args []Value) (int64, Layout, error) {
	t, ok := intArg(args[1])
	if !ok {
		return 0, Layout{}, kindErrorf(op, "the thread index must be an integer, not %s", kindName(args[1]))
	}
	if t < 0 {
		return 0, Layout{}, errorf(op, "", "the thread index %d is negative", t)
	}
	l, err := layoutArg(op, args, 2)
	if err != nil {
		return 0, Layout{}, err
	}
	if err := checkCongruent(op, l.Shape, l.Stride, nil); err != nil {
		return 0, Layout{}, err
	}
	return t, l, nil
}

func applyMMAPartition(x string, args []Value) (Value, error) {
	op := "partition_" + x
	if err := wantArgs(op, args, 3, 3); err != nil {
		return nil, err
	}
	m, err := tiledMMAArg(op, args[0])
	if err != nil {
		return nil, err
	}
	t, l, err := threadArgs(op, args)
	if err != nil {
		return nil, err
	}
	return m.Partition(x, t, l)
}

func applyCopyPartition(x string, args []Value) (Value, error) {
	op := "partition_" + x
	if err := wantArgs(op, args, 3, 3); err != nil {
		return nil, err
	}
	c, err := tiledCopyArg(op, args[0])
	if err != nil {
		return nil, err
	}
	t, l, err := threadArgs(op, args)
	if err != nil {
		return nil, err
	}
	return c.Partition(x, t, l)
}

func applyMakeLayoutTV(args []Value) (Value, error) {
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
	tv, _, err := MakeLayoutTV(op, thr, val)
	if err != nil {
		return nil, err
	}
	return tv, nil
}

func applyTileSize(args []Value) (Value, error) {
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
	case TiledMMA:
		if i < 0 {
			return nil, errorf(op, "", "tile_size of a TiledMMA needs the mode: tile_size<0> (M), <1> (N) or <2> (K)")
		}
		return v.TileSize(i)
	case TiledCopy:
		return v.TileSize(i)
	}
	return nil, kindErrorf(op, "expected a TiledMMA or a TiledCopy, got %s", kindName(args[0]))
}
