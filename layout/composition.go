package layout

import (
	"fmt"
	"slices"
)

// Composition: CuTe's composition_impl, one body for static and run-time
// integers and for strides of A that are scaled bases; B's scaled-basis
// strides (basis_get) compose with the mode of A they name.

// flatInline is how many flat modes the bodies hold on the stack; longer
// layouts still work, their arrays just grow on the heap.
const flatInline = 8

// Assertion texts of the CuTe checks these operations mirror.
const (
	CondStrideDivisibility = "Stride Divisibility Condition"
	CondShapeDivisibility  = "Shape Divisibility Condition"
	CondTilerRank          = "tuple_size<Tiler>::value <= Layout<LShape,LStride>::rank"
	CondDivideByZero       = "division by zero"
	CondBasisSum           = "Arithmetic tuple op+ error!"
)

// Composition is CuTe's composition(A, B), written A o B: the layout with
// B's shape tree whose value at i is A(B(i)). A is first coalesced into its
// flat modes (coalesce_x: keeping the function on all integers, A's last
// mode extending past its size), then every leaf mode s:d of B is split
// over A's modes: it becomes one mode, or a flat tuple of modes where it
// crosses modes of A. Results are not simplified further. A's strides may
// be scaled bases (an identity layout): each result stride then carries
// the basis of the mode of A it came from. A mode s:n@m of B (a
// scaled-basis stride) composes with mode m of A as s:n does.
//
// CuTe simplifies only what its types prove: a mode is skipped only for a
// static size 1, the divisibility checks fire only on static operands, and
// a result is static only when its operands are:
// composition((10,2):(16,4), (5,4):(1,5)) with run-time integers is
// ((5,1),(2,2)):((16,4),(80,4)), statically (_5,(_2,_2)):(_16,(_80,_4)).
//
// Law: for every leaf mode B_m of B, Composition(A,B)_m(c) == A(B_m(c)),
// wherever the stride of B_m, walking over A's modes, is a multiple of each
// mode's shape or divides it and the shapes split exactly; when in addition
// B's modes take disjoint parts of A's coordinates, Composition(A,B)(i) ==
// A(B(i)) for all i < size(B). CuTe only rejects the splits it can prove
// wrong (its "weak" divisibility: a stride at least the mode's shape and
// not a multiple of it, or an inexact shape split), and so does this: a
// stride smaller than a mode's shape that does not divide it is accepted,
// and the result is then not A o B, exactly as CuTe returns it.
func Composition(a, b *Layout) (*Layout, error) {
	var bb [flatInline]mode
	var btb bases
	bm, err := leafModes("composition", b, bb[:0], &btb)
	if err != nil {
		return nil, err
	}
	if len(btb.paths) > 0 && hasBasis(&b.Stride) {
		return compositionBasisB(*a, *b)
	}
	var ab [flatInline]mode
	var tb bases
	am, err := coalescedModes(a, ab[:0], &tb)
	if err != nil {
		return nil, err
	}
	c := composer{a: a, am: am, tb: &tb, keepB: true}
	if l, _, err := c.composeModes(bm, &btb, &b.Shape, 0); l != nil || err != nil {
		return l, err
	}
	return b, nil // B's own leaves: B itself
}

// coalescedModes is coalesce_x(A) as flat modes appended to m, after
// checking that A's shapes are known integers and its strides known
// integers or scaled bases (entered in tb).
func coalescedModes(a *Layout, m []mode, tb *bases) ([]mode, error) {
	const op = "composition"
	m, err := leafModes(op, a, m, tb)
	if err == nil {
		err = checkInts(op, m, tb, true)
	}
	if err != nil {
		return nil, err
	}
	if m, err = coalesceX(op, m); err != nil {
		return nil, Errorf(op, CondOverflow, "coalescing %v overflows int64", *a)
	}
	return m, nil
}

// composer is composition_impl with A coalesced to the flat modes am.
// It is only read: what composing B gathers travels in a composed value,
// passed and returned, so that its arrays stay on the caller's stack.
type composer struct {
	a     *Layout // A, for messages; nil: A is am as given
	am    []mode  // A's modes, coalesced
	tb    *bases  // the bases of A's strides
	keepB bool    // composeModes returns nil where B's leaves compose to themselves, for the caller to return B (returned from here, B moved am's array and tb to the heap)
}

// composeModes is composition_impl of A with B, given as its leaf modes
// bm in order (bases in btb) and its shape tree (read for its structure
// only): the leaves composed in order, their results gathered on the
// stack, then laid out in B's tree in one block (newResult), with extra
// IntTuples left at its end for the caller.
func (c *composer) composeModes(bm []mode, btb *bases, shape *IntTuple, extra int) (*Layout, []IntTuple, error) {
	const op = "composition"
	var rb [2 * flatInline]mode
	var endb [flatInline]int
	r, ends := rb[:0], endb[:0]
	nodes := extra + 2*tupleElems(shape)
	for _, x := range bm {
		if !x.s.plain() || !x.d.plain() {
			if err := CheckIntLeaf(op, x.s.leaf(btb)); err != nil {
				return nil, nil, err
			}
			return nil, nil, CheckIntLeaf(op, x.d.leaf(btb))
		}
		start := len(r)
		var err error
		if r, err = c.compose(x.s, x.d, r); err != nil {
			return nil, nil, err
		}
		if n := len(r) - start; n > 1 {
			nodes += 2 * n
		}
		ends = append(ends, len(r))
	}
	if c.keepB && extra == 0 && slices.Equal(r, bm) {
		return nil, nil, nil // B's own leaves: B itself, nothing built
	}
	if nodes == 0 && shape.kind != kindTuple { // a leaf result has no block
		return (&Layout{Shape: r[0].s.leaf(c.tb), Stride: r[0].d.leaf(c.tb)}).boxed(), nil, nil
	}
	b := builder{r: r, ends: ends, tb: c.tb}
	box, slab := newResult(nodes)
	cur := cursor{slab: slab}
	box.box = box // built in place, knowing its block (as setTuples)
	b.node(shape, &cur, &box.Shape, &box.Stride)
	return box, cur.slab, nil
}

// tupleElems is the number of elements of the tuples in t.
func tupleElems(t *IntTuple) int {
	n := len(t.sub)
	if t.kind != kindTuple {
		return 0
	}
	for i := range t.sub {
		if t.sub[i].kind == kindTuple {
			n += tupleElems(&t.sub[i])
		}
	}
	return n
}

// builder lays out a composition's result: B's tree, each leaf of B
// replaced by its result modes r (up to ends[leaf]). It is only read;
// where the layout stands is a cursor.
type builder struct {
	r    []mode
	ends []int
	tb   *bases
}

// cursor is the rest of the result's block, and the next leaf of B with
// where its modes start in r.
type cursor struct {
	slab        []IntTuple
	leaf, start int
}

// take is the next n IntTuples of the result's block.
func (cur *cursor) take(n int) []IntTuple {
	t := cur.slab[:n:n]
	cur.slab = cur.slab[n:]
	return t
}

// node writes the result for the subtree s of B's shape into *shape and
// *stride (zero IntTuples).
func (b *builder) node(s *IntTuple, cur *cursor, shape, stride *IntTuple) {
	if s.kind == kindTuple {
		n := len(s.sub)
		top := cur.take(2 * n)
		for i := range s.sub {
			b.node(&s.sub[i], cur, &top[i], &top[n+i])
		}
		shape.sub, shape.kind = top[:n:n], kindTuple // field by field: see setTuples
		stride.sub, stride.kind = top[n:], kindTuple
		return
	}
	start, end := cur.start, b.ends[cur.leaf]
	cur.leaf, cur.start = cur.leaf+1, end
	if k := end - start; k > 1 {
		t := cur.take(2 * k)
		for j, x := range b.r[start:end] {
			x.s.put(&t[j], b.tb)
			x.d.put(&t[k+j], b.tb)
		}
		shape.sub, shape.kind = t[:k:k], kindTuple
		stride.sub, stride.kind = t[k:], kindTuple
		return
	}
	b.r[start].s.put(shape, b.tb)
	b.r[start].d.put(stride, b.tb)
}

// compose is composition_impl of A with the leaf mode s:d of B: the mode
// is walked over A's modes but the last, each taking ceil_div(shape,
// |stride|) of it (at most what is left of it) and passing the stride on
// as ceil_div(|stride|, shape); the last mode of A takes the rest. Modes
// taken from a static size 1 are skipped.
//
// @pre s, d integers; on static operands, CuTe's static_asserts: a stride
// at least a mode's shape is a multiple of it, and what is left of s is a
// multiple of what a mode takes.
// @post the result modes, appended to out, evaluate to A(s:d(i)) wherever the split is exact.
func (c *composer) compose(s, d num, out []mode) ([]mode, error) {
	const op = "composition"
	if d.is(0) {
		return append(out, mode{s, d}), nil
	}
	r := len(c.am)
	start := len(out)
	restShape, restStride := s, d
	for i := 0; i < r-1; i++ {
		cs, cd := c.am[i].s, c.am[i].d
		if cs.v == 0 {
			return nil, Errorf(op, CondDivideByZero, "layout %v has a mode of shape 0", c.aLayout())
		}
		var nextShape, nextStride num
		if dyn := (cs.f | restStride.f) & dynBit; cs.v > 0 && restStride.v > 0 && (cs.v|restStride.v)>>31 == 0 {
			// Both positive and small, the common case: ceil_div(shape,
			// stride) and ceil_div(stride, shape) are 1 and the other
			// ceiling, and that one division also tells the divisibility.
			if restStride.v >= cs.v {
				q, r := divmod(restStride.v, cs.v)
				if dyn == 0 && r != 0 {
					return nil, c.strideIndivisible(s, d, i, restStride, cs)
				}
				nextShape, nextStride = num{v: 1, f: dyn}, num{v: q + min(r, 1), f: dyn}
			} else {
				q, r := divmod(cs.v, restStride.v)
				nextShape, nextStride = num{v: q + min(r, 1), f: dyn}, num{v: 1, f: dyn}
			}
		} else {
			if dyn == 0 && restStride.v >= cs.v && rem(restStride.v, cs.v) != 0 {
				return nil, c.strideIndivisible(s, d, i, restStride, cs)
			}
			ar := abs(restStride)
			if ar.v == 0 {
				return nil, Errorf(op, CondDivideByZero,
					"mode %d:%d of B has stride 0 left when it reaches mode %d (%s) of A, and the next step divides by it", s.v, d.v, i, c.mode(i))
			}
			var err error
			if nextShape, err = splitCeil(cs, ar); err != nil {
				return nil, c.overflow(s, d)
			}
			if nextStride, err = splitCeil(ar, cs); err != nil {
				return nil, c.overflow(s, d)
			}
			if restStride.v < 0 {
				nextStride.v = -nextStride.v
			}
		}
		if nextShape.is(1) || restShape.is(1) {
			restStride = nextStride
			continue
		}
		newShape := numOfBoth(min(nextShape.v, restShape.v), nextShape, restShape)
		if newShape.v == 0 {
			return nil, Errorf(op, CondDivideByZero, "mode %d:%d of B has shape 0", s.v, d.v)
		}
		// restShape / newShape, and whether it is exact, from one division (none when equal).
		q, r := int64(1), int64(0)
		if newShape.v != restShape.v {
			if restShape.v > 0 && newShape.v > 0 {
				q, r = divmod(restShape.v, newShape.v)
			} else {
				q, r = 0, rem(restShape.v, newShape.v)
			}
		}
		if (newShape.f|restShape.f)&dynBit == 0 && r != 0 {
			return nil, Errorf(op, CondShapeDivisibility,
				"mode %d:%d of B has %d elements left to take at mode %d (%s) of A%s, which holds %d of them at stride %d; %d is not a multiple of %d, so they cannot continue evenly into A's next mode",
				s.v, d.v, restShape.v, i, c.mode(i), c.coalescedNote(), newShape.v, restStride.v, restShape.v, newShape.v)
		}
		stride, ok := mulSmall(restStride, cd)
		if !ok {
			var err error
			if stride, err = mulAny(op, restStride, cd); err != nil {
				return nil, c.overflow(s, d)
			}
		}
		out = append(out, mode{newShape, stride})
		if restShape.v > 0 && newShape.v > 0 {
			restShape = numOfBoth(q, restShape, newShape)
		} else {
			var err error
			if restShape, err = div(op, restShape, newShape); err != nil {
				return nil, c.overflow(s, d)
			}
		}
		restStride = nextStride
	}
	if len(out) > start && restShape.is(1) {
		return out, nil
	}
	last, ok := mulSmall(restStride, c.am[r-1].d)
	if !ok {
		var err error
		if last, err = mulAny(op, restStride, c.am[r-1].d); err != nil {
			return nil, c.overflow(s, d)
		}
	}
	return append(out, mode{restShape, last}), nil
}

// rem is a%b (C++'s sign), in 32 bits where it can (see divmod).
func rem(a, b int64) int64 {
	if a >= 0 && b > 0 {
		_, r := divmod(a, b)
		return r
	}
	return a % b
}

// splitCeil is ceil_div(a, b) for composition's split: for positive
// operands the ceiling itself, which CuTe's (a + b - 1) / b equals where
// that does not overflow; otherwise CuTe's formula literally.
func splitCeil(a, b num) (num, error) {
	if a.v >= 0 && b.v > 0 {
		q, r := divmod(a.v, b.v)
		if r != 0 {
			q++
		}
		return numOfBoth(q, a, b), nil
	}
	return ceilDiv("composition", a, b)
}

// strideIndivisible is CuTe's Stride Divisibility error: the stride left of
// B's mode s:d reaches mode i of A, of shape cs, at least cs and not a multiple of it.
func (c *composer) strideIndivisible(s, d num, i int, restStride, cs num) error {
	return Errorf("composition", CondStrideDivisibility,
		"stride %d of mode %d:%d of B reaches mode %d (%s) of A%s as stride %d, which is neither a multiple of %d nor less than it",
		d.v, s.v, d.v, i, c.mode(i), c.coalescedNote(), restStride.v, cs.v)
}

func (c *composer) overflow(s, d num) error {
	return Errorf("composition", CondOverflow, "composing %v with mode %d:%d overflows int64", c.aLayout(), s.v, d.v)
}

// aLayout is A, for messages.
func (c *composer) aLayout() Layout {
	if c.a == nil {
		return *flatLayoutOf(c.am, c.tb)
	}
	return *c.a
}

// mode is mode i of A coalesced, for messages.
func (c *composer) mode(i int) string {
	return Layout{Shape: c.am[i].s.leaf(c.tb), Stride: c.am[i].d.leaf(c.tb)}.String()
}

// coalescedNote is " (A coalesced is ...)" where A's coalesced modes, whose
// indices an error counts, print otherwise than A.
func (c *composer) coalescedNote() string {
	if l := flatLayoutOf(c.am, c.tb); l.String() != c.aLayout().String() {
		return " (A coalesced is " + l.String() + ")"
	}
	return ""
}

// compositionBasisB is Composition for a B with scaled-basis strides
// (n@d): the leaf mode s:n@d of B composes with A's mode at the basis path
// d as s:n would (CuTe's basis_get), after A has been coalesced mode by
// mode along the coprofile of B (the shape of the sum of B's strides as an
// arithmetic tuple); the rest of A is left alone.
func compositionBasisB(a, b Layout) (*Layout, error) {
	sum, err := coprofileOf(b.Stride)
	if err != nil {
		return nil, err
	}
	lhs, err := coalesceAlong(a, sum)
	if err != nil {
		return nil, err
	}
	s, d, err := lhs.compose(b.Shape, b.Stride)
	if err != nil {
		return nil, err
	}
	return (&Layout{Shape: s, Stride: d}).boxed(), nil
}

// maxBasisIndex bounds the mode index of a scaled basis in B, so that a
// typo cannot ask for a billion-mode arithmetic tuple.
const maxBasisIndex = 1 << 12

// atuple is the sum of strides as CuTe's arithmetic tuples add them: an
// integer, or a tuple of sums (a scaled basis n@(i,...) being the tuple
// with n at its path and zeros before it).
type atuple struct {
	n    int64
	elem []*atuple // nil for an integer
}

// coprofileOf is the sum of the strides of t, folded as CuTe's sum does.
// An integer other than 0 added to a tuple is CuTe's "op+ error".
func coprofileOf(t IntTuple) (*atuple, error) {
	if t.IsLeaf() {
		if !t.IsBasis() {
			if err := CheckIntLeaf("composition", t); err != nil {
				return nil, err
			}
			return &atuple{n: t.val}, nil
		}
		v := &atuple{n: t.val}
		for _, m := range t.path() {
			if m.val < 0 || m.val >= maxBasisIndex {
				return nil, Errorf("composition", "", "the scaled basis %v indexes mode %v, outside [0, %d)", t, m, maxBasisIndex)
			}
		}
		for k := len(t.path()) - 1; k >= 0; k-- {
			elem := make([]*atuple, t.path()[k].val+1)
			for i := range elem {
				elem[i] = &atuple{}
			}
			elem[t.path()[k].val] = v
			v = &atuple{elem: elem}
		}
		return v, nil
	}
	sum := &atuple{}
	for _, e := range t.elems() {
		x, err := coprofileOf(e)
		if err != nil {
			return nil, err
		}
		if sum, err = addAtuple(sum, x); err != nil {
			return nil, err
		}
	}
	return sum, nil
}

func addAtuple(x, y *atuple) (*atuple, error) {
	switch {
	case x.elem == nil && y.elem == nil:
		v, ok := AddChecked(x.n, y.n)
		if !ok {
			return nil, Errorf("composition", CondOverflow, "the sum of the strides overflows int64")
		}
		return &atuple{n: v}, nil
	case x.elem == nil || y.elem == nil:
		n := x.n
		if x.elem == nil {
			x, y = y, x
		} else {
			n = y.n
		}
		if n != 0 {
			return nil, Errorf("composition", CondBasisSum,
				"B's strides add the integer %d to scaled bases; CuTe adds only 0 to an arithmetic tuple", n)
		}
		return x, nil
	}
	elem := make([]*atuple, max(len(x.elem), len(y.elem)))
	for i := range elem {
		switch {
		case i >= len(x.elem):
			elem[i] = y.elem[i]
		case i >= len(y.elem):
			elem[i] = x.elem[i]
		default:
			var err error
			if elem[i], err = addAtuple(x.elem[i], y.elem[i]); err != nil {
				return nil, err
			}
		}
	}
	return &atuple{elem: elem}, nil
}

// lhsTree is A coalesced along a coprofile: at each profile leaf, the
// composer of A's sub-layout there.
type lhsTree struct {
	sub []*lhsTree // at a profile tuple: one per profile mode
	c   composer
}

// coalesceAlong is CuTe's coalesce_x(A, coprofile): coalesce_x at the
// profile's leaves; a profile with more modes than A has is an error.
func coalesceAlong(a Layout, p *atuple) (*lhsTree, error) {
	if p.elem == nil {
		tb := new(bases)
		am, err := coalescedModes(&a, nil, tb)
		if err != nil {
			return nil, err
		}
		return &lhsTree{c: composer{a: &a, am: am, tb: tb}}, nil
	}
	if err := CheckCongruent("composition", a.Shape, a.Stride); err != nil {
		return nil, err
	}
	if rank := a.Shape.Len(); len(p.elem) > rank {
		return nil, Errorf("composition", CondProfileRank,
			"B's strides reach mode %d of %v, which has rank %d", len(p.elem)-1, a, rank)
	}
	t := &lhsTree{sub: make([]*lhsTree, len(p.elem))}
	for i, e := range p.elem {
		var err error
		if t.sub[i], err = coalesceAlong(modeAt(a, i), e); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// compose is composition_impl of the coalesced A with the mode s:d of B.
func (t *lhsTree) compose(s, d IntTuple) (IntTuple, IntTuple, error) {
	if s.IsTuple() {
		n := len(s.sub)
		slab := make([]IntTuple, 2*n)
		for i := range s.sub {
			var err error
			if slab[i], slab[n+i], err = t.compose(s.sub[i], d.sub[i]); err != nil {
				return IntTuple{}, IntTuple{}, err
			}
		}
		return tupleOf(slab[:n:n]), tupleOf(slab[n:]), nil
	}
	if err := CheckIntLeaf("composition", s); err != nil {
		return IntTuple{}, IntTuple{}, err
	}
	if !d.IsBasis() {
		// A plain stride beside bases is 0 (coprofileOf rejects the rest).
		return s, d, nil
	}
	at := t
	for _, m := range d.path() {
		at = at.sub[m.val] // the coprofile has every path of B's strides
	}
	l, _, err := at.c.composeModes([]mode{{numInt(s.val, s.static), numInt(d.val, d.static)}}, nil, &s, 0)
	if err != nil {
		return IntTuple{}, IntTuple{}, err
	}
	return l.Shape, l.Stride, nil
}

// hasBasis reports whether a leaf of t is a scaled basis.
func hasBasis(t *IntTuple) bool {
	if t.kind != kindTuple {
		return t.kind == kindInt && len(t.sub) > 0
	}
	for i := range t.sub {
		if hasBasis(&t.sub[i]) {
			return true
		}
	}
	return false
}

// CompositionTiler is CuTe's composition(A, make_tile(T0, T1, ...)): mode i
// of A composed with T_i (a layout, "_" which keeps the mode, or a nested
// tiler applied to that mode's modes). Modes of A past the tiler's are
// dropped (logical_divide and logical_product keep them; composition does
// not). A tiler with more modes than A's rank is an error.
//
// Law: mode i of the result is Composition(mode i of A, T_i).
func CompositionTiler(a Layout, t Tiler) (Layout, error) {
	if err := CheckCongruent("composition", a.Shape, a.Stride); err != nil {
		return Layout{}, err
	}
	rank := a.Shape.Len()
	n := len(t.Modes)
	if n > rank {
		return Layout{}, Errorf("composition", CondTilerRank,
			"tiler %v has %d modes but layout %v has rank %d", t, n, a, rank)
	}
	slab := make([]IntTuple, 2*n)
	for i, m := range t.Modes {
		sub := Layout{Shape: a.Shape.At(i), Stride: a.Stride.At(i)}
		var r Layout
		var err error
		switch {
		case m.Skip:
			r = sub
		case m.Sub != nil:
			r, err = CompositionTiler(sub, *m.Sub)
		default:
			r, err = Deref(Composition(&sub, &m.Layout))
		}
		if err != nil {
			return Layout{}, err
		}
		slab[i], slab[n+i] = r.Shape, r.Stride
	}
	return Layout{Shape: tupleOf(slab[:n:n]), Stride: tupleOf(slab[n:])}, nil
}

// Described is the kind of v with v itself, for messages: "layout 4:1".
func Described(v Value) string {
	switch v := v.(type) {
	case *Layout:
		return "layout " + v.String()
	case Tiler:
		return "tiler " + v.String()
	case Swizzle:
		return "swizzle " + v.String()
	case Composed:
		return "swizzled layout " + v.String()
	case IntTuple:
		if v.IsLeaf() {
			return "integer " + v.String()
		}
		return "tuple " + v.String()
	case Tag:
		return "tag " + v.String()
	case kindNamer: // a TIRx layout
		return v.KindName()[2:] + " " + fmt.Sprint(v)
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("%T %v", v, v)
}

// CheckIntLeaf is the check that an integer leaf standing for the layout
// N:1 is one the algebra can use: it rejects run-time unknowns, and scaled
// bases where an integer is needed.
func CheckIntLeaf(op string, t IntTuple) error {
	switch {
	case IsPlainInt(t):
		return nil
	case t.IsUnknown():
		return Errorf(op, CondUnknown, "%s needs every shape and stride known, and one is ?", op)
	case t.IsBasis():
		return Errorf(op, "", "scaled-basis stride %v is not supported by %s yet", t.String(), op)
	case t.IsUnderscore():
		return Errorf(op, "", "_ stands for a whole mode, not a number, and cannot be a shape or stride of %s", op)
	}
	return Errorf(op, "", "%v is not an integer", t.String())
}
