package layout

// The sheet's names for the TiledCopy constructions of tv_copy_tiler.go.

func init() {
	register(Op{Name: "make_tiled_copy_C_atom", Signature: "make_tiled_copy_C_atom(copy_atom, tiled_mma)",
		Doc:   "the smallest TiledCopy that moves the MMA's accumulator C one copy atom's values per thread at a time: get_layoutC_TV truncated to the atom's values, over the tile of the elements it reaches",
		Apply: applyMakeTiledCopyCAtom})
	register(Op{Name: "make_cotiled_copy", Signature: "make_cotiled_copy(copy_atom, atom_tv, data)",
		Doc:   "the TiledCopy whose (thread, value) -> address layout atom_tv is read through the data layout (coordinate -> address): over the tile of the coordinates it reaches",
		Apply: applyMakeCotiledCopy})
	for _, x := range []string{"S", "D"} {
		side := map[string]string{"S": "source", "D": "destination"}[x]
		register(Op{Name: "make_tiled_copy_" + x, Signature: "make_tiled_copy_" + x + "(copy_atom, tiled_copy)",
			Doc:   "a TiledCopy of copy_atom over tiled_copy's tile, with tiled_copy's " + side + " thread-value layout get_layout" + x + "_TV",
			Apply: func(args []Value) (Value, error) { return applyMakeTiledCopySD(x, args) }})
		register(Op{Name: "retile_" + x, Signature: "retile_" + x + "(tiled_copy, L)",
			Doc:   "a thread's register fragment of layout L regrouped as the copy moves its values: ((AtomVal, RestVal), Rest...)",
			Apply: func(args []Value) (Value, error) { return applyRetile(x, args) }})
	}
}

func applyMakeTiledCopyCAtom(args []Value) (Value, error) {
	const op = "make_tiled_copy_C_atom"
	if err := wantArgs(op, args, 2, 2); err != nil {
		return nil, err
	}
	atom, err := copyAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	m, err := tiledMMAArg(op, args[1])
	if err != nil {
		return nil, atArg(2, err)
	}
	return MakeTiledCopyCAtom(atom, m)
}

func applyMakeCotiledCopy(args []Value) (Value, error) {
	const op = "make_cotiled_copy"
	if err := wantArgs(op, args, 3, 3); err != nil {
		return nil, err
	}
	atom, err := copyAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	tv, err := layoutArg(op, args, 1)
	if err != nil {
		return nil, err
	}
	data, err := layoutArg(op, args, 2)
	if err != nil {
		return nil, err
	}
	return MakeCotiledCopy(atom, tv, data)
}

func applyMakeTiledCopySD(x string, args []Value) (Value, error) {
	op := "make_tiled_copy_" + x
	if err := wantArgs(op, args, 2, 2); err != nil {
		return nil, err
	}
	atom, err := copyAtomArg(op, args[0])
	if err != nil {
		return nil, err
	}
	c, err := tiledCopyArg(op, args[1])
	if err != nil {
		return nil, atArg(2, err)
	}
	return MakeTiledCopySD(x, atom, c)
}

func applyRetile(x string, args []Value) (Value, error) {
	op := "retile_" + x
	if err := wantArgs(op, args, 2, 2); err != nil {
		return nil, err
	}
	c, err := tiledCopyArg(op, args[0])
	if err != nil {
		return nil, atArg(1, err)
	}
	l, err := layoutArg(op, args, 1)
	if err != nil {
		return nil, err
	}
	out, err := c.Retile(l)
	if err != nil {
		return nil, renamed(op, err)
	}
	return out, nil
}
