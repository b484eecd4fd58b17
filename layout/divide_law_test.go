package layout

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// Laws of the divides, products and partitions, as property tests over
// random layouts. Each law is checked where the operations accept the
// input; CuTe's weak divisibility means a composition may be accepted and
// not be A o B, so the laws that read values need the composition they rest
// on to be the true composition, which they check first.

const lawTrials = 3000

var lawLeaves = []int64{1, 2, 3, 4, 6, 8}

// randShape is a random shape of the given depth budget: a leaf, or a tuple
// of 1 to 3 shapes.
func randShape(r *rand.Rand, depth int) IntTuple {
	if depth == 0 || r.Intn(3) > 0 {
		return Int(lawLeaves[r.Intn(len(lawLeaves))])
	}
	n := 1 + r.Intn(3)
	elems := make([]IntTuple, n)
	for i := range elems {
		elems[i] = randShape(r, depth-1)
	}
	return Tup(elems...)
}

// randStrideLike is a stride tree congruent to s with small random strides.
func randStrideLike(r *rand.Rand, s IntTuple) IntTuple {
	if !s.IsTuple() {
		return Int(int64(r.Intn(9)))
	}
	elems := make([]IntTuple, s.Len())
	for i, e := range s.Elems() {
		elems[i] = randStrideLike(r, e)
	}
	return Tup(elems...)
}

// randOrderLike is a random permutation of 0..leaves-1 shaped like s.
func randOrderLike(r *rand.Rand, s IntTuple) IntTuple {
	perm := r.Perm(countLeaves(s))
	k := 0
	var build func(t IntTuple) IntTuple
	build = func(t IntTuple) IntTuple {
		if !t.IsTuple() {
			k++
			return Int(int64(perm[k-1]))
		}
		elems := make([]IntTuple, t.Len())
		for i, e := range t.Elems() {
			elems[i] = build(e)
		}
		return Tup(elems...)
	}
	return build(s)
}

// randLayout is a random layout: half of the time compact (a bijection onto
// [0, size) with the modes in a random order), otherwise random strides.
func randLayout(r *rand.Rand, depth int) Layout {
	s := randShape(r, depth)
	if r.Intn(2) == 0 {
		if l, err := MakeOrderedLayout(s, randOrderLike(r, s)); err == nil {
			return l
		}
	}
	return Make(s, randStrideLike(r, s))
}

// randTiler is a random tiler for a layout of rank rank: a layout, or a
// Tiler of up to rank modes (layouts, "_", integers).
func randTiler(r *rand.Rand, rank int) Value {
	if r.Intn(3) == 0 {
		return Box(randLayout(r, 1))
	}
	n := 1 + r.Intn(rank)
	t := Tiler{Modes: make([]TilerMode, n)}
	for i := range t.Modes {
		switch r.Intn(6) {
		case 0:
			t.Modes[i] = TilerMode{Skip: true}
		case 1:
			t.Modes[i] = TilerMode{Layout: Make(Int(lawLeaves[r.Intn(4)]), Int(1)), Int: true}
		default:
			t.Modes[i] = TilerMode{Layout: randLayout(r, 1)}
		}
	}
	return t
}

// evalAll is l(0), ..., l(size-1).
func evalAll(l Layout) ([]int64, error) {
	n, err := l.Size()
	if err != nil {
		return nil, err
	}
	out := make([]int64, n)
	for i := range out {
		if out[i], err = l.Eval(int64(i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// isComposition reports whether c(i) == a(b(i)) for every i < size(b).
func isComposition(c, a, b Layout) bool {
	bv, err := evalAll(b)
	if err != nil {
		return false
	}
	cv, err := evalAll(c)
	if err != nil || len(cv) != len(bv) {
		return false
	}
	for i, x := range bv {
		ax, err := a.Eval(x)
		if err != nil || ax != cv[i] {
			return false
		}
	}
	return true
}

// leafPairs is the sorted multiset of (shape, stride) leaf pairs of l.
func leafPairs(l Layout) []string {
	s, d := Flatten(l.Shape), Flatten(l.Stride)
	var out []string
	for i := range s.Len() {
		out = append(out, s.At(i).String()+":"+d.At(i).String())
	}
	sort.Strings(out)
	return out
}

// TestLawLogicalDivide: logical_divide(A, B) == composition(A, (B, complement(B, shape(coalesce(A)))))
// mode by mode, so its first mode is A o B wherever CuTe's composition of A
// and B is the true one; a tiler divides each mode by its own tiler.
func TestLawLogicalDivide(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	checked := 0
	for range lawTrials {
		a := randLayout(r, 2)
		b := randLayout(r, 1)
		d, err := Deref(LogicalDivide(&a, Box(b)))
		if err != nil {
			continue
		}
		if d.Rank() != 2 {
			t.Fatalf("logical_divide(%v, %v) = %v has rank %d, not 2", a, b, d, d.Rank())
		}
		if n, err := d.Size(); err != nil || n > 1<<12 {
			continue
		}
		ab, err := Deref(Composition(&a, &b))
		if err != nil {
			t.Fatalf("logical_divide(%v, %v) = %v but composition(A, B) fails: %v", a, b, d, err)
		}
		if tile := modeAt(d, 0); tile.String() != ab.String() {
			t.Errorf("logical_divide(%v, %v): first mode %v, composition(A, B) = %v", a, b, tile, ab)
		}
		if isComposition(ab, a, b) {
			checked++
			if !isComposition(modeAt(d, 0), a, b) {
				t.Errorf("logical_divide(%v, %v) = %v: first mode is not A o B", a, b, d)
			}
		}
	}
	if checked < lawTrials/20 {
		t.Errorf("only %d of %d random cases had a true composition", checked, lawTrials)
	}
	// By mode: mode i of logical_divide(A, [T0;...]) is logical_divide(A_i, T_i).
	for range lawTrials {
		a := randLayout(r, 2)
		tl, ok := randTiler(r, a.Rank()).(Tiler)
		if !ok {
			continue
		}
		d, err := Deref(LogicalDivide(&a, tl))
		if err != nil {
			continue
		}
		for i := range a.Rank() {
			want := modeAt(a, i)
			if i < len(tl.Modes) {
				var mt Value = Box(tl.Modes[i].Layout)
				switch {
				case tl.Modes[i].Skip:
					mt = Tiler{Modes: []TilerMode{{Skip: true}}}
					want = modeAt(a, i)
				case tl.Modes[i].Int:
					mt = tl.Modes[i].Layout.Shape
				}
				if !tl.Modes[i].Skip {
					if want, err = Deref(LogicalDivide(ref(modeAt(a, i)), mt)); err != nil {
						t.Fatalf("logical_divide(%v, %v) = %v, but mode %d alone fails: %v", a, tl, d, i, err)
					}
				}
			}
			if got := modeAt(d, i); got.String() != want.String() {
				t.Errorf("logical_divide(%v, %v): mode %d is %v, want %v", a, tl, i, got, want)
			}
		}
	}
}

// TestLawLogicalProduct: logical_product(A, B) == (A, composition(complement(A, size(A)*cosize(B)), B)):
// mode 0 is A itself, mode 1 has B's size, and wherever that composition is
// the true one the copies of an injective A do not overlap.
func TestLawLogicalProduct(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	checked := 0
	for range lawTrials {
		a := randLayout(r, 2)
		b := randLayout(r, 1)
		p, err := Deref(LogicalProduct(&a, Box(b)))
		if err != nil {
			continue
		}
		if got := modeAt(p, 0); got.String() != a.String() {
			t.Fatalf("logical_product(%v, %v) = %v: mode 0 is not A", a, b, p)
		}
		sb, _ := b.Size()
		if n, err := modeAt(p, 1).Size(); err != nil || n != sb {
			t.Errorf("logical_product(%v, %v) = %v: mode 1 has size %d, B has %d", a, b, p, n, sb)
		}
		sa, _ := a.Size()
		cb, _ := b.Cosize()
		rest, err := Deref(ComplementTo(&a, Int(sa*cb)))
		if err != nil {
			t.Fatalf("logical_product(%v, %v) = %v, but the complement fails: %v", a, b, p, err)
		}
		if sa*sb > 1<<12 {
			continue // the values below are read one by one
		}
		av, _ := evalAll(a)
		if !isComposition(modeAt(p, 1), rest, b) || !injective(av) || !injectiveLayout(b) {
			continue
		}
		checked++
		if pv, err := evalAll(p); err != nil || !injective(pv) {
			t.Errorf("logical_product(%v, %v) = %v of injective layouts is not injective", a, b, p)
		}
	}
	if checked < lawTrials/50 {
		t.Errorf("only %d of %d random cases were checked", checked, lawTrials)
	}
}

func injective(vs []int64) bool {
	seen := map[int64]bool{}
	for _, v := range vs {
		if seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

func injectiveLayout(l Layout) bool {
	v, err := evalAll(l)
	return err == nil && injective(v)
}

// TestLawRearrangements: zipped_, tiled_ and flat_ forms are the logical
// result with its modes regrouped: the same leaves in the same order.
func TestLawRearrangements(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	type family struct {
		name    string
		logical func(Layout, Value) (Layout, error)
		forms   []func(Layout, Value) (Layout, error)
	}
	fams := []family{
		{"divide", byValue(LogicalDivide), []func(Layout, Value) (Layout, error){ZippedDivide, TiledDivide, FlatDivide}},
		{"product", byValue(LogicalProduct), []func(Layout, Value) (Layout, error){ZippedProduct, TiledProduct, FlatProduct}},
	}
	checked := 0
	for range lawTrials {
		a := randLayout(r, 2)
		tiler := randTiler(r, a.Rank())
		for _, f := range fams {
			base, err := f.logical(a, tiler)
			var flats []string
			for k, form := range f.forms {
				got, ferr := form(a, tiler)
				if ferr != nil {
					continue
				}
				if err != nil {
					t.Fatalf("%s form %d accepts (%v, %v) but logical_%s fails: %v", f.name, k, a, tiler, f.name, err)
				}
				checked++
				if !slices.Equal(leafPairs(got), leafPairs(base)) {
					t.Errorf("%s form %d of (%v, %v) = %v: leaves differ from logical %v", f.name, k, a, tiler, got, base)
				}
				fl := Flatten(got.Shape).String() + ":" + Flatten(got.Stride).String()
				flats = append(flats, fl)
				if flats[0] != fl {
					t.Errorf("%s forms of (%v, %v) flatten differently: %v", f.name, a, tiler, flats)
				}
				if k > 0 && got.Rank() < 2 {
					t.Errorf("%s form %d of (%v, %v) = %v has rank < 2", f.name, k, a, tiler, got)
				}
			}
		}
	}
	if checked < lawTrials {
		t.Errorf("only %d rearrangements checked", checked)
	}
}

// TestLawBlockedRaked: blocked_product and raked_product (where both are
// accepted) are the same function set, logical_product(append<R>(A), append<R>(B)), with the modes
// zipped (A_i, B_i) and (B_i, A_i).
func TestLawBlockedRaked(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	checked := 0
	for range lawTrials {
		a := randLayout(r, 2)
		b := randLayout(r, 1)
		bl, err1 := BlockedProduct(a, b)
		rk, err2 := RakedProduct(a, b)
		// CuTe's zip is not symmetric: it transposes when its first operand
		// is a tuple and pairs the two whole otherwise, so one of the two
		// can fail on a rank mismatch the other lets through.
		if err1 != nil || err2 != nil {
			continue
		}
		checked++
		rank := max(a.Rank(), b.Rank())
		pa, _ := AppendN(a, rank, PadLayout)
		pb, _ := AppendN(b, rank, PadLayout)
		p, err := Deref(LogicalProduct(&pa, Box(pb)))
		if err != nil {
			t.Fatalf("blocked_product(%v, %v) = %v, but the logical product fails: %v", a, b, bl, err)
		}
		if !slices.Equal(leafPairs(bl), leafPairs(p)) || !slices.Equal(leafPairs(rk), leafPairs(p)) {
			t.Errorf("blocked %v and raked %v of (%v, %v) do not have the leaves of %v", bl, rk, a, b, p)
		}
		if bl.Rank() != rank && rank > 1 {
			t.Errorf("blocked_product(%v, %v) = %v: rank %d, want %d", a, b, bl, bl.Rank(), rank)
		}
		for i := range bl.Rank() {
			m, k := modeAt(bl, i), modeAt(rk, i)
			if modeAt(m, 0).String() != modeAt(k, 1).String() || modeAt(m, 1).String() != modeAt(k, 0).String() {
				t.Errorf("mode %d: blocked %v, raked %v are not each other's swap", i, m, k)
			}
		}
	}
	if checked < lawTrials/10 {
		t.Errorf("only %d of %d random cases were checked", checked, lawTrials)
	}
}

// TestLawTileToShape: the result has the target's mode sizes, and each
// mode starts with the block's mode.
func TestLawTileToShape(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	checked := 0
	for range lawTrials {
		b := randLayout(r, 1)
		rank := b.Rank() + r.Intn(2)
		target := make([]IntTuple, rank)
		for i := range target {
			k := Int(1)
			if i < b.Rank() {
				k, _ = Product(b.Shape.At(i))
			}
			target[i] = Int(k.Value() * int64(1+r.Intn(3)))
		}
		var order Value
		if r.Intn(2) == 0 {
			order = randOrderLike(r, Tup(target...))
		}
		got, err := TileToShape(b, Tup(target...), order)
		if err != nil {
			continue
		}
		checked++
		for i := range rank {
			n, _ := Product(got.Shape.At(i))
			if n.Value() != target[i].Value() {
				t.Errorf("tile_to_shape(%v, %v, %v) = %v: mode %d has size %v", b, Tup(target...), order, got, i, n)
			}
			if i < b.Rank() && got.Shape.At(i).At(0).String() != b.Shape.At(i).String() {
				t.Errorf("tile_to_shape(%v, %v, %v) = %v: mode %d does not start with the block's", b, Tup(target...), order, got, i)
			}
		}
	}
	if checked < lawTrials/10 {
		t.Errorf("only %d of %d random cases were checked", checked, lawTrials)
	}
}

// TestLawPartitions: with Z = zipped_divide(L, T), the inner partition at
// rest index c is Z(k, c) = Offset + Layout(k), and the outer partition at
// tile index c is Z(c, j) = Offset + Layout(j).
func TestLawPartitions(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	checked := 0
	for range lawTrials / 3 {
		l := randLayout(r, 2)
		tiler := randTiler(r, l.Rank())
		z, err := ZippedDivide(l, tiler)
		if err != nil {
			continue
		}
		n0, err0 := modeAt(z, 0).Size()
		n1, err1 := modeAt(z, 1).Size()
		if err0 != nil || err1 != nil || n0*n1 > 4096 {
			continue
		}
		checked++
		for c := range n1 {
			p, err := InnerPartition(l, tiler, Int(c))
			if err != nil {
				t.Fatalf("inner_partition(%v, %v, %d): %v", l, tiler, c, err)
			}
			for k := range n0 {
				want, _ := z.Eval(k + n0*c)
				got, err := p.Layout.Eval(k)
				if err != nil || got+p.Offset.Value() != want {
					t.Fatalf("inner_partition(%v, %v, %d) = %v: at %d gives %d, Z gives %d", l, tiler, c, p, k, got+p.Offset.Value(), want)
				}
			}
		}
		for c := range n0 {
			p, err := OuterPartition(l, tiler, Int(c))
			if err != nil {
				t.Fatalf("outer_partition(%v, %v, %d): %v", l, tiler, c, err)
			}
			for j := range n1 {
				want, _ := z.Eval(c + n0*j)
				got, err := p.Layout.Eval(j)
				if err != nil || got+p.Offset.Value() != want {
					t.Fatalf("outer_partition(%v, %v, %d) = %v: at %d gives %d, Z gives %d", l, tiler, c, p, j, got+p.Offset.Value(), want)
				}
			}
		}
	}
	if checked < lawTrials/30 {
		t.Errorf("only %d random cases were checked", checked)
	}
}

// FuzzDivideProduct: no input makes any of the operations panic or hang.
func FuzzDivideProduct(f *testing.F) {
	f.Add(int64(1), uint8(0))
	f.Add(int64(42), uint8(7))
	f.Add(int64(-3), uint8(255))
	f.Fuzz(func(t *testing.T, seed int64, pick uint8) {
		r := rand.New(rand.NewSource(seed))
		a := randFuzzLayout(r, 3)
		b := randFuzzLayout(r, 2)
		tiler := randTiler(r, max(1, a.Rank()))
		if pick%4 == 0 {
			tiler = b.Shape
		}
		for _, fn := range []func(Layout, Value) (Layout, error){
			byValue(LogicalDivide), ZippedDivide, TiledDivide, FlatDivide,
			byValue(LogicalProduct), ZippedProduct, TiledProduct, FlatProduct, TileUnzip,
		} {
			_, _ = fn(a, tiler)
		}
		_, _ = BlockedProduct(a, b)
		_, _ = RakedProduct(a, b)
		_, _ = Zip(a, b)
		_, _ = Zip(a)
		_, _ = TileToShape(a, b.Shape, nil)
		_, _ = TileToShape(a, b.Shape, b.Stride)
		idx := int64(pick) - 16
		_, _ = InnerPartition(a, tiler, Int(idx))
		_, _ = OuterPartition(a, tiler, b.Shape)
		_, _ = LocalTile(a, b.Shape, Tup(Int(idx), Underscore()))
		_, _ = LocalTileProj(a, b.Shape, b.Stride, Tup(Int(1), Underscore()))
		_, _ = LocalPartition(a, b, idx)
		_, _ = LocalPartitionProj(a, b, idx, Tup(Underscore(), Int(1)))
		for _, name := range dividesAndProducts {
			_, _ = Apply(name, Box(a), tiler)
			_, _ = Apply(name, Box(a), Box(b))
		}
		_, _ = Apply("tile_to_shape", Box(a), b.Shape, b.Stride)
	})
}

// randFuzzLayout is a random layout with hostile leaves: zero, negative and
// huge shapes and strides, unknowns, non-congruent strides.
func randFuzzLayout(r *rand.Rand, depth int) Layout {
	leaf := func() IntTuple {
		switch r.Intn(10) {
		case 0:
			return Int(0)
		case 1:
			return Int(-int64(r.Intn(5)))
		case 2:
			return Int(1 << 62)
		case 3:
			return Unknown()
		default:
			return Int(int64(1 + r.Intn(8)))
		}
	}
	var tree func(d int) IntTuple
	tree = func(d int) IntTuple {
		if d == 0 || r.Intn(2) == 0 {
			return leaf()
		}
		elems := make([]IntTuple, r.Intn(4))
		for i := range elems {
			elems[i] = tree(d - 1)
		}
		return Tup(elems...)
	}
	s := tree(depth)
	if r.Intn(8) == 0 {
		return Make(s, tree(depth))
	}
	var like func(t IntTuple) IntTuple
	like = func(t IntTuple) IntTuple {
		if !t.IsTuple() {
			return leaf()
		}
		elems := make([]IntTuple, t.Len())
		for i, e := range t.Elems() {
			elems[i] = like(e)
		}
		return Tup(elems...)
	}
	return Make(s, like(s))
}

func BenchmarkLogicalDivide(b *testing.B) {
	l := mustLayout("((8,8),(4,16)):((1,64),(8,512))")
	tl := Tiler{Modes: []TilerMode{{Layout: mustLayout("(4,2):(1,8)")}, {Layout: mustLayout("8:2")}}}
	for b.Loop() {
		if _, err := LogicalDivide(&l, tl); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZippedDivide(b *testing.B) {
	l := mustLayout("(128,64):(1,128)")
	tl := Ints(32, 32)
	for b.Loop() {
		if _, err := ZippedDivide(l, tl); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBlockedProduct(b *testing.B) {
	a := mustLayout("(2,(2,4)):(1,(2,4))")
	t := mustLayout("(4,8):(8,1)")
	for b.Loop() {
		if _, err := BlockedProduct(a, t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTileToShape(b *testing.B) {
	a := mustLayout("(8,(2,4)):(4,(1,32))")
	target := Ints(128, 64)
	for b.Loop() {
		if _, err := TileToShape(a, target, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLocalPartition(b *testing.B) {
	data := mustLayout("(128,64):(1,128)")
	thr := mustLayout("(8,16):(16,1)")
	for b.Loop() {
		if _, err := LocalPartition(data, thr, 37); err != nil {
			b.Fatal(err)
		}
	}
}

var _ = fmt.Sprint
