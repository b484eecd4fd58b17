package layout

import "slices"

// Layout construction and the mode-wise operations of CuTe's layout.hpp.
// Functions that exist for IntTuples too (size, rank, depth, flatten, get)
// are methods on Layout; the rest are functions named as CuTe names them.

// Conditions of the layout operations (CuTe's static_assert texts).
const (
	CondTakeEmpty   = "take: empty range error"
	CondTakeBounds  = "take: range out of bounds"
	CondGroupOrder  = "B <= E"
	CondPadRank     = "N > tuple_size<T>::value"
	CondReplaceLeaf = "N == 0"
	CondProfileRank = "tuple_size<IntTuple>::value <= Layout<Shape,Stride>::rank"
)

// maxPadRank bounds append<N>/prepend<N>, so that a typo cannot ask for a
// billion modes.
const maxPadRank = 1 << 12

// MakeLayout is CuTe's make_layout(shape): the compact column-major
// (LayoutLeft) layout of shape; static size-1 modes get stride 0.
// Law: MakeLayout(s).Eval(i) == i for 0 <= i < Size(s).
func MakeLayout(shape IntTuple) (Layout, error) { return MakeLayoutTag(shape, LayoutLeft) }

// MakeLayoutTag is make_layout(shape, LayoutLeft{}) or make_layout(shape, LayoutRight{}).
// Law: MakeLayoutTag(s, t) is a bijection from [0, Size(s)) onto itself.
func MakeLayoutTag(shape IntTuple, major Tag) (Layout, error) {
	if err := checkShape("make_layout", shape); err != nil {
		return Layout{}, err
	}
	stride, err := CompactMajor(shape, Int(1), major)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: shape, Stride: stride}, nil
}

// MakeLayoutStride is make_layout(shape, stride), checking that shape and
// stride are congruent (CondCongruent otherwise).
// Law: the result's Shape and Stride are exactly the arguments.
func MakeLayoutStride(shape, stride IntTuple) (Layout, error) {
	if err := checkShape("make_layout", shape); err != nil {
		return Layout{}, err
	}
	if err := CheckCongruent("make_layout", shape, stride); err != nil {
		return Layout{}, err
	}
	return Layout{Shape: shape, Stride: stride}, nil
}

// checkShape rejects shapes holding bases or "_".
func checkShape(op string, shape IntTuple) error {
	if shape.IsTuple() {
		for _, e := range shape.elems() {
			if err := checkShape(op, e); err != nil {
				return err
			}
		}
		return nil
	}
	if IsPlainInt(shape) || shape.kind == kindUnknown {
		return nil
	}
	return Errorf(op, "", "%v cannot be a shape entry", shape)
}

// CheckCongruent is the check that shape and stride have the same profile;
// its error names the first mode where they differ.
func CheckCongruent(op string, shape, stride IntTuple) error {
	if congruent(&shape, &stride) {
		return nil
	}
	return congruenceError(op, shape, stride, nil)
}

// congruent reports whether s and d have the same tree (no allocation: the
// mode path is built only for the error).
func congruent(s, d *IntTuple) bool {
	if s.kind != kindTuple {
		return d.kind != kindTuple
	}
	dElems, sElems := elemsOf(d), elemsOf(s)
	if d.kind != kindTuple || len(sElems) != len(dElems) {
		return false
	}
	for i := range sElems {
		if !congruent(&sElems[i], &dElems[i]) {
			return false
		}
	}
	return true
}

// congruenceError says where shape and stride first differ in their trees.
func congruenceError(op string, shape, stride IntTuple, path []int) error {
	if shape.IsTuple() != stride.IsTuple() || shape.IsTuple() && len(shape.elems()) != len(stride.elems()) {
		where := ""
		if len(path) > 0 {
			where = "in mode " + pathString(path) + ", "
		}
		switch {
		case shape.IsTuple() && stride.IsTuple():
			return Errorf(op, CondCongruent, "%sthe shape %v has %d modes but the stride %v has %d", where, shape, len(shape.elems()), stride, len(stride.elems()))
		case shape.IsTuple():
			return Errorf(op, CondCongruent, "%sthe shape %v is a tuple but the stride %v is an integer", where, shape, stride)
		}
		return Errorf(op, CondCongruent, "%sthe shape %v is an integer but the stride %v is a tuple", where, shape, stride)
	}
	for i := range shape.elems() {
		if err := congruenceError(op, shape.elems()[i], stride.elems()[i], append(path, i)); err != nil {
			return err
		}
	}
	return nil
}

// checkTopRank rejects a layout whose shape and stride differ in their top-level modes.
func checkTopRank(op string, l Layout) error {
	if l.Shape.IsTuple() != l.Stride.IsTuple() || l.Shape.Rank() != l.Stride.Rank() {
		return Errorf(op, CondCongruent, "the shape %v and the stride %v of the layout have different modes", l.Shape, l.Stride)
	}
	return nil
}

func pathString(path []int) string {
	s := ""
	for i, p := range path {
		if i > 0 {
			s += ","
		}
		s += Int(int64(p)).String()
	}
	return s
}

// MakeLayoutOf is make_layout(L0, L1, ...): the layout whose modes are the
// given layouts (one layout is wrapped: make_layout(3:1) = (3):(1)).
// Law: MakeLayoutOf(ls...).Get(i) == ls[i].
func MakeLayoutOf(ls ...Layout) Layout {
	both := make([]IntTuple, 2*len(ls)) // one allocation for the two trees
	shapes, strides := both[:len(ls):len(ls)], both[len(ls):]
	for i, l := range ls {
		shapes[i], strides[i] = l.Shape, l.Stride
	}
	return Layout{Shape: Tup(shapes...), Stride: Tup(strides...)}
}

// MakeOrderedLayout is make_ordered_layout(shape, order): the compact layout
// of shape whose modes are laid out by increasing order (CompactOrder).
// Law: MakeOrderedLayout(s, o) is a bijection onto [0, Size(s)) when the orders are distinct.
func MakeOrderedLayout(shape, order IntTuple) (Layout, error) {
	if err := checkShape("make_ordered_layout", shape); err != nil {
		return Layout{}, err
	}
	stride, err := CompactOrder(shape, order)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: shape, Stride: stride}, nil
}

// MakeIdentityLayout is make_identity_layout(shape): shape with unit basis
// strides, the layout mapping each coordinate to itself
// ((4,8) gives (4,8):(1@0,1@1)).
// Law: MakeIdentityLayout(s).EvalCoord(c) == c (as an arithmetic tuple) for every natural coordinate c.
func MakeIdentityLayout(shape IntTuple) (Layout, error) {
	if err := checkShape("make_identity_layout", shape); err != nil {
		return Layout{}, err
	}
	return Layout{Shape: shape, Stride: makeBasisLike(shape, nil)}, nil
}

// Size is the number of coordinates of l, the product of its shape.
// Law: l.Size() == Size(l.Shape) == MakeLayoutOf(l).Size().
func (l Layout) Size() (int64, error) {
	n, err := Size(l.Shape)
	if err != nil && IsUnknown(err) {
		return 0, unknownErr("size", "the size of "+l.String())
	}
	return n, err
}

// Cosize is CuTe's cosize: 1 + sum over the modes of (s-1)*|d| (absolute
// strides, so it is the span of the offsets, not l(size-1)+1); with basis
// strides it is the size of the co-shape.
// Law: for l with non-negative integer strides, l.Cosize() == 1 + max over i < Size of l.Eval(i).
func (l Layout) Cosize() (int64, error) {
	if err := CheckCongruent("cosize", l.Shape, l.Stride); err != nil {
		return 0, err
	}
	co, err := coCoord(l.Shape, l.Stride)
	if err != nil {
		return 0, err
	}
	plus, err := plusOneLeaves(co)
	if err != nil {
		return 0, err
	}
	n, err := Size(plus)
	if err != nil && IsUnknown(err) {
		return 0, unknownErr("cosize", "the cosize of "+l.String())
	}
	return n, err
}

// coCoord is sum((s-1)*|d|) over the leaves.
func coCoord(shape, stride IntTuple) (IntTuple, error) {
	if !shape.IsTuple() {
		m1, err := addOp("cosize", shape, Int(-1))
		if err != nil {
			return IntTuple{}, err
		}
		d := stride
		if d.kind == kindInt && d.val < 0 {
			d.val = -d.val
		}
		return mulLeaf("cosize", m1, d)
	}
	acc := Int(0)
	for i := range shape.elems() {
		c, err := coCoord(shape.elems()[i], stride.elems()[i])
		if err != nil {
			return IntTuple{}, err
		}
		if acc, err = addOp("cosize", acc, c); err != nil {
			return IntTuple{}, err
		}
	}
	return acc, nil
}

func plusOneLeaves(t IntTuple) (IntTuple, error) {
	if t.IsBasis() {
		t = asArithmeticTuple(t)
	}
	if !t.IsTuple() {
		return addOp("cosize", t, Int(1))
	}
	out := make([]IntTuple, len(t.elems()))
	for i, e := range t.elems() {
		p, err := plusOneLeaves(e)
		if err != nil {
			return IntTuple{}, err
		}
		out[i] = p
	}
	return Tup(out...), nil
}

// Rank is the number of top-level modes of l (1 for an integer shape).
// Law: l.Rank() == l.Shape.Rank().
func (l Layout) Rank() int { return l.Shape.Rank() }

// Depth is the nesting depth of l's shape (0 for an integer shape).
// Law: l.Flatten().Depth() <= 1.
func (l Layout) Depth() int { return l.Shape.Depth() }

// Get is CuTe's layout<i,j,...>(l) (get<i,j,...>): the sub-layout at the
// hierarchical mode index; no index gives l, and mode 0 of an integer-shaped
// layout is itself.
// Law: MakeLayoutOf(l.Get(0), ..., l.Get(R-1)) == l for a tuple-shaped l of rank R.
func (l Layout) Get(is ...int) (Layout, error) {
	shape, err := GetMode("layout", l.Shape, is)
	if err != nil {
		return Layout{}, err
	}
	stride, err := GetMode("layout", l.Stride, is)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: shape, Stride: stride}, nil
}

// Flatten is CuTe's flatten(l): the layout of the leaves of l's shape and
// stride, in order; an integer-shaped layout stays as it is.
// Law: l.Flatten().Eval(i) == l.Eval(i) for every i, and l.Flatten().Depth() <= 1.
func (l Layout) Flatten() Layout {
	return Layout{Shape: Flatten(l.Shape), Stride: Flatten(l.Stride)}
}

// Select is select<i0,i1,...>(l): the layout of the listed top-level modes, in
// that order (repeats allowed).
// Law: Select(l, is...).Get(k) == l.Get(is[k]).
func Select(l Layout, is ...int) (Layout, error) {
	if err := checkTopRank("select", l); err != nil {
		return Layout{}, err
	}
	shapes := make([]IntTuple, len(is))
	strides := make([]IntTuple, len(is))
	for k, i := range is {
		m, err := l.Get(i)
		if err != nil {
			return Layout{}, Errorf("select", CondIndexRange, "mode %d of %v, which has rank %d", i, l, l.Rank())
		}
		shapes[k], strides[k] = m.Shape, m.Stride
	}
	return Layout{Shape: Tup(shapes...), Stride: Tup(strides...)}, nil
}

// Take is take<b,e>(l): the layout of top-level modes [b, e); requires b < e <= rank.
// Law: Take(l, b, e).Rank() == e-b and Take(l, b, e).Get(k) == l.Get(b+k).
func Take(l Layout, b, e int) (Layout, error) {
	if err := checkTopRank("take", l); err != nil {
		return Layout{}, err
	}
	if b >= e {
		return Layout{}, Errorf("take", CondTakeEmpty, "take<%d,%d> of %v: the range [%d,%d) is empty", b, e, l, b, e)
	}
	if b < 0 || e > l.Rank() {
		return Layout{}, Errorf("take", CondTakeBounds, "take<%d,%d> of %v: the layout has rank %d", b, e, l, l.Rank())
	}
	return Layout{Shape: Tup(l.Shape.Elems()[b:e]...), Stride: Tup(l.Stride.Elems()[b:e]...)}, nil
}

// Group is group<b,e>(l): modes [b, e) gathered into one mode (nothing
// changes when b == e); e = -1 means up to the last mode, as in CuTe.
// Law: Group(l, b, e).Flatten() == l.Flatten() and Size is unchanged.
func Group(l Layout, b, e int) (Layout, error) {
	if err := checkTopRank("group", l); err != nil {
		return Layout{}, err
	}
	if e == -1 {
		e = l.Rank()
	}
	shape, err := groupTuple(l, l.Shape, b, e)
	if err != nil {
		return Layout{}, err
	}
	stride, err := groupTuple(l, l.Stride, b, e)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: shape, Stride: stride}, nil
}

func groupTuple(l Layout, t IntTuple, b, e int) (IntTuple, error) {
	if b > e {
		return IntTuple{}, Errorf("group", CondGroupOrder, "group<%d,%d> of %v: %d > %d", b, e, l, b, e)
	}
	elems := t.Elems()
	if b < 0 || e > len(elems) {
		return IntTuple{}, Errorf("group", CondIndexRange, "group<%d,%d> of %v: the layout has rank %d", b, e, l, len(elems))
	}
	out := make([]IntTuple, 0, len(elems)-(e-b)+1)
	out = append(out, elems[:b]...)
	if b < e {
		out = append(out, Tup(elems[b:e]...))
	}
	out = append(out, elems[e:]...)
	return Tup(out...), nil
}

// Append is append(l, x): l with x added as its last mode (an integer-shaped l becomes rank 2).
// Law: Append(l, x).Get(Append(l, x).Rank()-1) == x.
func Append(l, x Layout) Layout {
	return Layout{Shape: Tup(slices.Concat(l.Shape.Elems(), []IntTuple{x.Shape})...),
		Stride: Tup(slices.Concat(l.Stride.Elems(), []IntTuple{x.Stride})...)}
}

// Prepend is prepend(l, x): l with x added as its first mode.
// Law: Prepend(l, x).Get(0) == x.
func Prepend(l, x Layout) Layout {
	return Layout{Shape: Tup(slices.Concat([]IntTuple{x.Shape}, l.Shape.Elems())...),
		Stride: Tup(slices.Concat([]IntTuple{x.Stride}, l.Stride.Elems())...)}
}

// PadLayout is the layout 1:0 that append<N> and prepend<N> pad with.
var PadLayout = Layout{Shape: Int(1), Stride: Int(0)}

// AppendN is append<N>(l, x): l padded at the back with copies of x up to
// rank n (x is 1:0 in CuTe's default); n must be at least l's rank.
// Law: AppendN(l, n, x).Rank() == n and Size is multiplied by Size(x)^(n-rank).
func AppendN(l Layout, n int, x Layout) (Layout, error) { return padN("append", l, n, x, false) }

// PrependN is prepend<N>(l, x): l padded at the front with copies of x up to rank n.
// Law: PrependN(l, n, x).Rank() == n and its last l.Rank() modes are l's.
func PrependN(l Layout, n int, x Layout) (Layout, error) { return padN("prepend", l, n, x, true) }

func padN(op string, l Layout, n int, x Layout, front bool) (Layout, error) {
	if err := checkTopRank(op, l); err != nil {
		return Layout{}, err
	}
	r := l.Rank()
	if n == r && (l.Shape.IsTuple() || n == 1) {
		return l, nil
	}
	if n < r || n < 1 {
		return Layout{}, Errorf(op, CondPadRank, "%s<%d> pads to rank %d, but %v already has rank %d", op, n, n, l, r)
	}
	if n > maxPadRank {
		return Layout{}, Errorf(op, "", "%s<%d>: a rank above %d is not a layout anyone writes", op, n, maxPadRank)
	}
	pad := func(t, x IntTuple) IntTuple {
		xs := slices.Repeat([]IntTuple{x}, n-r)
		if front {
			return Tup(slices.Concat(xs, t.Elems())...)
		}
		return Tup(slices.Concat(t.Elems(), xs)...)
	}
	return Layout{Shape: pad(l.Shape, x.Shape), Stride: pad(l.Stride, x.Stride)}, nil
}

// Replace is replace<n>(l, x): l with mode n replaced by x; n == rank appends x.
// Law: Replace(l, n, x).Get(n) == x, and the other modes are l's.
func Replace(l Layout, n int, x Layout) (Layout, error) {
	if err := checkTopRank("replace", l); err != nil {
		return Layout{}, err
	}
	if !l.Shape.IsTuple() {
		if n != 0 {
			return Layout{}, Errorf("replace", CondReplaceLeaf, "replace<%d> of the integer-shaped %v", n, l)
		}
		return x, nil
	}
	r := l.Rank()
	if n < 0 || n > r {
		return Layout{}, Errorf("replace", CondIndexRange, "replace<%d> of %v, which has rank %d", n, l, r)
	}
	rep := func(t, y IntTuple) IntTuple {
		return Tup(slices.Concat(t.elems()[:n], []IntTuple{y}, t.elems()[min(n+1, r):])...)
	}
	return Layout{Shape: rep(l.Shape, x.Shape), Stride: rep(l.Stride, x.Stride)}, nil
}
