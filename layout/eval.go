package layout

import (
	"strconv"
	"strings"
)

// Evaluation: coordinates to offsets (crd2idx) and indices to coordinates
// (idx2crd), as CuTe's stride.hpp defines them, and slicing with "_".
//
// Coordinates are IntTuples. A coordinate leaf may be Underscore() ("_"),
// which Slice and Dice read as "this whole mode" and Crd2Idx reads as 0, as
// CuTe's Underscore (an Int<0>) is. A 1-D coordinate is an integer leaf; it
// is split colexicographically over the modes, and the last mode takes what
// is left over, so an index past the size extends the last mode.

// Crd2Idx is CuTe's crd2idx(coord, shape, stride): the offset of coord in
// the layout shape:stride. Tuple coordinates go mode by mode (ranks must
// match); an integer coordinate against a tuple shape is split
// colexicographically (c mod size(s_0) into mode 0, the quotient on), the
// last mode getting the remainder unreduced; integer by integer is c*d.
// With scaled-basis strides the offset is a basis sum (an arithmetic tuple).
// An empty tuple coordinate, at the top or in any mode, is an error: CuTe
// sums a tuple's modes with no starting term, which an empty tuple has not.
// Law: Crd2Idx(c, s, d) == InnerProduct(c, d) for every coordinate c congruent to s.
func Crd2Idx(coord, shape, stride IntTuple) (IntTuple, error) {
	static := true
	if v, ok := fastCrd2Idx(&coord, &shape, &stride, &static); ok {
		return intLeaf(v, static), nil
	}
	return crd2idx(coord, shape, stride)
}

// fastCrd2Idx is Crd2Idx for plain integers only, on pointers and int64s;
// ok is false whenever the general path is needed (unknowns, bases, "_",
// tuples out of place, overflow, a zero size), which then gives the answer
// or the error.
func fastCrd2Idx(c, s, d *IntTuple, static *bool) (int64, bool) {
	if c.kind != kindTuple {
		if c.kind != kindInt || len(c.sub) != 0 {
			return 0, false
		}
		*static = *static && c.static
		return fastSplit(c.val, s, d, static)
	}
	cElems, dElems, sElems := elemsOf(c), elemsOf(d), elemsOf(s)
	if s.kind != kindTuple || d.kind != kindTuple || len(cElems) != len(sElems) || len(dElems) != len(sElems) || len(cElems) == 0 {
		return 0, false
	}
	var acc int64
	for i := range cElems {
		v, ok := fastCrd2Idx(&cElems[i], &sElems[i], &dElems[i], static)
		if !ok {
			return 0, false
		}
		if acc, ok = AddChecked(acc, v); !ok {
			return 0, false
		}
	}
	return acc, true
}

func fastSplit(idx int64, s, d *IntTuple, static *bool) (int64, bool) {
	if s.kind != kindTuple {
		if d.kind != kindInt || len(d.sub) != 0 {
			return 0, false
		}
		*static = *static && d.static
		return MulChecked(idx, d.val)
	}
	dElems, sElems := elemsOf(d), elemsOf(s)
	n := len(sElems)
	if d.kind != kindTuple || len(dElems) != n || n == 0 {
		return 0, false
	}
	var acc int64
	for i := 0; i < n; i++ {
		c := idx
		if i < n-1 {
			c = 0
			if idx != 0 {
				p, ok := fastProduct(&sElems[i], static)
				if !ok || p == 0 {
					return 0, false
				}
				c, idx = idx%p, idx/p
			}
		}
		v, ok := fastSplit(c, &sElems[i], &dElems[i], static)
		if !ok {
			return 0, false
		}
		if acc, ok = AddChecked(acc, v); !ok {
			return 0, false
		}
	}
	return acc, true
}

func fastProduct(s *IntTuple, static *bool) (int64, bool) {
	if s.kind != kindTuple {
		*static = *static && s.static
		return s.val, s.kind == kindInt && len(s.sub) == 0
	}
	sElems := elemsOf(s)
	p := int64(1)
	for i := range sElems {
		v, ok := fastProduct(&sElems[i], static)
		if !ok {
			return 0, false
		}
		if p, ok = MulChecked(p, v); !ok {
			return 0, false
		}
	}
	return p, true
}

func crd2idx(coord, shape, stride IntTuple) (IntTuple, error) {
	if coord.IsTuple() {
		if !shape.IsTuple() {
			return IntTuple{}, Errorf("crd2idx", CondInvalidParams, "the coordinate %v is a tuple but the shape %v is an integer", coord, shape)
		}
		if len(coord.elems()) != len(shape.elems()) {
			return IntTuple{}, Errorf("crd2idx", CondMismatchedRanks, "the coordinate %v has rank %d, the shape %v has rank %d", coord, len(coord.elems()), shape, len(shape.elems()))
		}
		if !stride.IsTuple() || len(stride.elems()) != len(shape.elems()) {
			return IntTuple{}, Errorf("crd2idx", CondCongruent, "shape %v, stride %v", shape, stride)
		}
		if len(coord.elems()) == 0 {
			return IntTuple{}, Errorf("crd2idx", CondInvalidParams, "the coordinate () has no modes to sum (shape %v)", shape)
		}
		acc := Int(0)
		for i := range coord.elems() {
			r, err := crd2idx(coord.elems()[i], shape.elems()[i], stride.elems()[i])
			if err != nil {
				return IntTuple{}, inMode(err, i)
			}
			if acc, err = addOp("crd2idx", acc, r); err != nil {
				return IntTuple{}, err
			}
		}
		return acc, nil
	}
	if coord.kind == kindUnderscore {
		coord = Int(0)
	}
	if shape.IsTuple() {
		if !stride.IsTuple() || len(stride.elems()) != len(shape.elems()) {
			return IntTuple{}, Errorf("crd2idx", CondCongruent, "shape %v, stride %v", shape, stride)
		}
		if len(shape.elems()) == 0 {
			return IntTuple{}, Errorf("crd2idx", CondInvalidParams, "the coordinate %v indexes the empty shape ()", coord)
		}
		return crd2idxSplit(coord, shape, stride)
	}
	if stride.IsTuple() {
		return IntTuple{}, Errorf("crd2idx", CondCongruent, "shape %v, stride %v", shape, stride)
	}
	if !IsPlainInt(coord) && coord.kind != kindUnknown {
		return IntTuple{}, Errorf("crd2idx", CondInvalidParams, "the coordinate %v is not an integer", coord)
	}
	return mulLeaf("crd2idx", coord, stride)
}

// inMode prefixes the detail of an error from mode i of a coordinate with
// "mode i: ", so that nested failures say where they are.
func inMode(err error, i int) error {
	e, ok := err.(*Error)
	if !ok || e.Condition == CondOverflow {
		return err
	}
	out := *e
	if strings.HasPrefix(out.Detail, "mode ") {
		out.Detail = "mode " + strconv.Itoa(i) + "," + strings.TrimPrefix(out.Detail, "mode ")
	} else {
		out.Detail = "mode " + strconv.Itoa(i) + ": " + out.Detail
	}
	return &out
}

// crd2idxSplit is crd2idx of an integer coordinate over the modes of a tuple shape.
func crd2idxSplit(coord, shape, stride IntTuple) (IntTuple, error) {
	last := len(shape.elems()) - 1
	acc := Int(0)
	for i := 0; i < last; i++ {
		mod, div, err := divmodMode("crd2idx", coord, shape.elems()[i], i)
		if err != nil {
			return IntTuple{}, err
		}
		r, err := crd2idx(mod, shape.elems()[i], stride.elems()[i])
		if err != nil {
			return IntTuple{}, err
		}
		if acc, err = addOp("crd2idx", acc, r); err != nil {
			return IntTuple{}, err
		}
		coord = div
	}
	r, err := crd2idx(coord, shape.elems()[last], stride.elems()[last])
	if err != nil {
		return IntTuple{}, err
	}
	return addOp("crd2idx", acc, r)
}

// divmodMode splits the integer coordinate c at mode i of size product(s):
// (c mod size, c / size), with C++'s truncating division as CuTe uses.
func divmodMode(op string, c, s IntTuple, i int) (mod, div IntTuple, err error) {
	if c.isKnown(0) {
		return c, c, nil
	}
	p, err := Product(s)
	if err != nil {
		return IntTuple{}, IntTuple{}, err
	}
	if p.isKnown(0) {
		return IntTuple{}, IntTuple{}, Errorf(op, CondDivByZero, "mode %d has size 0", i)
	}
	if c.kind == kindUnknown || p.kind == kindUnknown {
		return Unknown(), Unknown(), nil
	}
	if !IsPlainInt(c) {
		return IntTuple{}, IntTuple{}, Errorf(op, CondInvalidParams, "the coordinate %v is not an integer", c)
	}
	st := c.static && p.static
	return intLeaf(c.val%p.val, st), intLeaf(c.val/p.val, st), nil
}

// Idx2Crd is CuTe's idx2crd(coord, shape): the natural coordinate of coord
// in shape. An integer index against a tuple shape is split
// colexicographically (the last mode takes the remainder unreduced, so an
// index past the size extends it); a tuple coordinate converts mode by mode
// (ranks must match); an integer against an integer shape is itself.
// Law: Crd2IdxColex(Idx2Crd(i, s), s) == i for 0 <= i < Size(s).
func Idx2Crd(coord, shape IntTuple) (IntTuple, error) {
	if coord.IsTuple() {
		if !shape.IsTuple() {
			return IntTuple{}, Errorf("idx2crd", CondInvalidParams, "the coordinate %v is a tuple but the shape %v is an integer", coord, shape)
		}
		if len(coord.elems()) != len(shape.elems()) {
			return IntTuple{}, Errorf("idx2crd", CondMismatchedRanks, "the coordinate %v has rank %d, the shape %v has rank %d", coord, len(coord.elems()), shape, len(shape.elems()))
		}
		out := make([]IntTuple, len(coord.elems()))
		for i := range coord.elems() {
			c, err := Idx2Crd(coord.elems()[i], shape.elems()[i])
			if err != nil {
				return IntTuple{}, err
			}
			out[i] = c
		}
		return Tup(out...), nil
	}
	if !shape.IsTuple() {
		return coord, nil
	}
	if len(shape.elems()) == 0 {
		return IntTuple{}, Errorf("idx2crd", CondInvalidParams, "the index %v into the empty shape ()", coord)
	}
	out := make([]IntTuple, len(shape.elems()))
	last := len(shape.elems()) - 1
	for i := 0; i < last; i++ {
		mod, div, err := divmodMode("idx2crd", coord, shape.elems()[i], i)
		if err != nil {
			return IntTuple{}, err
		}
		if out[i], err = Idx2Crd(mod, shape.elems()[i]); err != nil {
			return IntTuple{}, err
		}
		coord = div
	}
	c, err := Idx2Crd(coord, shape.elems()[last])
	if err != nil {
		return IntTuple{}, err
	}
	out[last] = c
	return Tup(out...), nil
}

// Idx2CrdStride is CuTe's idx2crd(idx, shape, stride): the coordinate of
// the offset idx in the compact layout shape:stride, each mode read as
// (idx / d) mod s (a static size-1 mode gives 0); an integer stride against a
// tuple shape stands for the column-major strides starting there.
// Law: Idx2CrdStride(Eval(i), shape, stride) == Idx2Crd(i, shape) for a compact layout and 0 <= i < Size.
func Idx2CrdStride(idx, shape, stride IntTuple) (IntTuple, error) {
	const op = "idx2crd"
	if idx.IsTuple() || shape.IsTuple() {
		if !shape.IsTuple() {
			return IntTuple{}, Errorf(op, CondInvalidParams, "the index %v is a tuple but the shape %v is an integer", idx, shape)
		}
		if !stride.IsTuple() {
			var err error
			if stride, err = CompactMajor(shape, stride, LayoutLeft); err != nil {
				return IntTuple{}, err
			}
		}
		if len(stride.elems()) != len(shape.elems()) || idx.IsTuple() && len(idx.elems()) != len(shape.elems()) {
			return IntTuple{}, Errorf(op, CondMismatchedRanks, "index %v, shape %v, stride %v", idx, shape, stride)
		}
		out := make([]IntTuple, len(shape.elems()))
		for i := range shape.elems() {
			x := idx
			if idx.IsTuple() {
				x = idx.elems()[i]
			}
			c, err := Idx2CrdStride(x, shape.elems()[i], stride.elems()[i])
			if err != nil {
				return IntTuple{}, err
			}
			out[i] = c
		}
		return Tup(out...), nil
	}
	if shape.isConst(1) {
		return Int(0), nil
	}
	if stride.IsTuple() {
		return IntTuple{}, Errorf(op, CondCongruent, "shape %v, stride %v", shape, stride)
	}
	for _, x := range []IntTuple{idx, shape, stride} {
		if !IsPlainInt(x) && x.kind != kindUnknown {
			return IntTuple{}, Errorf(op, CondInvalidParams, "%v is not an integer", x)
		}
	}
	if stride.isKnown(0) || shape.isKnown(0) {
		return IntTuple{}, Errorf(op, CondDivByZero, "(%v / %v) mod %v", idx, stride, shape)
	}
	if idx.kind == kindUnknown || shape.kind == kindUnknown || stride.kind == kindUnknown {
		return Unknown(), nil
	}
	return intLeaf((idx.val/stride.val)%shape.val, idx.static && shape.static && stride.static), nil
}

// Crd2IdxColex is CuTe's two-argument crd2idx(coord, shape): the
// colexicographic index of coord in shape, c0 + s0*(c1 + s1*(c2 + ...)); an
// integer coordinate is already an index. The coordinate may be coarser
// than shape (each of its leaves indexes a whole mode).
// Law: Crd2IdxColex(Idx2Crd(i, s), s) == i for 0 <= i < Size(s).
func Crd2IdxColex(coord, shape IntTuple) (IntTuple, error) {
	if !coord.IsTuple() {
		return coord, nil
	}
	if !shape.IsTuple() {
		return IntTuple{}, Errorf("crd2idx", CondInvalidParams, "the coordinate %v is a tuple but the shape %v is an integer", coord, shape)
	}
	if len(coord.elems()) != len(shape.elems()) {
		return IntTuple{}, Errorf("crd2idx", CondMismatchedRanks, "the coordinate %v has rank %d, the shape %v has rank %d", coord, len(coord.elems()), shape, len(shape.elems()))
	}
	like, err := productLike(shape, coord)
	if err != nil {
		return IntTuple{}, err
	}
	fc, fs := FlattenToTuple(coord).elems(), FlattenToTuple(like).elems()
	if len(fc) == 0 {
		return Int(0), nil
	}
	acc := fc[len(fc)-1]
	for i := len(fc) - 2; i >= 0; i-- {
		m, err := mulLeaf("crd2idx", fs[i], acc)
		if err != nil {
			return IntTuple{}, err
		}
		if acc, err = addOp("crd2idx", fc[i], m); err != nil {
			return IntTuple{}, err
		}
	}
	return acc, nil
}

// Crd2Crd is CuTe's crd2crd(coord, src, dst): coord in shape src as a
// coordinate of shape dst with the same colexicographic index (mode by mode
// where all three are tuples).
// Law: Crd2Crd(c, s, s) == Idx2Crd(Crd2IdxColex(c, s), s).
func Crd2Crd(coord, src, dst IntTuple) (IntTuple, error) {
	if coord.IsTuple() && src.IsTuple() && dst.IsTuple() {
		if len(coord.elems()) != len(src.elems()) || len(coord.elems()) != len(dst.elems()) {
			return IntTuple{}, Errorf("crd2crd", CondMismatchedRanks, "coordinate %v, shapes %v and %v", coord, src, dst)
		}
		out := make([]IntTuple, len(coord.elems()))
		for i := range coord.elems() {
			c, err := Crd2Crd(coord.elems()[i], src.elems()[i], dst.elems()[i])
			if err != nil {
				return IntTuple{}, err
			}
			out[i] = c
		}
		return Tup(out...), nil
	}
	idx, err := Crd2IdxColex(coord, src)
	if err != nil {
		return IntTuple{}, err
	}
	return Idx2Crd(idx, dst)
}

// Eval is l(i) for the 1-D index i: the colexicographic coordinate i mapped
// through the strides (CuTe's layout(i)); past Size(l) the last mode extends.
// An unknown leaf on the way is a CondUnknown error.
// Law: Eval(i) == Crd2Idx(Idx2Crd(i, Shape), Shape, Stride) for 0 <= i < Size.
func (l Layout) Eval(i int64) (int64, error) {
	r, err := Crd2Idx(Int(i), l.Shape, l.Stride)
	if err != nil {
		return 0, err
	}
	switch {
	case IsPlainInt(r):
		return r.val, nil
	case r.kind == kindUnknown:
		return 0, unknownErr("layout", "the offset "+l.String()+"("+Int(i).String()+")")
	}
	return 0, Errorf("layout", "", "%v(%d) is the basis-valued %v, not an integer offset (use EvalCoord)", l, i, r)
}

// EvalCoord is l(c) for a coordinate c: an integer (1-D index), an R-D
// coordinate (one entry per mode, each split within its mode) or a natural
// coordinate congruent to the shape. The result is an integer offset, or a
// basis sum for basis strides (make_identity_layout((4,8)) at (1,2) is
// (1,2)). A coordinate with "_" is a slice, not a point: use Slice.
// Law: EvalCoord(Idx2Crd(i, Shape)) == Eval(i) for 0 <= i < Size.
func (l Layout) EvalCoord(c IntTuple) (IntTuple, error) {
	if hasUnderscore(c) {
		return IntTuple{}, Errorf("layout", "", "the coordinate %v holds _, which selects a sub-layout (Slice), not an offset", c)
	}
	return Crd2Idx(c, l.Shape, l.Stride)
}

func hasUnderscore(c IntTuple) bool {
	if c.kind == kindUnderscore {
		return true
	}
	for _, e := range c.elems() {
		if hasUnderscore(e) {
			return true
		}
	}
	return false
}

// Slice is CuTe's slice(c, l): the sub-layout of the modes where c holds
// "_", in order and flattened into one tuple (slice((_,2),(4,8):(1,4)) =
// (4):(1)); c = _ gives l, an integer c gives the empty layout.
// Law: for every coordinate k of Slice(c, l), Eval of it plus the offset of SliceAndOffset equals l at c with its "_" leaves replaced by k.
func Slice(c IntTuple, l Layout) (Layout, error) {
	shape, err := sliceTuple("slice", c, l.Shape, true)
	if err != nil {
		return Layout{}, err
	}
	stride, err := sliceTuple("slice", c, l.Stride, true)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: shape, Stride: stride}, nil
}

// Dice is CuTe's dice(c, l): the complement of Slice, the modes where c holds
// an integer (dice((_,2),(4,8):(1,4)) = (8):(4)); c = _ gives the empty
// layout, an integer c gives l.
// Law: Size(Slice(c, l)) * Size(Dice(c, l)) == Size(l).
func Dice(c IntTuple, l Layout) (Layout, error) {
	shape, err := sliceTuple("dice", c, l.Shape, false)
	if err != nil {
		return Layout{}, err
	}
	stride, err := sliceTuple("dice", c, l.Stride, false)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: shape, Stride: stride}, nil
}

// SliceAndOffset is CuTe's slice_and_offset(c, l): Slice(c, l) and the
// offset of c with its "_" leaves read as 0.
// Law: l at c with "_" read as k equals the sliced layout at k plus the offset.
func SliceAndOffset(c IntTuple, l Layout) (Layout, IntTuple, error) {
	s, err := Slice(c, l)
	if err != nil {
		return Layout{}, IntTuple{}, err
	}
	off, err := Crd2Idx(c, l.Shape, l.Stride)
	if err != nil {
		return Layout{}, IntTuple{}, err
	}
	return s, off, nil
}

// sliceTuple is CuTe's slice (keep "_" modes) or dice (keep integer modes) on one tree.
func sliceTuple(op string, c, t IntTuple, keepUnderscore bool) (IntTuple, error) {
	if !c.IsTuple() {
		if (c.kind == kindUnderscore) == keepUnderscore {
			return t, nil
		}
		return Tup(), nil
	}
	kept, err := liftSlice(op, c, t, keepUnderscore, nil)
	if err != nil {
		return IntTuple{}, err
	}
	return Tup(kept...), nil
}

func liftSlice(op string, c, t IntTuple, keepUnderscore bool, dst []IntTuple) ([]IntTuple, error) {
	if !c.IsTuple() {
		if (c.kind == kindUnderscore) == keepUnderscore {
			return append(dst, t), nil
		}
		return dst, nil
	}
	if !t.IsTuple() || len(t.elems()) != len(c.elems()) {
		return nil, Errorf(op, CondMismatchedRanks, "the coordinate %v has rank %d, %v has rank %d", c, len(c.elems()), t, t.Rank())
	}
	for i := range c.elems() {
		var err error
		if dst, err = liftSlice(op, c.elems()[i], t.elems()[i], keepUnderscore, dst); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// MaxFlatRank is the capacity of a FlatLayout.
const MaxFlatRank = 8

// FlatLayout is a flat layout of at most MaxFlatRank modes of known integers,
// held by value so that crd2idx on it needs no allocation: the form the
// offset tables and pictures evaluate cell by cell.
type FlatLayout struct {
	Shape, Stride [MaxFlatRank]int64
	Rank          int
}

// FlattenInto writes the leaves of l into dst. It fails when l has more than
// MaxFlatRank leaves, an unknown leaf (CondUnknown), a basis stride, or a
// stride not congruent to its shape.
// Law: dst.Crd2Idx(i) == l.Eval(i) for every i.
func (l Layout) FlattenInto(dst *FlatLayout) error {
	var mb [MaxFlatRank + 1]mode
	var tb bases
	m, err := leafModes("flatten", &l, mb[:0], &tb)
	if err != nil {
		return err
	}
	if len(m) > MaxFlatRank {
		return Errorf("flatten", "", "%v has more than %d modes", l, MaxFlatRank)
	}
	for i, x := range m {
		if x.s.kind() == kindUnknown || x.d.kind() == kindUnknown {
			return unknownErr("flatten", "a mode of "+l.String())
		}
		if !x.s.plain() || !x.d.plain() {
			return Errorf("flatten", "", "%v has the non-integer mode %v:%v", l, x.s.leaf(&tb), x.d.leaf(&tb))
		}
		dst.Shape[i], dst.Stride[i] = x.s.v, x.d.v
	}
	dst.Rank = len(m)
	return nil
}

// Crd2Idx is crd2idx of the 1-D index idx on f: colexicographic, the last
// mode taking the remainder (so an index past the size extends it), with
// overflow checked; no allocation unless it fails.
// Law: f.Crd2Idx(i) == l.Eval(i) for the layout l that f was flattened from.
func (f *FlatLayout) Crd2Idx(idx int64) (int64, error) {
	if f.Rank == 0 {
		return 0, Errorf("crd2idx", CondInvalidParams, "the index %d into the empty layout", idx)
	}
	var off int64
	last := f.Rank - 1
	for i := 0; i <= last; i++ {
		c := idx
		if i < last && idx != 0 {
			s := f.Shape[i]
			if s == 0 {
				return 0, Errorf("crd2idx", CondDivByZero, "mode %d has size 0", i)
			}
			c, idx = idx%s, idx/s
		} else if i < last {
			c = 0
		}
		p, ok := MulChecked(c, f.Stride[i])
		if !ok {
			return 0, Errorf("crd2idx", CondOverflow, "%d * %d overflows int64", c, f.Stride[i])
		}
		if off, ok = AddChecked(off, p); !ok {
			return 0, Errorf("crd2idx", CondOverflow, "offset overflows int64")
		}
	}
	return off, nil
}
