package layout

// Registration of the divides, products and tile_to_shape for callers that
// go by CuTe's names (the golden harness, hover, the command line). Each
// dispatches on the kind of its first argument; ComposedLayout overloads are
// registered beside the composed-layout code.

func init() {
	tiled := []struct {
		name, doc string
		f         func(Layout, Value) (Layout, error)
	}{
		{"logical_divide", "composition(L, make_layout(T, complement(T, shape(coalesce(L))))): (tile, rest), by mode for a tiler", LogicalDivide},
		{"zipped_divide", "tile_unzip(logical_divide(L, T), T): ((TILE...),(REST...))", ZippedDivide},
		{"tiled_divide", "zipped_divide with the rest mode unpacked: ((TILE...),r0,r1,...)", TiledDivide},
		{"flat_divide", "zipped_divide with both modes unpacked: (t0,t1,...,r0,r1,...)", FlatDivide},
		{"logical_product", "make_layout(A, composition(complement(A, size(A)*cosize(T)), T)): (block, repeat), by mode for a tiler", LogicalProduct},
		{"zipped_product", "tile_unzip(logical_product(A, T), T): ((BLOCK...),(REPEAT...))", ZippedProduct},
		{"tiled_product", "zipped_product with the repeat mode unpacked: ((BLOCK...),r0,r1,...)", TiledProduct},
		{"flat_product", "zipped_product with both modes unpacked: (b0,b1,...,r0,r1,...)", FlatProduct},
	}
	for _, o := range tiled {
		f, name := o.f, o.name
		register(Op{
			Name:      name,
			Signature: name + "(L, T)",
			Doc:       o.doc,
			Apply: func(args []Value) (Value, error) {
				if err := wantArgs(name, args, 2, 2); err != nil {
					return nil, err
				}
				l, err := layoutArg(name, args, 0)
				if err != nil {
					return nil, err
				}
				return f(l, args[1])
			},
		})
	}
	ranked := []struct {
		name, doc string
		f         func(Layout, Layout) (Layout, error)
	}{
		{"blocked_product", "zip(logical_product(append<R>(A), append<R>(B))): mode i is (A_i, B_i)", BlockedProduct},
		{"raked_product", "logical_product(append<R>(A), append<R>(B)) zipped the other way: mode i is (B_i, A_i)", RakedProduct},
	}
	for _, o := range ranked {
		f, name := o.f, o.name
		register(Op{
			Name:      name,
			Signature: name + "(A, B)",
			Doc:       o.doc,
			Apply: func(args []Value) (Value, error) {
				a, b, err := layoutPair(name, args)
				if err != nil {
					return nil, err
				}
				return f(a, b)
			},
		})
	}
	register(Op{
		Name:      "tile_to_shape",
		Signature: "tile_to_shape(B, S [, O])",
		Doc:       "blocked_product(append<R>(B), make_ordered_layout(size(S_i)/size(B_i), O)): B repeated to shape S",
		Apply: func(args []Value) (Value, error) {
			const name = "tile_to_shape"
			if err := wantArgs(name, args, 2, 3); err != nil {
				return nil, err
			}
			b, err := layoutArg(name, args, 0)
			if err != nil {
				return nil, err
			}
			s, ok := args[1].(IntTuple)
			if !ok {
				return nil, errorf(name, "", "the target %v is not a shape", args[1])
			}
			var order Value
			if len(args) == 3 {
				order = args[2]
			}
			return TileToShape(b, s, order)
		},
	})
	register(Op{
		Name:      "tile_unzip",
		Signature: "tile_unzip(L, T)",
		Doc:       "the (tile, rest) modes at T's terminals gathered as ((TILE...),(REST...))",
		Apply: func(args []Value) (Value, error) {
			const name = "tile_unzip"
			if err := wantArgs(name, args, 2, 2); err != nil {
				return nil, err
			}
			l, err := layoutArg(name, args, 0)
			if err != nil {
				return nil, err
			}
			return TileUnzip(l, args[1])
		},
	})
	register(Op{
		Name:      "zip",
		Signature: "zip(L [, M])",
		Doc:       "transpose of modes: zip(((a,b),(x,y))) = ((a,x),(b,y)); zip(A, B) has modes (A_i, B_i)",
		Apply: func(args []Value) (Value, error) {
			ls := make([]Layout, len(args))
			for i := range args {
				l, err := layoutArg("zip", args, i)
				if err != nil {
					return nil, err
				}
				ls[i] = l
			}
			return Zip(ls...)
		},
	})
}

// The partitions answer a Partition: the sliced layout and its offset.
func init() {
	coordOps := []struct {
		name, doc string
		f         func(Layout, Value, IntTuple) (Partition, error)
	}{
		{"inner_partition", "zipped_divide(L, T)(repeat<R0>(_), c): the tile at rest coordinate c", InnerPartition},
		{"outer_partition", "zipped_divide(L, T)(c, repeat<R1>(_)): element c of every tile", OuterPartition},
		{"local_tile", "inner_partition(L, T, c); with proj, local_tile(L, dice(proj, T), dice(proj, c))", LocalTile},
	}
	for _, o := range coordOps {
		f, name := o.f, o.name
		most, sig := 3, name+"(L, T, c)"
		if name == "local_tile" {
			most, sig = 4, name+"(L, T, c [, proj])"
		}
		register(Op{
			Name:      name,
			Signature: sig,
			Doc:       o.doc,
			Apply: func(args []Value) (Value, error) {
				if err := wantArgs(name, args, 3, most); err != nil {
					return nil, err
				}
				l, err := layoutArg(name, args, 0)
				if err != nil {
					return nil, err
				}
				c, ok := args[2].(IntTuple)
				if !ok {
					return nil, errorf(name, "", "the coordinate %v is not an IntTuple", args[2])
				}
				if len(args) == 4 {
					proj, ok := args[3].(IntTuple)
					if !ok {
						return nil, errorf(name, "", "the projection %v is not an IntTuple", args[3])
					}
					return LocalTileProj(l, args[1], c, proj)
				}
				return f(l, args[1], c)
			},
		})
	}
	register(Op{
		Name:      "local_partition",
		Signature: "local_partition(L, tile, i [, proj])",
		Doc:       "outer_partition(L, product_each(shape(tile)), tile.get_flat_coord(i)): thread i's share",
		Apply: func(args []Value) (Value, error) {
			const name = "local_partition"
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
				return nil, errorf(name, CondUnknown, "the index %v must be an integer", args[2])
			}
			if len(args) == 4 {
				proj, ok := args[3].(IntTuple)
				if !ok {
					return nil, errorf(name, "", "the projection %v is not an IntTuple", args[3])
				}
				return LocalPartitionProj(l, tile, i, proj)
			}
			return LocalPartition(l, tile, i)
		},
	})
}
