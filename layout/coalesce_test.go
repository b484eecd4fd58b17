package layout

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCoalesceLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 1))
	for range propertyRounds {
		l := randomLayout(r, 6, 3)
		offs := offsets(t, l, offsetLimit)
		c, err := Deref(Coalesce(&l))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := l.Size()
		if m, _ := c.Size(); m != n {
			t.Fatalf("Coalesce(%v) = %v: size %d, want %d", l, c, m, n)
		}
		if !slices.Equal(offsets(t, c, offsetLimit), offs) {
			t.Fatalf("Coalesce(%v) = %v changes the function", l, c)
		}
		if cc, _ := Coalesce(&c); !cc.SameAs(&c) && !hasBasis(&c.Stride) {
			t.Fatalf("Coalesce not idempotent: %v -> %v -> %v (not its argument itself)", l, c, cc)
		} else if cc.String() != c.String() {
			t.Fatalf("Coalesce not idempotent: %v -> %v -> %v", l, c, cc)
		}
		if cl := l.Format(true) == c.Format(true); cl != c.SameAs(&l) && !hasBasis(&c.Stride) {
			t.Fatalf("Coalesce(%v) = %v: prints as its argument %v, is its argument %v", l, c, cl, c.SameAs(&l))
		}
		var flat FlatLayout
		if err := l.FlattenInto(&flat); err == nil {
			for i, want := range offs {
				if got, err := flat.Crd2Idx(int64(i)); err != nil || got != want {
					t.Fatalf("flat %v(%d) = %d, %v; want %d", l, i, got, err, want)
				}
			}
		}
		p := coarsen(r, l.Shape)
		if !p.IsTuple() && l.Shape.IsTuple() {
			p = repeatLike(Tup(l.Shape.Elems()[:1+r.IntN(l.Rank())]...), Int(0))
		}
		cp, err := CoalesceProfile(l, p)
		if err != nil {
			t.Fatalf("CoalesceProfile(%v, %v): %v", l, p, err)
		}
		if !slices.Equal(offsets(t, cp, offsetLimit), offs) {
			t.Fatalf("CoalesceProfile(%v, %v) = %v changes the function", l, p, cp)
		}
		if p.IsTuple() && cp.Rank() != l.Rank() {
			t.Fatalf("CoalesceProfile(%v, %v) = %v changes the rank", l, p, cp)
		}
		fz, err := FilterZeros(l)
		if err != nil || !Congruent(fz.Shape, l.Shape) {
			t.Fatalf("FilterZeros(%v) = %v, %v", l, fz, err)
		}
		if fzp, _ := FilterZerosProfile(l, l.Stride); fzp.String() != fz.String() {
			t.Fatalf("FilterZerosProfile(l, stride) = %v, FilterZeros = %v", fzp, fz)
		}
		f, err := Filter(l)
		if err != nil {
			t.Fatal(err)
		}
		if n <= offsetLimit {
			if !sameImage(offsets(t, fz, offsetLimit), offs) || !sameImage(offsets(t, f, offsetLimit), offs) {
				t.Fatalf("filter of %v: %v / %v change the image", l, fz, f)
			}
		}
		if f.String() != "1:0" {
			for _, d := range Flatten(f.Stride).Elems() {
				if d.isConst(0) {
					t.Fatalf("Filter(%v) = %v keeps a stride-0 mode", l, f)
				}
			}
		}
		if fp, err := FilterProfile(l, p); err != nil || p.IsTuple() && fp.Rank() != l.Rank() {
			t.Fatalf("FilterProfile(%v, %v) = %v, %v", l, p, fp, err)
		}
	}
}

func TestCoalesceCases(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"(2,4):(4,1)", "(2,4):(4,1)"},
		{"(2,4):(1,2)", "8:1"},
		{"(1,1):(3,5)", "1:0"},
		{"():()", "1:0"},
		{"(4,1):(1,0)", "4:1"},
		{"(2,(1,6)):(1,(6,2))", "12:1"},
		{"(2,3):(0,0)", "6:0"},
	} {
		got, err := Coalesce(ref(mustLayout(tc.in)))
		if err != nil || got.String() != tc.want {
			t.Errorf("coalesce(%s) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	// Only static values simplify, as in CuTe.
	dyn := Layout{Shape: Tup(Dyn(2), Int(4)), Stride: Tup(Int(1), Int(2))}
	if got, _ := Coalesce(&dyn); got.String() != "(2,4):(1,2)" {
		t.Errorf("coalesce with a run-time 2 = %v", got)
	}
	unk := Layout{Shape: Tup(Int(1), Unknown(), Int(2), Int(4)), Stride: Tup(Int(7), Int(1), Int(8), Int(16))}
	if got, _ := Coalesce(&unk); got.String() != "(?,8):(1,8)" {
		t.Errorf("coalesce with an unknown = %v", got)
	}
	big := Layout{Shape: Ints(1<<62, 4), Stride: Ints(1, 1<<62)}
	if _, err := Coalesce(&big); err == nil {
		t.Error("Coalesce overflow of the merged shape")
	}
	for _, tc := range []struct {
		f   FlatLayout
		idx int64
	}{
		{FlatLayout{Rank: 0}, 1},
		{FlatLayout{Shape: [8]int64{0, 2}, Stride: [8]int64{1, 1}, Rank: 2}, 3},
		{FlatLayout{Shape: [8]int64{4}, Stride: [8]int64{1 << 62}, Rank: 1}, 8},
		{FlatLayout{Shape: [8]int64{2, 2}, Stride: [8]int64{1 << 62, 1 << 62}, Rank: 2}, 3},
	} {
		if _, err := tc.f.Crd2Idx(tc.idx); err == nil {
			t.Errorf("flat crd2idx %v at %d: no error", tc.f, tc.idx)
		}
	}
	var fl FlatLayout
	for _, l := range []Layout{
		{Shape: Tup(Unknown()), Stride: Ints(1)},
		{Shape: Ints(2), Stride: Tup(Basis(1, 0))},
		{Shape: Ints(2), Stride: Int(1)},
		{Shape: Int(2), Stride: Ints(1)},
	} {
		if err := l.FlattenInto(&fl); err == nil {
			t.Errorf("FlattenInto(%v): no error", l)
		}
	}
}

// coreGoldenInputs is the parsed arguments of every valid case of op.
func coreGoldenInputs(b testing.TB, op string) [][]Value {
	var out [][]Value
	for _, c := range loadGolden(b)[op] {
		if c.Error != nil {
			continue
		}
		args, err := goldenArgs(c)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, args)
	}
	return out
}

// BenchmarkCoalesce coalesces every single-layout input of the corpus:
// "tree": Coalesce on the trees as given.
func BenchmarkCoalesce(b *testing.B) {
	var layouts []Layout
	for _, args := range coreGoldenInputs(b, "coalesce") {
		if len(args) == 1 {
			layouts = append(layouts, *(args[0].(*Layout)))
		}
	}
	b.Run("tree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range layouts {
				if _, err := Coalesce(&l); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(layouts)), "ns/layout")
	})
}

// BenchmarkCrd2Idx evaluates every valid crd2idx case of the corpus
// (integer, R-D and natural coordinates) on the hierarchical layout, and
// the integer ones on a flat layout; both allocate nothing.
func BenchmarkCrd2Idx(b *testing.B) {
	type call struct {
		c IntTuple
		l Layout
	}
	var calls []call
	for _, args := range coreGoldenInputs(b, "crd2idx") {
		calls = append(calls, call{args[0].(IntTuple), *(args[1].(*Layout))})
	}
	b.Run("tree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range calls {
				if _, err := Crd2Idx(calls[i].c, calls[i].l.Shape, calls[i].l.Stride); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(calls)), "ns/call")
	})
	b.Run("flat", func(b *testing.B) {
		type flatCall struct {
			idx int64
			f   FlatLayout
		}
		var fcs []flatCall
		for _, c := range calls {
			var f FlatLayout
			if !c.c.IsTuple() && c.l.FlattenInto(&f) == nil {
				fcs = append(fcs, flatCall{c.c.Value(), f})
			}
		}
		b.ReportAllocs()
		for b.Loop() {
			for i := range fcs {
				if _, err := fcs[i].f.Crd2Idx(fcs[i].idx); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(fcs)), "ns/call")
	})
}

// coreOpNames are the operations registered in ops_core.go.
var coreOpNames = []string{
	"size", "cosize", "rank", "depth", "crd2idx", "idx2crd", "coalesce", "filter_zeros", "filter",
	"make_layout", "make_ordered_layout", "make_identity_layout", "flatten", "group", "take", "select",
	"layout", "append", "prepend", "replace", "slice", "dice",
	"shape", "stride", "product", "sum", "max", "min", "gcd", "compact_col_major", "compact_row_major",
	"inner_product", "ceil_div", "shape_div", "elem_scale", "compact_order", "unflatten",
	"prefix_product", "suffix_product", "congruent", "weakly_congruent", "compatible", "elem_less", "crd2crd",
}

// FuzzCoreOps runs every core operation on random (often invalid) layouts,
// tuples and coordinates, and on corpus notation: none may panic, and every
// failure must be an *Error.
func FuzzCoreOps(f *testing.F) {
	f.Add(uint64(1), uint64(2), "(2,(3,4)):(1,(2,6))")
	f.Add(uint64(3), uint64(4), "((2,2),(2,2)):((1,4),(2,8))")
	f.Add(uint64(5), uint64(6), "(?,4):(1,?)")
	f.Add(uint64(7), uint64(8), "(4,8):(1@0,1@1)")
	f.Fuzz(func(t *testing.T, s1, s2 uint64, text string) {
		r := rand.New(rand.NewPCG(s1, s2))
		vals := []Value{Box(WildLayout(r)), WildTuple(r, 3), WildTuple(r, 2), Int(r.Int64N(8) - 1), Int(r.Int64N(4))}
		if v, err := readValue(text); err == nil {
			vals = append(vals, v)
		}
		check := func(what string, err error) {
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("%s: %v is not an *Error", what, err)
			}
		}
		l := vals[0].(*Layout)
		a, b := vals[1].(IntTuple), vals[2].(IntTuple)
		_, err := Coalesce(l)
		check("coalesce", err)
		_, err = CoalesceProfile(*l, b)
		check("coalesce profile", err)
		_, err = Filter(*l)
		check("filter", err)
		_, err = FilterProfile(*l, b)
		check("filter profile", err)
		_, err = l.Eval(r.Int64N(1 << 20))
		check("eval", err)
		_, err = l.EvalCoord(a)
		check("eval coord", err)
		_, _, err = SliceAndOffset(a, *l)
		check("slice_and_offset", err)
		_, err = Dice(a, *l)
		check("dice", err)
		_, err = l.Size()
		check("size", err)
		_, err = l.Cosize()
		check("cosize", err)
		var fl FlatLayout
		if l.FlattenInto(&fl) == nil {
			_, err = fl.Crd2Idx(r.Int64N(1 << 20))
			check("flat crd2idx", err)
		}
		for _, f := range []func(a, b IntTuple) (IntTuple, error){
			ShapeDiv, CeilDiv, ElemScale, InnerProduct, Idx2Crd, Crd2IdxColex,
			PrefixProduct, SuffixProduct, Unflatten, productLike, CompactOrder,
			func(a, b IntTuple) (IntTuple, error) { return addOp("add", a, b) },
		} {
			_, err := f(a, b)
			check("tuple op", err)
		}
		_, err = Crd2Crd(a, b, a)
		check("crd2crd", err)
		_, err = Idx2CrdStride(a, b, vals[3].(IntTuple))
		check("idx2crd stride", err)
		_, err = Idx2CrdStride(a, l.Shape, l.Stride)
		check("idx2crd layout", err)
		_, err = MakeLayout(a)
		check("make_layout", err)
		_, err = MakeLayoutStride(a, b)
		check("make_layout stride", err)
		_, err = MakeIdentityLayout(a)
		check("make_identity_layout", err)
		_, err = CompactMajor(a, b, LayoutRight)
		check("compact", err)
		for _, un := range []func(...IntTuple) (IntTuple, error){MaxOf, MinOf, GcdOf} {
			_, err := un(a)
			check("fold", err)
		}
		for _, un := range []func(IntTuple) (IntTuple, error){Product, Sum} {
			_, err := un(a)
			check("fold", err)
		}
		Congruent(a, b)
		WeaklyCongruent(a, b)
		Compatible(a, b)
		_, err = ElemLess(a, b)
		check("elem_less", err)
		for _, name := range coreOpNames {
			for _, args := range [][]Value{vals[:1], vals[:2], {vals[1], vals[0]}, {vals[0], vals[3], vals[4]}, vals[5:], {vals[0], vals[len(vals)-1]}} {
				_, err := Apply(name, args...)
				check(name, err)
			}
		}
	})
}
