package layout

import "testing"

// CuTe instantiates the comparison of every mode the two tuples share, so a
// tuple against an integer is rejected even after an earlier mode decided.
func TestElemLessComparesEverySharedMode(t *testing.T) {
	if _, err := ElemLess(mustTuple("(1,(8,4))"), mustTuple("(0,2)")); err == nil {
		t.Error("elem_less((1,(8,4)), (0,2)): tuple against integer in mode 1 not reported")
	}
	if _, err := ElemLess(mustTuple("((8,4),1)"), mustTuple("(2,0)")); err == nil {
		t.Error("elem_less(((8,4),1), (2,0)) not reported")
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"(1,2,3)", "(4,4)", false},
		{"(1,2)", "(4,4,(2,2))", true},
		{"(1,5)", "(4,4,(2,2))", false},
		{"()", "(1)", true},
		{"(5)", "()", false},
	} {
		got, err := ElemLess(mustTuple(tc.a), mustTuple(tc.b))
		if err != nil || got != tc.want {
			t.Errorf("elem_less(%s, %s) = %v, %v; want %v", tc.a, tc.b, got, err, tc.want)
		}
	}
}

// CuTe sums a tuple coordinate's modes with no starting term: an empty tuple
// coordinate, wherever it sits, does not compile.
func TestCrd2IdxRejectsEmptyCoordinate(t *testing.T) {
	for _, tc := range []struct{ coord, layout string }{
		{"()", "():()"},
		{"((),1)", "((),4):((),1)"},
		{"((),_)", "((),4):((),1)"},
	} {
		l := mustLayout(tc.layout)
		if v, err := Crd2Idx(mustTuple(tc.coord), l.Shape, l.Stride); err == nil {
			t.Errorf("crd2idx(%s, %s) = %v, want an error", tc.coord, tc.layout, v)
		}
		if s, off, err := SliceAndOffset(mustTuple(tc.coord), l); err == nil {
			t.Errorf("slice_and_offset(%s, %s) = %v + %v, want an error", tc.coord, tc.layout, s, off)
		}
	}
	// Slicing alone never evaluates: slice((), ():()) is ():().
	if s, err := Slice(mustTuple("()"), mustLayout("():()")); err != nil || s.String() != "():()" {
		t.Errorf("slice((), ():()) = %v, %v", s, err)
	}
	// A projection that drops every mode of the thread layout leaves an
	// empty tile, whose coordinate () CuTe cannot evaluate.
	if p, err := Apply("local_partition", Box(mustLayout("(32,4):(4,1)")), Box(mustLayout("(1,2):(1,1)")), Int(0), mustTuple("(_,_)")); err == nil {
		t.Errorf("local_partition with projection (_,_) = %v, want an error", p)
	}
}

// compact_col_major(S, current) and compact_row_major(S, current) take
// CuTe's optional start.
func TestCompactMajorStart(t *testing.T) {
	for _, tc := range []struct{ op, shape, current, want string }{
		{"compact_col_major", "(4,2)", "3", "(3,12)"},
		{"compact_col_major", "(4,(6,(2,1)))", "2", "(2,(8,(48,0)))"},
		{"compact_row_major", "(2,8)", "3", "(24,3)"},
		{"compact_col_major", "(2,3)", "(1,5)", "(1,5)"},
		{"compact_row_major", "(4,2)", "1", "(2,1)"},
	} {
		got, err := Apply(tc.op, mustTuple(tc.shape), mustTuple(tc.current))
		if err != nil || got.String() != tc.want {
			t.Errorf("%s(%s, %s) = %v, %v; want %s", tc.op, tc.shape, tc.current, got, err, tc.want)
		}
	}
	if got, err := Apply("compact_col_major", mustTuple("4"), mustTuple("(1,5)")); err == nil {
		t.Errorf("compact_col_major(4, (1,5)) = %v, want an error", got)
	}
	if got, err := Apply("compact_col_major", mustTuple("4"), Int(1), Int(1)); err == nil {
		t.Errorf("compact_col_major with three arguments = %v, want an error", got)
	}
}

// CuTe's zip reads mode 0 of a tuple to learn the rank of the result.
func TestZipRejectsNoModes(t *testing.T) {
	if z, err := Zip(mustLayout("():()")); err == nil {
		t.Errorf("zip(():()) = %v, want an error", z)
	}
	if z, err := Zip(mustLayout("(4):(1)")); err != nil || z.String() != "((4)):((1))" {
		t.Errorf("zip((4):(1)) = %v, %v; want ((4)):((1))", z, err)
	}
}

// CuTe has layout overloads of zip for one and two layouts only; three go to
// the generic tuple zip, which gives a tuple of layouts the sheet cannot hold.
func TestZipTakesAtMostTwoLayouts(t *testing.T) {
	a, b, c := mustLayout("(2,3):(1,2)"), mustLayout("(4,5):(6,24)"), mustLayout("(6,7):(1,6)")
	if z, err := Zip(a, b, c); err == nil {
		t.Errorf("zip of three layouts = %v, want an error", z)
	}
	if z, err := Zip(a, b); err != nil || z.String() != "((2,4),(3,5)):((1,6),(2,24))" {
		t.Errorf("zip(A, B) = %v, %v", z, err)
	}
}

// CuTe's gcd folds from the right with a signed Euclid, and leaves a lone leaf as it is.
func TestGcdFoldsAsCuTe(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"(3,-1)", "-1"},
		{"((-3,2))", "-1"},
		{"((-2,0),-2,2,-3)", "-1"},
		{"(-8,(0,1))", "1"},
		{"(0,0,(4))", "4"},
		{"(12,(18,8))", "2"},
		{"-6", "-6"},
	} {
		got, err := GcdOf(mustTuple(tc.in))
		if err != nil || got.String() != tc.want {
			t.Errorf("gcd(%s) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"()", "((),1)", "(2,())"} {
		if got, err := GcdOf(mustTuple(bad)); err == nil {
			t.Errorf("gcd(%s) = %v, want an error", bad, got)
		}
	}
	if got, err := Apply("compact_order", mustTuple("(2,(3,1),4)"), LayoutRight); err != nil || got.String() != "(12,(4,0),1)" {
		t.Errorf("compact_order((2,(3,1),4), LayoutRight) = %v, %v", got, err)
	}
}

// coalesce and filter_zeros of a shape tuple are CuTe's IntTuple overloads.
func TestCoalesceAndFilterZerosOfATuple(t *testing.T) {
	for _, tc := range []struct{ op, in, want string }{
		{"coalesce", "(2,(1,4),3)", "24"},
		{"coalesce", "((4))", "4"},
		{"filter_zeros", "(2,0,(1,3))", "(2,1,(1,3))"},
		{"filter_zeros", "((0,-2),0)", "((1,-2),1)"},
		{"coalesce", "5", "5:1"}, // an integer where a layout is expected is N:1
	} {
		got, err := Apply(tc.op, mustTuple(tc.in))
		if err != nil || got.String() != tc.want {
			t.Errorf("%s(%s) = %v, %v; want %s", tc.op, tc.in, got, err, tc.want)
		}
	}
	// Static and run-time leaves are multiplied only with their own kind.
	dyn := Tup(Int(2), Int(3).WithStatic(false), Int(5).WithStatic(false), Int(4), Int(6))
	got, err := CoalesceShape(dyn)
	if err != nil || got.Format(true) != "(_2,15,_24)" {
		t.Errorf("coalesce(%v) = %v, %v; want (_2,15,_24)", dyn.Format(true), got.Format(true), err)
	}
	if got := FilterZerosTuple(Tup(Int(0).WithStatic(false), Int(0))); got.Format(true) != "(0,_1)" {
		t.Errorf("filter_zeros keeps a run-time 0: got %v", got.Format(true))
	}
	if got, err := CoalesceShape(mustTuple("((),())")); err == nil {
		t.Errorf("coalesce(((),())) = %v, want an error", got)
	}
}

// max, min and gcd take CuTe's variadic form, and an empty tuple anywhere
// is an error (CuTe reduces a tuple by calling the function on its modes).
func TestMaxMinGcdVariadic(t *testing.T) {
	for _, tc := range []struct {
		op   string
		args []string
		want string
	}{
		{"max", []string{"(2,7)", "3", "(9)"}, "9"},
		{"min", []string{"4", "(2,(-1))"}, "-1"},
		{"gcd", []string{"12", "(18,-8)"}, "2"},
		{"gcd", []string{"(3,-1)"}, "-1"},
	} {
		args := make([]Value, len(tc.args))
		for i, a := range tc.args {
			args[i] = mustTuple(a)
		}
		got, err := Apply(tc.op, args...)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s%v = %v, %v; want %s", tc.op, tc.args, got, err, tc.want)
		}
	}
	for _, bad := range [][]Value{{mustTuple("((),1)")}, {Int(2), mustTuple("()")}, {}} {
		if got, err := Apply("max", bad...); err == nil {
			t.Errorf("max%v = %v, want an error", bad, got)
		}
	}
}

// unflatten of a layout regroups its shape and its stride alike.
func TestUnflattenLayout(t *testing.T) {
	got, err := Apply("unflatten", Box(mustLayout("(2,3,4):(1,2,6)")), mustTuple("((1,1),1)"))
	if err != nil || got.String() != "((2,3),4):((1,2),6)" {
		t.Errorf("unflatten((2,3,4):(1,2,6), ((1,1),1)) = %v, %v", got, err)
	}
	if got, err := Apply("unflatten", Box(mustLayout("(2,3):(1,2)")), mustTuple("(1,1,1)")); err == nil {
		t.Errorf("unflatten with too few modes = %v, want an error", got)
	}
}
