package layout

// Registration of the swizzle, swizzled-layout and recast operations, and
// of the swizzled-layout overloads of operations defined elsewhere.

func init() {
	register(Op{
		Name:      "swizzle",
		Signature: "swizzle(Sw, x)",
		Doc:       "Swizzle<B,M,S>{}(x): x ^ ((x & Ymask) >> S), shifting left for negative S",
		Apply: func(args []Value) (Value, error) {
			if len(args) != 2 {
				return nil, arityError("swizzle", "swizzle(Sw, x)", args)
			}
			sw, ok := args[0].(Swizzle)
			x, okx := args[1].(IntTuple)
			if !ok || !okx || !x.IsLeaf() || x.IsUnknown() || x.IsBasis() {
				return nil, errorf("swizzle", CondComposedOperand, "swizzle(%v, %v) needs a Swizzle and an integer", args[0], args[1])
			}
			y, err := sw.Apply(x.Value())
			if err != nil {
				return nil, err
			}
			return Dyn(y), nil
		},
	})
	register(Op{
		Name:      "upcast",
		Signature: "upcast<N>(L)",
		Doc:       "L counted in elements N times wider (also upcast(L, N))",
		Apply: func(args []Value) (Value, error) {
			return castOp("upcast", args, Upcast, UpcastComposed, UpcastSwizzle)
		},
	})
	register(Op{
		Name:      "downcast",
		Signature: "downcast<N>(L)",
		Doc:       "L counted in elements N times narrower (also downcast(L, N))",
		Apply: func(args []Value) (Value, error) {
			return castOp("downcast", args, Downcast, DowncastComposed, DowncastSwizzle)
		},
	})
	register(Op{
		Name:      "recast_layout",
		Signature: "recast_layout<old_bits,new_bits>(L)",
		Doc:       "L for elements of new_bits instead of old_bits (also recast_layout(L, old_bits, new_bits))",
		Apply: func(args []Value) (Value, error) {
			const op = "recast_layout"
			if len(args) != 3 {
				return nil, arityError(op, "recast_layout(L, old_bits, new_bits)", args)
			}
			oldBits, ok1 := intArg(args[1])
			newBits, ok2 := intArg(args[2])
			if !ok1 || !ok2 {
				return nil, errorf(op, CondUnknown, "element widths %v and %v must be integers", args[1], args[2])
			}
			switch l := args[0].(type) {
			case Composed:
				return RecastComposed(l, oldBits, newBits)
			case Swizzle:
				return RecastSwizzle(l, oldBits, newBits)
			case Layout:
				return RecastLayout(l, oldBits, newBits)
			}
			return nil, errorf(op, CondComposedOperand, "recast_layout of %v: CuTe recasts a layout, a swizzled layout or a swizzle", args[0])
		},
	})

	registerComposedTensorOps()
	registerOverload("composition", func(args []Value) (Value, bool, error) {
		if len(args) != 2 {
			return nil, false, nil
		}
		return ComposedComposition(args[0], args[1])
	})
	for _, name := range []string{"right_inverse", "left_inverse"} {
		registerOverload(name, func(args []Value) (Value, bool, error) {
			if len(args) != 1 {
				return nil, false, nil
			}
			return ComposedInverse(name, args[0])
		})
	}
	registerOverload("logical_product", func(args []Value) (Value, bool, error) {
		if len(args) != 2 {
			return nil, false, nil
		}
		t, ok := args[1].(Composed)
		if !ok {
			return nil, false, nil
		}
		a, ok := asLayout(args[0])
		if !ok {
			return nil, false, nil // a swizzled first argument: the inner-layout rule below
		}
		v, err := LogicalProductSwizzled(a, t)
		return v, true, err
	})
	registerOverload("max_common_vector", func(args []Value) (Value, bool, error) {
		if len(args) != 2 {
			return nil, false, nil
		}
		return MaxCommonVectorComposed(args[0], args[1])
	})
	registerOverload("max_common_layout", func(args []Value) (Value, bool, error) {
		if len(args) != 2 {
			return nil, false, nil
		}
		return MaxCommonLayoutComposed(args[0], args[1])
	})
	registerOverload("make_layout", func(args []Value) (Value, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		sw, ok := args[0].(Swizzle)
		if !ok {
			return nil, false, nil
		}
		v, err := MakeSwizzleLayout(sw)
		return v, true, err
	})
	// Queries CuTe answers from the inner layout alone.
	for _, name := range []string{"size", "cosize", "rank", "depth", "complement", "shape"} {
		registerOverload(name, func(args []Value) (Value, bool, error) {
			if len(args) == 0 {
				return nil, false, nil
			}
			switch c := args[0].(type) {
			case Composed:
				if err := c.Outer.Validate(name); err != nil {
					return nil, true, err
				}
				v, err := Apply(name, append([]Value{c.Inner}, args[1:]...)...)
				return v, true, err
			case NestedComposed:
				v, err := Apply(name, append([]Value{c.Inner}, args[1:]...)...)
				return v, true, err
			}
			return nil, false, nil
		})
	}
	// Operations CuTe applies to the inner layout, keeping the swizzle around it.
	for _, name := range []string{
		"logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
		"logical_product", "zipped_product", "tiled_product", "flat_product",
		"blocked_product", "raked_product", "tile_to_shape",
		"coalesce", "flatten", "group", "take", "layout", "zip", "tile_unzip",
	} {
		registerOverload(name, func(args []Value) (Value, bool, error) {
			if len(args) == 0 {
				return nil, false, nil
			}
			c, ok := args[0].(Composed)
			if !ok {
				return nil, false, nil
			}
			v, err := ComposedApplyInner(name, c, args[1:]...)
			return v, true, err
		})
	}
}

// composedSliceArgs reads (c, S) for slicing a swizzled layout S; false
// when the arguments are not of those kinds.
func composedSliceArgs(args []Value) (IntTuple, Composed, bool) {
	if len(args) != 2 {
		return IntTuple{}, Composed{}, false
	}
	c, ok := args[1].(Composed)
	coord, okc := args[0].(IntTuple)
	return coord, c, ok && okc
}

// registerComposedTensorOps adds the swizzled-layout forms of slicing and
// partitioning: CuTe slices a swizzled tensor's inner layout and accumulates
// the offset of the cut in the swizzled layout (the pointer does not move).
func registerComposedTensorOps() {
	registerOverload("slice", func(args []Value) (Value, bool, error) {
		coord, c, ok := composedSliceArgs(args)
		if !ok {
			return nil, false, nil
		}
		v, err := SliceComposed(coord, c)
		return v, true, err
	})
	for _, name := range []string{"inner_partition", "outer_partition", "local_tile", "local_partition"} {
		registerOverload(name, func(args []Value) (Value, bool, error) {
			if len(args) == 0 {
				return nil, false, nil
			}
			c, ok := args[0].(Composed)
			if !ok {
				return nil, false, nil
			}
			v, err := PartitionComposed(name, c, args[1:]...)
			return v, true, err
		})
	}
	// CuTe's filter of a swizzled layout takes a profile; filter(L) alone is not defined.
	registerOverload("filter", func(args []Value) (Value, bool, error) {
		if len(args) != 2 {
			return nil, false, nil
		}
		c, ok := args[0].(Composed)
		if !ok {
			return nil, false, nil
		}
		v, err := ComposedApplyInner("filter", c, args[1])
		return v, true, err
	})
	// CuTe does not attempt a nullspace of a swizzled layout: it answers 1:0.
	registerOverload("nullspace", func(args []Value) (Value, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		if _, ok := args[0].(Composed); !ok {
			return nil, false, nil
		}
		return Make(Int(1), Int(0)), true, nil
	})
}

// castOp dispatches upcast/downcast on a layout, a swizzled layout or a swizzle.
func castOp(op string, args []Value,
	plain func(Layout, int64) (Layout, error),
	composed func(Composed, int64) (Value, error),
	swizzle func(Swizzle, int64) (Swizzle, error),
) (Value, error) {
	if len(args) != 2 {
		return nil, arityError(op, op+"(L, N)", args)
	}
	n, ok := intArg(args[1])
	if _, first := intArg(args[0]); !ok && first {
		// upcast(2, L): the factor came first.
		return nil, atArg(1, kindErrorf(op, "the arguments are in the wrong order: the value to cast comes first and the factor N second, %s(L, %v) or %s<%v>(L)", op, args[0], op, args[0]))
	}
	if !ok {
		if t, isTuple := args[1].(IntTuple); isTuple && t.IsUnknown() {
			return nil, atArg(2, errorf(op, CondUnknown, "the factor N is ? : it must be an integer"))
		}
		return nil, atArg(2, kindErrorf(op, "the factor N must be an integer, got %v (%s)", args[1], coreKindName(args[1])))
	}
	switch l := args[0].(type) {
	case Composed:
		return composed(l, n)
	case Swizzle:
		return swizzle(l, n)
	case Layout:
		return plain(l, n)
	case IntTuple:
		if l.IsLeaf() {
			return castInteger(op, l, n)
		}
	}
	return nil, atArg(1, errorf(op, CondComposedOperand, "%s of %v: CuTe casts a layout, a swizzled layout, a swizzle or an integer", op, args[0]))
}

// castInteger is CuTe's upcast<N>/downcast<N> of an integer (an offset):
// m / N (a static m must divide) or m * N.
func castInteger(op string, m IntTuple, n int64) (Value, error) {
	if n <= 0 {
		return nil, errorf(op, CondCastFactor, "N = %d", n)
	}
	if op == "upcast" {
		return divideOffset(op, m, n)
	}
	return scaleLeaf(op, m, n)
}

// intArg reads a known integer argument (a template parameter).
func intArg(v Value) (int64, bool) {
	t, ok := v.(IntTuple)
	if !ok || !t.IsLeaf() || t.IsUnknown() || t.IsBasis() {
		return 0, false
	}
	return t.Value(), true
}

func arityError(op, signature string, args []Value) error {
	return errorf(op, "wrong number of arguments", "%s takes the arguments of %s, got %d", op, signature, len(args))
}
