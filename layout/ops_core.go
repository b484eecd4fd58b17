package layout

import "fmt"

// The core operations by their CuTe names, with CuTe's overloads resolved on
// the kinds of the arguments. Template parameters come as trailing integers.

// sizer and friends let other value kinds take part in size, cosize, rank
// and depth by defining the method, without a case here (composed layouts
// come in through their overloads in ops_composed.go).
type (
	sizer   interface{ Size() (int64, error) }
	cosizer interface{ Cosize() (int64, error) }
	ranker  interface{ Rank() int }
	depther interface{ Depth() int }
)

func init() {
	register(Op{Name: "size", Signature: "size<I...>(L)", Doc: "the number of coordinates of L (of its mode I...): the product of its shape", Apply: applySize})
	register(Op{Name: "cosize", Signature: "cosize<I...>(L)", Doc: "1 + sum((s-1)*|d|): the span of L's offsets (of its mode I...)", Apply: applyCosize})
	register(Op{Name: "rank", Signature: "rank<I...>(L)", Doc: "the number of top-level modes of L (of its mode I...)", Apply: applyRank})
	register(Op{Name: "depth", Signature: "depth<I...>(L)", Doc: "the nesting depth of L's shape (of its mode I...)", Apply: applyDepth})
	register(Op{Name: "crd2idx", Signature: "crd2idx(c, L)", Doc: "the offset of coordinate c (an index, an R-D or a natural coordinate) in L", Apply: applyCrd2Idx})
	register(Op{Name: "idx2crd", Signature: "idx2crd(c, S [, D])", Doc: "the natural coordinate of index c in shape S (of offset c in the compact layout S:D)", Apply: applyIdx2Crd})
	register(Op{Name: "coalesce", Signature: "coalesce(L [, P])", Doc: "L with size-1 modes dropped and contiguous modes merged (by mode of profile P); of a shape tuple, its static leaves multiplied", Apply: applyCoalesce})
	register(Op{Name: "filter_zeros", Signature: "filter_zeros(L [, P])", Doc: "L with the shape of every stride-0 mode set to 1; of a tuple, every static 0 leaf set to 1", Apply: applyFilterZeros})
	register(Op{Name: "filter", Signature: "filter(L [, P])", Doc: "coalesce(filter_zeros(L)): L without stride-0 and size-1 modes", Apply: applyFilter})
	register(Op{Name: "make_layout", Signature: "make_layout(S [, D | LayoutLeft | LayoutRight]) / make_layout(L0, L1, ...)", Doc: "the layout of shape S (compact, or with strides D), or the layout whose modes are L0, L1, ...", Apply: applyMakeLayout})
	register(Op{Name: "make_ordered_layout", Signature: "make_ordered_layout(S, O)", Doc: "the compact layout of S whose modes are laid out in the order O", Apply: applyMakeOrderedLayout})
	register(Op{Name: "make_identity_layout", Signature: "make_identity_layout(S)", Doc: "S with unit basis strides: each coordinate maps to itself", Apply: applyMakeIdentityLayout})
	register(Op{Name: "flatten", Signature: "flatten(L)", Doc: "the layout of the leaves of L", Apply: applyFlatten})
	register(Op{Name: "group", Signature: "group<B,E>(L)", Doc: "L with modes [B,E) gathered into one mode", Apply: applyGroup})
	register(Op{Name: "take", Signature: "take<B,E>(L)", Doc: "the modes [B,E) of L", Apply: applyTake})
	register(Op{Name: "select", Signature: "select<I...>(L)", Doc: "the listed modes of L, in that order", Apply: applySelect})
	register(Op{Name: "layout", Signature: "layout<I...>(L)", Doc: "the sub-layout of L at the hierarchical mode index I...", Apply: applyLayoutGet})
	register(Op{Name: "append", Signature: "append(L, X) / append<N>(L)", Doc: "L with X as a new last mode, or padded with 1:0 to rank N", Apply: applyAppend})
	register(Op{Name: "prepend", Signature: "prepend(L, X) / prepend<N>(L)", Doc: "L with X as a new first mode, or padded at the front with 1:0 to rank N", Apply: applyPrepend})
	register(Op{Name: "replace", Signature: "replace<N>(L, X)", Doc: "L with mode N replaced by X", Apply: applyReplace})
	register(Op{Name: "slice", Signature: "slice(c, L)", Doc: "the sub-layout of the modes where c holds _", Apply: applySlice})
	register(Op{Name: "dice", Signature: "dice(c, L)", Doc: "the sub-layout of the modes where c holds an integer", Apply: applyDice})
}

func argCount(op string, args []Value, lo, hi int) error {
	if len(args) < lo || hi >= 0 && len(args) > hi {
		want := fmt.Sprintf("%d", lo)
		switch {
		case hi < 0:
			want = fmt.Sprintf("at least %d", lo)
		case hi != lo:
			want = fmt.Sprintf("%d to %d", lo, hi)
		}
		return kindErrorf(op, "takes %s arguments, got %d", want, len(args))
	}
	return nil
}

// asLayout reads a layout argument; an integer N stands for N:1.
func coreLayoutArg(op string, v Value) (Layout, error) {
	switch v := v.(type) {
	case Layout:
		return v, nil
	case IntTuple:
		if v.isPlainInt() || v.kind == kindUnknown {
			return Layout{Shape: v, Stride: Int(1)}, nil
		}
	}
	return Layout{}, kindErrorf(op, "expected a layout, got %v (%s)", v, coreKindName(v))
}

func coreTupleArg(op string, v Value) (IntTuple, error) {
	if t, ok := v.(IntTuple); ok {
		return t, nil
	}
	return IntTuple{}, kindErrorf(op, "expected an integer tuple, got %v (%s)", v, coreKindName(v))
}

func coreIndexArg(op string, v Value) (int, error) {
	t, ok := v.(IntTuple)
	if !ok || !t.isPlainInt() {
		return 0, kindErrorf(op, "expected an integer template parameter, got %v", v)
	}
	if t.val < -1<<31 || t.val > 1<<31-1 {
		return 0, errorf(op, "", "template parameter %d out of range", t.val)
	}
	return int(t.val), nil
}

func coreIndexArgs(op string, args []Value) ([]int, error) {
	out := make([]int, len(args))
	for i, a := range args {
		n, err := coreIndexArg(op, a)
		if err != nil {
			return nil, atArg(i+2, err) // the indices follow the operand
		}
		out[i] = n
	}
	return out, nil
}

func coreKindName(v Value) string {
	switch v.(type) {
	case Layout:
		return "a layout"
	case IntTuple:
		return "an integer tuple"
	case Composed:
		return "a composed layout"
	case Swizzle:
		return "a swizzle"
	case Tiler:
		return "a tiler"
	case Tag:
		return "a tag"
	case TileLayout:
		return "a TIRx layout"
	case PointSet:
		return "a TIRx point set"
	case TiledMMA:
		return "a TiledMMA"
	case TiledCopy:
		return "a TiledCopy"
	case MMAAtom:
		return "an MMA atom"
	case CopyAtom:
		return "a copy atom"
	}
	return fmt.Sprintf("%T", v)
}

// intResult turns an integer answer into a Value; a CondUnknown error is the unknown "?".
func intResult(n int64, err error) (Value, error) {
	if IsUnknown(err) {
		return Unknown(), nil
	}
	if err != nil {
		return nil, err
	}
	return Int(n), nil
}

func notSupported(op string, v Value) error {
	return kindErrorf(op, "%s does not apply to %s (%v)", op, coreKindName(v), v)
}

// modeOfArgs reads the arguments (X, I...) of size<I...>(X) and its
// kin: X alone, or its mode I... (of a layout or an integer tuple).
func modeOfArgs(op string, args []Value) ([]Value, error) {
	if err := argCount(op, args, 1, -1); err != nil {
		return nil, err
	}
	if len(args) == 1 {
		return args, nil
	}
	is, err := coreIndexArgs(op, args[1:])
	if err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case IntTuple:
		m, err := getMode(op, v, is)
		return []Value{m}, err
	case Layout:
		m, err := v.Get(is...)
		return []Value{m}, err
	}
	return nil, atArg(1, kindErrorf(op, "%s<I...> takes a mode of a layout or an integer tuple, not of %s", op, coreKindName(args[0])))
}

func applySize(args []Value) (Value, error) {
	args, err := modeOfArgs("size", args)
	if err != nil {
		return nil, err
	}
	switch v := args[0].(type) {
	case IntTuple:
		p, err := Product(v)
		if err != nil {
			return nil, err
		}
		return p, nil
	case sizer:
		return intResult(v.Size())
	}
	return nil, atArg(1, notSupported("size", args[0]))
}

func applyCosize(args []Value) (Value, error) {
	args, err := modeOfArgs("cosize", args)
	if err != nil {
		return nil, err
	}
	if v, ok := args[0].(IntTuple); ok && v.IsLeaf() {
		args = []Value{Layout{Shape: v, Stride: Int(1)}}
	}
	if v, ok := args[0].(cosizer); ok {
		return intResult(v.Cosize())
	}
	return nil, atArg(1, notSupported("cosize", args[0]))
}

func applyRank(args []Value) (Value, error) {
	args, err := modeOfArgs("rank", args)
	if err != nil {
		return nil, err
	}
	if v, ok := args[0].(ranker); ok {
		return Int(int64(v.Rank())), nil
	}
	return nil, atArg(1, notSupported("rank", args[0]))
}

func applyDepth(args []Value) (Value, error) {
	args, err := modeOfArgs("depth", args)
	if err != nil {
		return nil, err
	}
	if v, ok := args[0].(depther); ok {
		return Int(int64(v.Depth())), nil
	}
	return nil, atArg(1, notSupported("depth", args[0]))
}

func applyCrd2Idx(args []Value) (Value, error) {
	if err := argCount("crd2idx", args, 2, 3); err != nil {
		return nil, err
	}
	c, err := coreTupleArg("crd2idx", args[0])
	if err != nil {
		return nil, atArg(1, err)
	}
	if len(args) == 3 { // crd2idx(c, shape, stride)
		s, err := coreTupleArg("crd2idx", args[1])
		if err != nil {
			return nil, atArg(2, err)
		}
		d, err := coreTupleArg("crd2idx", args[2])
		if err != nil {
			return nil, atArg(3, err)
		}
		return Crd2Idx(c, s, d)
	}
	if s, ok := args[1].(IntTuple); ok && s.IsTuple() { // crd2idx(c, shape): colexicographic
		return Crd2IdxColex(c, s)
	}
	l, err := coreLayoutArg("crd2idx", args[1])
	if err != nil {
		return nil, atArg(2, err)
	}
	return Crd2Idx(c, l.Shape, l.Stride)
}

func applyIdx2Crd(args []Value) (Value, error) {
	ts, err := tupleArgs("idx2crd", args, 2, 3)
	if err != nil {
		return nil, err
	}
	if len(ts) == 3 {
		return Idx2CrdStride(ts[0], ts[1], ts[2])
	}
	return Idx2Crd(ts[0], ts[1])
}

func applyProfiled(op string, args []Value, whole func(Layout) (Layout, error), prof func(Layout, IntTuple) (Layout, error)) (Value, error) {
	if err := argCount(op, args, 1, 2); err != nil {
		return nil, err
	}
	l, err := coreLayoutArg(op, args[0])
	if err != nil {
		return nil, atArg(1, err)
	}
	if len(args) == 1 {
		return whole(l)
	}
	p, err := coreTupleArg(op, args[1])
	if err != nil {
		return nil, atArg(2, err)
	}
	return prof(l, p)
}

// coalesce(S) and filter_zeros(T) of a tuple take CuTe's IntTuple overloads;
// an integer N stays the layout N:1, as everywhere a layout is expected.
func applyCoalesce(args []Value) (Value, error) {
	if t, ok := lonelyTuple(args); ok {
		return CoalesceShape(t)
	}
	return applyProfiled("coalesce", args, Coalesce, CoalesceProfile)
}

func applyFilterZeros(args []Value) (Value, error) {
	if t, ok := lonelyTuple(args); ok {
		return FilterZerosTuple(t), nil
	}
	return applyProfiled("filter_zeros", args, FilterZeros, FilterZerosProfile)
}

// lonelyTuple is the argument of a one-argument call when it is a tuple IntTuple.
func lonelyTuple(args []Value) (IntTuple, bool) {
	if len(args) != 1 {
		return IntTuple{}, false
	}
	t, ok := args[0].(IntTuple)
	return t, ok && t.IsTuple()
}

func applyFilter(args []Value) (Value, error) {
	return applyProfiled("filter", args, Filter, FilterProfile)
}

func applyMakeLayout(args []Value) (Value, error) {
	if err := argCount("make_layout", args, 1, -1); err != nil {
		return nil, err
	}
	switch first := args[0].(type) {
	case IntTuple:
		if len(args) == 1 {
			return MakeLayout(first)
		}
		if len(args) != 2 {
			return nil, errorf("make_layout", "", "a shape takes one stride or tag, got %d more arguments", len(args)-1)
		}
		switch second := args[1].(type) {
		case Tag:
			return MakeLayoutTag(first, second)
		case IntTuple:
			return MakeLayoutStride(first, second)
		}
		return nil, errorf("make_layout", "", "the second argument must be a stride or LayoutLeft/LayoutRight, got %v", args[1])
	case Layout:
		ls := make([]Layout, len(args))
		for i, a := range args {
			l, ok := a.(Layout)
			if !ok {
				return nil, errorf("make_layout", "", "argument %d is %v, not a layout", i, a)
			}
			ls[i] = l
		}
		return MakeLayoutOf(ls...), nil
	}
	return nil, atArg(1, notSupported("make_layout", args[0]))
}

func applyMakeOrderedLayout(args []Value) (Value, error) {
	if err := argCount("make_ordered_layout", args, 2, 2); err != nil {
		return nil, err
	}
	s, err := coreTupleArg("make_ordered_layout", args[0])
	if err != nil {
		return nil, atArg(1, err)
	}
	if tag, ok := args[1].(Tag); ok {
		return MakeLayoutTag(s, tag)
	}
	o, err := coreTupleArg("make_ordered_layout", args[1])
	if err != nil {
		return nil, atArg(2, err)
	}
	return MakeOrderedLayout(s, o)
}

func applyMakeIdentityLayout(args []Value) (Value, error) {
	if err := argCount("make_identity_layout", args, 1, 1); err != nil {
		return nil, err
	}
	s, err := coreTupleArg("make_identity_layout", args[0])
	if err != nil {
		return nil, atArg(1, err)
	}
	return MakeIdentityLayout(s)
}

func applyFlatten(args []Value) (Value, error) {
	if err := argCount("flatten", args, 1, 1); err != nil {
		return nil, err
	}
	if t, ok := args[0].(IntTuple); ok && t.IsTuple() {
		return Flatten(t), nil
	}
	l, err := coreLayoutArg("flatten", args[0])
	if err != nil {
		return nil, atArg(1, err)
	}
	return l.Flatten(), nil
}

// layoutAndIndices reads (L, i0, i1, ...).
func layoutAndIndices(op string, args []Value, lo, hi int) (Layout, []int, error) {
	if err := argCount(op, args, lo+1, hi+1); err != nil {
		return Layout{}, nil, err
	}
	l, err := coreLayoutArg(op, args[0])
	if err != nil {
		return Layout{}, nil, atArg(1, err)
	}
	is, err := coreIndexArgs(op, args[1:])
	if err != nil {
		return Layout{}, nil, err
	}
	return l, is, nil
}

func applyGroup(args []Value) (Value, error) {
	l, is, err := layoutAndIndices("group", args, 2, 2)
	if err != nil {
		return nil, err
	}
	return Group(l, is[0], is[1])
}

func applyTake(args []Value) (Value, error) {
	l, is, err := layoutAndIndices("take", args, 2, 2)
	if err != nil {
		return nil, err
	}
	return Take(l, is[0], is[1])
}

func applySelect(args []Value) (Value, error) {
	l, is, err := layoutAndIndices("select", args, 1, -2)
	if err != nil {
		return nil, err
	}
	return Select(l, is...)
}

func applyLayoutGet(args []Value) (Value, error) {
	l, is, err := layoutAndIndices("layout", args, 0, -2)
	if err != nil {
		return nil, err
	}
	return l.Get(is...)
}

func applyPad(op string, args []Value, pad func(Layout, int, Layout) (Layout, error), add func(Layout, Layout) Layout) (Value, error) {
	if err := argCount(op, args, 2, 3); err != nil {
		return nil, err
	}
	l, err := coreLayoutArg(op, args[0])
	if err != nil {
		return nil, atArg(1, err)
	}
	if t, ok := args[1].(IntTuple); ok && t.isPlainInt() { // op<N>(L [, X])
		n, err := coreIndexArg(op, t)
		if err != nil {
			return nil, atArg(2, err)
		}
		x := PadLayout
		if len(args) == 3 {
			if x, err = coreLayoutArg(op, args[2]); err != nil {
				return nil, atArg(3, err)
			}
		}
		return pad(l, n, x)
	}
	if len(args) != 2 {
		return nil, errorf(op, "", "%s(L, X) takes two arguments", op)
	}
	x, err := coreLayoutArg(op, args[1])
	if err != nil {
		return nil, atArg(2, err)
	}
	return add(l, x), nil
}

func applyAppend(args []Value) (Value, error) {
	return applyPad("append", args, AppendN, Append)
}

func applyPrepend(args []Value) (Value, error) {
	return applyPad("prepend", args, PrependN, Prepend)
}

func applyReplace(args []Value) (Value, error) {
	if err := argCount("replace", args, 3, 3); err != nil {
		return nil, err
	}
	l, err := coreLayoutArg("replace", args[0])
	if err != nil {
		return nil, atArg(1, err)
	}
	n, err := coreIndexArg("replace", args[1])
	if err != nil {
		return nil, atArg(2, err)
	}
	x, err := coreLayoutArg("replace", args[2])
	if err != nil {
		return nil, atArg(3, err)
	}
	return Replace(l, n, x)
}

func applySliceOrDice(op string, args []Value, f func(IntTuple, Layout) (Layout, error)) (Value, error) {
	c, l, err := sliceArgs(op, args)
	if err != nil {
		return nil, err
	}
	return f(c, l)
}

// sliceArgs reads the arguments (c, L) of a slicing operation.
func sliceArgs(op string, args []Value) (IntTuple, Layout, error) {
	if err := argCount(op, args, 2, 2); err != nil {
		return IntTuple{}, Layout{}, err
	}
	c, err := coreTupleArg(op, args[0])
	if err != nil {
		return IntTuple{}, Layout{}, atArg(1, err)
	}
	l, err := coreLayoutArg(op, args[1])
	return c, l, err
}

func applySlice(args []Value) (Value, error) { return applySliceOrDice("slice", args, Slice) }

func applyDice(args []Value) (Value, error) { return applySliceOrDice("dice", args, Dice) }

// Bool is a yes/no answer of a CuTe predicate (congruent, compatible, ...).
type Bool bool

func (b Bool) String() string {
	if b {
		return "true"
	}
	return "false"
}

func init() {
	register(Op{Name: "shape", Signature: "shape<I...>(L)", Doc: "the shape of L (of its mode I...)", Apply: func(args []Value) (Value, error) {
		return applyTreeOf("shape", args, func(l Layout) IntTuple { return l.Shape })
	}})
	register(Op{Name: "stride", Signature: "stride<I...>(L)", Doc: "the stride of L (of its mode I...)", Apply: func(args []Value) (Value, error) {
		return applyTreeOf("stride", args, func(l Layout) IntTuple { return l.Stride })
	}})
	tuple1 := func(name, doc string, f func(IntTuple) (IntTuple, error)) {
		register(Op{Name: name, Signature: name + "(T)", Doc: doc, Apply: func(args []Value) (Value, error) {
			ts, err := tupleArgs(name, args, 1, 1)
			if err != nil {
				return nil, err
			}
			return f(ts[0])
		}})
	}
	tuple2 := func(name, doc string, f func(a, b IntTuple) (IntTuple, error)) {
		register(Op{Name: name, Signature: name + "(A, B)", Doc: doc, Apply: func(args []Value) (Value, error) {
			ts, err := tupleArgs(name, args, 2, 2)
			if err != nil {
				return nil, err
			}
			return f(ts[0], ts[1])
		}})
	}
	pred2 := func(name, doc string, f func(a, b IntTuple) bool) {
		register(Op{Name: name, Signature: name + "(A, B)", Doc: doc, Apply: func(args []Value) (Value, error) {
			ts, err := tupleArgs(name, args, 2, 2)
			if err != nil {
				return nil, err
			}
			return Bool(f(ts[0], ts[1])), nil
		}})
	}
	tuple1("product", "the product of the leaves of T", Product)
	tuple1("sum", "the sum of the leaves of T", Sum)
	for _, r := range []struct {
		name, doc string
		f         func(a, b int64) int64
	}{
		{"max", "the largest leaf of T and of the other arguments", maxLeaf},
		{"min", "the smallest leaf of T and of the other arguments", minLeaf},
		{"gcd", "the greatest common divisor of the leaves of T and of the other arguments, folded from the right as CuTe does", cuteGcd},
	} {
		register(Op{Name: r.name, Signature: r.name + "(T, ...)", Doc: r.doc, Apply: func(args []Value) (Value, error) {
			ts, err := tupleArgs(r.name, args, 1, -1)
			if err != nil {
				return nil, err
			}
			return reduceLeaves(r.name, ts, r.f)
		}})
	}
	// compact_col_major(S, current) and compact_row_major(S, current) start
	// at current, as CuTe's default argument does (1 when left out).
	for _, m := range []struct {
		name, doc string
		major     Tag
	}{
		{"compact_col_major", "the column-major (LayoutLeft) strides of shape T, the first being current (default 1)", LayoutLeft},
		{"compact_row_major", "the row-major (LayoutRight) strides of shape T, the last being current (default 1)", LayoutRight},
	} {
		register(Op{Name: m.name, Signature: m.name + "(T [, current])", Doc: m.doc, Apply: func(args []Value) (Value, error) {
			ts, err := tupleArgs(m.name, args, 1, 2)
			if err != nil {
				return nil, err
			}
			current := Int(1)
			if len(ts) == 2 {
				current = ts[1]
			}
			return CompactMajor(ts[0], current, m.major)
		}})
	}
	tuple2("inner_product", "sum(a_i * b_i) over congruent A and B", InnerProduct)
	tuple2("ceil_div", "A / B rounded up, mode by mode or folded across A's modes", CeilDiv)
	tuple2("shape_div", "A / B for shapes, with CuTe's divisibility check", ShapeDiv)
	tuple2("elem_scale", "each leaf of A times the size of the matching mode of B", ElemScale)
	register(Op{Name: "compact_order", Signature: "compact_order(A, B | LayoutLeft | LayoutRight)", Doc: "compact strides for shape A laid out in the order B (a tag: compact_col_major or compact_row_major)", Apply: func(args []Value) (Value, error) {
		if err := argCount("compact_order", args, 2, 2); err != nil {
			return nil, err
		}
		if tag, ok := args[1].(Tag); ok {
			shape, err := coreTupleArg("compact_order", args[0])
			if err != nil {
				return nil, atArg(1, err)
			}
			return CompactMajor(shape, Int(1), tag)
		}
		ts, err := tupleArgs("compact_order", args, 2, 2)
		if err != nil {
			return nil, err
		}
		return CompactOrder(ts[0], ts[1])
	}})
	register(Op{Name: "unflatten", Signature: "unflatten(A, B)", Doc: "the flat tuple A (or the modes of the flat layout A) regrouped into the profile B", Apply: func(args []Value) (Value, error) {
		if err := argCount("unflatten", args, 2, 2); err != nil {
			return nil, err
		}
		if l, ok := args[0].(Layout); ok {
			profile, err := coreTupleArg("unflatten", args[1])
			if err != nil {
				return nil, atArg(2, err)
			}
			return UnflattenLayout(l, profile)
		}
		ts, err := tupleArgs("unflatten", args, 2, 2)
		if err != nil {
			return nil, err
		}
		return Unflatten(ts[0], ts[1])
	}})
	tuple2("prefix_product", "the exclusive prefix product of A starting at B", PrefixProduct)
	tuple2("suffix_product", "the exclusive suffix product of A starting at B", SuffixProduct)
	pred2("congruent", "whether A and B have the same profile", Congruent)
	pred2("weakly_congruent", "whether A's profile is a coarsening of B's", WeaklyCongruent)
	pred2("compatible", "whether every coordinate of shape A is a coordinate of shape B", Compatible)
	register(Op{Name: "elem_less", Signature: "elem_less(A, B)", Doc: "whether every leaf of A is less than the matching leaf of B", Apply: func(args []Value) (Value, error) {
		ts, err := tupleArgs("elem_less", args, 2, 2)
		if err != nil {
			return nil, err
		}
		ok, err := ElemLess(ts[0], ts[1])
		if err != nil {
			return nil, err
		}
		return Bool(ok), nil
	}})
	register(Op{Name: "crd2crd", Signature: "crd2crd(c, S, D)", Doc: "coordinate c of shape S as the coordinate of shape D with the same index", Apply: func(args []Value) (Value, error) {
		ts, err := tupleArgs("crd2crd", args, 3, 3)
		if err != nil {
			return nil, err
		}
		return Crd2Crd(ts[0], ts[1], ts[2])
	}})
}

func tupleArgs(op string, args []Value, lo, hi int) ([]IntTuple, error) {
	if err := argCount(op, args, lo, hi); err != nil {
		return nil, err
	}
	out := make([]IntTuple, len(args))
	for i, a := range args {
		t, err := coreTupleArg(op, a)
		if err != nil {
			return nil, atArg(i+1, err)
		}
		out[i] = t
	}
	return out, nil
}

func applyTreeOf(op string, args []Value, tree func(Layout) IntTuple) (Value, error) {
	l, is, err := layoutAndIndices(op, args, 0, -2)
	if err != nil {
		return nil, err
	}
	m, err := l.Get(is...)
	if err != nil {
		return nil, err
	}
	return tree(m), nil
}
