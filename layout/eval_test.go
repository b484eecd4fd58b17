package layout

import (
	"math/rand/v2"
	"testing"
)

// TestEvalMatchesGoldenOffsets checks Eval and the flat crd2idx against every
// offset list CuTe printed for a plain layout result in the corpus.
func TestEvalMatchesGoldenOffsets(t *testing.T) {
	checked := 0
	for _, cases := range loadGolden(t) {
		for _, c := range cases {
			if c.Result == nil || len(c.Offsets) == 0 {
				continue
			}
			v, err := readValue(*c.Result)
			if err != nil {
				continue // nested composed layouts are beyond the test notation reader
			}
			l, ok := v.(*Layout)
			if !ok {
				continue
			}
			var flat FlatLayout
			flatErr := l.FlattenInto(&flat)
			for i, want := range c.Offsets {
				got, err := l.Eval(int64(i))
				if err != nil || got != want {
					t.Fatalf("%s: %v.Eval(%d) = %d, %v; CuTe gives %d", c.ID, l, i, got, err, want)
				}
				if flatErr == nil {
					got, err := flat.Crd2Idx(int64(i))
					if err != nil || got != want {
						t.Fatalf("%s: flat %v(%d) = %d, %v; CuTe gives %d", c.ID, l, i, got, err, want)
					}
				}
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d layouts with offsets checked", checked)
	}
}

func TestIdx2CrdCrd2IdxRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		l := randomLayout(r, 4, 3)
		n, err := l.Size()
		if err != nil {
			t.Fatal(err)
		}
		for range 8 {
			i := r.Int64N(n)
			crd, err := Idx2Crd(Int(i), l.Shape)
			if err != nil {
				t.Fatalf("Idx2Crd(%d, %v): %v", i, l.Shape, err)
			}
			back, err := Crd2IdxColex(crd, l.Shape)
			if err != nil || !back.Equal(Int(i)) {
				t.Fatalf("Crd2IdxColex(%v, %v) = %v, %v; want %d", crd, l.Shape, back, err, i)
			}
			// Eval(i) == EvalCoord(natural coordinate) == InnerProduct(coordinate, stride)
			e, err := l.Eval(i)
			if err != nil {
				t.Fatal(err)
			}
			ec, err := l.EvalCoord(crd)
			if err != nil || !ec.Equal(Int(e)) {
				t.Fatalf("%v.EvalCoord(%v) = %v, %v; Eval(%d) = %d", l, crd, ec, err, i, e)
			}
			ip, err := InnerProduct(crd, l.Stride)
			if err != nil || !ip.Equal(Int(e)) {
				t.Fatalf("InnerProduct(%v, %v) = %v, %v; want %d", crd, l.Stride, ip, err, e)
			}
		}
	}
}

func TestIdentityLayoutEvaluatesToCoordinate(t *testing.T) {
	l, err := MakeIdentityLayout(mustTuple("(4,8)"))
	if err != nil {
		t.Fatal(err)
	}
	if got := l.String(); got != "(4,8):(1@0,1@1)" {
		t.Fatalf("make_identity_layout((4,8)) = %s", got)
	}
	got, err := l.EvalCoord(mustTuple("(1,2)"))
	if err != nil || got.String() != "(1,2)" {
		t.Fatalf("identity at (1,2) = %v, %v", got, err)
	}
	got, err = l.EvalCoord(Int(13))
	if err != nil || got.String() != "(1,3)" {
		t.Fatalf("identity at 13 = %v, %v", got, err)
	}
	nested, _ := MakeIdentityLayout(mustTuple("(2,(3,4))"))
	if nested.Stride.String() != "(1@0,(1@0@1,1@1@1))" {
		t.Fatalf("nested identity strides %v", nested.Stride)
	}
	got, err = nested.EvalCoord(mustTuple("(1,(2,3))"))
	if err != nil || got.String() != "(1,(2,3))" {
		t.Fatalf("nested identity at (1,(2,3)) = %v, %v", got, err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		shape := randomShape(r, 3, 2)
		id, err := MakeIdentityLayout(shape)
		if err != nil {
			t.Fatal(err)
		}
		c := randomCoord(r, shape)
		got, err := id.EvalCoord(c)
		if err != nil {
			t.Fatalf("%v at %v: %v", id, c, err)
		}
		got = arithmetic(got)
		if !shape.IsTuple() {
			if !got.Equal(c) {
				t.Fatalf("%v at %v = %v", id, c, got)
			}
			continue
		}
		// The basis sum has c's leaves at c's positions (zeros may be trimmed).
		for _, p := range leafPaths(shape, nil) {
			want, _ := GetMode("get", c, p)
			have, err := GetMode("get", got, p)
			if err != nil {
				have = Int(0)
			}
			if !have.Equal(want) && !(want.Value() == 0) {
				t.Fatalf("%v at %v = %v: position %v holds %v", id, c, got, p, have)
			}
		}
	}
}

// arithmetic is t with every scaled basis spelled out as an arithmetic tuple.
func arithmetic(t IntTuple) IntTuple {
	if t.IsBasis() {
		return arithmetic(asArithmeticTuple(t))
	}
	if !t.IsTuple() {
		return t
	}
	elems := make([]IntTuple, len(t.Elems()))
	for i, e := range t.Elems() {
		elems[i] = arithmetic(e)
	}
	return Tup(elems...)
}

func leafPaths(t IntTuple, path []int) [][]int {
	if !t.IsTuple() {
		return [][]int{append([]int(nil), path...)}
	}
	var out [][]int
	for i, e := range t.Elems() {
		out = append(out, leafPaths(e, append(path, i))...)
	}
	return out
}

func TestUnknownPropagates(t *testing.T) {
	s := Tup(Unknown(), Int(4))
	p, err := Product(s)
	if err != nil || !p.IsUnknown() {
		t.Fatalf("product((?,4)) = %v, %v", p, err)
	}
	if _, err := Size(s); !IsUnknown(err) {
		t.Fatalf("Size((?,4)) error %v, want CondUnknown", err)
	}
	zero, err := Product(Tup(Unknown(), Int(0)))
	if err != nil || !zero.Equal(Int(0)) {
		t.Fatalf("product((?,0)) = %v, %v", zero, err)
	}
	l := Layout{Shape: s, Stride: Tup(Int(1), Unknown())}
	if _, err := l.Eval(5); !IsUnknown(err) {
		t.Fatalf("Eval on %v: %v, want CondUnknown", l, err)
	}
	off, err := l.EvalCoord(mustTuple("(0,0)"))
	if err != nil || !off.Equal(Int(0)) {
		t.Fatalf("%v at (0,0) = %v, %v", l, off, err)
	}
	off, err = l.EvalCoord(Int(0))
	if err != nil || !off.Equal(Int(0)) {
		t.Fatalf("%v at 0 = %v, %v", l, off, err)
	}
	c, err := Idx2Crd(Int(5), s)
	if err != nil || c.String() != "(?,?)" {
		t.Fatalf("idx2crd(5, (?,4)) = %v, %v", c, err)
	}
	if v, err := Apply("size", Box(l)); err != nil || v.String() != "?" {
		t.Fatalf("size op on %v = %v, %v", l, v, err)
	}
	if v, err := Apply("cosize", Box(l)); err != nil || v.String() != "?" {
		t.Fatalf("cosize op on %v = %v, %v", l, v, err)
	}
	if _, err := Apply("size", Swizzle{1, 2, 3}); err == nil || IsUnknown(err) {
		t.Fatalf("size of a swizzle: %v", err)
	}
	if IsUnknown(nil) || IsUnknown(Errorf("x", "", "y")) {
		t.Fatal("IsUnknown on a non-unknown error")
	}
}

func TestCrd2IdxErrors(t *testing.T) {
	for _, tc := range []struct{ coord, layout, cond string }{
		{"(0,0)", "3:1", CondInvalidParams},
		{"(1,2,3)", "(3,(2,3)):(3,(12,1))", CondMismatchedRanks},
		{"(1,(1,1,1))", "(3,(2,3)):(3,(12,1))", CondMismatchedRanks},
		{"5", "(0,4):(1,2)", CondDivByZero},
	} {
		_, err := Crd2Idx(mustTuple(tc.coord), mustLayout(tc.layout).Shape, mustLayout(tc.layout).Stride)
		e, ok := err.(*Error)
		if !ok || e.Condition != tc.cond {
			t.Errorf("crd2idx(%s, %s): %v, want condition %q", tc.coord, tc.layout, err, tc.cond)
		}
	}
	huge := Layout{Shape: Ints(1<<40, 1<<40), Stride: Ints(1<<40, 1<<40)}
	if _, err := huge.EvalCoord(Ints(1<<39, 1)); err == nil {
		t.Error("overflowing offset not reported")
	}
	if _, err := (Layout{Shape: Int(4), Stride: Tup(Int(1))}).Eval(1); err == nil {
		t.Error("non-congruent stride not reported")
	}
	if _, err := mustLayout("(4,8):(1,4)").EvalCoord(Tup(Underscore(), Int(1))); err == nil {
		t.Error("EvalCoord with _ not reported")
	}
	var flat FlatLayout
	if err := mustLayout("(2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256)").FlattenInto(&flat); err == nil {
		t.Error("FlattenInto of 9 modes not reported")
	}
}

func TestSliceAndDice(t *testing.T) {
	l := mustLayout("((2,3),(4,5)):((1,2),(6,24))")
	for _, tc := range []struct{ coord, slice, dice, offset string }{
		{"(_,2)", "((2,3)):((1,2))", "((4,5)):((6,24))", "12"},
		{"((1,_),(_,3))", "(3,4):(2,6)", "(2,5):(1,24)", "73"},
		{"_", "((2,3),(4,5)):((1,2),(6,24))", "():()", "0"},
		{"7", "():()", "((2,3),(4,5)):((1,2),(6,24))", "7"},
	} {
		c := mustTuple(tc.coord)
		s, off, err := SliceAndOffset(c, l)
		if err != nil || s.String() != tc.slice || off.String() != tc.offset {
			t.Errorf("slice_and_offset(%s, %v) = %v, %v, %v; want %s, %s", tc.coord, l, s, off, err, tc.slice, tc.offset)
		}
		d, err := Dice(c, l)
		if err != nil || d.String() != tc.dice {
			t.Errorf("dice(%s, %v) = %v, %v; want %s", tc.coord, l, d, err, tc.dice)
		}
	}
	if _, err := Slice(mustTuple("(_,1,2)"), l); err == nil {
		t.Error("slice with a rank-3 coordinate of a rank-2 layout not reported")
	}
	if _, err := Dice(mustTuple("((_,1,2),1)"), l); err == nil {
		t.Error("dice with a mismatched sub-coordinate not reported")
	}
	// Law: l at c with _ read as k equals slice(c, l)(k) + offset.
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		l := randomLayout(r, 4, 2)
		if !l.Shape.IsTuple() {
			continue
		}
		c := randomCoord(r, l.Shape)
		marked := markUnderscores(r, c)
		s, off, err := SliceAndOffset(marked, l)
		if err != nil {
			t.Fatal(err)
		}
		want, err := l.EvalCoord(c)
		if err != nil {
			t.Fatal(err)
		}
		k := Tup(liftCoord(marked, c, nil)...)
		got := Int(0) // no "_": the slice is ():(), which CuTe cannot evaluate at ()
		if len(k.Elems()) > 0 {
			if got, err = s.EvalCoord(k); err != nil {
				t.Fatalf("slice %v at %v: %v", s, k, err)
			}
		}
		sum, _ := addOp("add", got, off)
		if !sum.Equal(want) {
			t.Fatalf("slice(%v, %v) = %v, offset %v: at %v gives %v, l gives %v", marked, l, s, off, k, sum, want)
		}
	}
}

// markUnderscores replaces random leaves of c by _.
func markUnderscores(r *rand.Rand, c IntTuple) IntTuple {
	if !c.IsTuple() {
		if r.IntN(2) == 0 {
			return Underscore()
		}
		return c
	}
	elems := make([]IntTuple, len(c.Elems()))
	for i, e := range c.Elems() {
		elems[i] = markUnderscores(r, e)
	}
	return Tup(elems...)
}

// liftCoord collects the leaves of c where marked holds _ (the sliced coordinate).
func liftCoord(marked, c IntTuple, dst []IntTuple) []IntTuple {
	if !marked.IsTuple() {
		if marked.IsUnderscore() {
			return append(dst, c)
		}
		return dst
	}
	for i := range marked.Elems() {
		dst = liftCoord(marked.At(i), c.At(i), dst)
	}
	return dst
}

func TestIdx2CrdStride(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range propertyRounds {
		s := randomShape(r, 4, 3)
		l, err := MakeOrderedLayout(s, randomOrder(r, s))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := l.Size()
		i := r.Int64N(n)
		off, err := l.Eval(i)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Idx2CrdStride(Int(off), l.Shape, l.Stride)
		want, err2 := Idx2Crd(Int(i), l.Shape)
		if err != nil || err2 != nil || !got.Equal(want) {
			t.Fatalf("idx2crd(%d, %v) = %v, %v; want %v, %v", off, l, got, err, want, err2)
		}
	}
	for _, tc := range []struct{ idx, shape, stride, want string }{
		{"7", "(2,4)", "1", "(1,3)"},
		{"7", "(2,4)", "(4,1)", "(1,3)"},
		{"(3,5)", "(4,(2,3))", "(1,(1,2))", "(3,(1,2))"},
		{"9", "(1,4)", "(0,1)", "(0,1)"},
	} {
		got, err := Idx2CrdStride(mustTuple(tc.idx), mustTuple(tc.shape), mustTuple(tc.stride))
		if err != nil || got.String() != tc.want {
			t.Errorf("idx2crd(%s, %s, %s) = %v, %v; want %s", tc.idx, tc.shape, tc.stride, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ idx, shape, stride string }{
		{"(1,2)", "4", "1"},
		{"(1,2)", "(4,4,4)", "(1,4,16)"},
		{"3", "(4,4)", "(1)"},
		{"3", "4", "(1)"},
		{"3", "4", "0"},
		{"(3,(1,2,3))", "(4,(2,2))", "(1,(4,8))"},
		{"(3,1)", "(4,2)", "(1,(4,8))"},
		{"(3,1@0)", "(4,2)", "(1,4)"},
	} {
		if got, err := Idx2CrdStride(mustTuple(tc.idx), mustTuple(tc.shape), mustTuple(tc.stride)); err == nil {
			t.Errorf("idx2crd(%s, %s, %s) = %v, want an error", tc.idx, tc.shape, tc.stride, got)
		}
	}
	if got, err := Idx2CrdStride(Unknown(), mustTuple("(4,4)"), mustTuple("(1,4)")); err != nil || got.String() != "(?,?)" {
		t.Errorf("idx2crd(?, (4,4), (1,4)) = %v, %v", got, err)
	}
	if got, err := Idx2CrdStride(Int(3), mustTuple("((4,2),4)"), Int(1)); err != nil || got.String() != "((3,0),0)" {
		t.Errorf("idx2crd(3, ((4,2),4), 1) = %v, %v", got, err)
	}
}

func TestCrd2IdxStaticMark(t *testing.T) {
	l := mustLayout("(4,(2,3)):(1,(4,8))")
	if v, _ := Crd2Idx(Int(13), l.Shape, l.Stride); !v.IsStatic() || v.Value() != 13 {
		t.Errorf("static layout at 13 = %v (static %v)", v, v.IsStatic())
	}
	dynStride := Tup(Int(1), Tup(Dyn(4), Int(8)))
	if v, _ := Crd2Idx(Int(13), l.Shape, dynStride); v.IsStatic() || v.Value() != 13 {
		t.Errorf("run-time stride at 13 = %v (static %v)", v, v.IsStatic())
	}
	if v, _ := Crd2Idx(Dyn(13), l.Shape, l.Stride); v.IsStatic() {
		t.Errorf("run-time index gives a static offset %v", v)
	}
}
