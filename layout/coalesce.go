package layout

// Coalesce and filter, as CuTe's layout.hpp defines them, plus a flat,
// fixed-capacity layout form on which coalesce and crd2idx run without
// allocating.

// Coalesce is CuTe's coalesce(l): the flattened layout with size-1 modes
// dropped and mode i+1 merged into mode i whenever stride[i+1] ==
// shape[i]*stride[i] (scanning from the back, as CuTe does); a single
// remaining mode is an integer-shaped layout, and all-size-1 gives 1:0.
// Only static values simplify (a run-time 1 is not dropped, an unknown never
// merges), as in CuTe. The empty layout coalesces to 1:0.
// Law: Coalesce(l).Eval(i) == l.Eval(i) for 0 <= i < Size(l), Size is kept, and Coalesce is idempotent.
func Coalesce(l Layout) (Layout, error) { return (*Buffer)(nil).Coalesce(l) }

// Coalesce is the package's Coalesce with its result built in b.
func (b *Buffer) Coalesce(l Layout) (Layout, error) {
	// Its leaves pushed as they are walked: a layout that flattens is
	// congruent, the check is needed only after.
	if b != nil {
		// Straight into the result's nodes: shapes at [0, MaxFlatRank),
		// strides from MaxFlatRank on.
		slab := b.tuples(2 * MaxFlatRank)
		n := 0
		ok := pushStaticNodes(slab, &n, &l.Shape, &l.Stride)
		if ok && n > 1 {
			return Layout{Shape: tupleOf(slab[:n:n]), Stride: tupleOf(slab[MaxFlatRank : MaxFlatRank+n : MaxFlatRank+n])}, nil
		}
		b.used -= 2 * MaxFlatRank // the nodes were the last taken; no result points into them
		switch {
		case !ok:
			return coalesceTree(l)
		case n == 1:
			return Layout{Shape: slab[0], Stride: slab[MaxFlatRank]}, nil
		}
		return Layout{Shape: Int(1), Stride: Int(0)}, nil
	}
	var flat FlatLayout
	if pushStaticLeaves(&flat, &l.Shape, &l.Stride) {
		flat.finish()
		// b.flatLayout, written out (see there).
		if flat.Rank == 1 {
			return Layout{Shape: Int(flat.Shape[0]), Stride: Int(flat.Stride[0])}, nil
		}
		return slabLayout(b.flatSlab(flat.Shape[:flat.Rank], flat.Stride[:flat.Rank])), nil
	}
	return coalesceTree(l)
}

// coalesceTree is Coalesce on the IntTuples themselves, CuTe's scan from
// the back: the path of run-time values, unknowns, bases and errors.
func coalesceTree(l Layout) (Layout, error) {
	if err := checkCongruent("coalesce", l.Shape, l.Stride, nil); err != nil {
		return Layout{}, err
	}
	shape, stride := FlattenToTuple(l.Shape).elems(), FlattenToTuple(l.Stride).elems()
	r := len(shape)
	if r == 0 {
		return PadLayout, nil
	}
	// Built back to front: outS[0] is the last mode.
	outS := make([]IntTuple, 0, r)
	outD := make([]IntTuple, 0, r)
	outS, outD = append(outS, shape[r-1]), append(outD, stride[r-1])
	for i := r - 2; i >= 0; i-- {
		s, d := shape[i], stride[i]
		front := len(outS) - 1
		switch {
		case s.isConst(1):
		case len(outS) == 1 && outS[0].isConst(1):
			outS[0], outD[0] = s, d
		default:
			merged, ok, err := mergeModes(s, d, outS[front], outD[front])
			if err != nil {
				return Layout{}, err
			}
			if ok {
				outS[front], outD[front] = merged, d
			} else {
				outS, outD = append(outS, s), append(outD, d)
			}
		}
	}
	if len(outS) == 1 {
		if outS[0].isConst(1) {
			return PadLayout, nil
		}
		return Layout{Shape: outS[0], Stride: outD[0]}, nil
	}
	for i, j := 0, len(outS)-1; i < j; i, j = i+1, j-1 {
		outS[i], outS[j] = outS[j], outS[i]
		outD[i], outD[j] = outD[j], outD[i]
	}
	return Layout{Shape: Tup(outS...), Stride: Tup(outD...)}, nil
}

// mergeModes merges mode (s,d) with the following mode (ns,nd) when CuTe
// would: ns static and s*d == nd a static fact (s*d is static when s and d
// are, or when either is a static 0: CuTe's C<0> * int is C<0>). It
// returns the merged shape s*ns.
func mergeModes(s, d, ns, nd IntTuple) (IntTuple, bool, error) {
	if !ns.IsStatic() || !nd.IsStatic() {
		return IntTuple{}, false, nil
	}
	zero := s.isConst(0) || d.isConst(0) && s.isPlainInt()
	if !zero && (!s.IsStatic() || !d.IsStatic()) {
		return IntTuple{}, false, nil
	}
	end, err := mulLeaf("coalesce", s, d)
	if err != nil {
		return IntTuple{}, false, err
	}
	if zero {
		end = Int(0)
	}
	if !end.Equal(nd) {
		return IntTuple{}, false, nil
	}
	if s.isPlainInt() && ns.isPlainInt() {
		merged, err := dMul("coalesce", s, ns)
		return merged, err == nil, err
	}
	merged, err := mulLeaf("coalesce", s, ns)
	return merged, err == nil, err
}

// CoalesceProfile is coalesce(l, profile): a tuple profile coalesces each of
// l's first rank(profile) modes by its own sub-profile, keeping the mode
// structure (the other modes stay as they are); an integer profile
// coalesces the whole layout. The profile must not have more modes than l.
// Law: CoalesceProfile(l, p).Eval(i) == l.Eval(i) for 0 <= i < Size(l), and its rank is l's rank when p is a tuple.
func CoalesceProfile(l Layout, profile IntTuple) (Layout, error) {
	return byProfile("coalesce", l, profile, Coalesce)
}

// byProfile applies f mode by mode where profile is a tuple (CuTe's transform_layout).
func byProfile(op string, l Layout, profile IntTuple, f func(Layout) (Layout, error)) (Layout, error) {
	if !profile.IsTuple() {
		return f(l)
	}
	r := l.Rank()
	if len(profile.elems()) > r {
		return Layout{}, errorf(op, CondProfileRank, "the profile %v has %d modes, the layout %v has rank %d", profile, len(profile.elems()), l, r)
	}
	// The result's two trees in one allocation, as MakeLayoutOf builds them.
	both := make([]IntTuple, 2*r)
	sub := profile.elems()
	for i := range r {
		m, err := l.Get(i)
		if err != nil {
			return Layout{}, err
		}
		if i < len(sub) {
			if m, err = byProfile(op, m, sub[i], f); err != nil {
				return Layout{}, err
			}
		}
		both[i], both[r+i] = m.Shape, m.Stride
	}
	return Layout{Shape: Tup(both[:r:r]...), Stride: Tup(both[r:]...)}, nil
}

// FilterZeros is CuTe's filter_zeros(l): every mode of static stride 0 gets
// shape 1 (keeping its stride 0), so those modes no longer count.
// Law: FilterZeros(l) is congruent to l, and its image is l's image.
func FilterZeros(l Layout) (Layout, error) {
	return FilterZerosProfile(l, l.Stride)
}

// FilterZerosProfile is filter_zeros(l, profile): the modes of l where
// profile holds a static 0 get shape 1 (all of its leaves, for a tuple mode).
// Law: FilterZerosProfile(l, l.Stride) == FilterZeros(l).
func FilterZerosProfile(l Layout, profile IntTuple) (Layout, error) {
	shape, err := filterZeros(profile, l.Shape)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: shape, Stride: l.Stride}, nil
}

func filterZeros(p, t IntTuple) (IntTuple, error) {
	if !p.IsTuple() {
		if p.isConst(0) {
			return RepeatLike(t, Int(1)), nil
		}
		return t, nil
	}
	if !t.IsTuple() || len(t.elems()) != len(p.elems()) {
		return IntTuple{}, errorf("filter_zeros", CondCongruent, "the profile %v does not match the shape %v", p, t)
	}
	out := make([]IntTuple, len(p.elems()))
	for i := range p.elems() {
		f, err := filterZeros(p.elems()[i], t.elems()[i])
		if err != nil {
			return IntTuple{}, err
		}
		out[i] = f
	}
	return Tup(out...), nil
}

// Filter is CuTe's filter(l) = Coalesce(FilterZeros(l)): l without its
// stride-0 and size-1 modes, coalesced.
// Law: Filter(l) has no stride-0 mode unless it is 1:0, and its image is l's image.
func Filter(l Layout) (Layout, error) {
	fz, err := FilterZeros(l)
	if err != nil {
		return Layout{}, err
	}
	return Coalesce(fz)
}

// FilterProfile is filter(l, profile): Filter mode by mode where profile is a
// tuple, as CoalesceProfile does.
// Law: FilterProfile(l, p) has l's rank when p is a tuple, and each filtered mode has that mode's image.
func FilterProfile(l Layout, profile IntTuple) (Layout, error) {
	return byProfile("filter", l, profile, Filter)
}

// MaxFlatRank is the capacity of a FlatLayout.
const MaxFlatRank = 8

// FlatLayout is a flat layout of at most MaxFlatRank modes of known integers,
// held by value so that coalesce and crd2idx on it need no allocation. All
// its values count as static (CuTe's simplifications apply).
type FlatLayout struct {
	Shape, Stride [MaxFlatRank]int64
	Rank          int
}

// FlattenInto writes the leaves of l into dst. It fails when l has more than
// MaxFlatRank leaves, an unknown leaf (CondUnknown), a basis stride, or a
// stride not congruent to its shape.
// Law: dst.Layout().Eval(i) == l.Eval(i) for every i.
func (l Layout) FlattenInto(dst *FlatLayout) error {
	dst.Rank = 0
	var bad flatFailure
	if flattenLeaves(dst, &l.Shape, &l.Stride, &bad) {
		return nil
	}
	switch bad.why {
	case flatNotCongruent:
		return errorf("flatten", CondCongruent, "the shape %v and the stride %v of the layout are not congruent", l.Shape, l.Stride)
	case flatUnknown:
		return unknownErr("flatten", "a mode of "+l.String())
	case flatNotInteger:
		return errorf("flatten", "", "%v has the non-integer mode %v:%v", l, bad.s, bad.d)
	}
	return errorf("flatten", "", "%v has more than %d modes", l, MaxFlatRank)
}

type flatFailure struct {
	why  int
	s, d IntTuple
}

const (
	flatNotCongruent = iota + 1
	flatUnknown
	flatNotInteger
	flatTooMany
)

// flattenLeaves appends the leaves of s:d to dst; on failure it says why in bad.
func flattenLeaves(dst *FlatLayout, s, d *IntTuple, bad *flatFailure) bool {
	if s.kind == kindTuple {
		dElems, sElems := elemsAt(d), elemsAt(s)
		if d.kind != kindTuple || len(dElems) != len(sElems) {
			bad.why = flatNotCongruent
			return false
		}
		for i := range sElems {
			if !flattenLeaves(dst, &sElems[i], &dElems[i], bad) {
				return false
			}
		}
		return true
	}
	switch {
	case d.kind == kindTuple:
		bad.why = flatNotCongruent
		return false
	case s.kind == kindUnknown || d.kind == kindUnknown:
		bad.why = flatUnknown
		return false
	case !s.isPlainInt() || !d.isPlainInt():
		bad.why, bad.s, bad.d = flatNotInteger, *s, *d
		return false
	case dst.Rank == MaxFlatRank:
		bad.why = flatTooMany
		return false
	}
	dst.Shape[dst.Rank], dst.Stride[dst.Rank] = s.val, d.val
	dst.Rank++
	return true
}

// flattenStatic is FlattenInto for layouts of static plain integers only
// (the ones on which CoalesceFlat agrees with Coalesce).
func (l Layout) flattenStatic(dst *FlatLayout) bool {
	dst.Rank = 0
	return flattenStaticLeaves(dst, &l.Shape, &l.Stride)
}

// pushStaticLeaves is flattenStaticLeaves coalescing as it goes (push).
func pushStaticLeaves(dst *FlatLayout, s, d *IntTuple) bool {
	if s.kind == kindTuple {
		dElems, sElems := elemsAt(d), elemsAt(s)
		if d.kind != kindTuple || len(dElems) != len(sElems) {
			return false
		}
		for i := range sElems {
			if !pushStaticLeaves(dst, &sElems[i], &dElems[i]) {
				return false
			}
		}
		return true
	}
	if !s.static || !d.static || !s.isPlainInt() || !d.isPlainInt() {
		return false
	}
	_, _, ok := dst.push(s.val, d.val)
	return ok
}

// pushStaticNodes is pushStaticLeaves into nodes: the coalesced modes'
// shapes are nodes[:*n], their strides nodes[MaxFlatRank:MaxFlatRank+*n].
func pushStaticNodes(nodes []IntTuple, n *int, s, d *IntTuple) bool {
	if s.kind == kindTuple {
		dElems, sElems := elemsAt(d), elemsAt(s)
		if d.kind != kindTuple || len(dElems) != len(sElems) {
			return false
		}
		for i := range sElems {
			if !pushStaticNodes(nodes, n, &sElems[i], &dElems[i]) {
				return false
			}
		}
		return true
	}
	if !s.static || !d.static || !s.isPlainInt() || !d.isPlainInt() {
		return false
	}
	// FlatLayout.push on the nodes.
	if s.val == 1 {
		return true
	}
	if w := *n - 1; w >= 0 {
		end, ok := mulChecked(nodes[w].val, nodes[MaxFlatRank+w].val)
		if !ok {
			return false
		}
		if end == d.val {
			m, ok := mulChecked(nodes[w].val, s.val)
			nodes[w].val = m
			return ok
		}
	}
	if *n == MaxFlatRank {
		return false
	}
	nodes[*n], nodes[MaxFlatRank+*n] = Int(s.val), Int(d.val)
	*n++
	return true
}

// flattenStaticLeaves is flattenLeaves for static plain integers, in one
// walk; it reports false for anything else, without saying why.
func flattenStaticLeaves(dst *FlatLayout, s, d *IntTuple) bool {
	if s.kind == kindTuple {
		dElems, sElems := elemsAt(d), elemsAt(s)
		if d.kind != kindTuple || len(dElems) != len(sElems) {
			return false
		}
		for i := range sElems {
			if !flattenStaticLeaves(dst, &sElems[i], &dElems[i]) {
				return false
			}
		}
		return true
	}
	if !s.static || !d.static || !s.isPlainInt() || !d.isPlainInt() || dst.Rank == MaxFlatRank {
		return false
	}
	dst.Shape[dst.Rank], dst.Stride[dst.Rank] = s.val, d.val
	dst.Rank++
	return true
}

// Layout is f as a Layout: integer-shaped for rank 1, a flat tuple otherwise.
// Law: f.Layout().FlattenInto(&g) gives g == *f (for rank >= 1).
func (f *FlatLayout) Layout() Layout {
	if f.Rank == 1 {
		return Layout{Shape: Int(f.Shape[0]), Stride: Int(f.Stride[0])}
	}
	both := make([]IntTuple, 2*f.Rank) // one allocation for the two trees
	shapes, strides := both[:f.Rank:f.Rank], both[f.Rank:]
	for i := range f.Rank {
		shapes[i], strides[i] = Int(f.Shape[i]), Int(f.Stride[i])
	}
	return Layout{Shape: Tup(shapes...), Stride: Tup(strides...)}
}

// CoalesceFlat is Coalesce on a flat layout, writing the result into dst
// (which may be src) without allocating. A rank-1 result corresponds to
// Coalesce's integer-shaped layout.
// Law: CoalesceFlat(src).Layout() == Coalesce(src.Layout()).
func CoalesceFlat(dst, src *FlatLayout) error {
	r := src.Rank
	if r < 0 || r > MaxFlatRank {
		return errorf("coalesce", "", "flat layout of rank %d: a flat layout holds 0 to %d modes", r, MaxFlatRank)
	}
	// push's merge, written out: a call per mode costs this loop a fifth.
	// In place, as mode i is read before anything is written past it.
	w := -1 // the last mode written
	for i := range r {
		s, d := src.Shape[i], src.Stride[i]
		if s == 1 {
			continue
		}
		if w >= 0 {
			end, ok := mulChecked(dst.Shape[w], dst.Stride[w])
			if !ok {
				return errorf("coalesce", CondOverflow, "%d * %d overflows int64", dst.Shape[w], dst.Stride[w])
			}
			if end == d {
				m, ok := mulChecked(dst.Shape[w], s)
				if !ok {
					return errorf("coalesce", CondOverflow, "%d * %d overflows int64", dst.Shape[w], s)
				}
				dst.Shape[w] = m
				continue
			}
		}
		w++
		dst.Shape[w], dst.Stride[w] = s, d
	}
	dst.Rank = w + 1
	dst.finish()
	return nil
}

// push appends the mode s:d to f as coalesce merges, for walks that
// coalesce as they go: front to back (CuTe scans from the back, but a run
// of modes each starting where the one before ends merges into one mode
// whichever way it is walked), size-1 modes dropped. It reports false, with the factors, when a product
// overflows, and false when a new mode does not fit (x == y == 0).
func (f *FlatLayout) push(s, d int64) (x, y int64, ok bool) {
	if s == 1 {
		return 0, 0, true
	}
	if w := f.Rank - 1; w >= 0 {
		end, ok := mulChecked(f.Shape[w], f.Stride[w])
		if !ok {
			return f.Shape[w], f.Stride[w], false
		}
		if end == d {
			m, ok := mulChecked(f.Shape[w], s)
			if !ok {
				return f.Shape[w], s, false
			}
			f.Shape[w] = m
			return 0, 0, true
		}
	}
	if f.Rank == MaxFlatRank {
		return 0, 0, false
	}
	f.Shape[f.Rank], f.Stride[f.Rank] = s, d
	f.Rank++
	return 0, 0, true
}

// finish ends a run of pushes: no mode left is the mode 1:0.
func (f *FlatLayout) finish() {
	if f.Rank == 0 {
		f.Shape[0], f.Stride[0], f.Rank = 1, 0, 1
	}
}

// Crd2Idx is crd2idx of the 1-D index idx on f: colexicographic, the last
// mode taking the remainder (so an index past the size extends it), with
// overflow checked; no allocation unless it fails.
// Law: f.Crd2Idx(i) == f.Layout().Eval(i).
func (f *FlatLayout) Crd2Idx(idx int64) (int64, error) {
	if f.Rank == 0 {
		return 0, errorf("crd2idx", CondInvalidParams, "the index %d into the empty layout", idx)
	}
	var off int64
	last := f.Rank - 1
	for i := 0; i <= last; i++ {
		c := idx
		if i < last && idx != 0 {
			s := f.Shape[i]
			if s == 0 {
				return 0, errorf("crd2idx", CondDivByZero, "mode %d has size 0", i)
			}
			c, idx = idx%s, idx/s
		} else if i < last {
			c = 0
		}
		p, ok := mulChecked(c, f.Stride[i])
		if !ok {
			return 0, errorf("crd2idx", CondOverflow, "%d * %d overflows int64", c, f.Stride[i])
		}
		if off, ok = addChecked(off, p); !ok {
			return 0, errorf("crd2idx", CondOverflow, "offset overflows int64")
		}
	}
	return off, nil
}
