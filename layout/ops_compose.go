package layout

import "fmt"

// Registration of composition, complement, the inverses, max_common_* and
// nullspace, with CuTe's overloads resolved on the argument kinds.

func init() {
	register(Op{
		Name:      "composition",
		Signature: "composition(A, B)",
		Doc:       "A o B: the layout with B's shape whose value at i is A(B(i)); B is a layout, a tiler (by mode) or an integer N (N:1)",
		Apply: func(args []Value) (Value, error) {
			if err := wantArgs("composition", args, 2, 2); err != nil {
				return nil, err
			}
			return compositionOf(args[0], args[1])
		},
	})
	register(Op{
		Name:      "complement",
		Signature: "complement(A [, M])",
		Doc:       "the layout of the indices below M (default cosize(filter(A))) that A does not reach, sorted by stride",
		Apply: func(args []Value) (Value, error) {
			if err := wantArgs("complement", args, 1, 2); err != nil {
				return nil, err
			}
			a, err := layoutArg("complement", args, 0)
			if err != nil {
				return nil, err
			}
			if len(args) == 1 {
				return Complement(a)
			}
			m, ok := args[1].(IntTuple)
			if !ok {
				return nil, &Error{Op: "complement", Detail: "the cotarget must be an integer or a shape, not " + kindName(args[1])}
			}
			return ComplementTo(a, m)
		},
	})
	for _, name := range []string{"right_inverse", "left_inverse"} {
		doc := "the layout R with A(R(i)) == i for i < size(R)"
		if name == "left_inverse" {
			doc = "the layout L with L(A(i)) == i for i < size(A) (A injective)"
		}
		register(Op{
			Name:      name,
			Signature: name + "(A)",
			Doc:       doc,
			Apply: func(args []Value) (Value, error) {
				if err := wantArgs(name, args, 1, 1); err != nil {
					return nil, err
				}
				return inverseOf(name, args[0])
			},
		})
	}
	register(Op{
		Name:      "max_common_layout",
		Signature: "max_common_layout(A, B)",
		Doc:       "the layout R of the longest run 0,1,2,... of indices with A(R(i)) == B(R(i)) == i",
		Apply: func(args []Value) (Value, error) {
			a, b, err := layoutPair("max_common_layout", args)
			if err != nil {
				return nil, err
			}
			return MaxCommonLayout(a, b)
		},
	})
	register(Op{
		Name:      "max_common_vector",
		Signature: "max_common_vector(A, B)",
		Doc:       "the number of contiguous indices A and B reach at the same coordinates (at least 1)",
		Apply: func(args []Value) (Value, error) {
			a, b, err := layoutPair("max_common_vector", args)
			if err != nil {
				return nil, err
			}
			n, err := MaxCommonVector(a, b)
			if err != nil {
				return nil, err
			}
			return Int(n), nil
		},
	})
	register(Op{
		Name:      "nullspace",
		Signature: "nullspace(A)",
		Doc:       "the layout over A's stride-0 coordinates (in A's compact index space), all mapped to 0 by A",
		Apply: func(args []Value) (Value, error) {
			if err := wantArgs("nullspace", args, 1, 1); err != nil {
				return nil, err
			}
			a, err := layoutArg("nullspace", args, 0)
			if err != nil {
				return nil, err
			}
			return Nullspace(a)
		},
	})
}

// wantArgs checks the argument count of op.
func wantArgs(op string, args []Value, least, most int) error {
	if len(args) >= least && len(args) <= most {
		return nil
	}
	want := fmt.Sprint(least)
	if most > least {
		want = fmt.Sprintf("%d to %d", least, most)
	}
	return kindErrorf(op, "takes %s arguments, got %d", want, len(args))
}

// layoutArg is argument i of op as a layout; an integer N is the layout N:1.
func layoutArg(op string, args []Value, i int) (Layout, error) {
	switch v := args[i].(type) {
	case Layout:
		return v, nil
	case IntTuple:
		if v.IsLeaf() {
			if err := checkIntLeaf(op, v); err != nil {
				return Layout{}, err
			}
			return Layout{Shape: v, Stride: Int(1)}, nil
		}
	}
	return Layout{}, &Error{Op: op, Detail: fmt.Sprintf("expected a layout, not %s", kindName(args[i])), Kind: true, Arg: i + 1}
}

func layoutPair(op string, args []Value) (Layout, Layout, error) {
	if err := wantArgs(op, args, 2, 2); err != nil {
		return Layout{}, Layout{}, err
	}
	a, err := layoutArg(op, args, 0)
	if err != nil {
		return Layout{}, Layout{}, err
	}
	b, err := layoutArg(op, args, 1)
	if err != nil {
		return Layout{}, Layout{}, err
	}
	return a, b, nil
}
