package layout

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// Property tests: each law stated in an IntTuple operation's doc comment,
// over random shapes and layouts; then every error path.

const propertyRounds = 500

func mustInt(t *testing.T, v IntTuple, err error) int64 {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !IsPlainInt(v) {
		t.Fatalf("%v is not an integer", v)
	}
	return v.Value()
}

func TestRankDepthLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 1))
	for range propertyRounds {
		s := randomShape(r, 4, 3)
		if s.IsTuple() && s.Rank() != len(s.Elems()) {
			t.Fatalf("Rank(%v) = %d", s, s.Rank())
		}
		if !s.IsTuple() && (s.Rank() != 1 || s.Depth() != 0) {
			t.Fatalf("leaf %v: rank %d depth %d", s, s.Rank(), s.Depth())
		}
		if d := Flatten(s).Depth(); d > 1 {
			t.Fatalf("Depth(Flatten(%v)) = %d", s, d)
		}
		if s.IsTuple() {
			deepest := 0
			for _, e := range s.Elems() {
				deepest = max(deepest, e.Depth())
			}
			if s.Depth() != 1+deepest {
				t.Fatalf("Depth(%v) = %d, want %d", s, s.Depth(), 1+deepest)
			}
		}
	}
	if Tup().Depth() != 1 || Tup().Rank() != 0 {
		t.Fatal("empty tuple: depth 1, rank 0")
	}
}

func TestProductSumLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 2))
	for range propertyRounds {
		a, b := randomShape(r, 3, 2), randomShape(r, 3, 2)
		pa, err := Product(a)
		na := mustInt(t, pa, err)
		pf, err := Product(Flatten(a))
		if mustInt(t, pf, err) != na {
			t.Fatalf("Product(Flatten(%v)) != Product", a)
		}
		pb, err := Product(b)
		nb := mustInt(t, pb, err)
		pab, err := Product(Tup(a, b))
		if mustInt(t, pab, err) != na*nb {
			t.Fatalf("Product((%v,%v)) != %d*%d", a, b, na, nb)
		}
		n, err := Size(a)
		if err != nil || n != na {
			t.Fatalf("Size(%v) = %d, %v", a, n, err)
		}
		sa, err := Sum(a)
		sf, err2 := Sum(Flatten(a))
		if err != nil || err2 != nil || !sa.Equal(sf) {
			t.Fatalf("Sum(%v) = %v, Sum(Flatten) = %v", a, sa, sf)
		}
		c := randomStride(r, a)
		x, err := InnerProduct(a, c)
		y, err2 := InnerProduct(c, a)
		if err != nil || err2 != nil || !x.Equal(y) {
			t.Fatalf("InnerProduct(%v,%v) = %v, reversed %v", a, c, x, y)
		}
	}
	if p, _ := Product(Tup()); !p.Equal(Int(1)) {
		t.Fatalf("Product(()) = %v", p)
	}
	if s, _ := Sum(Tup()); !s.Equal(Int(0)) {
		t.Fatalf("Sum(()) = %v", s)
	}
	if s, err := Sum(Tup(Basis(1, 0), Basis(2, 1), Basis(3, 0))); err != nil || s.String() != "(4,2)" {
		t.Fatalf("sum of bases = %v, %v", s, err)
	}
}

func TestDivisionLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 3))
	for range propertyRounds {
		a, b := 1+r.Int64N(100), 1+r.Int64N(20)
		qv, err := CeilDiv(Int(a), Int(b))
		q := mustInt(t, qv, err)
		if q*b < a || (q-1)*b >= a {
			t.Fatalf("CeilDiv(%d,%d) = %d", a, b, q)
		}
		s := randomShape(r, 4, 2)
		n, _ := Size(s)
		d := divisorOf(r, n)
		got, err := ShapeDiv(s, Int(d))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Condition != CondDivisibility {
				t.Fatalf("ShapeDiv(%v, %d): %v", s, d, err)
			}
			continue
		}
		m, _ := Size(got)
		if m*d != n {
			t.Fatalf("Size(ShapeDiv(%v, %d)) = Size(%v) = %d, want %d", s, d, got, m, n/d)
		}
		if !Congruent(got, s) {
			t.Fatalf("ShapeDiv(%v, %d) = %v changes the profile", s, d, got)
		}
	}
	for _, tc := range []struct{ a, b, want string }{
		{"(4,5,6)", "40", "(1,1,3)"},
		{"(4,6)", "8", "(1,3)"},
		{"(8,4)", "(2,2)", "(4,2)"},
		{"12", "(2,3)", "2"},
		{"2", "4", "1"},
	} {
		got, err := ShapeDiv(mustTuple(tc.a), mustTuple(tc.b))
		if err != nil || got.String() != tc.want {
			t.Errorf("shape_div(%s,%s) = %v, %v; want %s", tc.a, tc.b, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ a, b, want string }{
		{"(4,5,6)", "40", "(1,1,3)"},
		{"(7,5)", "(2)", "(4,5)"},
		{"7", "(2,2)", "2"},
		{"(6,6)", "4", "(2,6)"},
	} {
		got, err := CeilDiv(mustTuple(tc.a), mustTuple(tc.b))
		if err != nil || got.String() != tc.want {
			t.Errorf("ceil_div(%s,%s) = %v, %v; want %s", tc.a, tc.b, got, err, tc.want)
		}
	}
	if q, err := ShapeDiv(Tup(Unknown(), Int(4)), Int(2)); err != nil || q.String() != "(?,?)" {
		t.Errorf("shape_div((?,4),2) = %v, %v", q, err)
	}
	if q, err := ShapeDiv(Dyn(6), Int(4)); err != nil || !q.Equal(Int(2)) {
		t.Errorf("run-time shape_div(6,4) = %v, %v: CuTe checks static values only", q, err)
	}
}

func divisorOf(r *rand.Rand, n int64) int64 {
	var ds []int64
	for d := int64(1); d <= n && d <= 64; d++ {
		if n%d == 0 {
			ds = append(ds, d)
		}
	}
	return ds[r.IntN(len(ds))]
}

func TestProfileLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 4))
	for range propertyRounds {
		a, b := randomShape(r, 3, 2), randomShape(r, 3, 2)
		if Congruent(a, b) != Congruent(b, a) || !Congruent(a, a) {
			t.Fatalf("Congruent(%v,%v) not symmetric/reflexive", a, b)
		}
		if Congruent(a, b) && !WeaklyCongruent(a, b) {
			t.Fatalf("Congruent but not WeaklyCongruent: %v %v", a, b)
		}
		if (WeaklyCongruent(a, b) && WeaklyCongruent(b, a)) != Congruent(a, b) {
			t.Fatalf("WeaklyCongruent both ways != Congruent: %v %v", a, b)
		}
		coarse, err := productLike(a, coarsen(r, a))
		if err != nil {
			t.Fatal(err)
		}
		if !Compatible(coarse, a) || !WeaklyCongruent(coarse, a) {
			t.Fatalf("coarsening %v of %v is not compatible", coarse, a)
		}
		if Compatible(a, b) {
			na, _ := Size(a)
			nb, _ := Size(b)
			if na != nb || !WeaklyCongruent(a, b) {
				t.Fatalf("Compatible(%v,%v) but sizes %d,%d", a, b, na, nb)
			}
		}
		scaled, err := ElemScale(a, a)
		if err != nil || !Congruent(scaled, a) {
			t.Fatalf("ElemScale(%v,%v) = %v, %v", a, a, scaled, err)
		}
		pa, _ := Product(a)
		pc, _ := Product(coarse)
		if !pa.Equal(pc) {
			t.Fatalf("productLike changes the product: %v -> %v", a, coarse)
		}
		u, err := Unflatten(Flatten(a), a)
		if err != nil || !u.Equal(a) {
			t.Fatalf("Unflatten(Flatten(%v)) = %v, %v", a, u, err)
		}
	}
	if Compatible(Tup(Unknown()), Tup(Int(4))) {
		t.Error("an unknown size is not known to be compatible")
	}
}

// coarsen is a random profile coarser than (or equal to) t.
func coarsen(r *rand.Rand, t IntTuple) IntTuple {
	if !t.IsTuple() || r.IntN(3) == 0 {
		return Int(0)
	}
	elems := make([]IntTuple, len(t.Elems()))
	for i, e := range t.Elems() {
		elems[i] = coarsen(r, e)
	}
	return Tup(elems...)
}

func TestScanLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 5))
	for range propertyRounds {
		s := randomShape(r, 4, 3)
		pre, err := PrefixProduct(s, Int(1))
		if err != nil || !Congruent(pre, s) {
			t.Fatalf("PrefixProduct(%v) = %v, %v", s, pre, err)
		}
		suf, err := SuffixProduct(s, Int(1))
		if err != nil || !Congruent(suf, s) {
			t.Fatalf("SuffixProduct(%v) = %v, %v", s, suf, err)
		}
		fs, fp, fq := Flatten(s).Elems(), Flatten(pre).Elems(), Flatten(suf).Elems()
		acc := int64(1)
		for i := range fs {
			if fp[i].Value() != acc {
				t.Fatalf("PrefixProduct(%v) = %v: entry %d", s, pre, i)
			}
			acc *= fs[i].Value()
		}
		acc = 1
		for i := len(fs) - 1; i >= 0; i-- {
			if fq[i].Value() != acc {
				t.Fatalf("SuffixProduct(%v) = %v: entry %d", s, suf, i)
			}
			acc *= fs[i].Value()
		}
	}
	if p, _ := PrefixProduct(mustTuple("(2,(3,4))"), Int(1)); p.String() != "(1,(2,6))" {
		t.Errorf("prefix_product((2,(3,4))) = %v", p)
	}
	if p, _ := SuffixProduct(mustTuple("(2,(3,4))"), Int(1)); p.String() != "(12,(4,1))" {
		t.Errorf("suffix_product((2,(3,4))) = %v", p)
	}
}

func TestExtremaLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 6))
	for range propertyRounds {
		s := randomShape(r, 4, 3)
		hi, err1 := MaxOf(s)
		lo, err2 := MinOf(s)
		g, err3 := GcdOf(s)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatal(err1, err2, err3)
		}
		for _, l := range Flatten(s).Elems() {
			if l.Value() > hi.Value() || l.Value() < lo.Value() || l.Value()%g.Value() != 0 {
				t.Fatalf("max/min/gcd of %v = %v/%v/%v", s, hi, lo, g)
			}
		}
		c := randomCoord(r, s)
		if ok, err := ElemLess(c, s); err != nil || !ok {
			t.Fatalf("ElemLess(%v, %v) = %v, %v", c, s, ok, err)
		}
		if ok, _ := ElemLess(s, s); ok {
			t.Fatalf("ElemLess(%v, itself)", s)
		}
		if s.IsTuple() {
			for i, e := range s.Elems() {
				if g, err := GetMode("get", s, []int{i}); err != nil || !g.Equal(e) {
					t.Fatalf("Get(%v, %d) = %v, %v", s, i, g, err)
				}
			}
		}
	}
	if m, _ := MaxOf(Tup(Int(3), Unknown())); !m.IsUnknown() {
		t.Error("max with an unknown is unknown")
	}
	if _, err := ElemLess(Tup(Unknown()), Tup(Int(3))); !IsUnknown(err) {
		t.Errorf("elem_less with an unknown: %v", err)
	}
	if ok, _ := ElemLess(mustTuple("(1,2,3)"), mustTuple("(4,4)")); ok {
		t.Error("elem_less with more modes on the left is false")
	}
}

func TestCompactLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 7))
	for range propertyRounds {
		s := randomShape(r, 4, 3)
		n, _ := Size(s)
		left, err := CompactMajor(s, Int(1), LayoutLeft)
		if err != nil {
			t.Fatal(err)
		}
		ll := Layout{Shape: s, Stride: left}
		for i := range min(n, 256) {
			if v, err := ll.Eval(i); err != nil || v != i {
				t.Fatalf("%v.Eval(%d) = %d, %v", ll, i, v, err)
			}
		}
		right, err := CompactMajor(s, Int(1), LayoutRight)
		if err != nil {
			t.Fatal(err)
		}
		checkBijection(t, Layout{Shape: s, Stride: right})
		ordered, err := CompactOrder(s, randomOrder(r, s))
		if err != nil {
			t.Fatal(err)
		}
		checkBijection(t, Layout{Shape: s, Stride: ordered})
		bl := makeBasisLike(s, nil)
		if !Congruent(bl, s) && s.IsTuple() {
			t.Fatalf("makeBasisLike(%v, nil) = %v", s, bl)
		}
	}
	for _, tc := range []struct{ shape, left, right string }{
		{"(2,4,1)", "(1,2,0)", "(4,1,0)"},
		{"(2,(2,2))", "(1,(2,4))", "(4,(2,1))"},
		{"(1,1)", "(0,0)", "(0,0)"},
		{"8", "1", "1"},
	} {
		l, _ := CompactMajor(mustTuple(tc.shape), Int(1), LayoutLeft)
		rr, _ := CompactMajor(mustTuple(tc.shape), Int(1), LayoutRight)
		if l.String() != tc.left || rr.String() != tc.right {
			t.Errorf("compact %s: left %v right %v, want %s %s", tc.shape, l, rr, tc.left, tc.right)
		}
	}
	if d, _ := CompactMajor(Tup(Dyn(1), Int(4)), Int(1), LayoutLeft); d.String() != "(1,1)" {
		t.Errorf("a run-time 1 keeps its stride: %v", d)
	}
	if d, _ := CompactMajor(Tup(Int(2), Unknown(), Int(4)), Int(1), LayoutLeft); d.String() != "(1,2,?)" {
		t.Errorf("compact strides past an unknown: %v", d)
	}
	if d, err := CompactMajor(mustTuple("(2,3)"), mustTuple("(5,7)"), LayoutLeft); err != nil || d.String() != "(5,7)" {
		t.Errorf("compact with a start per mode: %v, %v", d, err)
	}
	if d, err := CompactOrder(mustTuple("((2,3),4)"), mustTuple("(1,0)")); err != nil || d.String() != "((4,8),1)" {
		t.Errorf("compact_order with a coarse order: %v, %v", d, err)
	}
}

// checkBijection checks that l maps [0, size) onto [0, size).
func checkBijection(t *testing.T, l Layout) {
	t.Helper()
	n, _ := l.Size()
	if n > 1<<10 {
		return // keep the property tests quick
	}
	seen := make(map[int64]bool, n)
	for i := range n {
		v, err := l.Eval(i)
		if err != nil || v < 0 || v >= n || seen[v] {
			t.Fatalf("%v is not a bijection onto [0,%d): %d -> %d, %v", l, n, i, v, err)
		}
		seen[v] = true
	}
}

func TestAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 8))
	for range propertyRounds {
		a := Basis(r.Int64N(5), r.IntN(3), r.IntN(2))
		b := Basis(r.Int64N(5), r.IntN(3), r.IntN(2))
		x, err1 := addOp("add", a, b)
		y, err2 := addOp("add", b, a)
		if err1 != nil || err2 != nil || !arithmetic(x).Equal(arithmetic(y)) {
			t.Fatalf("addOp(%v,%v) = %v, reversed %v", a, b, x, y)
		}
		if z, _ := addOp("add", a, Int(0)); !z.Equal(a) {
			t.Fatalf("addOp(%v, 0) = %v", a, z)
		}
		s := randomShape(r, 3, 2)
		if ft := FlattenToTuple(s); !ft.IsTuple() || countLeaves(ft) != countLeaves(s) {
			t.Fatalf("FlattenToTuple(%v) = %v", s, ft)
		}
		if rl := repeatLike(s, Int(0)); !Congruent(rl, s) {
			t.Fatalf("repeatLike(%v, 0) = %v", s, rl)
		}
	}
	if s, _ := mulLeaf("x", Basis(2, 1), Int(3)); s.String() != "6@1" {
		t.Errorf("2@1 * 3 = %v", s)
	}
	if s, _ := addOp("add", Unknown(), Basis(2, 1)); !s.IsUnknown() {
		t.Errorf("? + 2@1 = %v", s)
	}
}

func TestIntTupleErrors(t *testing.T) {
	cond := func(err error) string {
		var e *Error
		if errors.As(err, &e) {
			return e.Condition
		}
		if err == nil {
			return "<nil>"
		}
		return "not an *Error: " + err.Error()
	}
	big := Int(1 << 62)
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"product overflow", second(Product(Tup(big, Int(4)))), CondOverflow},
		{"product of a basis", second(Product(Basis(1, 0))), ""},
		{"sum overflow", second(Sum(Tup(big, big))), CondOverflow},
		{"inner_product ranks", second(InnerProduct(Ints(1, 2), Ints(1))), CondMismatchedRanks},
		{"inner_product profile", second(InnerProduct(Ints(1, 2), Int(1))), CondMismatchedRanks},
		{"ceil_div ranks", second(CeilDiv(Ints(1), Ints(1, 2))), CondMismatchedRanks},
		{"shape_div ranks", second(ShapeDiv(Ints(4, 4), Ints(2))), CondMismatchedRanks},
		{"shape_div divisibility", second(ShapeDiv(Int(6), Int(4))), CondDivisibility},
		{"shape_div fold divisibility", second(ShapeDiv(Ints(6, 4), Int(4))), CondDivisibility},
		{"shape_div by zero", second(ShapeDiv(Int(6), Int(0))), CondDivByZero},
		{"ceil_div of a basis", second(CeilDiv(Basis(1, 0), Int(2))), ""},
		{"ceil_div overflow", second(CeilDiv(Int(1<<63-1), Int(2))), CondOverflow},
		{"elem_scale ranks", second(ElemScale(Ints(1, 2), Ints(1))), CondMismatchedRanks},
		{"unflatten too few", second(Unflatten(Ints(1), mustTuple("(0,0)"))), CondMismatchedRanks},
		{"unflatten too many", second(Unflatten(Ints(1, 2, 3), mustTuple("(0,0)"))), CondMismatchedRanks},
		{"max of ()", second(MaxOf(Tup())), ""},
		{"gcd of a basis", second(GcdOf(Tup(Basis(1, 0)))), ""},
		{"elem_less of a basis", third(ElemLess(Basis(1, 0), Int(2))), ""},
		{"get out of range", second(GetMode("get", Ints(1, 2), []int{2})), CondIndexRange},
		{"get into a leaf", second(GetMode("get", Int(1), []int{1})), CondIndexRange},
		{"product_like deeper guide", second(productLike(Ints(1, 2), mustTuple("((0,0),0)"))), CondMismatchedRanks},
		{"compact tag", second(CompactMajor(Int(4), Int(1), Tag("LayoutDiagonal"))), ""},
		{"compact tuple start of a leaf", second(CompactMajor(Int(4), Ints(1, 2), LayoutLeft)), CondInvalidParams},
		{"compact start ranks", second(CompactMajor(Ints(4, 4), Ints(1), LayoutLeft)), CondMismatchedRanks},
		{"compact basis shape", second(CompactMajor(Tup(Basis(2, 0)), Int(1), LayoutLeft)), ""},
		{"compact overflow", second(CompactMajor(Tup(big, Int(4), Int(4)), Int(1), LayoutLeft)), CondOverflow},
		{"compact_order ranks", second(CompactOrder(Ints(2, 3), Ints(0, 1, 2))), "Need equal rank of shape and order"},
		{"compact_order basis", second(CompactOrder(Ints(2, 3), Tup(Basis(1, 0), Int(1)))), ""},
		{"add int and basis", second(addOp("add", Int(1), Basis(1, 1))), ""},
		{"add overflow", second(addOp("add", big, big)), CondOverflow},
		{"add bases overflow", second(addOp("add", Basis(1<<62, 0), Basis(1<<62, 0))), CondOverflow},
		{"multiply bases", second(mulLeaf("x", Basis(1, 0), Basis(1, 0))), ""},
		{"multiply tuples", second(mulLeaf("x", Ints(1), Int(1))), ""},
		{"add _", second(addOp("add", Underscore(), Int(1))), ""},
		{"multiply _", second(mulLeaf("x", Underscore(), Int(1))), ""},
		{"multiply overflow", second(mulLeaf("x", big, Int(4))), CondOverflow},
		{"idx2crd tuple into leaf", second(Idx2Crd(Ints(1, 2), Int(4))), CondInvalidParams},
		{"idx2crd ranks", second(Idx2Crd(mustTuple("(1,2,3)"), mustTuple("(3,(2,3))"))), CondMismatchedRanks},
		{"idx2crd empty shape", second(Idx2Crd(Int(1), Tup())), CondInvalidParams},
		{"idx2crd zero size", second(Idx2Crd(Int(3), Ints(0, 2))), CondDivByZero},
		{"idx2crd nested error", second(Idx2Crd(mustTuple("(1,(1,1))"), mustTuple("(2,(3,0,1))"))), CondMismatchedRanks},
		{"colex tuple into leaf", second(Crd2IdxColex(Ints(1, 2), Int(4))), CondInvalidParams},
		{"colex ranks", second(Crd2IdxColex(Ints(1, 2), Ints(4))), CondMismatchedRanks},
		{"colex deeper coordinate", second(Crd2IdxColex(mustTuple("((1,1),2)"), Ints(4, 4))), CondMismatchedRanks},
		{"crd2crd ranks", second(Crd2Crd(Ints(1, 2), Ints(4, 4), Ints(16))), CondMismatchedRanks},
		{"crd2idx basis coordinate", second(Crd2Idx(Basis(1, 0), Int(4), Int(1))), CondInvalidParams},
		{"crd2idx empty shape", second(Crd2Idx(Int(0), Tup(), Tup())), CondInvalidParams},
		{"crd2idx stride profile", second(Crd2Idx(Int(0), Ints(2, 2), Int(1))), CondCongruent},
		{"crd2idx tuple stride", second(Crd2Idx(Int(0), Int(2), Ints(1))), CondCongruent},
		{"crd2idx tuple coordinate stride", second(Crd2Idx(Ints(0, 0), Ints(2, 2), Int(1))), CondCongruent},
		{"crd2idx basis in coordinate mode", second(Crd2Idx(Int(5), Tup(Basis(2, 0), Int(2)), Ints(1, 2))), ""},
	} {
		if got := cond(tc.err); got != tc.want || tc.err == nil {
			t.Errorf("%s: condition %q (%v), want %q", tc.name, got, tc.err, tc.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }
func third(_ bool, err error) error      { return err }

func TestColexAndCrd2Crd(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 9))
	for range propertyRounds {
		s := randomShape(r, 4, 3)
		c := randomCoord(r, s)
		back, err := Crd2Crd(c, s, s)
		if err != nil || !back.Equal(c) {
			t.Fatalf("Crd2Crd(%v, %v, itself) = %v, %v", c, s, back, err)
		}
		flat := Flatten(s)
		fc, err := Crd2Crd(Flatten(c), flat, Int(0))
		if err != nil {
			t.Fatal(err)
		}
		idx, _ := Crd2IdxColex(c, s)
		if !fc.Equal(idx) {
			t.Fatalf("Crd2Crd(%v, %v, int) = %v, colex index %v", c, flat, fc, idx)
		}
	}
	if i, err := Crd2IdxColex(mustTuple("(1,2)"), mustTuple("((2,2),4)")); err != nil || !i.Equal(Int(9)) {
		t.Errorf("colex of a coarse coordinate = %v, %v", i, err)
	}
}

// The weakly_congruent cases of CuTe's int_tuple unit test.
func TestWeaklyCongruentCuTeCases(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"1", "2", true}, {"1", "(1)", true}, {"(1)", "1", false}, {"(2)", "1", false},
		{"(1)", "(2)", true}, {"1", "(1,1)", true}, {"(1)", "(1,1)", false},
		{"1", "(1,(1,1))", true}, {"(1,1)", "(1,(1,1))", true}, {"(1,(1,1))", "(2)", false},
		{"(1,(1,1))", "(1,1)", false}, {"(1,(1,1))", "(2,(2,2))", true},
		{"(1)", "((2,2),(2,2))", false}, {"(1,1)", "((2,2),(2,2))", true}, {"(1,(1,1))", "((2,2),(2,2))", true},
	} {
		if got := WeaklyCongruent(mustTuple(tc.a), mustTuple(tc.b)); got != tc.want {
			t.Errorf("weakly_congruent(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestProductMarksAndOverflow: a product of integers is static only when
// every factor is, an unknown factor makes it unknown unless a known zero
// is there, and an overflow is an error, whatever the nesting.
func TestProductMarksAndOverflow(t *testing.T) {
	for _, c := range []struct {
		t      IntTuple
		want   string
		static bool
	}{
		{Tup(Int(2), Int(3), Tup(Int(4))), "24", true},
		{Tup(Int(2), Dyn(3), Int(4)), "24", false},
		{Tup(Dyn(2), Tup(Int(3), Int(4))), "24", false},
		{Tup(Int(2), Unknown(), Int(4)), "?", false},
		{Tup(Unknown(), Int(0)), "0", true},
		{Tup(), "1", true},
	} {
		p, err := Product(c.t)
		if err != nil || p.String() != c.want || p.IsStatic() != c.static {
			t.Errorf("Product(%v) = %v (static %v), %v; want %s (static %v)", c.t, p, p.IsStatic(), err, c.want, c.static)
		}
	}
	if p, err := Product(Tup(Int(1<<40), Int(1<<30))); err == nil {
		t.Errorf("Product(2^40 x 2^30) = %v, want an overflow error", p)
	}
}
