package layout

import (
	"fmt"
	"slices"
)

// Tiling helpers: zip and tile_unzip (the rearrangements behind zipped_* and
// blocked/raked products), tile_to_shape, and the partitions CuTe defines on
// tensors (local_tile, local_partition, inner_ and outer_partition), here on
// layouts: a partition is the sliced layout plus the offset of its origin,
// which is what CuTe's tensor slicing adds to the data pointer.

// Conditions of tile_to_shape, as CuTe words them.
const (
	CondTileRank      = "Rank of layout must be <= rank of target shape."
	CondTileDivide    = "tile_to_shape: block shape does not divide the target shape."
	CondAppendTooLong = "append: the tuple is longer than the rank it is padded to"
)

// Zip is CuTe's zip on layouts, a transpose of modes. With one layout
// ((a,b,...),(x,y,...)) it gives ((a,x),(b,y),...); with two layouts it
// zips their modes: zip(A, B) has modes (A_i, B_i). When the first operand is
// not a tuple nothing is transposed: zip(A, B) == make_layout(make_layout(A, B))
// for an integer-shaped A. Both operands must have the same rank, and
// a layout of no modes cannot be zipped (CuTe reads its mode 0). CuTe zips
// one or two layouts only: three or more go to its generic tuple zip, which
// wraps them in a tuple of layouts, not a layout, so they are an error here.
func Zip(layouts ...Layout) (Layout, error) {
	const op = "zip"
	switch len(layouts) {
	case 0:
		return Layout{}, Errorf(op, "", "nothing to zip")
	case 1, 2:
	default:
		return Layout{}, Errorf(op, CondInvalidParams, "zip takes one or two layouts, got %d: CuTe makes a tuple of %d layouts of them, not a layout", len(layouts), len(layouts))
	}
	for _, l := range layouts {
		if err := CheckCongruent(op, l.Shape, l.Stride); err != nil {
			return Layout{}, err
		}
	}
	if len(layouts) == 1 {
		return zipModes(op, layouts[0].Shape, layouts[0].Stride)
	}
	return zipLayouts(op, layouts...)
}

func zipLayouts(op string, ls ...Layout) (Layout, error) {
	l := MakeLayoutOf(ls...)
	return zipModes(op, l.Shape, l.Stride)
}

// zipModes is CuTe's zip(T) on the shape and stride of a layout at once.
func zipModes(op string, s, d IntTuple) (Layout, error) {
	if s.IsTuple() && s.Len() == 0 {
		return Layout{}, Errorf(op, CondIndexRange, "zip reads mode 0 of its argument to learn the rank, and %v has no modes", Make(s, d))
	}
	if !s.IsTuple() || !s.At(0).IsTuple() {
		if s.IsTuple() {
			return Make(Tup(s), Tup(d)), nil
		}
		return Make(s, d), nil
	}
	n := s.At(0).Len()
	for i, e := range s.Elems() {
		if !e.IsTuple() || e.Len() != n {
			return Layout{}, Errorf(op, CondMismatchedRanks, "zip pairs modes up, but %v does not have the rank %d of %v",
				Make(e, d.At(i)), n, Make(s.At(0), d.At(0)))
		}
	}
	shapes := make([]IntTuple, n)
	strides := make([]IntTuple, n)
	for j := range n {
		sj := make([]IntTuple, s.Len())
		dj := make([]IntTuple, s.Len())
		for i := range s.Elems() {
			sj[i], dj[i] = s.At(i).At(j), d.At(i).At(j)
		}
		shapes[j], strides[j] = Tup(sj...), Tup(dj...)
	}
	return Make(Tup(shapes...), Tup(strides...)), nil
}

// TileUnzip is CuTe's tile_unzip(L, T): L, the result of a logical divide or
// product by T, has a rank-2 (tile, rest) mode wherever T has a layout
// (or "_"); those pairs are gathered as ((TILE...),(REST...)), the modes of L
// past T's rank joining the rest.
func TileUnzip(l Layout, tiler Value) (Layout, error) {
	const op = "tile_unzip"
	if err := CheckCongruent(op, l.Shape, l.Stride); err != nil {
		return Layout{}, err
	}
	t, err := toTileArg(op, tiler)
	if err != nil {
		return Layout{}, err
	}
	return tileUnzip(op, l, t)
}

func tileUnzip(op string, l Layout, t tileArg) (Layout, error) {
	s, d, err := zip2By(op, l.Shape, l.Stride, t, "")
	if err != nil {
		return Layout{}, err
	}
	return Make(s, d), nil
}

// zip2By is CuTe's zip2_by(t, guide) on a shape and its stride at once: at
// each terminal of the guide the mode must be a (tile, rest) pair. path
// names the mode for messages.
func zip2By(op string, s, d IntTuple, g tileArg, path string) (IntTuple, IntTuple, error) {
	where := "the layout"
	if path != "" {
		where = "mode " + path
	}
	if g.kind != tileTuple {
		what := "the tiler's layout " + g.String()
		if g.kind == tileSkip {
			what = `"_" (which leaves it undivided)`
		}
		switch {
		case !s.IsTuple():
			return IntTuple{}, IntTuple{}, Errorf(op, CondIndexRange,
				"%s, %v, is under %s and is not a (tile, rest) pair", where, Make(s, d), what)
		case s.Len() != 2:
			return IntTuple{}, IntTuple{}, Errorf(op, CondUnzipRanks,
				"%s, %v, is under %s and has rank %d, not a (tile, rest) pair", where, Make(s, d), what, s.Len())
		}
		return s, d, nil
	}
	if !s.IsTuple() {
		return IntTuple{}, IntTuple{}, Errorf(op, CondIndexRange,
			"%s, %v, is an integer mode but the tiler %v has %d modes", where, Make(s, d), g, len(g.modes))
	}
	if s.Len() < len(g.modes) {
		return IntTuple{}, IntTuple{}, Errorf(op, CondUnzipRanks,
			"%s, %v, has rank %d but the tiler %v has %d modes", where, Make(s, d), s.Len(), g, len(g.modes))
	}
	var tileS, tileD, restS, restD []IntTuple
	for i, gi := range g.modes {
		sub := fmt.Sprint(i)
		if path != "" {
			sub = path + "." + sub
		}
		si, di, err := zip2By(op, s.At(i), d.At(i), gi, sub)
		if err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		tileS, tileD = append(tileS, si.At(0)), append(tileD, di.At(0))
		restS, restD = append(restS, si.At(1)), append(restD, di.At(1))
	}
	restS = append(restS, s.Elems()[len(g.modes):]...)
	restD = append(restD, d.Elems()[len(g.modes):]...)
	return Tup(Tup(tileS...), Tup(restS...)), Tup(Tup(tileD...), Tup(restD...)), nil
}

// TileToShape is CuTe's tile_to_shape(B, S, O): the block B repeated until
// the result has the target shape S mode by mode. With B padded to rank(S)
// (append<R>) and P_i = size(S_i) / size(B_i),
//
//	tile_to_shape(B, S, O) == blocked_product(append<R>(B), make_ordered_layout(P, O))
//
// O orders the repetitions (nil: CuTe's default LayoutLeft, mode 0 first;
// LayoutRight; or an IntTuple order as make_ordered_layout takes). Each
// size(B_i) must divide size(S_i), and rank(B) <= rank(S). As in CuTe, the
// division is checked only when every mode size of S is static (and there
// on the static sizes of B); otherwise each repetition count is rounded up,
// static where both sizes are.
func TileToShape(block Layout, target IntTuple, order Value) (Layout, error) {
	const op = "tile_to_shape"
	if err := CheckCongruent(op, block.Shape, block.Stride); err != nil {
		return Layout{}, err
	}
	r := target.Len()
	if block.Rank() > r {
		return Layout{}, Errorf(op, CondTileRank, "the layout %v has rank %d but the target shape %v has rank %d",
			block, block.Rank(), target, r)
	}
	padded, err := AppendN(block, r, PadLayout)
	if err != nil {
		return Layout{}, InOp(op, "", err)
	}
	blockSizes, err := ProductEach(padded.Shape)
	if err != nil {
		return Layout{}, Renamed(op, err)
	}
	targetSizes, err := ProductEach(target)
	if err != nil {
		return Layout{}, Renamed(op, err)
	}
	// CuTe asserts the division only if is_static<product_each(shape(S))>.
	checked := true
	for i := range r {
		checked = checked && targetSizes.At(i).IsStatic()
	}
	reps := make([]IntTuple, r)
	for i := range r {
		bs, ts := blockSizes.At(i), targetSizes.At(i)
		b, err := leafValue(op, bs)
		if err != nil {
			return Layout{}, err
		}
		t, err := leafValue(op, ts)
		if err != nil {
			return Layout{}, err
		}
		static := bs.IsStatic() && ts.IsStatic()
		if b <= 0 || t <= 0 || (checked && static && t%b != 0) {
			return Layout{}, Errorf(op, CondTileDivide, "mode %d: the block's size %d does not divide the target's %d", i, b, t)
		}
		reps[i] = intLeaf((t+b-1)/b, static)
	}
	var grid Layout
	switch o := order.(type) {
	case nil:
		grid, err = MakeLayoutTag(Tup(reps...), LayoutLeft)
	case Tag:
		grid, err = MakeLayoutTag(Tup(reps...), o)
	case IntTuple:
		grid, err = MakeOrderedLayout(Tup(reps...), o)
	default:
		err = Errorf(op, "", "the order %v is not LayoutLeft, LayoutRight or an IntTuple", order)
	}
	if err != nil {
		return Layout{}, InOp(op, "", err)
	}
	out, err := BlockedProduct(padded, grid)
	if err != nil {
		return Layout{}, InOp(op, "", err)
	}
	return out, nil
}

// Partition is one piece of a layout cut as CuTe cuts a tensor: the sliced
// layout and the offset of its origin in the original layout (CuTe adds it
// to the tensor's data pointer). The offset is an IntTuple because a layout
// with scaled-basis strides (an identity layout) has coordinate offsets.
type Partition struct {
	Layout Layout
	Offset IntTuple
}

func (p Partition) String() string { return p.Layout.String() + " + " + p.Offset.String() }

// Repeat is CuTe's repeat<n>(x): the tuple of n copies of x, x itself for n == 1.
func Repeat(n int, x IntTuple) IntTuple {
	if n == 1 {
		return x
	}
	return Tup(slices.Repeat([]IntTuple{x}, n)...)
}

// padCoord is CuTe's append<n>(c, _) for a tuple coordinate: c padded with "_".
func padCoord(op string, c IntTuple, n int) (IntTuple, error) {
	if c.Len() > n {
		return IntTuple{}, Errorf(op, CondAppendTooLong, "the coordinate %v has %d modes but the mode it slices has rank %d", c, c.Len(), n)
	}
	return Tup(slices.Concat(c.Elems(), slices.Repeat([]IntTuple{Underscore()}, n-c.Len()))...), nil
}

// InnerPartition is CuTe's inner_partition(T, tiler, c) on a layout: with
// Z = zipped_divide(L, tiler) = ((TILE...),(REST...)), the tile that c picks
// from the rest modes:
//
//	inner_partition(L, tiler, c) == Z(repeat<rank<0>(Z)>(_), c)
//
// where a tuple c is padded with "_" to the rest's rank (those modes stay in
// the result) and an integer c is a 1-D index into the rest. Every element of
// the result is an element of L: L(Offset + Layout(i)).
func InnerPartition(l Layout, tiler Value, c IntTuple) (Partition, error) {
	return partitionBy("inner_partition", tiler, c, true, plainCut("inner_partition", l))
}

// A cutter slices Z = zipped_divide(T, t) of its tensor T at c: in the rest
// mode (inner) or in the tile mode (outer), the other mode kept whole; a
// tuple c is padded with "_" to the rank of the mode it slices. The
// partitions below are written once over it, for a layout (plainCut) and a
// swizzled layout (composedCut, composed_slice.go).
type cutter[P any] func(t tileArg, c IntTuple, inner bool) (P, error)

// plainCut cuts the layout l: slice_and_offset of its zipped divide.
func plainCut(op string, l Layout) cutter[Partition] {
	return func(t tileArg, c IntTuple, inner bool) (Partition, error) {
		z, coord, err := partitionCut(op, l, t, c, inner)
		if err != nil {
			return Partition{}, err
		}
		s, off, err := SliceAndOffset(coord, z)
		if err != nil {
			return Partition{}, InOp(op, fmt.Sprintf("slicing %v at %v", z, coord), err)
		}
		return Partition{Layout: s, Offset: off}, nil
	}
}

// partitionBy is the cut of op by tiler at c.
func partitionBy[P any](op string, tiler Value, c IntTuple, inner bool, cut cutter[P]) (P, error) {
	t, err := toTileArg(op, tiler)
	if err != nil {
		var zero P
		return zero, err
	}
	return cut(t, c, inner)
}

// partitionCut is the zipped divide a partition slices and the coordinate it slices at.
func partitionCut(op string, l Layout, t tileArg, c IntTuple, inner bool) (Layout, IntTuple, error) {
	z, err := zippedDivide(op, l, t)
	if err != nil {
		return Layout{}, IntTuple{}, err
	}
	sliced, kept := 0, 1
	if inner {
		sliced, kept = 1, 0
	}
	if c.IsTuple() {
		if c, err = padCoord(op, c, z.Shape.At(sliced).Len()); err != nil {
			return Layout{}, IntTuple{}, err
		}
	}
	coord := []IntTuple{c, c}
	coord[kept] = Repeat(z.Shape.At(kept).Len(), Underscore())
	return z, Tup(coord...), nil
}

// OuterPartition is CuTe's outer_partition(T, tiler, c) on a layout: with
// Z = zipped_divide(L, tiler), the element c of every tile:
//
//	outer_partition(L, tiler, c) == Z(c, repeat<rank<1>(Z)>(_))
//
// a tuple c padded with "_" to the tile's rank, an integer c a 1-D index
// into the tile.
func OuterPartition(l Layout, tiler Value, c IntTuple) (Partition, error) {
	return partitionBy("outer_partition", tiler, c, false, plainCut("outer_partition", l))
}

// LocalTile is CuTe's local_tile(T, tiler, c) on a layout, the CTA-level cut:
// the tile at coordinate c of the grid of tiles, == InnerPartition(L, tiler, c).
func LocalTile(l Layout, tiler Value, c IntTuple) (Partition, error) {
	return partitionBy("local_tile", tiler, c, true, plainCut("local_tile", l))
}

// LocalTileProj is CuTe's local_tile(T, tiler, c, proj): the tiler and the
// coordinate first cut down to the modes where proj is not "_" (CuTe's X),
//
//	local_tile(L, tiler, c, proj) == local_tile(L, dice(proj, tiler), dice(proj, c))
//
// so one (M,N,K) tiler and coordinate serve the A (M,K), B (N,K) and C (M,N) operands.
func LocalTileProj(l Layout, tiler Value, c, proj IntTuple) (Partition, error) {
	return localTileProj("local_tile", tiler, c, proj, plainCut("local_tile", l))
}

func localTileProj[P any](op string, tiler Value, c, proj IntTuple, cut cutter[P]) (P, error) {
	var zero P
	t, err := toTileArg(op, tiler)
	if err != nil {
		return zero, err
	}
	if t, err = diceTileArg(op, proj, t); err != nil {
		return zero, err
	}
	if c, err = diceTuple(op, proj, c); err != nil {
		return zero, err
	}
	return cut(t, c, true)
}

// diceTuple is CuTe's dice(proj, t): the parts of t where proj is not "_".
func diceTuple(op string, proj, t IntTuple) (IntTuple, error) {
	return sliceTuple(op, proj, t, false)
}

// diceTileArg is dice(proj, tiler) for a tiler.
func diceTileArg(op string, proj IntTuple, t tileArg) (tileArg, error) {
	switch {
	case proj.IsUnderscore():
		return tileArg{kind: tileTuple}, nil
	case !proj.IsTuple():
		return t, nil
	}
	parts, err := diceTileParts(op, proj, t)
	if err != nil {
		return tileArg{}, err
	}
	return tileArg{kind: tileTuple, modes: parts}, nil
}

func diceTileParts(op string, proj IntTuple, t tileArg) ([]tileArg, error) {
	switch {
	case proj.IsUnderscore():
		return nil, nil
	case !proj.IsTuple():
		return []tileArg{t}, nil
	case t.kind != tileTuple || len(t.modes) != proj.Len():
		return nil, Errorf(op, CondMismatchedRanks, "the projection %v does not have the rank of the tiler %v", proj, t)
	}
	var out []tileArg
	for i, p := range proj.Elems() {
		part, err := diceTileParts(op, p, t.modes[i])
		if err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
}

// LocalPartition is CuTe's local_partition(T, tile, i) on a layout, the
// thread-level cut: thread i of the thread layout `tile` takes element
// get_flat_coord(i) of every tile of shape product_each(shape(tile)):
//
//	local_partition(L, tile, i) == outer_partition(L, product_each(shape(tile)), tile.get_flat_coord(i))
//
// where get_flat_coord(i) is, for each mode of tile, the column-major
// position within that mode of the coordinate idx2crd(i, shape, stride).
func LocalPartition(l Layout, tile Layout, index int64) (Partition, error) {
	return localPartition("local_partition", tile, index, plainCut("local_partition", l))
}

func localPartition[P any](op string, tile Layout, index int64, cut cutter[P]) (P, error) {
	var zero P
	shape, err := ProductEach(tile.Shape)
	if err != nil {
		return zero, Renamed(op, err)
	}
	c, err := FlatCoord(tile, index)
	if err != nil {
		return zero, Renamed(op, err)
	}
	return partitionBy(op, shape, c, false, cut)
}

// LocalPartitionProj is CuTe's local_partition(T, tile, i, proj):
// local_partition(L, dice(proj, tile), i).
func LocalPartitionProj(l Layout, tile Layout, index int64, proj IntTuple) (Partition, error) {
	return localPartitionProj("local_partition", tile, index, proj, plainCut("local_partition", l))
}

func localPartitionProj[P any](op string, tile Layout, index int64, proj IntTuple, cut cutter[P]) (P, error) {
	s, err := diceTuple(op, proj, tile.Shape)
	if err != nil {
		var zero P
		return zero, err
	}
	d, err := diceTuple(op, proj, tile.Stride)
	if err != nil {
		var zero P
		return zero, err
	}
	return localPartition(op, Make(s, d), index, cut)
}

// ProductEach is CuTe's product_each(s): the size of each top-level mode, as a tuple.
func ProductEach(s IntTuple) (IntTuple, error) {
	out := make([]IntTuple, s.Len())
	for i := range out {
		p, err := Product(s.At(i))
		if err != nil {
			return IntTuple{}, InOp("product_each", fmt.Sprintf("size of mode %d of %v", i, s), err)
		}
		out[i] = p
	}
	return Tup(out...), nil
}

// FlatCoord is CuTe's Layout::get_flat_coord(i):
//
//	crd2crd(idx2crd(i, shape, stride), shape, repeat<rank>(1))
//
// per top-level mode, the column-major position within that mode of the
// coordinate of i (an integer for an integer-shaped layout).
func FlatCoord(tile Layout, index int64) (IntTuple, error) {
	const op = "get_flat_coord"
	hier, err := idx2crdStrided(op, index, tile.Shape, tile.Stride)
	if err != nil {
		return IntTuple{}, err
	}
	ones := Int(1)
	if tile.Shape.IsTuple() {
		elems := make([]IntTuple, tile.Shape.Len())
		for i := range elems {
			elems[i] = Int(1)
		}
		ones = Tup(elems...)
	}
	c, err := Crd2Crd(hier, tile.Shape, ones)
	if err != nil {
		return IntTuple{}, InOp(op, fmt.Sprintf("crd2crd(%v, %v)", hier, tile.Shape), err)
	}
	return c, nil
}

// idx2crdStrided is CuTe's three-argument idx2crd(i, shape, stride), the
// coordinate of the offset i in a compact layout: (i / d) % s at each leaf
// (0 for a static size-1 leaf), an integer stride under a tuple shape read
// as compact_col_major(shape, stride).
func idx2crdStrided(op string, index int64, s, d IntTuple) (IntTuple, error) {
	if s.IsTuple() {
		if !d.IsTuple() {
			var err error
			if d, err = CompactMajor(s, d, LayoutLeft); err != nil {
				return IntTuple{}, InOp(op, fmt.Sprintf("compact_col_major(%v, %v)", s, d), err)
			}
		}
		if d.Len() != s.Len() {
			return IntTuple{}, Errorf(op, CondCongruent, "shape %v and stride %v", s, d)
		}
		out := make([]IntTuple, s.Len())
		for i := range out {
			c, err := idx2crdStrided(op, index, s.At(i), d.At(i))
			if err != nil {
				return IntTuple{}, err
			}
			out[i] = c
		}
		return Tup(out...), nil
	}
	if d.IsTuple() {
		return IntTuple{}, Errorf(op, CondCongruent, "shape %v and stride %v", s, d)
	}
	n, err := leafValue(op, s)
	if err != nil {
		return IntTuple{}, err
	}
	if n == 1 {
		return Int(0), nil
	}
	stride, err := leafValue(op, d)
	if err != nil {
		return IntTuple{}, err
	}
	switch {
	case n <= 0:
		return IntTuple{}, Errorf(op, CondDivByZero, "idx2crd(%d, %v, %v): a mode of size %d", index, s, d, n)
	case stride == 0:
		return IntTuple{}, Errorf(op, CondDivByZero, "idx2crd(%d, %v, %v) divides by the stride 0 of a mode of size %d", index, s, d, n)
	}
	return Int(index / stride % n), nil
}
