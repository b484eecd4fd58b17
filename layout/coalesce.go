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
func Coalesce(l *Layout) (*Layout, error) {
	const op = "coalesce"
	var mb [flatInline]mode
	var tb bases
	m, err := leafModes(op, l, mb[:0], &tb)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return PadLayout.boxed(), nil // 1:0, shared
	}
	n := len(m)
	if m, err = bwCoalesce(op, m); err != nil {
		return nil, err
	}
	if len(m) == n && (n > 1 && len(l.Shape.sub) == n && tupleElems(&l.Shape) == n || l.Shape.kind != kindTuple && m[0] == mode{leafNum(&l.Shape), leafNum(&l.Stride)}) {
		return l, nil // flat (or a leaf), and bwCoalesce kept every mode as it was: l itself, nothing built
	}
	return flatLayoutOf(m, &tb), nil
}

// leafModes is the leaf modes of l, appended to m after l's congruence is
// checked; scaled bases go into tb.
func leafModes(op string, l *Layout, m []mode, tb *bases) ([]mode, error) {
	m, ok := appendLeafModes(&l.Shape, &l.Stride, m, tb)
	if !ok {
		if !congruent(&l.Shape, &l.Stride) {
			return nil, congruenceError(op, l.Shape, l.Stride, nil)
		}
		return nil, Errorf(op, "", "%v has more than 255 scaled-basis strides", *l)
	}
	return m, nil
}

// appendLeafModes appends the leaves of the trees at t and u, as nums;
// false when the trees differ (or a basis does not fit in tb). It walks by
// pointer (a copy of each node would cost more than the walk), and a tuple's
// leaf elements in its own loop.
func appendLeafModes(t, u *IntTuple, m []mode, tb *bases) ([]mode, bool) {
	if t.kind != kindTuple {
		if len(t.sub)|len(u.sub) == 0 && u.kind != kindTuple { // a leaf layout of plain leaves
			return append(m, mode{leafNum(t), leafNum(u)}), true
		}
		return appendLeafMode(t, u, m, tb)
	}
	if u.kind != kindTuple || len(t.sub) != len(u.sub) {
		return m, false
	}
	ok := true
	ts, us := t.sub, u.sub[:len(t.sub)]
	for i := range ts {
		x, y := &ts[i], &us[i]
		switch {
		case x.kind == kindTuple:
			m, ok = appendLeafModes(x, y, m, tb)
		case len(x.sub)|len(y.sub) == 0 && y.kind != kindTuple: // two plain leaves, in place
			m = append(m, mode{leafNum(x), leafNum(y)})
		default:
			m, ok = appendLeafMode(x, y, m, tb)
		}
		if !ok {
			break
		}
	}
	return m, ok
}

// appendLeafMode appends the leaf mode t:u.
func appendLeafMode(t, u *IntTuple, m []mode, tb *bases) ([]mode, bool) {
	x, ok1 := numOf(t, tb)
	y, ok2 := numOf(u, tb)
	return append(m, mode{x, y}), ok1 && ok2 && u.kind != kindTuple
}

// bwCoalesce is CuTe's bw_coalesce on the flat modes m (at least one), in
// place: from the back, a mode of static size 1 is dropped, a front mode of
// static size 1 replaced, and a mode merges into the front one when
// mergeModes says CuTe would. It returns the kept modes; all of static size
// 1 is the mode 1:0. As many modes as it was given are those modes untouched.
func bwCoalesce(op string, m []mode) ([]mode, error) {
	n := len(m)
	w := n - 1 // the front mode
	for i := n - 2; i >= 0; i-- {
		x, front := m[i], &m[w]
		switch {
		case x.s.is(1):
		case w == n-1 && front.s.is(1):
			*front = x
		case smallStatic(x, *front):
			// mergeModes for positive static integers (the common case),
			// whose product cannot overflow.
			if x.s.v*x.d.v == front.d.v {
				front.s.v *= x.s.v
				front.d = x.d
			} else {
				w--
				m[w] = x
			}
		default:
			merged, ok, err := mergeModes(op, x.s, x.d, front.s, front.d)
			switch {
			case err != nil:
				return nil, err
			case ok:
				*front = mode{merged, x.d}
			default:
				w--
				m[w] = x
			}
		}
	}
	if w == n-1 && m[w].s.is(1) {
		m[w] = mode{numInt(1, true), numInt(0, true)}
	}
	return m[w:], nil
}

// smallStatic reports whether the modes x and y are static plain integers,
// x's and y's shape and x's stride in [1, 2^31] and y's stride in [0, 2^31)
// (so that any product of two fits). Written to fit the inliner's budget:
// bwCoalesce asks it of every mode.
func smallStatic(x, y mode) bool {
	return x.s.f|x.d.f|y.s.f|y.d.f == 0 && (uint64(x.s.v-1)|uint64(x.d.v-1)|uint64(y.s.v-1)|uint64(y.d.v))>>31 == 0
}

// mergeModes merges mode (s,d) with the following mode (ns,nd) when CuTe
// would: ns:nd static and s*d == nd a static fact (s*d is static when s
// and d are, or when either is a static 0: CuTe's C<0> * int is C<0>). It
// returns the merged shape s*ns.
func mergeModes(op string, s, d, ns, nd num) (num, bool, error) {
	if !ns.isStatic() || !nd.isStatic() {
		return num{}, false, nil
	}
	end := numInt(0, true)
	if !s.is(0) && !(d.is(0) && s.plain()) {
		if !s.isStatic() || !d.isStatic() {
			return num{}, false, nil
		}
		var err error
		if end, err = mul(op, s, d); err != nil {
			return num{}, false, err
		}
	}
	if end.v != nd.v || end.basis() != nd.basis() {
		return num{}, false, nil
	}
	merged, err := mul(op, s, ns)
	return merged, err == nil, err
}

// flatLayoutOf is the layout of the flat modes m, boxed: an
// integer-shaped layout for one mode (shared where it is small), else flat
// tuples, in one block with its Layout (newResult).
func flatLayoutOf(m []mode, tb *bases) *Layout {
	n := len(m)
	if n == 1 {
		return (&Layout{Shape: m[0].s.leaf(tb), Stride: m[0].d.leaf(tb)}).boxed()
	}
	box, both := newResult(2 * n)
	for i := range m {
		m[i].s.put(&both[i], tb)
		m[i].d.put(&both[n+i], tb)
	}
	setTuples(box, both[:n:n], both[n:])
	return box
}

// CoalesceProfile is coalesce(l, profile): a tuple profile coalesces each of
// l's first rank(profile) modes by its own sub-profile, keeping the mode
// structure (the other modes stay as they are); an integer profile
// coalesces the whole layout. The profile must not have more modes than l.
// Law: CoalesceProfile(l, p).Eval(i) == l.Eval(i) for 0 <= i < Size(l), and its rank is l's rank when p is a tuple.
func CoalesceProfile(l Layout, profile IntTuple) (Layout, error) {
	return byProfile("coalesce", l, profile, func(m Layout) (Layout, error) { return Deref(Coalesce(&m)) })
}

// byProfile applies f mode by mode where profile is a tuple (CuTe's transform_layout).
func byProfile(op string, l Layout, profile IntTuple, f func(Layout) (Layout, error)) (Layout, error) {
	if !profile.IsTuple() {
		return f(l)
	}
	r := l.Rank()
	if len(profile.elems()) > r {
		return Layout{}, Errorf(op, CondProfileRank, "the profile %v has %d modes, the layout %v has rank %d", profile, len(profile.elems()), l, r)
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
			return repeatLike(t, Int(1)), nil
		}
		return t, nil
	}
	if !t.IsTuple() || len(t.elems()) != len(p.elems()) {
		return IntTuple{}, Errorf("filter_zeros", CondCongruent, "the profile %v does not match the shape %v", p, t)
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
	return Deref(Coalesce(&fz))
}

// FilterProfile is filter(l, profile): Filter mode by mode where profile is a
// tuple, as CoalesceProfile does.
// Law: FilterProfile(l, p) has l's rank when p is a tuple, and each filtered mode has that mode's image.
func FilterProfile(l Layout, profile IntTuple) (Layout, error) {
	return byProfile("filter", l, profile, Filter)
}

// coalesceX is CuTe's detail::coalesce_x on the flat modes m, in place:
// bw_coalesce with a last mode of static size 1 read as size 2, so that the
// result is the same function as m on all integers, not only inside its
// size (composition lets the last mode run past it). No mode is 1:0.
func coalesceX(op string, m []mode) ([]mode, error) {
	if len(m) == 0 {
		return append(m, mode{numInt(1, true), numInt(0, true)}), nil
	}
	if n := len(m) - 1; m[n].s.is(1) {
		m[n].s = numInt(2, true)
	}
	return bwCoalesce(op, m)
}
