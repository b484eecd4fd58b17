package layout

import (
	"errors"
	"strings"
	"testing"
)

// dividesAndProducts are the operations of divide.go, product.go and tile.go
// that the golden corpus covers.
var dividesAndProducts = []string{
	"logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
	"logical_product", "zipped_product", "tiled_product", "flat_product",
	"blocked_product", "raked_product", "tile_to_shape",
}

// TestGoldenConditions checks that where CuTe rejects a divide or product
// of plain layouts, the *Error names the check CuTe's static_assert states.
// Where CuTe fails with a bare compile error (an incomplete tuple_size: a
// rank mismatch g++ reports before any assertion), the condition is the
// rank check that catches it.
func TestGoldenConditions(t *testing.T) {
	byOp := loadGolden(t)
	for _, name := range dividesAndProducts {
		checked := 0
		for _, c := range byOp[name] {
			if c.Error == nil || strings.Contains(strings.Join(argStrings(c.Args), " "), "Sw<") {
				continue
			}
			args, err := goldenArgs(c)
			if err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			_, err = Apply(name, args...)
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%s: %s%v: error %v is not an *Error", c.ID, name, c.Args, err)
				continue
			}
			want := strings.TrimPrefix(*c.Error, "static_assert: ")
			if strings.HasPrefix(want, "incomplete type") {
				if e.Condition != CondMismatchedRanks && e.Condition != CondIndexRange {
					t.Errorf("%s: %s%v: condition %q, want a rank mismatch for CuTe's %q", c.ID, name, c.Args, e.Condition, want)
				}
			} else if e.Condition != want {
				t.Errorf("%s: %s%v: condition %q (%v), CuTe says %q", c.ID, name, c.Args, e.Condition, e, want)
			}
			if e.Op != name {
				t.Errorf("%s: %s%v: error names operation %q", c.ID, name, c.Args, e.Op)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("%s: no error cases checked", name)
		}
	}
}

// tilerOf reads a tiler in the corpus notation.
func tilerOf(t *testing.T, s string) Value {
	t.Helper()
	v, err := readValue(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestDivideByKind(t *testing.T) {
	a := mustLayout("(8,12):(1,8)")
	cases := []struct {
		name  string
		tiler Value
		want  string
	}{
		{"layout", Box(mustLayout("4:1")), "(4,24):(1,4)"},
		{"tiler", tilerOf(t, "[4:1;3:1]"), "((4,2),(3,4)):((1,4),(8,24))"},
		{"shape", Ints(4, 3), "((4,2),(3,4)):((1,4),(8,24))"},
		{"integer", Int(4), "(4,24):(1,4)"},
		{"integer one", Int(1), "(1,96):(0,1)"},
		{"skip", tilerOf(t, "[_;3]"), "(8,(3,4)):(1,(8,24))"},
		{"underscore", Tup(Underscore(), Int(3)), "(8,(3,4)):(1,(8,24))"},
	}
	for _, c := range cases {
		got, err := LogicalDivide(&a, c.tiler)
		if err != nil {
			t.Errorf("%s: logical_divide(%v, %v): %v", c.name, a, c.tiler, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s: logical_divide(%v, %v) = %v, want %v", c.name, a, c.tiler, got, c.want)
		}
	}
	// A nested tiler divides the sub-modes of a mode.
	got, err := LogicalDivide(ref(mustLayout("((4,6),2):((1,4),24)")), tilerOf(t, "[[2;3]]"))
	if err != nil || got.String() != "(((2,2),(3,2)),2):(((1,2),(4,12)),24)" {
		t.Errorf("nested tiler: got %v, %v", got, err)
	}
}

func TestTilerArgErrors(t *testing.T) {
	a := mustLayout("(8,12):(1,8)")
	for _, tiler := range []Value{nil, LayoutLeft, Swizzle{B: 1, M: 1, S: 1}, Basis(1, 0), (*Tiler)(nil)} {
		for _, f := range []func(Layout, Value) (Layout, error){byValue(LogicalDivide), ZippedDivide, TiledDivide, FlatDivide, byValue(LogicalProduct), ZippedProduct, TiledProduct, FlatProduct, TileUnzip} {
			if got, err := f(a, tiler); err == nil {
				t.Errorf("tiler %v accepted: %v", tiler, got)
			}
		}
	}
	tl := Tiler{Modes: []TilerMode{{Layout: mustLayout("2:1")}}}
	if got, err := LogicalDivide(ref(mustLayout("(4,4):(1,4)")), &tl); err != nil || got.String() != "((2,2),4):((1,2),4)" {
		t.Errorf("*Tiler: got %v, %v", got, err)
	}
	sub := Tiler{Modes: []TilerMode{{Layout: mustLayout("2:1")}, {Layout: mustLayout("2:1")}, {Layout: mustLayout("2:1")}}}
	nested := Tiler{Modes: []TilerMode{{Sub: &sub}}}
	if _, err := LogicalDivide(ref(mustLayout("((4,4),4):((1,4),16)")), nested); err == nil {
		t.Errorf("a nested tiler with more modes than its mode was accepted")
	}
}

func TestZip(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"((2,3),(4,5)):((1,2),(6,24))"}, "((2,4),(3,5)):((1,6),(2,24))"},
		{[]string{"(2,3):(1,2)", "(4,5):(6,24)"}, "((2,4),(3,5)):((1,6),(2,24))"},
		{[]string{"8:1", "16:8"}, "((8,16)):((1,8))"},
		{[]string{"8:1"}, "8:1"},
		{[]string{"(8,(2,2)):(1,(8,16))"}, "((8,(2,2))):((1,(8,16)))"},
	}
	for _, c := range cases {
		ls := make([]Layout, len(c.in))
		for i, s := range c.in {
			ls[i] = mustLayout(s)
		}
		got, err := Zip(ls...)
		if err != nil || got.String() != c.want {
			t.Errorf("zip(%v) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range [][]string{{"(8):(1)", "16:8"}, {"((2,3),(4)):((1,2),(6))"}, {"((2,3),4):((1,2),6)"}} {
		ls := make([]Layout, len(bad))
		for i, s := range bad {
			ls[i] = mustLayout(s)
		}
		_, err := Zip(ls...)
		var e *Error
		if !errors.As(err, &e) || e.Condition != CondMismatchedRanks {
			t.Errorf("zip(%v): error %v, want %q", bad, err, CondMismatchedRanks)
		}
	}
	if _, err := Zip(); err == nil {
		t.Errorf("zip() accepted")
	}
	// Zip is a transpose: twice is the identity on rank-2-of-rank-2 layouts.
	l := mustLayout("((2,3),(4,5)):((1,2),(6,24))")
	z, _ := Zip(l)
	zz, _ := Zip(z)
	if zz.String() != l.String() {
		t.Errorf("zip(zip(%v)) = %v", l, zz)
	}
}

func TestTileUnzip(t *testing.T) {
	// ((A,a),((B,b),(C,c)),d) under (X,(X,X)) is ((A,(B,C)),(a,(b,c),d)).
	l := mustLayout("((2,3),((4,5),(6,7)),8):((1,2),((3,4),(5,6)),9)")
	got, err := TileUnzip(l, tilerOf(t, "[2:1;[4:1;6:1]]"))
	if err != nil || got.String() != "((2,(4,6)),(3,(5,7),8)):((1,(3,5)),(2,(4,6),9))" {
		t.Errorf("tile_unzip = %v, %v", got, err)
	}
	// A layout tiler: the layout itself must be the (tile, rest) pair.
	if got, err := TileUnzip(mustLayout("(4,2):(1,4)"), Box(mustLayout("4:1"))); err != nil || got.String() != "(4,2):(1,4)" {
		t.Errorf("tile_unzip by a layout = %v, %v", got, err)
	}
	bad := []struct{ l, tiler, cond string }{
		{"8:1", "4:1", CondIndexRange},
		{"(2,2,2):(1,2,4)", "4:1", CondUnzipRanks},
		{"8:1", "[4:1]", CondIndexRange},
		{"((2,2)):((1,2))", "[4:1;4:1]", CondUnzipRanks},
	}
	for _, c := range bad {
		_, err := TileUnzip(mustLayout(c.l), tilerOf(t, c.tiler))
		var e *Error
		if !errors.As(err, &e) || e.Condition != c.cond || e.Op != "tile_unzip" {
			t.Errorf("tile_unzip(%s, %s): error %v, want %q", c.l, c.tiler, err, c.cond)
		}
	}
}

func TestTileToShapeOrders(t *testing.T) {
	b := mustLayout("(2,3):(3,1)")
	cases := []struct {
		order Value
		want  string
	}{
		{nil, "((2,4),(3,2)):((3,6),(1,24))"},
		{LayoutLeft, "((2,4),(3,2)):((3,6),(1,24))"},
		{LayoutRight, "((2,4),(3,2)):((3,12),(1,6))"},
		{Ints(1, 0), "((2,4),(3,2)):((3,12),(1,6))"},
	}
	for _, c := range cases {
		got, err := TileToShape(b, Ints(8, 6), c.order)
		if err != nil || got.String() != c.want {
			t.Errorf("tile_to_shape(%v, (8,6), %v) = %v, %v; want %v", b, c.order, got, err, c.want)
		}
	}
	errs := []struct {
		target IntTuple
		order  Value
		cond   string
	}{
		{Ints(8, 6), Swizzle{}, ""},
		{Ints(8, 6), Ints(0, 1, 2), ""},
		{Tup(Unknown(), Int(6)), nil, CondUnknown},
		{Ints(8, 0), nil, CondTileDivide},
		{Ints(8, -6), nil, CondTileDivide},
		{Ints(8), nil, CondTileRank},
	}
	for _, c := range errs {
		_, err := TileToShape(b, c.target, c.order)
		var e *Error
		if !errors.As(err, &e) || e.Op != "tile_to_shape" {
			t.Errorf("tile_to_shape(%v, %v, %v): error %v, want one of tile_to_shape", b, c.target, c.order, err)
			continue
		}
		if c.cond != "" && e.Condition != c.cond {
			t.Errorf("tile_to_shape(%v, %v, %v): condition %q, want %q", b, c.target, c.order, e.Condition, c.cond)
		}
	}
}

// TestLogicalDivideCotargetNotIntegers: logical_divide's complement takes
// shape(coalesce(L)) as its cotarget, which must be known integers; an
// unknown or a scaled basis in L's shape is complement's error, not a
// panic (FuzzEveryOp found the basis case panicking; its seed is kept).
func TestLogicalDivideCotargetNotIntegers(t *testing.T) {
	tile := mustLayout("0:0")
	_, err := LogicalDivide(ref(Make(Tup(Unknown(), Int(2)), Ints(1, 4))), Box(tile))
	wantError(t, "unknown in L's shape", err, "logical_divide", CondUnknown)
	_, err = LogicalDivide(ref(Make(Tup(Basis(0, 0), Int(2)), Ints(12, 0))), Box(tile))
	wantError(t, "basis in L's shape", err, "logical_divide", "", "scaled-basis")
}

// TestLogicalDivideLongRest: a tiler whose complement has more modes than
// the bodies hold on the stack (ten gaps, then the rest) divides as the
// definition says; it used to panic slicing its stack array.
func TestLogicalDivideLongRest(t *testing.T) {
	a := mustLayout("1048576:1")
	b := mustLayout("(2,2,2,2,2,2,2,2,2,2):(2,8,32,128,512,2048,8192,32768,131072,524288)")
	got, err := LogicalDivide(&a, Box(b))
	if err != nil {
		t.Fatalf("logical_divide(%v, %v): %v", a, b, err)
	}
	rest, err := Deref(ComplementTo(&b, Int(1048576)))
	if err != nil {
		t.Fatal(err)
	}
	if rank := rest.Shape.Len(); rank <= flatInline+1 {
		t.Fatalf("complement(%v, 1048576) = %v has rank %d, not past the stack's room", b, rest, rank)
	}
	want, err := Composition(&a, ref(MakeLayoutOf(b, rest)))
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("logical_divide(%v, %v) = %v, want %v", a, b, got, want)
	}
}

// TestDivideProductIncongruent: an incongruent L is CheckCongruent's error
// whatever the tiler: a layout (the body's walk of L finds it) or a tile
// (checked first).
func TestDivideProductIncongruent(t *testing.T) {
	l := Make(Tup(Int(2), Int(2)), Int(1))
	ops := map[string]func(Layout, Value) (Layout, error){"logical_divide": byValue(LogicalDivide), "logical_product": byValue(LogicalProduct)}
	for _, tiler := range []Value{Box(mustLayout("2:1")), Ints(2)} {
		for op, f := range ops {
			_, err := f(l, tiler)
			want := CheckCongruent(op, l.Shape, l.Stride)
			if err == nil || err.Error() != want.Error() {
				t.Errorf("%s(%v, %v) = %v, want %v", op, l, tiler, err, want)
			}
		}
	}
}

// A failed composition words make_layout(B, rest) with the rest complement
// built; here that rest coalesces, so it ends up moved in LogicalDivide's
// buffer, and the message must name it as it was, (4,4):(1,32).
func TestLogicalDivideCompositionErrorNamesRest(t *testing.T) {
	l, b := mustLayout("(6,4,8):(0,0,32)"), mustLayout("((3),2):((4),16)")
	_, err := LogicalDivide(&l, Box(b))
	want := "composition((6,4,8):(0,0,32), (((3),2),(4,4)):(((4),16),(1,32)))"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("logical_divide(%v, %v) = %v, want an error naming %s", l, b, err, want)
	}
}
