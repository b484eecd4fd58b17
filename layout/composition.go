package layout

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Composition, and the flat-mode kernels that composition, complement and
// the inverses share: a layout is walked once into parallel shape and
// stride arrays (on the caller's stack for up to flatInline modes), the
// algebra runs on those arrays, and IntTuples are built only for the result.

// flatInline is how many flat modes the kernels hold without a heap
// allocation; longer layouts still work, their arrays just grow on the heap.
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
// flat modes (keeping the function on all integers: A's last mode extends
// past its size, and a trailing size-1 mode keeps its stride), then every
// leaf mode s:d of B is split over A's modes: it becomes one mode, or a
// flat tuple of modes where it crosses modes of A. Results are not
// simplified further. A's strides may be scaled bases (an identity layout):
// each result stride then carries the basis of the mode of A it came from.
// A mode s:n@m of B (a scaled-basis stride) composes with mode m of A as
// s:n does; see compositionBasisB.
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
func Composition(a, b Layout) (Layout, error) {
	if runTimePlain(a.Shape, a.Stride, b.Shape, b.Stride) {
		return compositionDyn(a, b) // see dynamic.go
	}
	if flatB(b) {
		// The common case, its result built in this return statement (see
		// Buffer.flatLayout for why).
		var sb, db [flatInline]int64
		if as, ad, err := flattenModes("composition", a, sb[:0], db[:0]); err == nil {
			top, err := composeFlatB(as, ad, nil, b, func() Layout { return a })
			if err == nil {
				return slabLayout(top), nil
			}
			if !hasBasis(b.Stride) {
				return Layout{}, err
			}
		}
	}
	r, err := composition(a, b)
	if err != nil && hasBasis(b.Stride) {
		// The integer path stops at B's first scaled basis (or earlier, at
		// a check that B's coprofile would not reach): B's bases take
		// their own path, looked for only after a failure.
		return compositionBasisB(a, b)
	}
	return r, err
}

// composition is Composition for a B with integer strides.
func composition(a, b Layout) (Layout, error) {
	var sb, db [flatInline]int64
	var paths [][]IntTuple
	as, ad, err := flattenModes("composition", a, sb[:0], db[:0])
	if err != nil && hasBasis(a.Stride) {
		// A's strides are scaled bases (an identity layout, say): the same
		// algebra, each stride carrying its basis along.
		as, ad, paths, err = flattenBasisModes(a, sb[:0], db[:0])
	}
	if err != nil {
		return Layout{}, err
	}
	return composeModes(as, ad, paths, b, func() Layout { return a })
}

// composeModes is composition(A, B) from A's flattened modes as:ad (with
// their basis paths, or nil); a gives A itself, needed only for an error.
func composeModes(as, ad []int64, paths [][]IntTuple, b Layout, a func() Layout) (Layout, error) {
	if flatB(b) {
		top, err := composeFlatB(as, ad, paths, b, a)
		if err != nil {
			return Layout{}, err
		}
		return slabLayout(top), nil
	}
	as, ad, paths, ok := coalesceXPaths(as, ad, paths)
	if !ok {
		return Layout{}, errorf("composition", CondOverflow, "coalescing %v overflows int64", a())
	}
	c := composer{shape: as, stride: ad, track: paths != nil}
	s, d, err := c.mode(&b.Shape, &b.Stride, paths)
	if err == errCompositionFault {
		return Layout{}, faultError(a(), as, ad, paths, c.fault)
	}
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: s, Stride: d}, nil
}

// flatB reports whether b is a flat tuple of leaf modes.
func flatB(b Layout) bool {
	return isFlatTuple(b.Shape) && isFlatTuple(b.Stride) && len(b.Shape.elems()) == len(b.Stride.elems())
}

// composeFlatB is composeModes for a flat B: the result's shapes and then
// its strides, its top-level modes, as one block (see slabLayout).
func composeFlatB(as, ad []int64, paths [][]IntTuple, b Layout, a func() Layout) ([]IntTuple, error) {
	as, ad, paths, ok := coalesceXPaths(as, ad, paths)
	if !ok {
		return nil, errorf("composition", CondOverflow, "coalescing %v overflows int64", a())
	}
	c := composer{shape: as, stride: ad, track: paths != nil}
	top, err := c.flatModes(b.Shape.elems(), b.Stride.elems(), paths)
	if err == errCompositionFault {
		return nil, faultError(a(), as, ad, paths, c.fault)
	}
	return top, err
}

// compositionBasisB is Composition for a B with scaled-basis strides
// (n@d): the leaf mode s:n@d of B composes with A's mode at the basis path
// d as s:n would (CuTe's basis_get special case), after A has been
// coalesced mode by mode along the coprofile of B (the shape of the sum of
// B's strides as an arithmetic tuple); the rest of A is left alone.
func compositionBasisB(a, b Layout) (Layout, error) {
	if err := checkTopCongruent("composition", b); err != nil {
		return Layout{}, err
	}
	sum, err := coprofileOf(b.Stride)
	if err != nil {
		return Layout{}, err
	}
	lhs, err := coalesceAlong(a, sum)
	if err != nil {
		return Layout{}, err
	}
	s, d, err := lhs.compose(b.Shape, b.Stride)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: s, Stride: d}, nil
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
			if err := checkIntLeaf("composition", t); err != nil {
				return nil, err
			}
			return &atuple{n: t.val}, nil
		}
		v := &atuple{n: t.val}
		for _, m := range t.modes() {
			if m < 0 || m >= maxBasisIndex {
				return nil, errorf("composition", "", "the scaled basis %v indexes mode %d, outside [0, %d)", t, m, maxBasisIndex)
			}
		}
		for k := len(t.modes()) - 1; k >= 0; k-- {
			elem := make([]*atuple, t.modes()[k]+1)
			for i := range elem {
				elem[i] = &atuple{}
			}
			elem[t.modes()[k]] = v
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
		v, ok := addChecked(x.n, y.n)
		if !ok {
			return nil, errorf("composition", CondOverflow, "the sum of the strides overflows int64")
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
			return nil, errorf("composition", CondBasisSum,
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

// lhsTree is A coalesced along a coprofile: at each profile leaf, the flat
// coalesced modes of A's sub-layout there (with their bases, if any).
type lhsTree struct {
	sub           []*lhsTree // at a profile tuple: one per profile mode
	shape, stride []int64
	paths         [][]IntTuple
	a             Layout // the sub-layout of A, for messages
}

// coalesceAlong is CuTe's coalesce_x(A, coprofile): coalesce_x at the
// profile's leaves; a profile with more modes than A has is an error.
func coalesceAlong(a Layout, p *atuple) (*lhsTree, error) {
	if p.elem == nil {
		var paths [][]IntTuple
		shape, stride, err := flattenModes("composition", a, nil, nil)
		if err != nil && hasBasis(a.Stride) {
			shape, stride, paths, err = flattenBasisModes(a, nil, nil)
		}
		if err != nil {
			return nil, err
		}
		shape, stride, paths, ok := coalesceXPaths(shape, stride, paths)
		if !ok {
			return nil, errorf("composition", CondOverflow, "coalescing %v overflows int64", a)
		}
		return &lhsTree{shape: shape, stride: stride, paths: paths, a: a}, nil
	}
	if err := checkTopCongruent("composition", a); err != nil {
		return nil, err
	}
	if rank := a.Shape.Len(); len(p.elem) > rank {
		return nil, errorf("composition", CondProfileRank,
			"B's strides reach mode %d of %v, which has rank %d", len(p.elem)-1, a, rank)
	}
	t := &lhsTree{sub: make([]*lhsTree, len(p.elem)), a: a}
	for i, e := range p.elem {
		var err error
		if t.sub[i], err = coalesceAlong(Layout{Shape: a.Shape.At(i), Stride: a.Stride.At(i)}, e); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// compose is composition_impl of the coalesced A with the mode s:d of B.
func (t *lhsTree) compose(s, d IntTuple) (IntTuple, IntTuple, error) {
	if s.IsTuple() {
		if !d.IsTuple() || len(d.elems()) != len(s.elems()) {
			return IntTuple{}, IntTuple{}, notCongruent("composition", s, d)
		}
		n := len(s.elems())
		slab := make([]IntTuple, 2*n)
		for i := range s.elems() {
			var err error
			if slab[i], slab[n+i], err = t.compose(s.elems()[i], d.elems()[i]); err != nil {
				return IntTuple{}, IntTuple{}, err
			}
		}
		return tupleOf(slab[:n:n]), tupleOf(slab[n:]), nil
	}
	if d.IsTuple() {
		return IntTuple{}, IntTuple{}, notCongruent("composition", s, d)
	}
	if err := checkIntLeaf("composition", s); err != nil {
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
	c := composer{shape: at.shape, stride: at.stride, track: at.paths != nil}
	rs, rd, ri, ok := c.leaf(s.val, d.val, nil, nil, nil)
	if !ok {
		return IntTuple{}, IntTuple{}, faultError(at.a, at.shape, at.stride, at.paths, c.fault)
	}
	if len(rs) == 1 {
		return Int(rs[0]), strideLeafAt(at.paths, ri, 0, rd[0]), nil
	}
	n := len(rs)
	slab := make([]IntTuple, 2*n)
	for j := range n {
		slab[j], slab[n+j] = Int(rs[j]), strideLeafAt(at.paths, ri, j, rd[j])
	}
	return tupleOf(slab[:n:n]), tupleOf(slab[n:]), nil
}

// strideLeafAt is strideLeaf for result mode j when sources were tracked
// (ri is nil when A has no bases).
func strideLeafAt(paths [][]IntTuple, ri []int64, j int, v int64) IntTuple {
	if ri == nil {
		return Int(v)
	}
	return strideLeaf(paths, ri[j], v)
}

// hasBasis reports whether a leaf of t is a scaled basis.
func hasBasis(t IntTuple) bool {
	if t.IsTuple() {
		return slices.ContainsFunc(t.elems(), hasBasis)
	}
	return t.IsBasis()
}

// flattenBasisModes is flattenModes for a layout with scaled-basis
// strides: each stride's coefficient in stride, its basis path in paths
// (nil for a plain integer).
func flattenBasisModes(a Layout, shape, stride []int64) ([]int64, []int64, [][]IntTuple, error) {
	// Not empty: a has a basis leaf.
	return appendBasisModes(a.Shape, a.Stride, shape, stride, nil)
}

func appendBasisModes(s, d IntTuple, shape, stride []int64, paths [][]IntTuple) ([]int64, []int64, [][]IntTuple, error) {
	if s.IsTuple() {
		if !d.IsTuple() || len(d.elems()) != len(s.elems()) {
			return nil, nil, nil, notCongruent("composition", s, d)
		}
		var err error
		for i := range s.elems() {
			if shape, stride, paths, err = appendBasisModes(s.elems()[i], d.elems()[i], shape, stride, paths); err != nil {
				return nil, nil, nil, err
			}
		}
		return shape, stride, paths, nil
	}
	if d.IsTuple() {
		return nil, nil, nil, notCongruent("composition", s, d)
	}
	if err := checkIntLeaf("composition", s); err != nil {
		return nil, nil, nil, err
	}
	if !d.IsBasis() {
		if err := checkIntLeaf("composition", d); err != nil {
			return nil, nil, nil, err
		}
	}
	return append(shape, s.val), append(stride, d.val), append(paths, d.path()), nil
}

// CompositionTiler is CuTe's composition(A, make_tile(T0, T1, ...)): mode i
// of A composed with T_i (a layout, "_" which keeps the mode, or a nested
// tiler applied to that mode's modes). Modes of A past the tiler's are
// dropped (logical_divide and logical_product keep them; composition does
// not). A tiler with more modes than A's rank is an error.
//
// Law: mode i of the result is Composition(mode i of A, T_i).
func CompositionTiler(a Layout, t Tiler) (Layout, error) {
	if err := checkTopCongruent("composition", a); err != nil {
		return Layout{}, err
	}
	rank := a.Shape.Len()
	n := len(t.Modes)
	if n > rank {
		return Layout{}, errorf("composition", CondTilerRank,
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
			r, err = Composition(sub, m.Layout)
		}
		if err != nil {
			return Layout{}, err
		}
		slab[i], slab[n+i] = r.Shape, r.Stride
	}
	return Layout{Shape: tupleOf(slab[:n:n]), Stride: tupleOf(slab[n:])}, nil
}

// CompositionN is CuTe's composition(A, N) for an integer N: A o N:1, the
// first N values of A (A's last mode extends past its size).
func CompositionN(a Layout, n int64) (Layout, error) {
	return Composition(a, Layout{Shape: Int(n), Stride: Int(1)})
}

// compositionOf resolves composition(A, B) on the kinds of its arguments,
// the way CuTe's overloads do. Every pairing CuTe accepts is listed; the
// swizzle and composed-layout ones are not implemented here yet.
func compositionOf(a, b Value) (Value, error) {
	switch a := a.(type) {
	case Layout:
		switch b := b.(type) {
		case Layout:
			return Composition(a, b)
		case Tiler:
			return CompositionTiler(a, b)
		case IntTuple:
			if b.IsUnderscore() {
				return a, nil // composition(A, _) is A
			}
			if b.IsLeaf() {
				if err := checkIntLeaf("composition", b); err != nil {
					return nil, err
				}
				// N:1 with N's own static mark (CompositionN's N is static).
				return Composition(a, Layout{Shape: b, Stride: Int(1)})
			}
			t, err := tilerOfTuple(b)
			if err != nil {
				return nil, err
			}
			return CompositionTiler(a, t)
		case Composed:
			return nil, unsupportedComposition(a, b)
		}
	case Swizzle, Composed:
		switch b.(type) {
		case Layout, Tiler, IntTuple, Swizzle, Composed:
			return nil, unsupportedComposition(a, b)
		}
	}
	return nil, &Error{Op: "composition", Detail: fmt.Sprintf(
		"composition takes a layout (or swizzle, or swizzled layout) and a layout, tiler or integer, not %s and %s",
		kindName(a), kindName(b))}
}

func unsupportedComposition(a, b Value) error {
	return &Error{Op: "composition", Detail: fmt.Sprintf(
		"composition of %s and %s is not supported yet", kindName(a), kindName(b))}
}

// kindName names the kind of a Value for messages, with the value itself.
func kindName(v Value) string {
	switch v := v.(type) {
	case Layout:
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
	case TiledMMA, TiledCopy, MMAAtom, CopyAtom:
		return coreKindName(v)[2:] + " " + v.String()
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("%T %v", v, v)
}

// tilerOfTuple reads an IntTuple as CuTe reads a tuple used as a tiler:
// each integer N is the layout N:1, each sub-tuple a nested tiler.
func tilerOfTuple(t IntTuple) (Tiler, error) {
	modes := make([]TilerMode, t.Len())
	for i, e := range t.Elems() {
		if e.IsUnderscore() {
			modes[i] = TilerMode{Skip: true}
			continue
		}
		if e.IsTuple() {
			sub, err := tilerOfTuple(e)
			if err != nil {
				return Tiler{}, err
			}
			modes[i] = TilerMode{Sub: &sub}
			continue
		}
		if err := checkIntLeaf("composition", e); err != nil {
			return Tiler{}, err
		}
		modes[i] = TilerMode{Layout: Layout{Shape: e, Stride: Int(1)}}
	}
	return Tiler{Modes: modes}, nil
}

// composer splits modes of B over the coalesced flat modes of A. It holds
// nothing but those arrays, so that they can stay on Composition's stack;
// a failed split is recorded in fault and worded by Composition.
type composer struct {
	shape, stride []int64
	fault         compositionFault
	// track: A has scaled-basis strides, and leaf reports for each result
	// mode the mode of A its stride came from (-1: none, a plain 0). The
	// reports and the bases travel beside the composer, never in it, so
	// that the composer's arrays stay on the stack.
	track bool
}

// strideLeaf is the stride v coming from mode src of A: an integer, or v
// times that mode's basis (paths: the basis path of each mode of A, nil
// for plain integers).
func strideLeaf(paths [][]IntTuple, src int64, v int64) IntTuple {
	if paths == nil || src < 0 || paths[src] == nil {
		return Int(v)
	}
	return Int(v).withPath(paths[src])
}

// compositionFault is a split of a mode rShape:rStride of B that failed at
// (coalesced) mode i = cs:cd of A, with what was left of the B mode there.
type compositionFault struct {
	kind                                 faultKind
	i                                    int
	rShape, rStride                      int64
	cs, cd, restShape, restStride, taken int64
}

// faultKind is which check a split failed (plain integers, so that a
// fault carries no pointer and the composer stays on the stack).
type faultKind uint8

const (
	faultNone faultKind = iota
	faultOverflow
	faultStride
	faultShape
	faultZero
)

// errCompositionFault says that the composer recorded its fault.
var errCompositionFault = errors.New("composition fault")

// mode is composition_impl on one mode s:d of B: tuples distribute, a leaf
// mode becomes one mode or a flat tuple of modes.
func (c *composer) mode(s, d *IntTuple, paths [][]IntTuple) (IntTuple, IntTuple, error) {
	if s.IsTuple() {
		dElems, sElems := elemsOf(d), elemsOf(s)
		if !d.IsTuple() || len(dElems) != len(sElems) {
			return IntTuple{}, IntTuple{}, notCongruent("composition", *s, *d)
		}
		n := len(sElems)
		slab := make([]IntTuple, 2*n)
		for i := range sElems {
			rs, rd, err := c.mode(&sElems[i], &dElems[i], paths)
			if err != nil {
				return IntTuple{}, IntTuple{}, err
			}
			slab[i], slab[n+i] = rs, rd
		}
		return tupleOf(slab[:n:n]), tupleOf(slab[n:]), nil
	}
	if d.IsTuple() {
		return IntTuple{}, IntTuple{}, notCongruent("composition", *s, *d)
	}
	if !s.isPlainInt() || !d.isPlainInt() {
		if err := checkIntLeaf("composition", *s); err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		return IntTuple{}, IntTuple{}, checkIntLeaf("composition", *d)
	}
	var sb, db, ib [flatInline]int64
	rs, rd, ri, ok := c.leaf(s.val, d.val, sb[:0], db[:0], ib[:0])
	if !ok {
		return IntTuple{}, IntTuple{}, errCompositionFault
	}
	if paths == nil {
		if len(rs) == 1 {
			return Int(rs[0]), Int(rd[0]), nil
		}
		s, d := flatTuples(rs, rd)
		return s, d, nil
	}
	if len(rs) == 1 {
		return Int(rs[0]), strideLeaf(paths, ri[0], rd[0]), nil
	}
	n := len(rs)
	slab := make([]IntTuple, 2*n)
	for j := range n {
		slab[j], slab[n+j] = Int(rs[j]), strideLeaf(paths, ri[j], rd[j])
	}
	return tupleOf(slab[:n:n]), tupleOf(slab[n:]), nil
}

// flatModes is mode on a flat tuple mode of B, with the leaf results
// gathered first so that one allocation holds the whole result; it returns
// the result's top level, shapes then strides (see slabLayout).
func (c *composer) flatModes(ss, ds []IntTuple, paths [][]IntTuple) ([]IntTuple, error) {
	n := len(ss)
	var rsb, rdb [2 * flatInline]int64
	var endb [flatInline]int
	rs, rd, ends := rsb[:0], rdb[:0], endb[:0]
	var ri []int64 // sources of the strides, only when A has bases
	if paths != nil {
		ri = make([]int64, 0, 2*flatInline)
	}
	extra := 0 // IntTuples for the leaves of B that become flat tuples
	for i := range n {
		if !ss[i].isPlainInt() || !ds[i].isPlainInt() {
			if err := checkIntLeaf("composition", ss[i]); err != nil {
				return nil, err
			}
			return nil, checkIntLeaf("composition", ds[i])
		}
		start := len(rs)
		var ok bool
		if rs, rd, ri, ok = c.leaf(ss[i].val, ds[i].val, rs, rd, ri); !ok {
			return nil, errCompositionFault
		}
		if k := len(rs) - start; k > 1 {
			extra += 2 * k
		}
		ends = append(ends, len(rs))
	}
	slab := make([]IntTuple, 2*n+extra)
	top, sub := slab[:2*n], slab[2*n:]
	// Strides go in through setInt unless they carry a basis; see setInt.
	stride := func(t *IntTuple, j int) {
		if paths == nil {
			setInt(t, rd[j])
		} else {
			*t = strideLeaf(paths, ri[j], rd[j])
		}
	}
	start := 0
	for i, end := range ends {
		if end-start == 1 {
			setInt(&top[i], rs[start])
			stride(&top[n+i], start)
		} else {
			k := end - start
			for j := range k {
				setInt(&sub[j], rs[start+j])
				stride(&sub[k+j], start+j)
			}
			top[i], top[n+i] = tupleOf(sub[:k:k]), tupleOf(sub[k:2*k:2*k])
			sub = sub[2*k:]
		}
		start = end
	}
	return top, nil
}

// setInt makes the zero IntTuple *t the static integer v. Only its
// pointer-free fields are written, which spares the GC write barrier a
// whole-struct store into fresh heap memory costs.
func setInt(t *IntTuple, v int64) {
	t.val, t.kind, t.static = v, kindInt, true
}

// isFlatTuple reports whether t is a tuple of integer leaves.
func isFlatTuple(t IntTuple) bool {
	if !t.IsTuple() {
		return false
	}
	tElems := t.elems()
	for i := range tElems {
		if tElems[i].kind == kindTuple {
			return false
		}
	}
	return true
}

// leaf composes A with the single mode rShape:rStride, appending the
// resulting modes to outS/outD (their sources to outI, see track): one
// mode, or several when the mode of B crosses modes of A. On failure it
// records c.fault and reports false.
func (c *composer) leaf(rShape, rStride int64, outS, outD, outI []int64) ([]int64, []int64, []int64, bool) {
	if rStride == 0 {
		return append(outS, rShape), append(outD, 0), c.from(outI, -1), true
	}
	c.fault = compositionFault{kind: faultOverflow, i: -1, rShape: rShape, rStride: rStride}
	r := len(c.shape)
	last := c.stride[r-1]
	if r == 1 {
		v, ok := mulChecked(rStride, last)
		if !ok {
			return nil, nil, nil, false
		}
		return append(outS, rShape), append(outD, v), c.from(outI, 0), true
	}
	start := len(outS)
	restShape, restStride := rShape, rStride
	for i := 0; i < r-1; i++ {
		cs, cd := c.shape[i], c.stride[i]
		c.fault.i, c.fault.cs, c.fault.cd = i, cs, cd
		c.fault.restShape, c.fault.restStride = restShape, restStride
		if cs == 0 {
			c.fault.kind = faultZero
			return nil, nil, nil, false
		}
		nextShape, nextStride, fault := splitStep(cs, restStride)
		if fault != faultNone {
			c.fault.kind = fault
			return nil, nil, nil, false
		}
		if nextShape == 1 || restShape == 1 {
			restStride = nextStride
			continue
		}
		newShape := min(nextShape, restShape)
		c.fault.taken = newShape
		if newShape == 0 {
			c.fault.kind = faultZero
			return nil, nil, nil, false
		}
		left := int64(1)
		if newShape != restShape {
			if restShape%newShape != 0 {
				c.fault.kind = faultShape
				return nil, nil, nil, false
			}
			left = restShape / newShape
		}
		v, ok := mulChecked(restStride, cd)
		if !ok {
			return nil, nil, nil, false
		}
		outS, outD, outI = append(outS, newShape), append(outD, v), c.from(outI, i)
		restShape = left
		restStride = nextStride
	}
	if len(outS) > start && restShape == 1 {
		return outS, outD, outI, true
	}
	v, ok := mulChecked(restStride, last)
	if !ok {
		return nil, nil, nil, false
	}
	return append(outS, restShape), append(outD, v), c.from(outI, r-1), true
}

// from appends to outI, when the composer tracks bases, that the next
// result mode's stride comes from mode i of A.
func (c *composer) from(outI []int64, i int) []int64 {
	if c.track {
		return append(outI, int64(i))
	}
	return outI
}

// splitStep is how a stride rest (non-zero) meets a mode of shape cs
// (non-zero): ceil_div(cs, |rest|) elements of the mode are taken, and the
// stride left for the next mode is ceil_div(|rest|, cs) with rest's sign.
// CuTe rejects a rest that is at least cs and not a multiple of it
// (faultStride). For positive shapes this divides once where it can and
// never overflows; other shapes take CuTe's formulas literally,
// (a + b - 1) / b with truncation.
func splitStep(cs, rest int64) (nextShape, nextStride int64, fault faultKind) {
	ars := rest
	if ars < 0 {
		if ars == minInt64 {
			return 0, 0, faultOverflow
		}
		ars = -ars
	}
	if cs > 0 {
		q, r := divmod(ars, cs)
		if r != 0 && q > 0 && rest > 0 {
			return 0, 0, faultStride
		}
		nextStride = q
		if r != 0 {
			nextStride++
		}
		if q > 0 {
			nextShape = 1
		} else {
			if ars == 0 {
				// A stride of B worn down to 0 by a negative shape of A
				// before it: CuTe would divide by it.
				return 0, 0, faultZero
			}
			q, r := divmod(cs, ars)
			nextShape = q
			if r != 0 {
				nextShape++
			}
		}
	} else {
		if rest%cs != 0 && rest >= cs {
			return 0, 0, faultStride
		}
		// cs is negative and not minInt64 here (rest%minInt64 != 0 for
		// every rest but minInt64 itself), so neither sum overflows.
		nextShape, _ = ceilDivC(cs, ars)
		nextStride, _ = ceilDivC(ars, cs)
	}
	if rest < 0 {
		nextStride = -nextStride
	}
	return nextShape, nextStride, faultNone
}

// faultError words f in the numbers of A (and of A coalesced to the flat
// modes shape:stride, where the mode index counts, when that differs).
func faultError(a Layout, shape, stride []int64, paths [][]IntTuple, f compositionFault) error {
	note := ""
	if l := flatLayoutPaths(shape, stride, paths); l.String() != a.String() {
		note = " (A coalesced is " + l.String() + ")"
	}
	mode := fmt.Sprintf("%d:%d", f.cs, f.cd)
	if f.i >= 0 && paths != nil {
		mode = Layout{Shape: Int(f.cs), Stride: strideLeaf(paths, int64(f.i), f.cd)}.String()
	}
	switch f.kind {
	case faultStride:
		return errorf("composition", CondStrideDivisibility,
			"stride %d of mode %d:%d of B reaches mode %d (%s) of A%s as stride %d, which is neither a multiple of %d nor less than it",
			f.rStride, f.rShape, f.rStride, f.i, mode, note, f.restStride, f.cs)
	case faultShape:
		return errorf("composition", CondShapeDivisibility,
			"mode %d:%d of B has %d elements left to take at mode %d (%s) of A%s, which holds %d of them at stride %d; %d is not a multiple of %d, so they cannot continue evenly into A's next mode",
			f.rShape, f.rStride, f.restShape, f.i, mode, note, f.taken, f.restStride, f.restShape, f.taken)
	case faultZero:
		if f.cs == 0 {
			return errorf("composition", CondDivideByZero, "layout %v has a mode of shape 0", a)
		}
		if f.restStride == 0 && f.rStride != 0 {
			return errorf("composition", CondDivideByZero,
				"mode %d:%d of B has stride 0 left when it reaches mode %d (%d:%d) of A, and the next step divides by it", f.rShape, f.rStride, f.i, f.cs, f.cd)
		}
		return errorf("composition", CondDivideByZero, "mode %d:%d of B has shape 0", f.rShape, f.rStride)
	}
	return errorf("composition", CondOverflow,
		"composing %v with mode %d:%d overflows int64", a, f.rShape, f.rStride)
}

// coalesceX is CuTe's coalesce_x on flat modes, in place: adjacent modes
// merge when stride[i+1] == shape[i]*stride[i] and size-1 modes go, except
// that the last mode is kept even with size 1, so the result is the same
// function as the input on all integers, not only inside its size. A
// trailing size-1 mode takes shape 2 while merging; the extra size changes
// nothing, since composition lets the last mode run past its size anyway.
func coalesceX(shape, stride []int64) ([]int64, []int64, bool) {
	shape, stride, _, ok := coalesceXPaths(shape, stride, nil)
	return shape, stride, ok
}

// coalesceXPaths is coalesceX with basis paths for the strides (nil: all
// plain integers); strides of different bases never merge.
func coalesceXPaths(shape, stride []int64, paths [][]IntTuple) ([]int64, []int64, [][]IntTuple, bool) {
	n := len(shape)
	ls := shape[n-1]
	if ls == 1 {
		ls = 2
	}
	return bwCoalescePaths(shape, stride, paths, ls, stride[n-1])
}

// bwCoalesce merges flat modes shape[0:n-1] from the back into the mode
// lastShape:lastStride, as CuTe's bw_coalesce does, writing the result to
// the front of the same arrays; a result of size 1 is the single mode 1:0.
// It reports false when a merged shape overflows int64.
func bwCoalesceInt(shape, stride []int64, lastShape, lastStride int64) ([]int64, []int64, bool) {
	shape, stride, _, ok := bwCoalescePaths(shape, stride, nil, lastShape, lastStride)
	return shape, stride, ok
}

// bwCoalescePaths is bwCoalesce with basis paths for the strides (nil:
// all plain integers), moved along with their modes.
func bwCoalescePaths(shape, stride []int64, paths [][]IntTuple, lastShape, lastStride int64) ([]int64, []int64, [][]IntTuple, bool) {
	n := len(shape)
	// Built back to front in the top of the arrays: the kept modes are at
	// [w, n), the front one (still open for merging) at w.
	w := n - 1
	shape[w], stride[w] = lastShape, lastStride
	for i := n - 2; i >= 0; i-- {
		s, d := shape[i], stride[i]
		switch {
		case s == 1:
		case shape[w] == 1:
			shape[w], stride[w] = s, d
			if paths != nil {
				paths[w] = paths[i]
			}
		case mulEq(s, d, stride[w]) && (paths == nil || samePath(paths[i], paths[w])):
			m, ok := mulChecked(s, shape[w])
			if !ok {
				return nil, nil, nil, false
			}
			shape[w], stride[w] = m, d
		default:
			w--
			shape[w], stride[w] = s, d
			if paths != nil {
				paths[w] = paths[i]
			}
		}
	}
	if w == n-1 && shape[w] == 1 {
		shape[0], stride[0] = 1, 0
		if paths != nil {
			paths[0] = nil
			paths = paths[:1]
		}
		return shape[:1], stride[:1], paths, true
	}
	k := n - w
	for j := range k {
		shape[j], stride[j] = shape[w+j], stride[w+j]
	}
	if paths != nil {
		copy(paths, paths[w:])
		paths = paths[:k]
	}
	return shape[:k], stride[:k], paths, true
}

// mulEq reports whether a*b == c, an overflowing product being unequal.
func mulEq(a, b, c int64) bool {
	p, ok := mulChecked(a, b)
	return ok && p == c
}

// ceilDivC is CuTe's ceil_div on integers, (a + b - 1) / b with C++'s
// truncating division (so for a negative divisor it is not a ceiling).
func ceilDivC(a, b int64) (int64, bool) {
	if b == 0 {
		return 0, false
	}
	if b == math.MinInt64 {
		return 0, false
	}
	s, ok := addChecked(a, b-1)
	if !ok {
		return 0, false
	}
	if s >= 0 && b > 0 {
		q, _ := divmod(s, b)
		return q, true
	}
	return s / b, true
}

// divmod is a/b and a%b for a >= 0, b > 0, in 32 bits when both fit: a
// 64-bit division costs several times a 32-bit one on common x86 cores,
// and these operands are almost always small.
func divmod(a, b int64) (int64, int64) {
	if (a|b)>>32 == 0 {
		ua, ub := uint32(a), uint32(b)
		return int64(ua / ub), int64(ua % ub)
	}
	return a / b, a % b
}

// flattenModes appends the leaf modes of l to shape and stride, checking
// that l's shape and stride are congruent and that every leaf is a known
// integer.
func flattenModes(op string, l Layout, shape, stride []int64) ([]int64, []int64, error) {
	var err error
	shape, stride, err = appendModes(op, &l.Shape, &l.Stride, shape, stride)
	if err != nil {
		return nil, nil, err
	}
	if len(shape) == 0 {
		// The empty layout (():()) is the function 0 on a domain of size 1.
		shape, stride = append(shape, 1), append(stride, 0)
	}
	return shape, stride, nil
}

// appendModes walks s and d by pointer (copying an IntTuple per node was
// once most of the walk's time), leaves inline.
func appendModes(op string, s, d *IntTuple, shape, stride []int64) ([]int64, []int64, error) {
	if s.kind != kindTuple {
		if d.kind == kindTuple {
			return nil, nil, notCongruent(op, *s, *d)
		}
		if !s.isPlainInt() || !d.isPlainInt() {
			if err := checkIntLeaf(op, *s); err != nil {
				return nil, nil, err
			}
			return nil, nil, checkIntLeaf(op, *d)
		}
		return append(shape, s.val), append(stride, d.val), nil
	}
	dElems, sElems := elemsOf(d), elemsOf(s)
	if d.kind != kindTuple || len(dElems) != len(sElems) {
		return nil, nil, notCongruent(op, *s, *d)
	}
	for i := range sElems {
		se, de := &sElems[i], &dElems[i]
		if se.kind == kindInt && de.kind == kindInt && len(se.sub) == 0 && len(de.sub) == 0 {
			shape, stride = append(shape, se.val), append(stride, de.val)
			continue
		}
		var err error
		if shape, stride, err = appendModes(op, se, de, shape, stride); err != nil {
			return nil, nil, err
		}
	}
	return shape, stride, nil
}

// checkIntLeaf rejects the leaves the int64 kernels cannot take: run-time
// unknowns and scaled-basis strides.
func checkIntLeaf(op string, t IntTuple) error {
	switch {
	case t.isPlainInt():
		return nil
	case t.IsUnknown():
		return errorf(op, CondUnknown, "%s needs every shape and stride known, and one is ?", op)
	case t.IsBasis():
		return errorf(op, "", "scaled-basis stride %v is not supported by %s yet", t, op)
	case t.IsUnderscore():
		return errorf(op, "", "_ stands for a whole mode, not a number, and cannot be a shape or stride of %s", op)
	}
	return errorf(op, "", "%v is not an integer", t)
}

func checkTopCongruent(op string, l Layout) error {
	if l.Shape.IsTuple() != l.Stride.IsTuple() || l.Shape.Len() != l.Stride.Len() {
		return notCongruent(op, l.Shape, l.Stride)
	}
	return nil
}

func notCongruent(op string, s, d IntTuple) error {
	return errorf(op, CondCongruent, "shape %v and stride %v do not have the same tree", s, d)
}

// flatLayout is the layout of the flat integer modes shape:stride.
func flatLayout(shape, stride []int64) Layout {
	if len(shape) == 1 {
		return Layout{Shape: Int(shape[0]), Stride: Int(stride[0])}
	}
	return slabLayout(flatSlab(shape, stride))
}

// slabLayout is the flat layout whose leaves flatSlab laid out.
func slabLayout(slab []IntTuple) Layout {
	n := len(slab) / 2
	return Layout{Shape: tupleOf(slab[:n:n]), Stride: tupleOf(slab[n:])}
}

// flatTuples is the flat tuples of shape and stride.
func flatTuples(shape, stride []int64) (IntTuple, IntTuple) {
	n := len(shape)
	slab := flatSlab(shape, stride)
	return tupleOf(slab[:n:n]), tupleOf(slab[n:])
}

// flatSlab is the leaves of the flat tuples of shape and stride, shapes first.
func flatSlab(shape, stride []int64) []IntTuple {
	n := len(shape)
	slab := make([]IntTuple, 2*n)
	for i := range n {
		slab[i], slab[n+i] = Int(shape[i]), Int(stride[i])
	}
	return slab
}

// makeLayoutOf is MakeLayoutOf of two layouts.
func makeLayoutOf(ls ...Layout) Layout {
	both := make([]IntTuple, 2*len(ls))
	shapes, strides := both[:len(ls):len(ls)], both[len(ls):]
	for i, l := range ls {
		shapes[i], strides[i] = l.Shape, l.Stride
	}
	return Layout{Shape: tupleOf(shapes), Stride: tupleOf(strides)}
}

// flatLayoutPaths is flatLayout with each stride times its basis path.
func flatLayoutPaths(shape, stride []int64, paths [][]IntTuple) Layout {
	l := flatLayout(shape, stride)
	if paths == nil {
		return l
	}
	if len(shape) == 1 {
		l.Stride = l.Stride.withPath(paths[0])
		return l
	}
	for i := range paths {
		e := &l.Stride.elems()[i]
		*e = e.withPath(paths[i])
	}
	return l
}
