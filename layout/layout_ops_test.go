package layout

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// offsets is l(i) for i < min(size, limit).
func offsets(t *testing.T, l Layout, limit int64) []int64 {
	t.Helper()
	n, err := l.Size()
	if err != nil {
		t.Fatalf("size of %v: %v", l, err)
	}
	n = min(n, limit)
	out := make([]int64, n)
	for i := range n {
		v, err := l.Eval(i)
		if err != nil {
			t.Fatalf("%v.Eval(%d): %v", l, i, err)
		}
		out[i] = v
	}
	return out
}

func image(offs []int64) map[int64]bool {
	m := make(map[int64]bool, len(offs))
	for _, o := range offs {
		m[o] = true
	}
	return m
}

func sameImage(a, b []int64) bool {
	ia, ib := image(a), image(b)
	if len(ia) != len(ib) {
		return false
	}
	for k := range ia {
		if !ib[k] {
			return false
		}
	}
	return true
}

const offsetLimit = 1 << 9

func TestMakeLayoutLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1))
	for range propertyRounds {
		s := randomShape(r, 4, 3)
		l, err := MakeLayout(s)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range offsets(t, l, offsetLimit) {
			if v != int64(i) {
				t.Fatalf("%v(%d) = %d", l, i, v)
			}
		}
		rl, err := MakeLayoutTag(s, LayoutRight)
		if err != nil {
			t.Fatal(err)
		}
		checkBijection(t, rl)
		ol, err := MakeOrderedLayout(s, randomOrder(r, s))
		if err != nil {
			t.Fatal(err)
		}
		checkBijection(t, ol)
		d := randomStride(r, s)
		sl, err := MakeLayoutStride(s, d)
		if err != nil || !sl.Shape.Equal(s) || !sl.Stride.Equal(d) {
			t.Fatalf("MakeLayoutStride(%v, %v) = %v, %v", s, d, sl, err)
		}
		a, b := randomLayout(r, 3, 2), randomLayout(r, 3, 2)
		cat := MakeLayoutOf(a, b)
		if g0, _ := cat.Get(0); g0.String() != a.String() {
			t.Fatalf("MakeLayoutOf(%v, %v).Get(0) = %v", a, b, g0)
		}
		if g1, _ := cat.Get(1); g1.String() != b.String() {
			t.Fatalf("MakeLayoutOf(%v, %v).Get(1) = %v", a, b, g1)
		}
	}
	if g, err := Group(mustLayout("(2,3,5):(1,2,6)"), 1, -1); err != nil || g.String() != "(2,(3,5)):(1,(2,6))" {
		t.Errorf("group<1,-1> = %v, %v", g, err)
	}
	if g, err := Group(mustLayout("8:1"), 0, -1); err != nil || g.String() != "((8)):((1))" {
		t.Errorf("group<0,-1>(8:1) = %v, %v", g, err)
	}
	one := MakeLayoutOf(mustLayout("3:1"))
	if one.String() != "(3):(1)" {
		t.Errorf("make_layout(3:1) = %v", one)
	}
}

func TestSizeCosizeLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2))
	for range propertyRounds {
		l := randomLayout(r, 4, 3)
		n, err := l.Size()
		m, err2 := Size(l.Shape)
		if err != nil || err2 != nil || n != m {
			t.Fatalf("%v: Size %d, Size(shape) %d", l, n, m)
		}
		if w, _ := MakeLayoutOf(l).Size(); w != n {
			t.Fatalf("wrapping %v changes the size", l)
		}
		co, err := l.Cosize()
		if err != nil {
			t.Fatal(err)
		}
		if nonNegativeStrides(l.Stride) && n <= offsetLimit {
			hi := int64(0)
			for _, v := range offsets(t, l, offsetLimit) {
				hi = max(hi, v)
			}
			if co != hi+1 {
				t.Fatalf("cosize(%v) = %d, max offset %d", l, co, hi)
			}
		}
		if l.Rank() != l.Shape.Rank() || l.Flatten().Depth() > 1 {
			t.Fatalf("rank/depth of %v", l)
		}
	}
	for _, tc := range []struct {
		l    string
		want int64
	}{{"(4,2):(2,-8)", 15}, {"4:0", 1}, {"():()", 1}, {"(4,2):(-1,4)", 8}} {
		if c, err := mustLayout(tc.l).Cosize(); err != nil || c != tc.want {
			t.Errorf("cosize(%s) = %d, %v; want %d", tc.l, c, err, tc.want)
		}
	}
	id, _ := MakeIdentityLayout(mustTuple("(4,8)"))
	if c, err := id.Cosize(); err != nil || c != 32 {
		t.Errorf("cosize of the identity layout (4,8) = %d, %v", c, err)
	}
	if _, err := (Layout{Shape: Ints(2, 2), Stride: Int(1)}).Cosize(); err == nil {
		t.Error("cosize of a non-congruent layout")
	}
	if _, err := (Layout{Shape: Ints(2, 2), Stride: Tup(Int(1), Unknown())}).Cosize(); !IsUnknown(err) {
		t.Errorf("cosize with an unknown stride: %v", err)
	}
	if _, err := (Layout{Shape: Ints(1<<40, 2), Stride: Ints(1<<40, 1)}).Cosize(); err == nil {
		t.Error("cosize overflow")
	}
}

func nonNegativeStrides(d IntTuple) bool {
	for _, x := range Flatten(d).Elems() {
		if x.Value() < 0 {
			return false
		}
	}
	return true
}

func TestModeLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 3))
	for range propertyRounds {
		l := randomLayout(r, 5, 3)
		offs := offsets(t, l, offsetLimit)
		if !slices.Equal(offsets(t, l.Flatten(), offsetLimit), offs) {
			t.Fatalf("Flatten(%v) = %v changes the function", l, l.Flatten())
		}
		R := l.Rank()
		if l.Shape.IsTuple() {
			modes := make([]Layout, R)
			for i := range modes {
				modes[i], _ = l.Get(i)
			}
			if back := MakeLayoutOf(modes...); back.String() != l.String() {
				t.Fatalf("modes of %v rebuild %v", l, back)
			}
		}
		is := []int{r.IntN(R), r.IntN(R), r.IntN(R)}
		sel, err := Select(l, is...)
		if err != nil {
			t.Fatal(err)
		}
		for k, i := range is {
			a, _ := sel.Get(k)
			b, _ := l.Get(i)
			if a.String() != b.String() {
				t.Fatalf("Select(%v, %v).Get(%d) = %v, want %v", l, is, k, a, b)
			}
		}
		b := r.IntN(R)
		e := b + 1 + r.IntN(R-b)
		tk, err := Take(l, b, e)
		if err != nil || tk.Rank() != e-b {
			t.Fatalf("Take(%v, %d, %d) = %v, %v", l, b, e, tk, err)
		}
		for k := range e - b {
			x, _ := tk.Get(k)
			y, _ := l.Get(b + k)
			if x.String() != y.String() {
				t.Fatalf("Take(%v, %d, %d).Get(%d) = %v", l, b, e, k, x)
			}
		}
		gb := r.IntN(R + 1)
		ge := gb + r.IntN(R+1-gb)
		g, err := Group(l, gb, ge)
		if err != nil {
			t.Fatalf("Group(%v, %d, %d): %v", l, gb, ge, err)
		}
		if g.Flatten().String() != l.Flatten().String() && l.Shape.IsTuple() {
			t.Fatalf("Group(%v, %d, %d) = %v changes the leaves", l, gb, ge, g)
		}
		x := randomLayout(r, 2, 2)
		if ap := Append(l, x); ap.Rank() != R+1 || mustGet(t, ap, R).String() != x.String() {
			t.Fatalf("Append(%v, %v) = %v", l, x, ap)
		}
		if pp := Prepend(l, x); pp.Rank() != R+1 || mustGet(t, pp, 0).String() != x.String() {
			t.Fatalf("Prepend(%v, %v) = %v", l, x, pp)
		}
		n := R + r.IntN(3)
		an, err := AppendN(l, n, PadLayout)
		if err != nil || an.Rank() != n {
			t.Fatalf("AppendN(%v, %d) = %v, %v", l, n, an, err)
		}
		if sz, _ := an.Size(); sz != int64(len(offs)) && len(offs) < offsetLimit {
			t.Fatalf("AppendN(%v, %d) changes the size", l, n)
		}
		pn, err := PrependN(l, n, PadLayout)
		if err != nil || pn.Rank() != n || mustGet(t, pn, n-1).String() != mustGet(t, l, R-1).String() {
			t.Fatalf("PrependN(%v, %d) = %v, %v", l, n, pn, err)
		}
		k := r.IntN(R + 1)
		if !l.Shape.IsTuple() {
			k = 0
		}
		rep, err := Replace(l, k, x)
		if err != nil || mustGet(t, rep, k).String() != x.String() && l.Shape.IsTuple() {
			t.Fatalf("Replace(%v, %d, %v) = %v, %v", l, k, x, rep, err)
		}
	}
}

func mustGet(t *testing.T, l Layout, is ...int) Layout {
	t.Helper()
	m, err := l.Get(is...)
	if err != nil {
		t.Fatalf("%v.Get(%v): %v", l, is, err)
	}
	return m
}

func TestLayoutOpErrors(t *testing.T) {
	l := mustLayout("(2,3,5,7):(1,2,6,30)")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"take empty", second(Take(l, 2, 2)), CondTakeEmpty},
		{"take non-congruent", second(Take(Layout{Shape: Ints(2, 2), Stride: Ints(1)}, 0, 2)), CondCongruent},
		{"group non-congruent", second(Group(Layout{Shape: Ints(2, 2), Stride: Int(1)}, 0, 2)), CondCongruent},
		{"replace non-congruent", second(Replace(Layout{Shape: Ints(2, 2), Stride: Ints(1)}, 1, PadLayout)), CondCongruent},
		{"append non-congruent", second(AppendN(Layout{Shape: Ints(2, 2), Stride: Ints(1)}, 3, PadLayout)), CondCongruent},
		{"select non-congruent", second(Select(Layout{Shape: Ints(2, 2), Stride: Ints(1)}, 1)), CondCongruent},
		{"append huge rank", second(AppendN(l, 1<<20, PadLayout)), ""},
		{"add far basis", second(addOp("add", Basis(1, 1<<20), Basis(1, 0))), ""},
		{"take reversed", second(Take(l, 3, 1)), CondTakeEmpty},
		{"take past rank", second(Take(l, 1, 5)), CondTakeBounds},
		{"take negative", second(Take(l, -1, 2)), CondTakeBounds},
		{"group reversed", second(Group(l, 2, 1)), CondGroupOrder},
		{"group past rank", second(Group(l, 3, 6)), CondIndexRange},
		{"group empty past rank", second(Group(l, 5, 5)), CondIndexRange},
		{"select past rank", second(Select(l, 0, 4)), CondIndexRange},
		{"get past rank", second(l.Get(4)), CondIndexRange},
		{"get into a leaf", second(l.Get(0, 1)), CondIndexRange},
		{"append below rank", second(AppendN(l, 3, PadLayout)), CondPadRank},
		{"prepend below rank", second(PrependN(l, 2, PadLayout)), CondPadRank},
		{"prepend<0> of a leaf", second(PrependN(mustLayout("4:1"), 0, PadLayout)), CondPadRank},
		{"replace past rank", second(Replace(l, 5, PadLayout)), CondIndexRange},
		{"replace mode 1 of a leaf", second(Replace(mustLayout("4:1"), 1, PadLayout)), CondReplaceLeaf},
		{"make_layout ranks", second(MakeLayoutStride(Ints(2, 3), Ints(1))), CondCongruent},
		{"make_layout deeper shape", second(MakeLayoutStride(mustTuple("((2,2),3)"), Ints(1, 4))), CondCongruent},
		{"make_layout deeper stride", second(MakeLayoutStride(Ints(2, 3), mustTuple("((1,2),4)"))), CondCongruent},
		{"make_layout basis shape", second(MakeLayout(Tup(Basis(2, 0)))), ""},
		{"make_layout underscore shape", second(MakeLayoutStride(Tup(Underscore()), Ints(1))), ""},
		{"make_layout bad tag", second(MakeLayoutTag(Ints(2), Tag("LayoutUp"))), ""},
		{"make_layout overflow", second(MakeLayout(Ints(1<<62, 4, 2))), CondOverflow},
		{"make_ordered_layout ranks", second(MakeOrderedLayout(Ints(2, 3), Ints(0))), "Need equal rank of shape and order"},
		{"make_ordered_layout basis shape", second(MakeOrderedLayout(Tup(Basis(2, 0)), Ints(0))), ""},
		{"make_identity_layout basis shape", second(MakeIdentityLayout(Tup(Basis(2, 0)))), ""},
		{"coalesce non-congruent", second(Coalesce(&Layout{Shape: Ints(2, 2), Stride: Int(1)})), CondCongruent},
		{"coalesce profile too long", second(CoalesceProfile(mustLayout("(8):(1)"), Ints(1, 1))), CondProfileRank},
		{"coalesce merge overflow", second(Coalesce(ref(mustLayout("(4611686018427387904,4):(1,4611686018427387904)")))), CondOverflow},
		{"coalesce end overflow", second(Coalesce(ref(mustLayout("(4611686018427387904,4):(4,1)")))), CondOverflow},
		{"filter_zeros profile", second(FilterZerosProfile(l, Ints(0, 1))), CondCongruent},
		{"filter non-congruent", second(Filter(Layout{Shape: Ints(2, 2), Stride: Int(1)})), CondCongruent},
		{"filter profile too long", second(FilterProfile(mustLayout("(8):(1)"), Ints(1, 1))), CondProfileRank},
		{"slice nested ranks", second(Slice(mustTuple("((_,1),_)"), mustLayout("(4,8):(1,4)"))), CondMismatchedRanks},
		{"slice_and_offset ranks", third3(SliceAndOffset(mustTuple("(_,1,2)"), l)), CondMismatchedRanks},
		{"slice_and_offset offset", third3(SliceAndOffset(mustTuple("(_,4611686018427387904)"), mustLayout("(4,8):(1,4)"))), CondOverflow},
		{"dice ranks", second(Dice(mustTuple("(_,1)"), l)), CondMismatchedRanks},
	} {
		var e *Error
		switch {
		case tc.err == nil:
			t.Errorf("%s: no error", tc.name)
		case !errors.As(tc.err, &e):
			t.Errorf("%s: %v is not an *Error", tc.name, tc.err)
		case tc.want != "" && e.Condition != tc.want:
			t.Errorf("%s: condition %q (%v), want %q", tc.name, e.Condition, tc.err, tc.want)
		}
	}
}

func third3(_ Layout, _ IntTuple, err error) error { return err }

func TestOpsArguments(t *testing.T) {
	lay := mustLayout("(4,8):(1,4)")
	bad := []struct {
		op   string
		args []Value
	}{
		{"size", nil},
		{"size", []Value{Tiler{}}},
		{"size", []Value{Tup(Basis(1, 0))}},
		{"cosize", []Value{Tiler{}}},
		{"cosize", []Value{Box(lay), Box(lay)}},
		{"rank", []Value{Tiler{}}},
		{"rank", nil},
		{"depth", []Value{LayoutLeft}},
		{"depth", nil},
		{"crd2idx", []Value{Box(lay)}},
		{"crd2idx", []Value{Box(lay), Box(lay)}},
		{"crd2idx", []Value{Int(1), Swizzle{}}},
		{"crd2idx", []Value{Int(1), Box(lay), Int(2)}},
		{"crd2idx", []Value{Int(1), Int(2), Box(lay)}},
		{"idx2crd", []Value{Box(lay), Int(2)}},
		{"idx2crd", []Value{Int(2), Box(lay)}},
		{"idx2crd", []Value{Int(2)}},
		{"coalesce", []Value{Tiler{}}},
		{"coalesce", []Value{Box(lay), Box(lay)}},
		{"coalesce", nil},
		{"filter", []Value{Ints(1, 2)}},
		{"make_layout", nil},
		{"make_layout", []Value{Ints(2), Ints(1), Ints(1)}},
		{"make_layout", []Value{Ints(2), Box(lay)}},
		{"make_layout", []Value{Box(lay), Ints(2)}},
		{"make_layout", []Value{Tiler{}}},
		{"make_ordered_layout", []Value{Box(lay), Ints(0)}},
		{"make_ordered_layout", []Value{Ints(2), Box(lay)}},
		{"make_ordered_layout", []Value{Ints(2)}},
		{"make_identity_layout", []Value{Box(lay)}},
		{"make_identity_layout", nil},
		{"flatten", []Value{Tiler{}}},
		{"flatten", nil},
		{"group", []Value{Box(lay), Int(0)}},
		{"group", []Value{Tiler{}, Int(0), Int(1)}},
		{"group", []Value{Box(lay), Box(lay), Int(1)}},
		{"group", []Value{Box(lay), Int(1 << 40), Int(1)}},
		{"take", []Value{Box(lay), Int(0)}},
		{"select", []Value{Box(lay), Unknown()}},
		{"layout", nil},
		{"append", []Value{Box(lay)}},
		{"append", []Value{Tiler{}, Box(lay)}},
		{"append", []Value{Box(lay), Box(lay), Box(lay)}},
		{"append", []Value{Box(lay), Tiler{}}},
		{"append", []Value{Box(lay), Int(1 << 40)}},
		{"append", []Value{Box(lay), Int(3), Tiler{}}},
		{"prepend", []Value{Box(lay), Int(1)}},
		{"replace", []Value{Box(lay), Int(0)}},
		{"replace", []Value{Tiler{}, Int(0), Box(lay)}},
		{"replace", []Value{Box(lay), Box(lay), Box(lay)}},
		{"replace", []Value{Box(lay), Int(0), Tiler{}}},
		{"slice", []Value{Box(lay), Box(lay)}},
		{"slice", []Value{Int(1), Tiler{}}},
		{"dice", []Value{Int(1)}},
	}
	for _, tc := range bad {
		if v, err := Apply(tc.op, tc.args...); err == nil {
			t.Errorf("%s(%v) = %v, want an error", tc.op, tc.args, v)
		}
	}
	good := []struct {
		op   string
		args []Value
		want string
	}{
		{"size", []Value{Ints(2, 3)}, "6"},
		{"cosize", []Value{Int(5)}, "5"},
		{"crd2idx", []Value{Ints(1, 1), Ints(2, 3), Ints(3, 1)}, "4"},
		{"crd2idx", []Value{Ints(1, 1), Ints(2, 3)}, "3"},
		{"make_ordered_layout", []Value{Ints(2, 3), LayoutRight}, "(2,3):(3,1)"},
		{"make_identity_layout", []Value{Ints(2, 3)}, "(2,3):(1@0,1@1)"},
		{"flatten", []Value{mustTuple("((2,3),4)")}, "(2,3,4)"},
		{"append", []Value{Box(lay), Int(3), Box(mustLayout("2:7"))}, "(4,8,2):(1,4,7)"},
		{"slice", []Value{Tup(Underscore(), Int(1)), Box(lay)}, "(4):(1)"},
		{"dice", []Value{Tup(Underscore(), Int(1)), Box(lay)}, "(8):(4)"},
		{"layout", []Value{Box(lay)}, "(4,8):(1,4)"},
		{"coalesce", []Value{Int(8)}, "8:1"},
	}
	for _, tc := range good {
		v, err := Apply(tc.op, tc.args...)
		if err != nil || v.String() != tc.want {
			t.Errorf("%s(%v) = %v, %v; want %s", tc.op, tc.args, v, err, tc.want)
		}
	}
	for _, name := range []string{"size", "coalesce", "make_layout", "slice"} {
		op, ok := LookupOp(name)
		if !ok || op.Doc == "" || op.Signature == "" {
			t.Errorf("op %s: registered %v, doc %q", name, ok, op.Doc)
		}
	}
}

func TestTupleOps(t *testing.T) {
	lay := mustLayout("(4,(3,6)):(1,(4,12))")
	for _, tc := range []struct {
		op   string
		args []Value
		want string
	}{
		{"shape", []Value{Box(lay)}, "(4,(3,6))"},
		{"shape", []Value{Box(lay), Int(1), Int(0)}, "3"},
		{"stride", []Value{Box(lay), Int(1)}, "(4,12)"},
		{"product", []Value{mustTuple("(2,(3,4))")}, "24"},
		{"sum", []Value{mustTuple("(2,(3,4))")}, "9"},
		{"max", []Value{mustTuple("(2,(3,4))")}, "4"},
		{"min", []Value{mustTuple("(2,(3,4))")}, "2"},
		{"gcd", []Value{mustTuple("(6,(12,4))")}, "2"},
		{"compact_col_major", []Value{mustTuple("(4,8,1,2)")}, "(1,4,0,32)"},
		{"compact_row_major", []Value{mustTuple("(4,8,1,2)")}, "(16,2,0,1)"},
		{"inner_product", []Value{mustTuple("(1,(2,3))"), mustTuple("(4,(5,6))")}, "32"},
		{"ceil_div", []Value{mustTuple("(4,5,6)"), Int(40)}, "(1,1,3)"},
		{"shape_div", []Value{mustTuple("(4,5,6)"), Int(40)}, "(1,1,3)"},
		{"elem_scale", []Value{mustTuple("(2,3)"), mustTuple("(4,(2,2))")}, "(8,12)"},
		{"compact_order", []Value{mustTuple("(2,3,4)"), mustTuple("(1,1,0)")}, "(4,4,1)"},
		{"unflatten", []Value{mustTuple("(1,2,3)"), mustTuple("(0,(0,0))")}, "(1,(2,3))"},
		{"prefix_product", []Value{mustTuple("(2,(3,4))"), Int(1)}, "(1,(2,6))"},
		{"suffix_product", []Value{mustTuple("(2,(3,4))"), Int(1)}, "(12,(4,1))"},
		{"congruent", []Value{mustTuple("(2,(3,4))"), mustTuple("(1,(1,1))")}, "true"},
		{"weakly_congruent", []Value{mustTuple("(2,3)"), mustTuple("(1,(1,1))")}, "true"},
		{"compatible", []Value{mustTuple("(2,3)"), mustTuple("(2,(3,1))")}, "true"},
		{"compatible", []Value{mustTuple("(2,4)"), mustTuple("(2,(3,1))")}, "false"},
		{"elem_less", []Value{mustTuple("(1,2)"), mustTuple("(2,3)")}, "true"},
		{"crd2crd", []Value{mustTuple("(1,2)"), mustTuple("(2,3)"), mustTuple("(3,2)")}, "(1,2)"},
		{"crd2crd", []Value{Int(5), Int(6), mustTuple("(3,2)")}, "(2,1)"},
	} {
		v, err := Apply(tc.op, tc.args...)
		if err != nil || v.String() != tc.want {
			t.Errorf("%s(%v) = %v, %v; want %s", tc.op, tc.args, v, err, tc.want)
		}
	}
	for _, tc := range []struct {
		op   string
		args []Value
	}{
		{"shape", []Value{Box(lay), Int(2)}},
		{"stride", []Value{Tiler{}}},
		{"product", []Value{Box(lay)}},
		{"product", nil},
		{"inner_product", []Value{Int(1)}},
		{"congruent", []Value{Box(lay), Int(1)}},
		{"elem_less", []Value{Int(1)}},
		{"elem_less", []Value{Unknown(), Int(1)}},
		{"crd2crd", []Value{Int(1), Int(2)}},
	} {
		if v, err := Apply(tc.op, tc.args...); err == nil {
			t.Errorf("%s(%v) = %v, want an error", tc.op, tc.args, v)
		}
	}
	// CuTe's compact_xmajor unit tests with run-time integers: a run-time 1 keeps its stride.
	if d, _ := CompactMajor(Tup(Dyn(4), Dyn(8), Dyn(1), Dyn(2)), Int(1), LayoutLeft); d.String() != "(1,4,32,32)" {
		t.Errorf("run-time compact_col_major = %v", d)
	}
	if d, _ := CompactMajor(Tup(Int(4), Tup(Int(8), Int(1), Tup(Int(2), Int(3)))), Int(1), LayoutLeft); d.String() != "(1,(4,0,(32,64)))" {
		t.Errorf("static compact_col_major = %v", d)
	}
}
