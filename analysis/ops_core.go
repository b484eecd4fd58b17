package analysis

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// The core operations by their CuTe names, with CuTe's overloads resolved on
// the kinds of the arguments. Template parameters come as trailing integers.

// sizer and friends let other value kinds take part in size, cosize, rank
// and depth by defining the method, without a case here (swizzled layouts
// are answered from their inner layout: fromInner).
type (
	sizer   interface{ Size() (int64, error) }
	cosizer interface{ Cosize() (int64, error) }
	ranker  interface{ Rank() int }
	depther interface{ Depth() int }
)

func argCount(op string, args []layout.Value, lo, hi int) error {
	if len(args) < lo || hi >= 0 && len(args) > hi {
		want := fmt.Sprintf("%d", lo)
		switch {
		case hi < 0:
			want = fmt.Sprintf("at least %d", lo)
		case hi != lo:
			want = fmt.Sprintf("%d to %d", lo, hi)
		}
		return layout.KindErrorf(op, "takes %s arguments, got %d", want, len(args))
	}
	return nil
}

// asLayout reads a layout argument; an integer N stands for N:1.
func coreLayoutArg(op string, v layout.Value) (layout.Layout, error) {
	switch v := v.(type) {
	case *layout.Layout:
		return *v, nil
	case layout.IntTuple:
		if layout.IsPlainInt(v) || v.IsUnknown() {
			return layout.Layout{Shape: v, Stride: layout.Int(1)}, nil
		}
	}
	return layout.Layout{}, layout.KindErrorf(op, "expected a layout, got %v (%s)", v, layout.KindName(v))
}

func coreTupleArg(op string, v layout.Value) (layout.IntTuple, error) {
	if t, ok := v.(layout.IntTuple); ok {
		return t, nil
	}
	return layout.IntTuple{}, layout.KindErrorf(op, "expected an integer tuple, got %v (%s)", v, layout.KindName(v))
}

func coreIndexArg(op string, v layout.Value) (int, error) {
	t, ok := v.(layout.IntTuple)
	if !ok || !layout.IsPlainInt(t) {
		return 0, layout.KindErrorf(op, "expected an integer template parameter, got %v", v)
	}
	if t.Value() < -1<<31 || t.Value() > 1<<31-1 {
		return 0, layout.Errorf(op, "", "template parameter %d out of range", t.Value())
	}
	return int(t.Value()), nil
}

// maxIndices is how many template indices the adapters read without a
// heap allocation (more still work).
const maxIndices = 8

// coreIndexArgs reads template indices into buf.
func coreIndexArgs(op string, args []layout.Value, buf *[maxIndices]int) ([]int, error) {
	out := buf[:0]
	for i, a := range args {
		n, err := coreIndexArg(op, a)
		if err != nil {
			return nil, layout.AtArg(i+2, err) // the indices follow the operand
		}
		out = append(out, n)
	}
	return out, nil
}

// intResult turns an integer answer into a Value; a CondUnknown error is the unknown "?".
func intResult(n int64, err error) (layout.Value, error) {
	if err != nil {
		if layout.IsUnknown(err) {
			return layout.Unknown(), nil
		}
		return nil, err
	}
	return intValue(n, true), nil
}

func notSupported(op string, v layout.Value) error {
	return layout.KindErrorf(op, "%s does not apply to %s (%v)", op, layout.KindName(v), v)
}

// modeArg is X of size<I...>(X) and its kin: X itself, or its mode I...
// (of a layout or an integer tuple); a layout is held as one, unboxed.
type modeArg struct {
	v        layout.Value // when !isLayout
	l        layout.Layout
	isLayout bool
}

func (m modeArg) value() layout.Value {
	if m.isLayout {
		return layout.Box(m.l)
	}
	return m.v
}

// modeOfArgs reads the arguments (X, I...) of size<I...>(X) and its kin.
func modeOfArgs(op string, args []layout.Value) (modeArg, error) {
	if err := argCount(op, args, 1, -1); err != nil {
		return modeArg{}, err
	}
	if len(args) == 1 {
		if l, ok := args[0].(*layout.Layout); ok {
			return modeArg{l: *l, isLayout: true}, nil
		}
		return modeArg{v: args[0]}, nil
	}
	var buf [maxIndices]int
	is, err := coreIndexArgs(op, args[1:], &buf)
	if err != nil {
		return modeArg{}, err
	}
	switch v := args[0].(type) {
	case layout.IntTuple:
		m, err := layout.GetMode(op, v, is)
		return modeArg{v: m}, err
	case *layout.Layout:
		m, err := v.Get(is...)
		return modeArg{l: m, isLayout: true}, err
	}
	return modeArg{}, layout.AtArg(1, layout.KindErrorf(op, "%s<I...> takes a mode of a layout or an integer tuple, not of %s", op, layout.KindName(args[0])))
}

func applySize(args []layout.Value) (layout.Value, error) {
	if len(args) == 1 {
		switch v := args[0].(type) {
		case *layout.Layout: // the common call, without fromInner's and modeOfArgs's tests
			return intResult(v.Size())
		case tirx.Layout:
			return sizeOfTIRx(v)
		}
	}
	if v, ok, err := fromInner("size", args, applySize); ok {
		return v, err
	}
	m, err := modeOfArgs("size", args)
	if err != nil {
		return nil, err
	}
	if m.isLayout {
		return intResult(m.l.Size())
	}
	switch v := m.v.(type) {
	case layout.IntTuple:
		p, err := layout.Product(v)
		if err != nil {
			return nil, err
		}
		return tupleValue(p), nil
	case sizer:
		return intResult(v.Size())
	}
	return nil, layout.AtArg(1, notSupported("size", m.v))
}

func applyCosize(args []layout.Value) (layout.Value, error) {
	if l := args0Layout(args); l != nil && len(args) == 1 { // the common call
		return intResult(l.Cosize())
	}
	if v, ok, err := fromInner("cosize", args, applyCosize); ok {
		return v, err
	}
	m, err := modeOfArgs("cosize", args)
	if err != nil {
		return nil, err
	}
	if v, ok := m.v.(layout.IntTuple); ok && v.IsLeaf() {
		m = modeArg{l: layout.Layout{Shape: v, Stride: layout.Int(1)}, isLayout: true}
	}
	if m.isLayout {
		return intResult(m.l.Cosize())
	}
	if v, ok := m.v.(cosizer); ok {
		return intResult(v.Cosize())
	}
	return nil, layout.AtArg(1, notSupported("cosize", m.v))
}

func applyRank(args []layout.Value) (layout.Value, error) {
	if l := args0Layout(args); l != nil && len(args) == 1 { // the common call
		return intValue(int64(l.Rank()), true), nil
	}
	if v, ok, err := fromInner("rank", args, applyRank); ok {
		return v, err
	}
	m, err := modeOfArgs("rank", args)
	if err != nil {
		return nil, err
	}
	if m.isLayout {
		return intValue(int64(m.l.Rank()), true), nil
	}
	if v, ok := m.v.(ranker); ok {
		return intValue(int64(v.Rank()), true), nil
	}
	return nil, layout.AtArg(1, notSupported("rank", m.v))
}

func applyDepth(args []layout.Value) (layout.Value, error) {
	if l := args0Layout(args); l != nil && len(args) == 1 { // the common call
		return intValue(int64(l.Depth()), true), nil
	}
	if v, ok, err := fromInner("depth", args, applyDepth); ok {
		return v, err
	}
	m, err := modeOfArgs("depth", args)
	if err != nil {
		return nil, err
	}
	if m.isLayout {
		return intValue(int64(m.l.Depth()), true), nil
	}
	if v, ok := m.v.(depther); ok {
		return intValue(int64(v.Depth()), true), nil
	}
	return nil, layout.AtArg(1, notSupported("depth", m.v))
}

func applyCrd2Idx(args []layout.Value) (layout.Value, error) {
	if err := argCount("crd2idx", args, 2, 3); err != nil {
		return nil, err
	}
	c, err := coreTupleArg("crd2idx", args[0])
	if err != nil {
		return nil, layout.AtArg(1, err)
	}
	if len(args) == 3 { // crd2idx(c, shape, stride)
		s, err := coreTupleArg("crd2idx", args[1])
		if err != nil {
			return nil, layout.AtArg(2, err)
		}
		d, err := coreTupleArg("crd2idx", args[2])
		if err != nil {
			return nil, layout.AtArg(3, err)
		}
		return layout.Crd2Idx(c, s, d)
	}
	if s, ok := args[1].(layout.IntTuple); ok && s.IsTuple() { // crd2idx(c, shape): colexicographic
		return layout.Crd2IdxColex(c, s)
	}
	l, err := coreLayoutArg("crd2idx", args[1])
	if err != nil {
		return nil, layout.AtArg(2, err)
	}
	return layout.Crd2Idx(c, l.Shape, l.Stride)
}

func applyIdx2Crd(args []layout.Value) (layout.Value, error) {
	if err := argCount("idx2crd", args, 2, 3); err != nil {
		return nil, err
	}
	c, err := tupleAt("idx2crd", args, 0)
	if err != nil {
		return nil, err
	}
	s, err := tupleAt("idx2crd", args, 1)
	if err != nil {
		return nil, err
	}
	if len(args) == 3 {
		d, err := tupleAt("idx2crd", args, 2)
		if err != nil {
			return nil, err
		}
		return layout.Idx2CrdStride(c, s, d)
	}
	return layout.Idx2Crd(c, s)
}

func applyProfiled(op string, args []layout.Value, whole func(layout.Layout) (layout.Layout, error), prof func(layout.Layout, layout.IntTuple) (layout.Layout, error)) (layout.Value, error) {
	if err := argCount(op, args, 1, 2); err != nil {
		return nil, err
	}
	l, err := coreLayoutArg(op, args[0])
	if err != nil {
		return nil, layout.AtArg(1, err)
	}
	if len(args) == 1 {
		out, err := whole(l)
		return sameOr(&out, &l, args[0]), err
	}
	p, err := coreTupleArg(op, args[1])
	if err != nil {
		return nil, layout.AtArg(2, err)
	}
	return layout.Boxed(prof(l, p))
}

// sameOr is out as a Value: arg itself where out is a leaf layout equal to
// in, the layout arg holds (a leaf layout coalesces to itself, by value:
// no new box for it), else out.Value() (which is arg's too where out has
// arg's trees: an operation that changes nothing returns them).
func sameOr(out, in *layout.Layout, arg layout.Value) layout.Value {
	if !out.Shape.IsTuple() && out.SameAs(in) {
		if _, ok := arg.(*layout.Layout); ok {
			return arg
		}
	}
	return out.Value()
}

// coalesce(S) and filter_zeros(T) of a tuple take CuTe's IntTuple overloads;
// an integer N stays the layout N:1, as everywhere a layout is expected.
func applyCoalesce(args []layout.Value) (layout.Value, error) {
	if len(args) == 1 { // coalesce(L) of a layout, the common call, without the overloads' tests
		if l, ok := args[0].(*layout.Layout); ok {
			return result(layout.Coalesce(l))
		}
	}
	if c, ok := firstComposed(args); ok {
		return onInner("coalesce", c, args, applyCoalesce)
	}
	if t, ok := lonelyTuple(args); ok {
		return layout.CoalesceShape(t)
	}
	return applyProfiled("coalesce", args, func(l layout.Layout) (layout.Layout, error) { return layout.Deref(layout.Coalesce(&l)) }, layout.CoalesceProfile)
}

func applyFilterZeros(args []layout.Value) (layout.Value, error) {
	if t, ok := lonelyTuple(args); ok {
		return layout.FilterZerosTuple(t), nil
	}
	return applyProfiled("filter_zeros", args, layout.FilterZeros, layout.FilterZerosProfile)
}

// lonelyTuple is the argument of a one-argument call when it is a tuple IntTuple.
func lonelyTuple(args []layout.Value) (layout.IntTuple, bool) {
	if len(args) != 1 {
		return layout.IntTuple{}, false
	}
	t, ok := args[0].(layout.IntTuple)
	return t, ok && t.IsTuple()
}

func applyFilter(args []layout.Value) (layout.Value, error) {
	if len(args) == 2 {
		// CuTe's filter of a swizzled layout takes a profile; filter(L) alone is not defined.
		if c, ok := args[0].(layout.Composed); ok {
			return onInner("filter", c, args, applyFilter)
		}
	}
	return applyProfiled("filter", args, layout.Filter, layout.FilterProfile)
}

func applyMakeLayout(args []layout.Value) (layout.Value, error) {
	if len(args) == 1 {
		if sw, ok := args[0].(layout.Swizzle); ok {
			return layout.MakeSwizzleLayout(sw)
		}
	}
	if err := argCount("make_layout", args, 1, -1); err != nil {
		return nil, err
	}
	switch first := args[0].(type) {
	case layout.IntTuple:
		if len(args) == 1 {
			return layout.Boxed(layout.MakeLayout(first))
		}
		if len(args) != 2 {
			return nil, layout.Errorf("make_layout", "", "a shape takes one stride or tag, got %d more arguments", len(args)-1)
		}
		switch second := args[1].(type) {
		case layout.Tag:
			return layout.Boxed(layout.MakeLayoutTag(first, second))
		case layout.IntTuple:
			return layout.Boxed(layout.MakeLayoutStride(first, second))
		}
		return nil, layout.Errorf("make_layout", "", "the second argument must be a stride or LayoutLeft/LayoutRight, got %v", args[1])
	case *layout.Layout:
		ls := make([]layout.Layout, len(args))
		for i, a := range args {
			l, ok := a.(*layout.Layout)
			if !ok {
				return nil, layout.Errorf("make_layout", "", "argument %d is %v, not a layout", i, a)
			}
			ls[i] = *l
		}
		return layout.Box(layout.MakeLayoutOf(ls...)), nil
	}
	return nil, layout.AtArg(1, notSupported("make_layout", args[0]))
}

func applyMakeOrderedLayout(args []layout.Value) (layout.Value, error) {
	if err := argCount("make_ordered_layout", args, 2, 2); err != nil {
		return nil, err
	}
	s, err := coreTupleArg("make_ordered_layout", args[0])
	if err != nil {
		return nil, layout.AtArg(1, err)
	}
	if tag, ok := args[1].(layout.Tag); ok {
		return layout.Boxed(layout.MakeLayoutTag(s, tag))
	}
	o, err := coreTupleArg("make_ordered_layout", args[1])
	if err != nil {
		return nil, layout.AtArg(2, err)
	}
	return layout.Boxed(layout.MakeOrderedLayout(s, o))
}

func applyMakeIdentityLayout(args []layout.Value) (layout.Value, error) {
	if err := argCount("make_identity_layout", args, 1, 1); err != nil {
		return nil, err
	}
	s, err := coreTupleArg("make_identity_layout", args[0])
	if err != nil {
		return nil, layout.AtArg(1, err)
	}
	return layout.Boxed(layout.MakeIdentityLayout(s))
}

func applyFlatten(args []layout.Value) (layout.Value, error) {
	if c, ok := firstComposed(args); ok {
		return onInner("flatten", c, args, applyFlatten)
	}
	if err := argCount("flatten", args, 1, 1); err != nil {
		return nil, err
	}
	if t, ok := args[0].(layout.IntTuple); ok && t.IsTuple() {
		return layout.Flatten(t), nil
	}
	l, err := coreLayoutArg("flatten", args[0])
	if err != nil {
		return nil, layout.AtArg(1, err)
	}
	return layout.Box(l.Flatten()), nil
}

// layoutAndIndices reads (L, i0, i1, ...).
func layoutAndIndices(op string, args []layout.Value, lo, hi int, buf *[maxIndices]int) (layout.Layout, []int, error) {
	if err := argCount(op, args, lo+1, hi+1); err != nil {
		return layout.Layout{}, nil, err
	}
	l, err := coreLayoutArg(op, args[0])
	if err != nil {
		return layout.Layout{}, nil, layout.AtArg(1, err)
	}
	is, err := coreIndexArgs(op, args[1:], buf)
	if err != nil {
		return layout.Layout{}, nil, err
	}
	return l, is, nil
}

func applyGroup(args []layout.Value) (layout.Value, error) {
	if c, ok := firstComposed(args); ok {
		return onInner("group", c, args, applyGroup)
	}
	var buf [maxIndices]int
	l, is, err := layoutAndIndices("group", args, 2, 2, &buf)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(layout.Group(l, is[0], is[1]))
}

func applyTake(args []layout.Value) (layout.Value, error) {
	if c, ok := firstComposed(args); ok {
		return onInner("take", c, args, applyTake)
	}
	var buf [maxIndices]int
	l, is, err := layoutAndIndices("take", args, 2, 2, &buf)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(layout.Take(l, is[0], is[1]))
}

func applySelect(args []layout.Value) (layout.Value, error) {
	var buf [maxIndices]int
	l, is, err := layoutAndIndices("select", args, 1, -2, &buf)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(layout.Select(l, is...))
}

func applyLayoutGet(args []layout.Value) (layout.Value, error) {
	if c, ok := firstComposed(args); ok {
		return onInner("layout", c, args, applyLayoutGet)
	}
	var buf [maxIndices]int
	l, is, err := layoutAndIndices("layout", args, 0, -2, &buf)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(l.Get(is...))
}

func applyPad(op string, args []layout.Value, pad func(layout.Layout, int, layout.Layout) (layout.Layout, error), add func(layout.Layout, layout.Layout) layout.Layout) (layout.Value, error) {
	if err := argCount(op, args, 2, 3); err != nil {
		return nil, err
	}
	l, err := coreLayoutArg(op, args[0])
	if err != nil {
		return nil, layout.AtArg(1, err)
	}
	if t, ok := args[1].(layout.IntTuple); ok && layout.IsPlainInt(t) { // op<N>(L [, X])
		n, err := coreIndexArg(op, t)
		if err != nil {
			return nil, layout.AtArg(2, err)
		}
		x := layout.PadLayout
		if len(args) == 3 {
			if x, err = coreLayoutArg(op, args[2]); err != nil {
				return nil, layout.AtArg(3, err)
			}
		}
		return layout.Boxed(pad(l, n, x))
	}
	if len(args) != 2 {
		return nil, layout.Errorf(op, "", "%s(L, X) takes two arguments", op)
	}
	x, err := coreLayoutArg(op, args[1])
	if err != nil {
		return nil, layout.AtArg(2, err)
	}
	return layout.Box(add(l, x)), nil
}

func applyAppend(args []layout.Value) (layout.Value, error) {
	return applyPad("append", args, layout.AppendN, layout.Append)
}

func applyPrepend(args []layout.Value) (layout.Value, error) {
	return applyPad("prepend", args, layout.PrependN, layout.Prepend)
}

func applyReplace(args []layout.Value) (layout.Value, error) {
	if err := argCount("replace", args, 3, 3); err != nil {
		return nil, err
	}
	l, err := coreLayoutArg("replace", args[0])
	if err != nil {
		return nil, layout.AtArg(1, err)
	}
	n, err := coreIndexArg("replace", args[1])
	if err != nil {
		return nil, layout.AtArg(2, err)
	}
	x, err := coreLayoutArg("replace", args[2])
	if err != nil {
		return nil, layout.AtArg(3, err)
	}
	return layout.Boxed(layout.Replace(l, n, x))
}

func applySliceOrDice(op string, args []layout.Value, f func(layout.IntTuple, layout.Layout) (layout.Layout, error)) (layout.Value, error) {
	c, l, err := sliceArgs(op, args)
	if err != nil {
		return nil, err
	}
	return layout.Boxed(f(c, l))
}

// sliceArgs reads the arguments (c, L) of a slicing operation.
func sliceArgs(op string, args []layout.Value) (layout.IntTuple, layout.Layout, error) {
	if err := argCount(op, args, 2, 2); err != nil {
		return layout.IntTuple{}, layout.Layout{}, err
	}
	c, err := coreTupleArg(op, args[0])
	if err != nil {
		return layout.IntTuple{}, layout.Layout{}, layout.AtArg(1, err)
	}
	l, err := coreLayoutArg(op, args[1])
	return c, l, err
}

// applySlice is slice(c, L); of a swizzled layout, CuTe slices the inner
// layout and accumulates the offset of the cut in the swizzled layout.
func applySlice(args []layout.Value) (layout.Value, error) {
	if coord, c, ok := composedSliceArgs(args); ok {
		return layout.SliceComposed(coord, c)
	}
	return applySliceOrDice("slice", args, layout.Slice)
}

func applyDice(args []layout.Value) (layout.Value, error) {
	return applySliceOrDice("dice", args, layout.Dice)
}

func applyShape(args []layout.Value) (layout.Value, error) {
	if v, ok, err := fromInner("shape", args, applyShape); ok {
		return v, err
	}
	l, err := modeLayout("shape", args)
	if err != nil {
		return nil, err
	}
	return l.Shape, nil
}

func applyStride(args []layout.Value) (layout.Value, error) {
	l, err := modeLayout("stride", args)
	if err != nil {
		return nil, err
	}
	return l.Stride, nil
}

// modeLayout reads (L, I...) of shape<I...>(L) and stride<I...>(L): the mode of L at I....
func modeLayout(op string, args []layout.Value) (layout.Layout, error) {
	var buf [maxIndices]int
	l, is, err := layoutAndIndices(op, args, 0, -2, &buf)
	if err != nil {
		return layout.Layout{}, err
	}
	return l.Get(is...)
}

func applyProduct(args []layout.Value) (layout.Value, error) {
	t, err := soleTuple("product", args)
	if err != nil {
		return nil, err
	}
	return layout.Product(t)
}

func applySum(args []layout.Value) (layout.Value, error) {
	t, err := soleTuple("sum", args)
	if err != nil {
		return nil, err
	}
	return layout.Sum(t)
}

func applyMax(args []layout.Value) (layout.Value, error) {
	ts, err := tupleArgs("max", args, 1, -1)
	if err != nil {
		return nil, err
	}
	return layout.MaxOf(ts...)
}

func applyMin(args []layout.Value) (layout.Value, error) {
	ts, err := tupleArgs("min", args, 1, -1)
	if err != nil {
		return nil, err
	}
	return layout.MinOf(ts...)
}

func applyGcd(args []layout.Value) (layout.Value, error) {
	ts, err := tupleArgs("gcd", args, 1, -1)
	if err != nil {
		return nil, err
	}
	return layout.GcdOf(ts...)
}

// compact_col_major(S, current) and compact_row_major(S, current) start
// at current, as CuTe's default argument does (1 when left out).
func applyCompactColMajor(args []layout.Value) (layout.Value, error) {
	return applyCompactMajor("compact_col_major", args, layout.LayoutLeft)
}

func applyCompactRowMajor(args []layout.Value) (layout.Value, error) {
	return applyCompactMajor("compact_row_major", args, layout.LayoutRight)
}

func applyCompactMajor(op string, args []layout.Value, major layout.Tag) (layout.Value, error) {
	if err := argCount(op, args, 1, 2); err != nil {
		return nil, err
	}
	shape, err := tupleAt(op, args, 0)
	if err != nil {
		return nil, err
	}
	current := layout.Int(1)
	if len(args) == 2 {
		if current, err = tupleAt(op, args, 1); err != nil {
			return nil, err
		}
	}
	return layout.CompactMajor(shape, current, major)
}

// tuplePair reads the two integer-tuple arguments (A, B) of op.
func tuplePair(op string, args []layout.Value) (layout.IntTuple, layout.IntTuple, error) {
	if err := argCount(op, args, 2, 2); err != nil {
		return layout.IntTuple{}, layout.IntTuple{}, err
	}
	a, err := tupleAt(op, args, 0)
	if err != nil {
		return layout.IntTuple{}, layout.IntTuple{}, err
	}
	b, err := tupleAt(op, args, 1)
	if err != nil {
		return layout.IntTuple{}, layout.IntTuple{}, err
	}
	return a, b, nil
}

func applyInnerProduct(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("inner_product", args)
	if err != nil {
		return nil, err
	}
	return layout.InnerProduct(a, b)
}

func applyCeilDiv(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("ceil_div", args)
	if err != nil {
		return nil, err
	}
	return layout.CeilDiv(a, b)
}

func applyShapeDiv(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("shape_div", args)
	if err != nil {
		return nil, err
	}
	return layout.ShapeDiv(a, b)
}

func applyElemScale(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("elem_scale", args)
	if err != nil {
		return nil, err
	}
	return layout.ElemScale(a, b)
}

func applyPrefixProduct(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("prefix_product", args)
	if err != nil {
		return nil, err
	}
	return layout.PrefixProduct(a, b)
}

func applySuffixProduct(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("suffix_product", args)
	if err != nil {
		return nil, err
	}
	return layout.SuffixProduct(a, b)
}

func applyCongruent(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("congruent", args)
	if err != nil {
		return nil, err
	}
	return layout.Bool(layout.Congruent(a, b)), nil
}

func applyWeaklyCongruent(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("weakly_congruent", args)
	if err != nil {
		return nil, err
	}
	return layout.Bool(layout.WeaklyCongruent(a, b)), nil
}

func applyCompatible(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("compatible", args)
	if err != nil {
		return nil, err
	}
	return layout.Bool(layout.Compatible(a, b)), nil
}

func applyCompactOrder(args []layout.Value) (layout.Value, error) {
	if err := argCount("compact_order", args, 2, 2); err != nil {
		return nil, err
	}
	if tag, ok := args[1].(layout.Tag); ok {
		shape, err := coreTupleArg("compact_order", args[0])
		if err != nil {
			return nil, layout.AtArg(1, err)
		}
		return layout.CompactMajor(shape, layout.Int(1), tag)
	}
	a, b, err := tuplePair("compact_order", args)
	if err != nil {
		return nil, err
	}
	return layout.CompactOrder(a, b)
}

func applyUnflatten(args []layout.Value) (layout.Value, error) {
	if err := argCount("unflatten", args, 2, 2); err != nil {
		return nil, err
	}
	if l, ok := args[0].(*layout.Layout); ok {
		profile, err := coreTupleArg("unflatten", args[1])
		if err != nil {
			return nil, layout.AtArg(2, err)
		}
		return layout.Boxed(layout.UnflattenLayout(*l, profile))
	}
	a, b, err := tuplePair("unflatten", args)
	if err != nil {
		return nil, err
	}
	return layout.Unflatten(a, b)
}

func applyElemLess(args []layout.Value) (layout.Value, error) {
	a, b, err := tuplePair("elem_less", args)
	if err != nil {
		return nil, err
	}
	ok, err := layout.ElemLess(a, b)
	if err != nil {
		return nil, err
	}
	return layout.Bool(ok), nil
}

func applyCrd2Crd(args []layout.Value) (layout.Value, error) {
	if err := argCount("crd2crd", args, 3, 3); err != nil {
		return nil, err
	}
	var ts [3]layout.IntTuple
	for i := range ts {
		t, err := tupleAt("crd2crd", args, i)
		if err != nil {
			return nil, err
		}
		ts[i] = t
	}
	return layout.Crd2Crd(ts[0], ts[1], ts[2])
}

// soleTuple reads the one integer-tuple argument of op.
func soleTuple(op string, args []layout.Value) (layout.IntTuple, error) {
	if err := argCount(op, args, 1, 1); err != nil {
		return layout.IntTuple{}, err
	}
	return tupleAt(op, args, 0)
}

// tupleAt reads argument i of op as an integer tuple.
func tupleAt(op string, args []layout.Value, i int) (layout.IntTuple, error) {
	t, err := coreTupleArg(op, args[i])
	if err != nil {
		return layout.IntTuple{}, layout.AtArg(i+1, err)
	}
	return t, nil
}

// tupleArgs reads the lo to hi (-1: any number) integer-tuple arguments of
// op, for the operations that take any number of them (max, min, gcd).
func tupleArgs(op string, args []layout.Value, lo, hi int) ([]layout.IntTuple, error) {
	if err := argCount(op, args, lo, hi); err != nil {
		return nil, err
	}
	out := make([]layout.IntTuple, len(args))
	for i, a := range args {
		t, err := coreTupleArg(op, a)
		if err != nil {
			return nil, layout.AtArg(i+1, err)
		}
		out[i] = t
	}
	return out, nil
}

// firstComposed is the first argument when it is a swizzled layout.
func firstComposed(args []layout.Value) (layout.Composed, bool) {
	if len(args) == 0 {
		return layout.Composed{}, false
	}
	c, ok := args[0].(layout.Composed)
	return c, ok
}
