package layout

import "strconv"

// Slicing a swizzled layout as CuTe does (slice_and_offset of
// ComposedLayout<Swizzle,...>): the sliced-away coordinate is split into the
// bits the swizzle touches (kept in the layout's offset) and the rest (a
// pointer offset); and where the remaining modes never meet both a Y bit and
// its Z bit, the result decays to a plain layout whose strides carry the
// swizzle's effect.

// CondMixedBitsPow2 is CuTe's static_assert text in to_mixed_bits.
const CondMixedBitsPow2 = "Requires pow2 shape*stride."

// SliceAndOffsetComposed is CuTe's slice_and_offset(coord, Sw o off o L) for
// a coordinate with "_" leaves: the sub-layout R and the pointer offset P.
// All "_": R = Sw o off o slice(coord, L), P = 0. Otherwise, with the
// projections of the offsets onto Sw's Z and Y bits (only_zy) and onto the
// other bits (anti_zy), the diced part of the coordinate contributes
// off_zy = off ^ only_zy(diced) and P_anti = anti_zy(diced); then
//
//	R = Sw o off_zy o slice(coord, L), P = P_anti            if the sliced modes reach a Y bit and its Z bit
//	R = D o slice(coord, L),           P = Sw(off_zy) + P_anti otherwise,
//
// where D is the plain layout over Sw's bits whose strides are Sw's effect
// for the fixed off_zy (a Z bit's stride flips sign when its Y bit is set in
// off_zy, a Y bit's stride is Y+Z or Y-Z by its Z bit).
// Law: for every coordinate k of R, R(k) + P == C at coord with "_" given by
// k, when the offset's bits are disjoint from those the layout reaches (CuTe
// assumes it: offsets come from earlier slices).
func SliceAndOffsetComposed(coord IntTuple, c Composed) (Value, int64, error) {
	const op = "slice"
	sw := c.Outer
	if err := sw.Validate(op); err != nil {
		return nil, 0, err
	}
	off, err := offsetValue(op, c.Offset)
	if err != nil {
		return nil, 0, err
	}
	sliced, err := Slice(coord, c.Inner)
	if err != nil {
		return nil, 0, err
	}
	if allUnderscore(coord) {
		v, err := ComposeSwizzle(op, sw, c.Offset, Box(sliced))
		return v, 0, err
	}
	m, b, s := sw.M, sw.B, absInt(sw.S)
	box, err := MakeLayout(Tup(Int(1<<m), Int(1<<b), Int(1<<(s-b)), Int(1<<b), Int(1)))
	if err != nil {
		return nil, 0, err
	}
	st := box.Stride.Elems()
	antiZY := Make(box.Shape, Tup(st[0], Int(0), st[2], Int(0), Int(sw.Size())))
	onlyZY := Make(box.Shape, Tup(Int(0), st[1], Int(0), st[3], Int(0)))

	diced, err := Dice(coord, c.Inner)
	if err != nil {
		return nil, 0, err
	}
	dicedCoord, err := Dice(coord, Make(coord, coord))
	if err != nil {
		return nil, 0, err
	}
	dicedAnti, err := Composition(&antiZY, &diced)
	if err != nil {
		return nil, 0, err
	}
	dicedOnly, err := Composition(&onlyZY, &diced)
	if err != nil {
		return nil, 0, err
	}
	bits, dynamic, err := toMixedBits(op, *dicedOnly, dicedCoord.Shape)
	if err != nil {
		return nil, 0, err
	}
	offZY := off ^ bits
	// The bits of off_zy a run-time coordinate (a thread index) or offset
	// sets are known only at run time (CuTe's MixedBits), and so is every
	// stride CuTe chooses by one of them.
	if !c.Offset.IsStatic() {
		dynamic = -1
	}
	anti, err := evalCoordInt(op, *dicedAnti, dicedCoord.Shape)
	if err != nil {
		return nil, 0, err
	}

	slicedOnly, err := Composition(&onlyZY, &sliced)
	if err != nil {
		return nil, 0, err
	}
	n, err := slicedOnly.Size()
	if err != nil {
		return nil, 0, err
	}
	active, err := slicedOnly.Eval(n - 1)
	if err != nil {
		return nil, 0, err
	}
	if active&^sw.apply(active) != 0 { // a Y bit and its Z bit both vary: no plain layout
		v, err := ComposeSwizzle(op, sw, Int(offZY).WithStatic(dynamic == 0), Box(sliced))
		if cv, ok := v.(Composed); ok && dynamic > 0 {
			cv.OffsetRunTimeBits = dynamic
			v = cv
		}
		return v, anti, err
	}
	z, y := sw.ZMask()&-sw.ZMask(), sw.YMask()&-sw.YMask()
	lo := swizzleStrides(z < y, z, y, offZY, dynamic, b)
	hi := swizzleStrides(z > y, z, y, offZY, dynamic, b)
	twos := Repeat(b, Int(2))
	decayed := Make(
		Tup(Int(1<<m), twos, Int(1<<(s-b)), twos, Int(1)),
		Tup(Int(1), lo, Int(1<<(m+b)), hi, Int(1<<(m+b+s))))
	r, err := Composition(&decayed, &sliced)
	if err != nil {
		return nil, 0, err
	}
	p, err := addOffset(op, sw.apply(offZY), anti)
	return Box(*r), p, err
}

// SliceComposed is CuTe's slice(coord, Sw o off o L): the layout of
// SliceAndOffsetComposed (a slice drops the pointer offset, as for plain layouts).
func SliceComposed(coord IntTuple, c Composed) (Value, error) {
	v, _, err := SliceAndOffsetComposed(coord, c)
	return v, err
}

// swizzleStrides is CuTe's make_swizzle_strides: the strides of the B bits
// of one mask for the fixed offset. For the Z bits (zBits): +Z*2^i, or -Z*2^i
// when the offset has Y bit i set; for the Y bits: (Y+Z)*2^i, or (Y-Z)*2^i
// when the offset has Z bit i set. One bit is a leaf, as CuTe's repeat<1>.
func swizzleStrides(zBits bool, z, y, off, dynamic int64, b int) IntTuple {
	out := make([]IntTuple, b)
	for i := range b {
		bit := z << i // the bit the stride is chosen by
		switch {
		case zBits && off&(y<<i) == 0:
			out[i], bit = Int(z<<i), y<<i
		case zBits:
			out[i], bit = Int(-z<<i), y<<i
		case off&(z<<i) == 0:
			out[i] = Int((y + z) << i)
		default:
			out[i] = Int((y - z) << i)
		}
		if dynamic&bit != 0 {
			out[i] = out[i].WithStatic(false)
		}
	}
	if b == 1 {
		return out[0]
	}
	return Tup(out...)
}

// toMixedBits is CuTe's to_mixed_bits(layout, coord) for known values: the
// XOR over the modes of (c*d) & ((s-1)*d), at the natural coordinate of coord;
// every mode must span a power of two (s*d == 0 or 2^k).
func toMixedBits(op string, l Layout, coord IntTuple) (bits, dynamic int64, err error) {
	natural, err := Idx2Crd(coord, l.Shape)
	if err != nil {
		return 0, 0, err
	}
	var walk func(s, d, c IntTuple) (int64, error)
	walk = func(s, d, c IntTuple) (int64, error) {
		if s.IsTuple() {
			if !d.IsTuple() || !c.IsTuple() || d.Len() != s.Len() || c.Len() != s.Len() {
				return 0, Errorf(op, CondCongruent, "mixed bits of %v at %v", l, natural)
			}
			acc := int64(0)
			for i := range s.Len() {
				x, err := walk(s.At(i), d.At(i), c.At(i))
				if err != nil {
					return 0, err
				}
				acc ^= x
			}
			return acc, nil
		}
		sv, dv, cv := s.Value(), d.Value(), c.Value()
		if s.IsTuple() || d.IsTuple() || c.IsTuple() || s.IsUnknown() || d.IsUnknown() || c.IsUnknown() {
			return 0, Errorf(op, CondUnknown, "mixed bits of %v at %v", l, natural)
		}
		span, ok := MulChecked(sv, dv)
		if !ok {
			return 0, Errorf(op, CondOverflow, "%d * %d", sv, dv)
		}
		if span != 0 && (span < 0 || span&(span-1) != 0) {
			return 0, Errorf(op, CondMixedBitsPow2, "mode %v:%v of %v spans %d", s, d, l, span)
		}
		cd, ok1 := MulChecked(cv, dv)
		mask, ok2 := MulChecked(sv-1, dv)
		if !ok1 || !ok2 {
			return 0, Errorf(op, CondOverflow, "mixed bits of %v at %v", l, natural)
		}
		if !c.IsStatic() || !d.IsStatic() {
			dynamic |= mask // CuTe's MixedBits: these bits are known only at run time
		}
		return cd & mask, nil
	}
	bits, err = walk(l.Shape, l.Stride, natural)
	return bits, dynamic, err
}

// evalCoordInt is l at the coordinate c, as a known integer.
func evalCoordInt(op string, l Layout, c IntTuple) (int64, error) {
	v, err := l.EvalCoord(c)
	if err != nil {
		return 0, err
	}
	x, ok := intArg(v)
	if !ok {
		return 0, Errorf(op, CondUnknown, "%v at %v is %v", l, c, v)
	}
	return x, nil
}

// allUnderscore reports whether every leaf of c is "_".
func allUnderscore(c IntTuple) bool {
	if !c.IsTuple() {
		return c.IsUnderscore()
	}
	for _, e := range c.Elems() {
		if !allUnderscore(e) {
			return false
		}
	}
	return true
}

// ComposedPartition is a partition of a swizzled tensor as CuTe makes it:
// the sliced layout (swizzled, or decayed to a plain layout) and the pointer
// offset of the cut.
type ComposedPartition struct {
	Layout Value // a Composed or a Layout
	Offset int64
}

func (p ComposedPartition) String() string { return p.Format(false) }

// Format prints the partition as CuTe prints the sliced tensor's layout, and
// its pointer offset, with static marks when asked.
func (p ComposedPartition) Format(static bool) string {
	s := p.Layout.String()
	if f, ok := p.Layout.(interface{ Format(bool) string }); ok {
		s = f.Format(static)
	}
	return s + " + " + strconv.FormatInt(p.Offset, 10)
}

// The partitions of a swizzled layout S = Sw o off o L: the same cut as
// for a plain layout (a zipped_divide and a coordinate with "_" for the
// kept modes), made on Sw o off o zipped_divide(L) by
// SliceAndOffsetComposed, as CuTe slices a swizzled tensor.
// Law: for k below the partition's size, R(k) + P is the swizzled layout's
// value at the element the plain partition of L picks, when the offset's bits
// are disjoint from the layout's (SliceAndOffsetComposed's condition).

// InnerPartitionComposed is inner_partition(S, T, c): the tile at rest coordinate c.
func InnerPartitionComposed(c Composed, tiler Value, coord IntTuple) (ComposedPartition, error) {
	return partitionComposed("inner_partition", c, tiler, coord, true)
}

// OuterPartitionComposed is outer_partition(S, T, c): element c of every tile.
func OuterPartitionComposed(c Composed, tiler Value, coord IntTuple) (ComposedPartition, error) {
	return partitionComposed("outer_partition", c, tiler, coord, false)
}

// LocalTileComposed is local_tile(S, T, c), == InnerPartitionComposed(S, T, c).
func LocalTileComposed(c Composed, tiler Value, coord IntTuple) (ComposedPartition, error) {
	return partitionComposed("local_tile", c, tiler, coord, true)
}

// LocalTileProjComposed is local_tile(S, T, c, proj) ==
// local_tile(S, dice(proj, T), dice(proj, c)).
func LocalTileProjComposed(c Composed, tiler Value, coord, proj IntTuple) (ComposedPartition, error) {
	if err := c.Outer.Validate("local_tile"); err != nil {
		return ComposedPartition{}, err
	}
	return localTileProj("local_tile", tiler, coord, proj, composedCut("local_tile", c))
}

// LocalPartitionComposed is local_partition(S, tile, i) ==
// outer_partition(S, product_each(shape(tile)), tile.get_flat_coord(i)):
// thread i's share.
func LocalPartitionComposed(c Composed, tile Layout, index int64) (ComposedPartition, error) {
	if err := c.Outer.Validate("local_partition"); err != nil {
		return ComposedPartition{}, err
	}
	return localPartition("local_partition", tile, index, composedCut("local_partition", c))
}

// LocalPartitionProjComposed is local_partition(S, tile, i, proj) ==
// local_partition(S, dice(proj, tile), i).
func LocalPartitionProjComposed(c Composed, tile Layout, index int64, proj IntTuple) (ComposedPartition, error) {
	if err := c.Outer.Validate("local_partition"); err != nil {
		return ComposedPartition{}, err
	}
	return localPartitionProj("local_partition", tile, index, proj, composedCut("local_partition", c))
}

// partitionComposed is the partition op of c by tiler at coord, keeping
// the tile (inner) or the rest.
func partitionComposed(op string, c Composed, tiler Value, coord IntTuple, inner bool) (ComposedPartition, error) {
	if err := c.Outer.Validate(op); err != nil {
		return ComposedPartition{}, err
	}
	return partitionBy(op, tiler, coord, inner, composedCut(op, c))
}

// composedCut cuts Sw o off o zipped_divide(L, t) at coord.
func composedCut(op string, c Composed) cutter[ComposedPartition] {
	return func(t tileArg, coord IntTuple, inner bool) (ComposedPartition, error) {
		z, cut, err := partitionCut(op, c.Inner, t, coord, inner)
		if err != nil {
			return ComposedPartition{}, err
		}
		r, p, err := SliceAndOffsetComposed(cut, Composed{Outer: c.Outer, Offset: c.Offset, Inner: z})
		if err != nil {
			return ComposedPartition{}, err
		}
		return ComposedPartition{Layout: r, Offset: p}, nil
	}
}
