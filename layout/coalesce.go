package layout

// Coalesce and filter, as CuTe's layout.hpp defines them, and bw_coalesce,
// the one coalescing body that composition, complement and the inverses use.

// Coalesce is CuTe's coalesce(l): the flattened layout with size-1 modes
// dropped and mode i merged into mode i+1 whenever stride[i+1] ==
// shape[i]*stride[i] (scanning from the back, as CuTe's bw_coalesce does); a
// single remaining mode is an integer-shaped layout, and all-size-1 gives 1:0.
// Only static values simplify (a run-time 1 is not dropped, an unknown never
// merges), as in CuTe. The empty layout coalesces to 1:0.
//
// Law: Coalesce(l).Eval(i) == l.Eval(i) for 0 <= i < Size(l), Size is kept, and Coalesce is idempotent.
func Coalesce(l Layout) (Layout, error) {
	var sb, db [flatInline]IntTuple
	s, d, err := leafModes("coalesce", l, sb[:0], db[:0])
	if err != nil {
		return Layout{}, err
	}
	if len(s) == 0 {
		return PadLayout, nil
	}
	if s, d, err = bwCoalesce("coalesce", s, d); err != nil {
		return Layout{}, err
	}
	return flatLayoutOf(s, d), nil
}

// leafModes is the leaf modes of l, shapes and strides, appended to shapes
// and strides after l's congruence is checked.
func leafModes(op string, l Layout, shapes, strides []IntTuple) ([]IntTuple, []IntTuple, error) {
	shapes, strides, ok := appendLeafModes(&l.Shape, &l.Stride, shapes, strides)
	if !ok {
		return nil, nil, congruenceError(op, l.Shape, l.Stride, nil)
	}
	return shapes, strides, nil
}

// appendLeafModes appends the leaves of s and d; false when their trees differ.
// It walks by pointer: a copy of each node would cost more than the walk.
func appendLeafModes(s, d *IntTuple, shapes, strides []IntTuple) ([]IntTuple, []IntTuple, bool) {
	if s.kind != kindTuple {
		return append(shapes, *s), append(strides, *d), d.kind != kindTuple
	}
	if d.kind != kindTuple || len(s.sub) != len(d.sub) {
		return shapes, strides, false
	}
	ok := true
	for i := range s.sub {
		if shapes, strides, ok = appendLeafModes(&s.sub[i], &d.sub[i], shapes, strides); !ok {
			break
		}
	}
	return shapes, strides, ok
}

// bwCoalesce is CuTe's bw_coalesce on the flat modes s:d (at least one), in
// place: from the back, a mode of static size 1 is dropped, a front mode of
// static size 1 replaced, and a mode merges into the front one when
// mergeModes says CuTe would. It returns the kept modes; all of static size
// 1 is the mode 1:0.
func bwCoalesce(op string, s, d []IntTuple) ([]IntTuple, []IntTuple, error) {
	n := len(s)
	w := n - 1 // the front mode
	for i := n - 2; i >= 0; i-- {
		switch {
		case s[i].isConst(1):
		case w == n-1 && s[w].isConst(1):
			s[w], d[w] = s[i], d[i]
		default:
			merged, ok, err := mergeModes(op, s[i], d[i], s[w], d[w])
			switch {
			case err != nil:
				return nil, nil, err
			case ok:
				s[w] = merged
				d[w] = d[i]
			default:
				w--
				s[w], d[w] = s[i], d[i]
			}
		}
	}
	if w == n-1 && s[w].isConst(1) {
		s[w], d[w] = Int(1), Int(0)
	}
	return s[w:], d[w:], nil
}

// flatLayoutOf is the layout of the flat modes s:d: an integer-shaped layout
// for one mode, else flat tuples, in one allocation.
func flatLayoutOf(s, d []IntTuple) Layout {
	n := len(s)
	if n == 1 {
		return Layout{Shape: s[0], Stride: d[0]}
	}
	both := make([]IntTuple, 2*n)
	copy(both, s)
	copy(both[n:], d)
	return Layout{Shape: tupleOf(both[:n:n]), Stride: tupleOf(both[n:])}
}

// mergeModes merges mode (s,d) with the following mode (ns,nd) when CuTe
// would: ns static and s*d == nd a static fact (s*d is static when s and d
// are, or when either is a static 0: CuTe's C<0> * int is C<0>). It
// returns the merged shape s*ns.
func mergeModes(op string, s, d, ns, nd IntTuple) (IntTuple, bool, error) {
	if !ns.IsStatic() || !nd.IsStatic() {
		return IntTuple{}, false, nil
	}
	if s.static && d.static && len(s.sub)|len(d.sub)|len(nd.sub) == 0 && s.kind == kindInt && d.kind == kindInt {
		// Static plain integers, the common case.
		end, ok := mulChecked(s.val, d.val)
		if !ok {
			return IntTuple{}, false, errorf(op, CondOverflow, "%v * %v overflows int64", s, d)
		}
		if end != nd.val {
			return IntTuple{}, false, nil
		}
	} else {
		zero := s.isConst(0) || d.isConst(0) && s.isPlainInt()
		if !zero && (!s.IsStatic() || !d.IsStatic()) {
			return IntTuple{}, false, nil
		}
		end, err := mulLeaf(op, s, d)
		if err != nil {
			return IntTuple{}, false, err
		}
		if zero {
			end = Int(0)
		}
		if !end.Equal(nd) {
			return IntTuple{}, false, nil
		}
	}
	if s.isPlainInt() && ns.isPlainInt() {
		merged, err := dMul(op, s, ns)
		return merged, err == nil, err
	}
	merged, err := mulLeaf(op, s, ns)
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
