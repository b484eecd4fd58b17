package layout

import (
	"errors"
	"fmt"
)

// Divides: CuTe's logical_divide and the three rearrangements of its result
// (zipped_, tiled_, flat_divide). A tiler is what CuTe accepts in that
// position (see tileArg): a layout tiles the whole layout as one 1-D
// function; a Tiler, or a tuple shape, tiles mode by mode.

// Error conditions of the divides and products, as CuTe's static_asserts word them.
const (
	CondDivideTooManyModes  = "logical_divide: Too many modes in tiler."
	CondProductTooManyModes = "logical_product: Too many modes in tiler."
	// CondUnzipRanks is zip2_by's text (tile_unzip): a mode under a tiler
	// terminal is not a (tile, rest) pair, or has fewer modes than the tiler.
	CondUnzipRanks = "Mismatched ranks"
)

// tileKind says what one node of a tiler is.
type tileKind uint8

const (
	tileLayout tileKind = iota // a layout applied to the whole (sub)layout
	tileSkip                   // cute::_: leave that mode alone
	tileTuple                  // one tiler per mode
)

// tileArg is a tiler in the form CuTe's overloads see it: a layout, "_", or a
// tuple of tilers. Integers N are CuTe's make_layout(N): N:1, but 1:0 for 1
// (a static size-1 mode gets stride 0).
type tileArg struct {
	kind   tileKind
	layout Layout
	modes  []tileArg
}

func (t tileArg) String() string {
	switch t.kind {
	case tileSkip:
		return "_"
	case tileTuple:
		s := "["
		for i, m := range t.modes {
			if i > 0 {
				s += ";"
			}
			s += m.String()
		}
		return s + "]"
	}
	return t.layout.String()
}

// toTileArg reads the tiler argument of op: a Layout, a Tiler (make_tile), a
// tuple shape (each element a tiler), an integer N (N:1), or "_".
func toTileArg(op string, v Value) (tileArg, error) {
	switch v := v.(type) {
	case *Layout:
		return tileArg{kind: tileLayout, layout: *v}, nil
	case Tiler:
		return tilerArg(op, v)
	case *Tiler:
		if v == nil {
			return tileArg{}, Errorf(op, "", "the tiler is missing")
		}
		return tilerArg(op, *v)
	case IntTuple:
		return shapeTileArg(op, v)
	case nil:
		return tileArg{}, Errorf(op, "", "the tiler is missing")
	}
	// Every operation that takes a tiler takes it second (L, T, ...).
	e := KindErrorf(op, "the tiler %v is not a layout, a tile or a shape", v)
	e.Arg = 2
	return tileArg{}, e
}

func tilerArg(op string, t Tiler) (tileArg, error) {
	out := tileArg{kind: tileTuple, modes: make([]tileArg, len(t.Modes))}
	for i, m := range t.Modes {
		switch {
		case m.Skip:
			out.modes[i] = tileArg{kind: tileSkip}
		case m.Sub != nil:
			sub, err := tilerArg(op, *m.Sub)
			if err != nil {
				return tileArg{}, err
			}
			out.modes[i] = sub
		case m.Int:
			out.modes[i] = tileArg{kind: tileLayout, layout: shapeLayout(m.Layout.Shape)}
		default:
			out.modes[i] = tileArg{kind: tileLayout, layout: m.Layout}
		}
	}
	return out, nil
}

func shapeTileArg(op string, s IntTuple) (tileArg, error) {
	switch {
	case s.IsTuple():
		out := tileArg{kind: tileTuple, modes: make([]tileArg, s.Len())}
		for i, e := range s.elems() {
			m, err := shapeTileArg(op, e)
			if err != nil {
				return tileArg{}, err
			}
			out.modes[i] = m
		}
		return out, nil
	case s.IsUnderscore():
		return tileArg{kind: tileSkip}, nil
	case s.IsBasis():
		return tileArg{}, Errorf(op, "", "the tiler %v is a scaled basis, not a shape", s)
	}
	return tileArg{kind: tileLayout, layout: shapeLayout(s)}, nil
}

// shapeLayout is CuTe's make_layout(N) for an integer leaf N: N:1, or 1:0 when
// N is a static 1 (compact strides give static size-1 modes stride 0).
func shapeLayout(n IntTuple) Layout {
	if n.IsStatic() && n.Value() == 1 {
		return Make(n, Int(0))
	}
	return Make(n, Int(1))
}

// modeAt is CuTe's get<i>(layout) for i < rank; an integer-shaped layout is
// its own mode 0.
func modeAt(l Layout, i int) Layout {
	return Make(l.Shape.At(i), l.Stride.At(i))
}

// InOp re-issues err, an error of a step of op, as an error of op: the
// condition stays (it is CuTe's check that failed), the detail says where.
func InOp(op, where string, err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	detail := e.Detail
	switch {
	case where != "":
		detail = where + ": " + detail
	case e.Op != op:
		detail = e.Op + ": " + detail
	}
	return &Error{Op: op, Condition: e.Condition, Detail: detail}
}

// byMode is CuTe's transform_layout(layout, tiler, f): f applied to the first
// len(tiler) modes with their tilers, the remaining modes kept, all
// concatenated (so the result is always a tuple, even of one mode).
func byMode(op, cond string, l Layout, t tileArg, f func(Layout, tileArg) (Layout, error)) (Layout, error) {
	r := l.Rank()
	if len(t.modes) > r {
		return Layout{}, Errorf(op, cond, "the tiler %v has %d modes but the layout %v has rank %d", t, len(t.modes), l, r)
	}
	both := make([]IntTuple, 2*r) // the result's two trees in one block
	for i := range r {
		m := modeAt(l, i)
		if i < len(t.modes) {
			var err error
			if m, err = f(m, t.modes[i]); err != nil {
				return Layout{}, err
			}
		}
		both[i], both[r+i] = m.Shape, m.Stride
	}
	return Layout{Shape: tupleOf(both[:r:r]), Stride: tupleOf(both[r:])}, nil
}

// LogicalDivide is CuTe's logical_divide(L, T): L split into (tile, rest).
// For a layout tiler B,
//
//	logical_divide(L, B) == composition(L, make_layout(B, complement(B, shape(coalesce(L)))))
//
// so its first mode evaluated is L∘B (the elements B picks) and its second
// enumerates the tiles; a B that does not divide L gives a ceil-div rest mode
// and a result larger than L. A Tiler (or a tuple shape) divides mode by
// mode, "_" leaving a mode whole, modes past the tiler's rank kept as they are.
// Each step of the definition is that operation's one body, the
// intermediate layouts held on the stack: only the result is allocated. A
// failure is worded as its step's.
func LogicalDivide(l *Layout, tiler Value) (*Layout, error) {
	const op = "logical_divide"
	b, ok := tiler.(*Layout)
	if !ok { // a tiler, a shape or "_": by mode
		r, err := divideByTiler(*l, tiler)
		return r.boxed(), err
	}
	// shape(coalesce(L)) in place of L's leaf modes, read first for
	// coalesce_x(L): known integers, and a last mode of static size 1.
	var lb [flatInline]mode
	var tb bases
	m, err := leafModes(op, l, lb[:0], &tb)
	if err != nil && !congruent(&l.Shape, &l.Stride) {
		return nil, err // CheckCongruent's error, as every divide of an incongruent L says it
	}
	if err == nil && len(m) == 0 {
		m = append(m, mode{numInt(1, true), numInt(0, true)})
	}
	var intsErr error
	lastIs1 := err == nil && m[len(m)-1].s.is(1)
	if err == nil {
		intsErr = checkInts(op, m, &tb, true)
		m, err = bwCoalesce(op, m)
	}
	if err != nil {
		return nil, InOp(op, fmt.Sprintf("coalesce(%v)", *l), err)
	}
	for i := 0; intsErr != nil && i < len(m); i++ { // shapes of known integers coalesce to such shapes
		if !m[i].s.plain() { // complement's cotarget is a shape of known integers
			err = CheckIntLeaf("complement", m[i].s.leaf(&tb))
			break
		}
	}
	// B's leaf modes, walked once: complement(B, ...) filters a copy right
	// after them, writing the rest over it, and make_layout(B, rest)
	// composes with both.
	var bb [2*flatInline + 1]mode
	var btb bases
	var bm, rest []mode
	if err == nil {
		bm, err = leafModes("complement", b, bb[:0], &btb)
	}
	if err == nil {
		rest, err = complement(b, append(bm[len(bm):], bm...), &btb, m, IntTuple{}, bm[len(bm):])
	}
	if err != nil {
		c, _ := Deref(Coalesce(l))
		return nil, InOp(op, fmt.Sprintf("complement(%v, %v)", *b, c.Shape), err)
	}
	// make_layout(B, rest): its leaf modes, and its shape tree, whose
	// structure alone composition reads (the rest's leaves left zero).
	bm = append(bm, rest...) // complement built rest at bm's end: in place unless it coalesced
	inner := [2]IntTuple{b.Shape}
	if n := len(rest); n > len(zeroLeaves) {
		inner[1] = tupleOf(make([]IntTuple, n))
	} else if n > 1 {
		inner[1] = tupleOf(zeroLeaves[:n:n])
	}
	innerShape := tupleOf(inner[:])
	c := composer{a: l, am: m, tb: &tb} // coalesce_x(L) is coalesce(L) but for a last mode of static size 1
	if err = intsErr; err == nil && lastIs1 {
		var xb bases // L walked again
		var xm [flatInline]mode
		c.am, _ = leafModes(op, l, xm[:0], &xb)
		if len(c.am) == 0 { // as above: no leaves is the mode 1:0
			c.am = append(c.am, mode{numInt(1, true), numInt(0, true)})
		}
		c.am, err = coalesceX(op, c.am)
		c.tb = &xb
	}
	if err == nil {
		var out *Layout
		if out, _, err = c.composeModes(bm, &btb, &innerShape, 0); err == nil {
			return out, nil
		}
	}
	r := flatLayoutOf(bm[len(bm)-len(rest):], nil) // rest, where the append moved it
	return nil, InOp(op, fmt.Sprintf("composition(%v, %v)", *l, Layout{Shape: Tup(b.Shape, r.Shape), Stride: Tup(b.Stride, r.Stride)}), err)
}

// divideByTiler is LogicalDivide(l, T) of a tiler T that is no layout.
func divideByTiler(l Layout, tiler Value) (Layout, error) {
	const op = "logical_divide"
	if err := CheckCongruent(op, l.Shape, l.Stride); err != nil {
		return Layout{}, err
	}
	t, err := toTileArg(op, tiler)
	if err != nil {
		return Layout{}, err
	}
	return logicalDivide(l, t)
}

func logicalDivide(l Layout, t tileArg) (Layout, error) {
	const op = "logical_divide"
	switch t.kind {
	case tileSkip:
		return l, nil
	case tileTuple:
		return byMode(op, CondDivideTooManyModes, l, t, logicalDivide)
	}
	return Deref(LogicalDivide(&l, Box(t.layout))) // the Value the mode was read from, or a shared small one: rarely a new box
}

// zeroLeaves is the rest's shape as LogicalDivide's composition reads it:
// up to flatInline+1 leaves whose values nothing reads (only the tree's
// structure is), shared by every call. Nothing writes it: the composer
// builds its result in a block of its own and reads this tree only.
var zeroLeaves [flatInline + 1]IntTuple

// ZippedDivide is CuTe's zipped_divide(L, T) == tile_unzip(logical_divide(L, T), T):
// the tile modes of every divided mode gathered into mode 0 and the rest
// modes (with the modes past the tiler) into mode 1: ((TILE...),(REST...)).
// A "_" in a tiler is an error unless the mode it skips has rank 2 (CuTe
// then silently reads that mode as (tile, rest)).
func ZippedDivide(l Layout, tiler Value) (Layout, error) {
	const op = "zipped_divide"
	t, err := toTileArg(op, tiler)
	if err != nil {
		return Layout{}, err
	}
	return zippedDivide(op, l, t)
}

func zippedDivide(op string, l Layout, t tileArg) (Layout, error) {
	if err := CheckCongruent(op, l.Shape, l.Stride); err != nil {
		return Layout{}, err
	}
	d, err := logicalDivide(l, t)
	if err != nil {
		return Layout{}, InOp(op, "", err)
	}
	return tileUnzip(op, d, t)
}

// TiledDivide is CuTe's tiled_divide(L, T): zipped_divide with the rest mode
// unpacked, ((TILE...), r0, r1, ...). A rest mode of rank 1 is not unpacked:
// a 1-tuple rest stays a 1-tuple.
func TiledDivide(l Layout, tiler Value) (Layout, error) {
	return unpacked("tiled_divide", l, tiler, zippedDivide, false)
}

// FlatDivide is CuTe's flat_divide(L, T): zipped_divide with both modes
// unpacked, (t0, t1, ..., r0, r1, ...); as in TiledDivide a mode of rank 1
// stays whole.
func FlatDivide(l Layout, tiler Value) (Layout, error) {
	return unpacked("flat_divide", l, tiler, zippedDivide, true)
}

// unpacked is op(L, T) for the tiled_ (first false) and flat_ (first true)
// forms of the zipped divide or product zipped.
func unpacked(op string, l Layout, tiler Value, zipped func(string, Layout, tileArg) (Layout, error), first bool) (Layout, error) {
	t, err := toTileArg(op, tiler)
	if err != nil {
		return Layout{}, err
	}
	z, err := zipped(op, l, t)
	if err != nil {
		return Layout{}, err
	}
	return unpackModes(z, first), nil
}

// unpackModes is CuTe's slice of a rank-2 layout by (_, repeat<R1>(_))
// (first false) or (repeat<R0>(_), repeat<R1>(_)) (first true): each
// unpacked mode of rank R != 1 contributes its R sub-modes, any other mode
// itself.
func unpackModes(z Layout, first bool) Layout {
	var shapes, strides []IntTuple
	for i, unpack := range []bool{first, true} {
		s, d := z.Shape.At(i), z.Stride.At(i)
		if unpack && s.IsTuple() && s.Len() != 1 {
			shapes = append(shapes, s.Elems()...)
			strides = append(strides, d.Elems()...)
			continue
		}
		shapes = append(shapes, s)
		strides = append(strides, d)
	}
	return Make(Tup(shapes...), Tup(strides...))
}
