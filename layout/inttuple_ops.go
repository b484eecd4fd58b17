package layout

// IntTuple operations, as CuTe's int_tuple.hpp and stride.hpp define them.
// Where CuTe rejects an input at compile time (a static_assert), these return
// an *Error whose Condition is CuTe's assertion text.

// Conditions of the IntTuple operations (CuTe's static_assert texts).
const (
	CondMismatchedRanks = "Mismatched Ranks"
	CondInvalidParams   = "Invalid parameters"
	CondDivisibility    = "Divisibility Condition"
	CondIndexRange      = "Index out of range"
	CondDivByZero       = "division by zero"
)

// Rank is the number of modes of t: the length of a tuple, 1 for a leaf.
// Law: Rank(Tup(xs...)) == len(xs).
func (t IntTuple) Rank() int { return t.Len() }

// Depth is the nesting depth of t: 0 for a leaf, 1 + the deepest mode for a tuple.
// Law: Depth(Tup(xs...)) == 1 + max(Depth(x)), Depth(Flatten(t)) <= 1.
func (t IntTuple) Depth() int {
	if !t.IsTuple() {
		return 0
	}
	d := 0
	for _, e := range t.elems() {
		d = max(d, e.Depth())
	}
	return 1 + d
}

// Product is the product of the leaves of t (1 for the empty tuple); it is
// unknown when a leaf is unknown, unless another leaf is zero.
// Law: Product(t) == Product(Flatten(t)), and Product(Tup(a,b)) == Product(a)*Product(b).
func Product(t IntTuple) (IntTuple, error) {
	if !t.IsTuple() {
		if t.IsBasis() || t.kind == kindUnderscore {
			return IntTuple{}, Errorf("product", "", "%v is not an integer", t)
		}
		return t, nil
	}
	acc := Int(1)
	for i := range t.sub {
		e := &t.sub[i]
		if v, ok := MulChecked(acc.val, e.val); ok && IsPlainInt(acc) && IsPlainInt(*e) {
			acc.val, acc.static = v, acc.static && e.static // two integers, mulLeaf's common case in place
			continue
		}
		p, err := Product(*e)
		if err != nil {
			return IntTuple{}, err
		}
		if acc, err = mulLeaf("product", acc, p); err != nil {
			return IntTuple{}, err
		}
	}
	return acc, nil
}

// Size is CuTe's size(t) = Product(t) as an integer; an unknown leaf is a
// CondUnknown error.
// Law: Size(t) == Size(Flatten(t)).
func Size(t IntTuple) (int64, error) {
	p, err := Product(t)
	if err != nil {
		return 0, err
	}
	if p.kind == kindUnknown {
		return 0, unknownErr("size", "the size of "+t.String())
	}
	return p.val, nil
}

// Sum is the sum of the leaves of t (0 for the empty tuple); bases add into
// arithmetic tuples.
// Law: Sum(t) == Sum(Flatten(t)).
func Sum(t IntTuple) (IntTuple, error) {
	if !t.IsTuple() {
		return t, nil
	}
	acc := Int(0)
	for _, e := range t.elems() {
		s, err := Sum(e)
		if err != nil {
			return IntTuple{}, err
		}
		if acc, err = addOp("sum", acc, s); err != nil {
			return IntTuple{}, err
		}
	}
	return acc, nil
}

// InnerProduct is sum(a_i * b_i) over congruent a and b (a leaf of a meets a leaf of b).
// Law: InnerProduct(a, b) == InnerProduct(b, a).
func InnerProduct(a, b IntTuple) (IntTuple, error) {
	if a.IsTuple() && b.IsTuple() {
		if len(a.elems()) != len(b.elems()) {
			return IntTuple{}, Errorf("inner_product", CondMismatchedRanks, "%v has rank %d, %v has rank %d", a, len(a.elems()), b, len(b.elems()))
		}
		acc := Int(0)
		for i := range a.elems() {
			p, err := InnerProduct(a.elems()[i], b.elems()[i])
			if err != nil {
				return IntTuple{}, err
			}
			if acc, err = addOp("inner_product", acc, p); err != nil {
				return IntTuple{}, err
			}
		}
		return acc, nil
	}
	if a.IsTuple() || b.IsTuple() {
		return IntTuple{}, Errorf("inner_product", CondMismatchedRanks, "%v and %v are not congruent", a, b)
	}
	return mulLeaf("inner_product", a, b)
}

// CeilDiv is CuTe's ceil_div: (a+b-1)/b on integers; tuple by tuple mode by
// mode (missing modes of b are 1); a tuple by an integer folds b across a's
// modes left to right; an integer by a tuple divides by Product(b).
// Law: for positive integers, CeilDiv(a,b)*b >= a > (CeilDiv(a,b)-1)*b.
func CeilDiv(a, b IntTuple) (IntTuple, error) { return divide("ceil_div", a, b, false) }

// ShapeDiv is CuTe's shape_div: CeilDiv with CuTe's divisibility check on
// static integers (a%b == 0 or b%a == 0, else CondDivisibility); tuples by
// tuples divide mode by mode (equal ranks), a tuple by an integer folds the
// divisor across the modes (shape_div((4,5,6),40) = (1,1,3)).
// Law: when b divides Size(a), Size(ShapeDiv(a,b)) * b == Size(a).
func ShapeDiv(a, b IntTuple) (IntTuple, error) { return divide("shape_div", a, b, true) }

func divide(op string, a, b IntTuple, shape bool) (IntTuple, error) {
	switch {
	case a.IsTuple() && b.IsTuple():
		if shape && len(a.elems()) != len(b.elems()) || !shape && len(a.elems()) < len(b.elems()) {
			return IntTuple{}, Errorf(op, CondMismatchedRanks, "%v has rank %d, %v has rank %d", a, len(a.elems()), b, len(b.elems()))
		}
		out := make([]IntTuple, len(a.elems()))
		for i := range a.elems() {
			y := Int(1)
			if i < len(b.elems()) {
				y = b.elems()[i]
			}
			q, err := divide(op, a.elems()[i], y, shape)
			if err != nil {
				return IntTuple{}, err
			}
			out[i] = q
		}
		return Tup(out...), nil
	case a.IsTuple():
		out := make([]IntTuple, len(a.elems()))
		rest := b
		for i, ai := range a.elems() {
			q, err := divide(op, ai, rest, shape)
			if err != nil {
				return IntTuple{}, err
			}
			out[i] = q
			if rest, err = divide(op, rest, ai, shape); err != nil {
				return IntTuple{}, err
			}
		}
		return Tup(out...), nil
	case b.IsTuple():
		p, err := Product(b)
		if err != nil {
			return IntTuple{}, err
		}
		return divide(op, a, p, shape)
	}
	if !IsPlainInt(a) && a.kind != kindUnknown || !IsPlainInt(b) && b.kind != kindUnknown {
		return IntTuple{}, Errorf(op, "", "%v / %v: both must be integers", a, b)
	}
	if b.isKnown(0) {
		return IntTuple{}, Errorf(op, CondDivByZero, "%v / 0", a)
	}
	if a.kind == kindUnknown || b.kind == kindUnknown {
		return Unknown(), nil
	}
	if shape && a.static && b.static && a.val%b.val != 0 && (a.val == 0 || b.val%a.val != 0) {
		return IntTuple{}, Errorf(op, CondDivisibility, "neither %d nor %d divides the other", a.val, b.val)
	}
	s, ok := AddChecked(a.val, b.val-1)
	if !ok || b.val == -1<<63 {
		return IntTuple{}, Errorf(op, CondOverflow, "%d + %d - 1 overflows int64", a.val, b.val)
	}
	return intLeaf(s/b.val, a.static && b.static), nil
}

// ElemScale is a scaled leaf by leaf by the matching modes of b: each leaf a_i
// becomes a_i * Product(b_i).
// Law: ElemScale(a, b) is congruent to a.
func ElemScale(a, b IntTuple) (IntTuple, error) {
	if !a.IsTuple() {
		p, err := Product(b)
		if err != nil {
			return IntTuple{}, err
		}
		return mulLeaf("elem_scale", a, p)
	}
	if !b.IsTuple() || len(b.elems()) != len(a.elems()) {
		return IntTuple{}, Errorf("elem_scale", CondMismatchedRanks, "%v and %v have different ranks", a, b)
	}
	out := make([]IntTuple, len(a.elems()))
	for i := range a.elems() {
		s, err := ElemScale(a.elems()[i], b.elems()[i])
		if err != nil {
			return IntTuple{}, err
		}
		out[i] = s
	}
	return Tup(out...), nil
}

// Congruent reports whether a and b have the same tree (the same profile),
// whatever their leaves hold.
// Law: Congruent is an equivalence; Congruent(a, b) implies WeaklyCongruent(a, b).
func Congruent(a, b IntTuple) bool {
	if a.IsTuple() != b.IsTuple() {
		return false
	}
	if !a.IsTuple() {
		return true
	}
	if len(a.elems()) != len(b.elems()) {
		return false
	}
	for i := range a.elems() {
		if !Congruent(a.elems()[i], b.elems()[i]) {
			return false
		}
	}
	return true
}

// WeaklyCongruent reports whether a's profile is a coarsening of b's: every
// leaf of a stands for a (leaf or tuple) mode of b. A partial order: a <= b.
// Law: WeaklyCongruent(a, b) && WeaklyCongruent(b, a) == Congruent(a, b).
func WeaklyCongruent(a, b IntTuple) bool {
	if !a.IsTuple() {
		return true
	}
	if !b.IsTuple() || len(a.elems()) != len(b.elems()) {
		return false
	}
	for i := range a.elems() {
		if !WeaklyCongruent(a.elems()[i], b.elems()[i]) {
			return false
		}
	}
	return true
}

// Compatible reports whether shape a is compatible with shape b: a's profile
// is a coarsening of b's and each leaf of a equals the size of its mode of b,
// so every coordinate of a is a coordinate of b. Unknown sizes are not compatible.
// Law: Compatible(a, b) implies Size(a) == Size(b) and WeaklyCongruent(a, b).
func Compatible(a, b IntTuple) bool {
	if !a.IsTuple() {
		p, err := Product(b)
		return err == nil && IsPlainInt(a) && IsPlainInt(p) && a.val == p.val
	}
	if !b.IsTuple() || len(a.elems()) != len(b.elems()) {
		return false
	}
	for i := range a.elems() {
		if !Compatible(a.elems()[i], b.elems()[i]) {
			return false
		}
	}
	return true
}

// PrefixProduct is the exclusive prefix product of a starting at init,
// hierarchically: PrefixProduct((2,(3,4)), 1) = (1,(2,6)).
// Law: PrefixProduct(s, 1) is congruent to s, and for a flat s its entry i is the product of s_0..s_{i-1}.
func PrefixProduct(a, init IntTuple) (IntTuple, error) {
	out, _, err := scanProduct("prefix_product", a, init, false)
	return out, err
}

// SuffixProduct is the exclusive suffix product of a starting at init:
// SuffixProduct((2,(3,4)), 1) = (12,(4,1)).
// Law: SuffixProduct(s, 1) is congruent to s, and for a flat s its entry i is the product of s_{i+1}..s_{n-1}.
func SuffixProduct(a, init IntTuple) (IntTuple, error) {
	out, _, err := scanProduct("suffix_product", a, init, true)
	return out, err
}

// scanProduct returns the exclusive product scan of a and the product after it.
func scanProduct(op string, a, cur IntTuple, reverse bool) (IntTuple, IntTuple, error) {
	if !a.IsTuple() {
		next, err := mulLeaf(op, cur, a)
		return cur, next, err
	}
	out := make([]IntTuple, len(a.elems()))
	for k := range a.elems() {
		i := k
		if reverse {
			i = len(a.elems()) - 1 - k
		}
		r, next, err := scanProduct(op, a.elems()[i], cur, reverse)
		if err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		out[i], cur = r, next
	}
	return Tup(out...), cur, nil
}

// Flatten is the flat tuple of the leaves of t in order; a leaf stays a leaf.
// Law: Depth(Flatten(t)) <= 1 and Product(Flatten(t)) == Product(t).
func Flatten(t IntTuple) IntTuple {
	if !t.IsTuple() {
		return t
	}
	return Tup(appendLeaves(make([]IntTuple, 0, countLeaves(t)), t)...)
}

// FlattenToTuple is Flatten, but a leaf becomes a 1-tuple.
// Law: FlattenToTuple(t).IsTuple() and its leaves are Flatten(t)'s.
func FlattenToTuple(t IntTuple) IntTuple {
	if !t.IsTuple() {
		return Tup(t)
	}
	return Flatten(t)
}

func countLeaves(t IntTuple) int {
	if !t.IsTuple() {
		return 1
	}
	n := 0
	for _, e := range t.elems() {
		n += countLeaves(e)
	}
	return n
}

func appendLeaves(dst []IntTuple, t IntTuple) []IntTuple {
	if !t.IsTuple() {
		return append(dst, t)
	}
	for _, e := range t.elems() {
		dst = appendLeaves(dst, e)
	}
	return dst
}

// Unflatten regroups the flat tuple flat into the tree of profile (whose
// leaves stand for one element each).
// Law: Unflatten(Flatten(t), t) == t.
func Unflatten(flat, profile IntTuple) (IntTuple, error) {
	leaves := flat.Elems()
	out, rest, err := unflatten(leaves, profile)
	if err != nil {
		return IntTuple{}, err
	}
	if len(rest) != 0 {
		return IntTuple{}, Errorf("unflatten", CondMismatchedRanks, "%v has %d elements, profile %v takes %d", flat, len(leaves), profile, len(leaves)-len(rest))
	}
	return out, nil
}

// UnflattenLayout is CuTe's unflatten(L, profile): the shape and the stride
// of L regrouped alike, make_layout(Unflatten(shape, p), Unflatten(stride, p)).
// Law: Flatten(UnflattenLayout(l, p)) == l for a flat l with as many modes as p has leaves.
func UnflattenLayout(l Layout, profile IntTuple) (Layout, error) {
	s, err := Unflatten(l.Shape, profile)
	if err != nil {
		return Layout{}, err
	}
	d, err := Unflatten(l.Stride, profile)
	if err != nil {
		return Layout{}, err
	}
	return Make(s, d), nil
}

func unflatten(leaves []IntTuple, profile IntTuple) (IntTuple, []IntTuple, error) {
	if !profile.IsTuple() {
		if len(leaves) == 0 {
			return IntTuple{}, nil, Errorf("unflatten", CondMismatchedRanks, "too few elements for the profile")
		}
		return leaves[0], leaves[1:], nil
	}
	out := make([]IntTuple, len(profile.elems()))
	for i, p := range profile.elems() {
		var err error
		if out[i], leaves, err = unflatten(leaves, p); err != nil {
			return IntTuple{}, nil, err
		}
	}
	return Tup(out...), leaves, nil
}

// MaxOf is CuTe's max(t0, t1, ...): the largest leaf of the ts (unknown if
// a leaf is unknown), folded as reduceLeaves folds it. A tuple with no
// modes, anywhere in a t, is an error: CuTe reduces each tuple with max of
// its modes, and max of nothing is not defined.
// Law: MaxOf(t) >= every leaf of t.
func MaxOf(ts ...IntTuple) (IntTuple, error) { return reduceLeaves("max", ts, maxLeaf) }

// MinOf is CuTe's min(t0, t1, ...): the smallest leaf, with MaxOf's rules.
// Law: MinOf(t) <= every leaf of t.
func MinOf(ts ...IntTuple) (IntTuple, error) { return reduceLeaves("min", ts, minLeaf) }

// GcdOf is CuTe's gcd(t0, t1, ...), the greatest common divisor of the leaves
// (unknown if a leaf is unknown), folded as CuTe folds it: from the right,
// gcd(t0, gcd(t1, ...)), each tuple mode first reduced on its own, with
// CuTe's two-integer gcd (Euclid on C++'s truncating remainder, no absolute
// value taken). So a negative leaf can make it negative, gcd((3,-1)) == -1,
// and a leaf alone is itself. A tuple with no modes, anywhere, is an error.
// Law: GcdOf(t) divides every leaf of t.
func GcdOf(ts ...IntTuple) (IntTuple, error) { return reduceLeaves("gcd", ts, cuteGcd) }

// reduceLeaves is CuTe's fold of max, min and gcd over their arguments ts:
// f(r0, f(r1, ... f(r_{n-2}, r_{n-1}))) where r_i reduces ts[i], a tuple
// reducing its modes the same way.
func reduceLeaves(op string, ts []IntTuple, f func(a, b int64) int64) (IntTuple, error) {
	if len(ts) == 0 {
		return IntTuple{}, Errorf(op, "", "%s of nothing", op)
	}
	acc, err := reduceLeaf(op, ts[len(ts)-1], f)
	if err != nil {
		return IntTuple{}, err
	}
	for i := len(ts) - 2; i >= 0; i-- {
		x, err := reduceLeaf(op, ts[i], f)
		if err != nil {
			return IntTuple{}, err
		}
		if x.kind == kindUnknown || acc.kind == kindUnknown {
			acc = Unknown()
			continue
		}
		acc = intLeaf(f(x.val, acc.val), x.static && acc.static)
	}
	return acc, nil
}

func reduceLeaf(op string, t IntTuple, f func(a, b int64) int64) (IntTuple, error) {
	if t.IsTuple() {
		if len(t.elems()) == 0 {
			return IntTuple{}, Errorf(op, "", "%s of the empty tuple", op)
		}
		return reduceLeaves(op, t.elems(), f)
	}
	if t.kind != kindUnknown && !IsPlainInt(t) {
		return IntTuple{}, Errorf(op, "", "%v is not an integer", t)
	}
	return t, nil
}

// cuteGcd is CuTe's gcd(t, u): Euclid's algorithm on C++'s truncating
// remainder, keeping the signs it meets (gcd(3, -1) == -1, gcd(0, u) == u).
func cuteGcd(t, u int64) int64 {
	for {
		if t == 0 {
			return u
		}
		u %= t
		if u == 0 {
			return t
		}
		t %= u
	}
}

func maxLeaf(a, b int64) int64 { return max(a, b) }
func minLeaf(a, b int64) int64 { return min(a, b) }

// ElemLess reports whether every leaf of a is less than the matching leaf of
// b (a may have fewer modes than b; extra modes of a make it false).
// CuTe compares every pair of modes the two tuples share, even after one
// pair is found not less, so a tuple against an integer in any shared mode
// is an error (CuTe has no tuple < integer), whatever the other modes say.
// Law: ElemLess(c, s) for every coordinate c of shape s.
func ElemLess(a, b IntTuple) (bool, error) {
	if a.IsTuple() && b.IsTuple() {
		as, bs := a.elems(), b.elems()
		less := len(as) <= len(bs)
		for i := range min(len(as), len(bs)) {
			ok, err := ElemLess(as[i], bs[i])
			if err != nil {
				return false, inMode(err, i)
			}
			less = less && ok
		}
		return less, nil
	}
	x, err := leafValue("elem_less", a)
	if err != nil {
		return false, err
	}
	y, err := leafValue("elem_less", b)
	if err != nil {
		return false, err
	}
	return x < y, nil
}

// GetMode is CuTe's get<i,j,...>(t): the mode of t at the hierarchical
// index is, errors naming op; a leaf's mode 0 is itself.
// Law: GetMode(op, Tup(xs...), []int{i}) == xs[i].
func GetMode(op string, t IntTuple, is []int) (IntTuple, error) {
	for depth, i := range is {
		switch {
		case t.IsTuple() && i >= 0 && i < len(t.elems()):
			t = t.elems()[i]
		case !t.IsTuple() && i == 0:
		default:
			what := "the shape " + t.String()
			if depth > 0 {
				what = "mode " + pathString(is[:depth]) + " is " + t.String() + ", which"
			}
			return IntTuple{}, Errorf(op, CondIndexRange, "%s<%s>: %s has rank %d, so there is no mode %d", op, pathString(is), what, t.Rank(), i)
		}
	}
	return t, nil
}

// productLike is t reduced to the profile of guide: each leaf of guide gets
// the product of the matching mode of t.
// Law: productLike(t, guide) is congruent to guide and has the same product as t.
func productLike(t, guide IntTuple) (IntTuple, error) {
	if !guide.IsTuple() {
		return Product(t)
	}
	if !t.IsTuple() || len(t.elems()) != len(guide.elems()) {
		return IntTuple{}, Errorf("product_like", CondMismatchedRanks, "%v does not refine the profile of %v", t, guide)
	}
	out := make([]IntTuple, len(guide.elems()))
	for i := range guide.elems() {
		p, err := productLike(t.elems()[i], guide.elems()[i])
		if err != nil {
			return IntTuple{}, err
		}
		out[i] = p
	}
	return Tup(out...), nil
}

// repeatLike is the tuple congruent to t with every leaf x.
// Law: Congruent(repeatLike(t, x), t) for a leaf x.
func repeatLike(t, x IntTuple) IntTuple {
	if !t.IsTuple() {
		return x
	}
	out := make([]IntTuple, len(t.elems()))
	for i, e := range t.elems() {
		out[i] = repeatLike(e, x)
	}
	return Tup(out...)
}

// makeBasisLike is CuTe's make_basis_like(shape) for path nil: the tuple
// congruent to shape whose leaf at path p is the unit basis 1@p (a leaf
// shape gives 1), the strides of the identity layout; a non-nil path
// prefixes every leaf's path.
// Law: for every coordinate c of shape, InnerProduct(c, makeBasisLike(shape, nil)) is c as an arithmetic tuple.
func makeBasisLike(shape IntTuple, path []int) IntTuple {
	if !shape.IsTuple() {
		return Basis(1, path...)
	}
	out := make([]IntTuple, len(shape.elems()))
	for i, e := range shape.elems() {
		out[i] = makeBasisLike(e, append(path[:len(path):len(path)], i))
	}
	return Tup(out...)
}

// CompactMajor is CuTe's compact_major<Major>(shape, current): the strides of
// the compact layout of shape whose first stride is current, LayoutLeft
// (column-major: the leftmost mode varies fastest) or LayoutRight (row-major).
// A static size-1 mode gets stride 0, as in CuTe. A tuple current gives each
// mode its own start.
// Law: MakeLayout(s, CompactMajor(s, 1, tag)) is a bijection onto [0, Size(s)).
func CompactMajor(shape, current IntTuple, major Tag) (IntTuple, error) {
	if major != LayoutLeft && major != LayoutRight {
		return IntTuple{}, Errorf("compact_major", "", "unknown major %q: want LayoutLeft or LayoutRight", string(major))
	}
	if current.IsTuple() {
		if !shape.IsTuple() {
			return IntTuple{}, Errorf("compact_major", CondInvalidParams, "tuple start %v for the integer shape %v", current, shape)
		}
		if len(shape.elems()) != len(current.elems()) {
			return IntTuple{}, Errorf("compact_major", CondMismatchedRanks, "shape %v has rank %d, start %v has rank %d", shape, len(shape.elems()), current, len(current.elems()))
		}
		out := make([]IntTuple, len(shape.elems()))
		for i := range shape.elems() {
			s, err := CompactMajor(shape.elems()[i], current.elems()[i], major)
			if err != nil {
				return IntTuple{}, err
			}
			out[i] = s
		}
		return Tup(out...), nil
	}
	stride, _, err := compact(shape, current, major == LayoutRight)
	return stride, err
}

func compact(shape, current IntTuple, right bool) (IntTuple, IntTuple, error) {
	if !shape.IsTuple() {
		if shape.isConst(1) {
			return Int(0), current, nil
		}
		if shape.kind != kindUnknown && !IsPlainInt(shape) {
			return IntTuple{}, IntTuple{}, Errorf("compact_major", "", "%v is not a shape", shape)
		}
		next, err := mulLeaf("compact_major", current, shape)
		return current, next, err
	}
	out := make([]IntTuple, len(shape.elems()))
	for k := range shape.elems() {
		i := k
		if right {
			i = len(shape.elems()) - 1 - k
		}
		s, next, err := compact(shape.elems()[i], current, right)
		if err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		out[i], current = s, next
	}
	return Tup(out...), current, nil
}

// CompactOrder is CuTe's compact_order(shape, order): compact strides in
// which the modes are laid out in increasing order (ties keep the one with
// the larger order value outside the other: equal orders do not count each
// other); order may be coarser than shape, each of its leaves ordering a
// whole mode, which is then column-major inside.
// Law: MakeLayout(s, CompactOrder(s, o)) is a bijection onto [0, Size(s)) when the orders are distinct.
func CompactOrder(shape, order IntTuple) (IntTuple, error) {
	ref, err := productLike(shape, order)
	if err != nil {
		return IntTuple{}, Errorf("compact_order", "Need equal rank of shape and order", "order %v does not match the modes of shape %v", order, shape)
	}
	refShape := FlattenToTuple(ref).elems()
	flatOrder := FlattenToTuple(order).elems()
	maxOrder := int64(0)
	for _, o := range flatOrder {
		if IsPlainInt(o) && o.static && o.val > maxOrder {
			maxOrder = o.val
		}
	}
	refOrder := make([]int64, len(flatOrder))
	for i, o := range flatOrder {
		switch {
		case IsPlainInt(o) && o.static:
			refOrder[i] = o.val
		case IsPlainInt(o) || o.kind == kindUnknown:
			refOrder[i] = maxOrder + 1 + int64(i) // CuTe orders run-time entries after the static ones
		default:
			return IntTuple{}, Errorf("compact_order", "", "order %v has the non-integer entry %v", order, o)
		}
	}
	var build func(s IntTuple, o IntTuple, leaf *int) (IntTuple, error)
	build = func(s, o IntTuple, leaf *int) (IntTuple, error) {
		if o.IsTuple() {
			if !s.IsTuple() || len(s.elems()) != len(o.elems()) {
				return IntTuple{}, Errorf("compact_order", "Need equal rank of shape and order", "shape %v and order %v differ in rank", s, o)
			}
			out := make([]IntTuple, len(o.elems()))
			for i := range o.elems() {
				r, err := build(s.elems()[i], o.elems()[i], leaf)
				if err != nil {
					return IntTuple{}, err
				}
				out[i] = r
			}
			return Tup(out...), nil
		}
		mine := refOrder[*leaf]
		*leaf++
		start := Int(1)
		for j, rs := range refShape {
			if refOrder[j] < mine {
				var err error
				if start, err = mulLeaf("compact_order", start, rs); err != nil {
					return IntTuple{}, err
				}
			}
		}
		return CompactMajor(s, start, LayoutLeft)
	}
	leaf := 0
	return build(shape, order, &leaf)
}

// CoalesceShape is CuTe's coalesce(S) on a shape: the leaves of S, left to
// right, with each run of neighbours that are all static or all run-time
// multiplied into one; a single run is an integer, more runs a flat tuple.
// A fully static shape coalesces to its size: coalesce((2,(1,4),3)) == 24.
// Law: Size(CoalesceShape(s)) == Size(s) and depth(CoalesceShape(s)) <= 1.
func CoalesceShape(s IntTuple) (IntTuple, error) {
	const op = "coalesce"
	leaves := FlattenToTuple(s).elems()
	if len(leaves) == 0 {
		return IntTuple{}, Errorf(op, "", "coalesce of the empty shape %v: CuTe folds from its first leaf", s)
	}
	runs := []IntTuple{leaves[0]}
	for _, x := range leaves[1:] {
		back := runs[len(runs)-1]
		if back.IsStatic() != x.IsStatic() {
			runs = append(runs, x)
			continue
		}
		p, err := mulLeaf(op, back, x)
		if err != nil {
			return IntTuple{}, err
		}
		runs[len(runs)-1] = p
	}
	if len(runs) == 1 {
		return runs[0], nil
	}
	return Tup(runs...), nil
}

// FilterZerosTuple is CuTe's filter_zeros(T) on an IntTuple: every static 0
// leaf becomes a static 1 (a 0 known only at run time stays).
// Law: FilterZerosTuple(t) has no static zero leaf and t's profile.
func FilterZerosTuple(t IntTuple) IntTuple {
	if t.IsTuple() {
		out := make([]IntTuple, len(t.elems()))
		for i, e := range t.elems() {
			out[i] = FilterZerosTuple(e)
		}
		return Tup(out...)
	}
	if t.isConst(0) {
		return Int(1)
	}
	return t
}
