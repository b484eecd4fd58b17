package grammar

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// gen builds random ASTs of every descriptor kind; positions are left empty
// (Equal ignores them).
type gen struct{ r *rand.Rand }

func (g gen) int(static bool) *Int {
	v := g.r.Int64N(200) - 20
	switch g.r.IntN(20) {
	case 0:
		v = 1<<63 - 1
	case 1:
		v = -1 << 63
	}
	return &Int{Value: v, Static: static && g.r.IntN(2) == 0}
}

func (g gen) name() string {
	names := []string{"A", "B", "tile", "sf_per_mma", "laneid", "x1", "LayoutLeft"}
	return names[g.r.IntN(len(names))]
}

func (g gen) leaf(static bool) Node {
	switch g.r.IntN(9) {
	case 0:
		return &Unknown{}
	case 1:
		attrs := []string{"i64", "div=16", "i32", "unknown"}
		return &Unknown{Braced: true, Attrs: attrs[g.r.IntN(len(attrs))]}
	case 2:
		return &Underscore{}
	case 3:
		return &Name{Name: g.name()}
	case 4:
		b := &Basis{Count: g.int(static)}
		if g.r.IntN(3) == 0 {
			d := g.int(static)
			if d.Value == 0 {
				d.Value = 3
			}
			b.Den = d
		}
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			if g.r.IntN(4) == 0 {
				b.Modes = append(b.Modes, &BasisMode{Index: -1, Axis: g.name()})
			} else {
				b.Modes = append(b.Modes, &BasisMode{Index: g.r.Int64N(5)})
			}
		}
		return b
	}
	return g.int(static)
}

func (g gen) tuple(depth int, static bool) Node {
	if depth <= 0 || g.r.IntN(3) == 0 {
		return g.leaf(static)
	}
	t := &Tuple{}
	for n := g.r.IntN(4); n > 0; n-- {
		t.Elems = append(t.Elems, g.tuple(depth-1, static))
	}
	return t
}

func (g gen) layout(depth int) *Layout {
	return &Layout{Shape: g.tuple(depth, true), Stride: g.tuple(depth, true)}
}

func (g gen) swizzle() *Swizzle {
	return &Swizzle{B: &Int{Value: g.r.Int64N(4)}, M: &Int{Value: g.r.Int64N(5)}, S: &Int{Value: g.r.Int64N(9) - 4}}
}

func (g gen) tiler(depth int) *Tiler {
	t := &Tiler{}
	for n := g.r.IntN(4); n > 0; n-- {
		switch g.r.IntN(5) {
		case 0:
			t.Modes = append(t.Modes, &Underscore{})
		case 1:
			t.Modes = append(t.Modes, g.int(true))
		case 2:
			if depth > 0 {
				t.Modes = append(t.Modes, g.tiler(depth-1))
				continue
			}
			fallthrough
		default:
			t.Modes = append(t.Modes, g.layout(depth))
		}
	}
	return t
}

// pointer is a random iterator of a tensor's print, as CuTe prints them.
func (g gen) pointer() *Pointer {
	switch g.r.IntN(5) {
	case 0:
		return &Pointer{Kind: "tmem_", Bits: "32b", Addr: "0x0000.0010"}
	case 1:
		return &Pointer{Kind: "gmem_ptr", Bits: "16b", Addr: "GMEM_ADDR_A + offset"}
	case 2:
		return &Pointer{Kind: "ArithTuple", Addr: "_0,(0,_3)"}
	case 3:
		return &Pointer{Kind: "subptr", Bits: "4b", Addr: "0x7f42efc00000.3"}
	}
	return &Pointer{Kind: "rmem_ptr", Bits: "32b", Addr: "0x7ffd2c1e0a40"}
}

// descriptor is a random node of any kind ParseDescriptor returns.
func (g gen) descriptor(depth int) Node {
	switch g.r.IntN(10) {
	case 0:
		return g.tuple(depth, true)
	case 1:
		return g.swizzle()
	case 2:
		c := &Composed{Stages: []Node{g.swizzle(), g.tuple(1, true), g.layout(depth)}}
		switch g.r.IntN(6) {
		case 0:
			c.Stages[1] = &Pointer{Kind: "smem_ptr", Bits: "16b", Addr: "unset"}
		case 1:
			c.Stages[1] = g.pointer()
		case 2:
			// A tensor's print: ITERATOR o LAYOUT, a swizzled pointer glued to its swizzle.
			c.Stages = []Node{g.pointer(), g.layout(depth)}
			if p := c.Stages[0].(*Pointer); p.Bits != "" && g.r.IntN(2) == 0 {
				p.Swizzled = true
				c.Stages = []Node{g.swizzle(), p, g.layout(depth)}
			}
		}
		return c
	case 3:
		return g.tiler(depth)
	case 4:
		a := &AngleList{}
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			a.Modes = append(a.Modes, g.layout(1))
		}
		return a
	case 5:
		t := &TirxLayout{Shard: &TirxPart{Kind: "S", Layout: g.layout(depth)}}
		if g.r.IntN(2) == 0 {
			t.Replicas = append(t.Replicas, &TirxPart{Kind: "R", Layout: g.layout(1)})
		}
		if g.r.IntN(2) == 0 {
			t.Offsets = append(t.Offsets, &Basis{Count: g.int(false), Modes: []*BasisMode{{Index: -1, Axis: "warpid"}}})
		}
		return t
	case 6:
		kinds := []string{"layout", "tile", "coord", "int_tuple"}
		inner := g.descriptor(depth - 1)
		switch inner.(type) {
		case *MLIRType, *TirxLayout, *Call:
			inner = g.layout(depth)
		}
		return &MLIRType{Kind: kinds[g.r.IntN(len(kinds))], Inner: inner}
	case 7:
		c := &Call{Fun: &Name{Name: "composition"}}
		if depth > 0 {
			for n := g.r.IntN(3); n > 0; n-- {
				c.Args = append(c.Args, g.descriptor(depth-1))
			}
		}
		for n := g.r.IntN(3) - 1; n > 0; n-- { // template parameters, tile_size<0>(M)
			c.Template = append(c.Template, g.int(false))
		}
		return c
	}
	return g.layout(depth)
}

// TestRoundTripProperty checks parse(print(x)) == x for random ASTs of every
// kind, in every style.
func TestRoundTripProperty(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(1, 2))}
	for i := 0; i < 3000; i++ {
		n := g.descriptor(3)
		for _, style := range []Style{Cute, Pycute, MLIR} {
			printed := Print(n, style)
			back, err := ParseDescriptor(printed)
			if err != nil {
				t.Fatalf("%v style: %q does not parse: %v", style, printed, err)
			}
			var same bool
			switch style {
			case Cute:
				same = Equal(n, back)
			case Pycute:
				same = EqualIgnoringStatic(n, back)
			default:
				same = EqualIgnoringStatic(unwrapMLIR(n), unwrapMLIR(back))
			}
			if !same {
				t.Fatalf("%v style: %q parses back to %q", style, printed, Print(back, style))
			}
		}
	}
}

// TestPositions checks that every node's range covers exactly its own text.
func TestPositions(t *testing.T) {
	src := "A = composition(Sw<3,4,3>, (8, 64):(64, 1))\nassert A is 𝔸\n"
	f, errs := ParseFile("p.cute", []byte(src))
	if len(errs) != 1 {
		t.Fatalf("want one error (𝔸), got %v", errs)
	}
	b := f.Statements[0].(*Binding)
	call := b.Value.(*Call)
	if got := textOf(src, call); got != "composition(Sw<3,4,3>, (8, 64):(64, 1))" {
		t.Errorf("call covers %q", got)
	}
	if got := textOf(src, call.Args[1]); got != "(8, 64):(64, 1)" {
		t.Errorf("layout covers %q", got)
	}
	e := errs[0]
	if e.Range.Pos.Line != 2 || e.Range.Pos.Column != 13 || src[e.Range.Pos.Offset:e.Range.End.Offset] != "𝔸" {
		t.Errorf("error at %+v covering %q", e.Range, src[e.Range.Pos.Offset:e.Range.End.Offset])
	}
	// The error column counts runes; LSP counts UTF-16 units; bytes differ.
	after := Position{Offset: e.Range.End.Offset, Line: 2, Column: e.Range.End.Column}
	if after.Column != 14 {
		t.Errorf("rune column %d, want 14", after.Column)
	}
	if got := after.UTF16Character([]byte(src)); got != 14 {
		t.Errorf("UTF-16 character %d, want 14 (0-based, 𝔸 takes two units)", got)
	}
	if got := after.ByteColumn([]byte(src)); got != 17 {
		t.Errorf("byte column %d, want 17 (𝔸 takes four bytes)", got)
	}
}

func textOf(src string, n Node) string {
	s := n.Span()
	return src[s.Pos.Offset:s.End.Offset]
}

// TestDeepNesting parses 100,000 open parentheses: a clear error, no stack overflow.
func TestDeepNesting(t *testing.T) {
	_, err := ParseDescriptor(strings.Repeat("(", 100000))
	if err == nil || !strings.Contains(err.Message, "nested deeper") {
		t.Fatalf("got %v", err)
	}
	f, errs := ParseFile("deep.cute", []byte("A = 8:1\nB = "+strings.Repeat("[", 100000)+"\nC = 4:1\n"))
	if len(errs) != 1 || len(f.Statements) != 3 {
		t.Fatalf("want the deep statement alone to fail: %d statements, errors %v", len(f.Statements), errs)
	}
}

func TestBasisIntegralCount(t *testing.T) {
	for _, c := range []struct {
		src     string
		value   int64
		known   bool
		message string
	}{
		{"3@1", 3, true, ""},
		{"_1@0", 1, true, ""},
		{"4/2@0", 2, true, ""},
		{"-6/3@0", -2, true, ""},
		{"1/2@0", 0, true, "basis count 1/2 is not an integer: 1 is not divisible by 2"},
		{"-9223372036854775808/-1@0", 0, true, "basis count -9223372036854775808/-1 overflows int64"},
		{"?@0", 0, false, ""},
	} {
		n, err := ParseDescriptor(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		v, known, e := n.(*Basis).IntegralCount()
		msg := ""
		if e != nil {
			msg = e.Message
			if got := c.src[e.Range.Pos.Offset:e.Range.End.Offset]; !strings.HasPrefix(c.src, got) || strings.Contains(got, "@") {
				t.Errorf("%s: error covers %q, want the count", c.src, got)
			}
		}
		if v != c.value || known != c.known || msg != c.message {
			t.Errorf("%s: got %d %v %q, want %d %v %q", c.src, v, known, msg, c.value, c.known, c.message)
		}
	}
}

func TestFindMLIRTypes(t *testing.T) {
	src := "%0 = cute.make_layout() : !cute.layout<\"(4,8):(1,4)\">\n" +
		"  %1 = cute.bad : !cute.layout<\"(4:8)\"> // broken\n" +
		"  %2 = cute.x : (!cute.tile<\"[4:1;8:1]\">, !cute.swizzle<\"S<3,4,3>\">) -> !cute.coord<\"(_,1)\">\n"
	types, errs := FindMLIRTypes([]byte(src))
	var got []string
	for _, m := range types {
		got = append(got, Print(m, Cute)+"@"+textOf(src, m))
	}
	want := []string{
		`!cute.layout<"(4,8):(1,4)">@!cute.layout<"(4,8):(1,4)">`,
		`!cute.tile<"[4:1;8:1]">@!cute.tile<"[4:1;8:1]">`,
		`!cute.swizzle<"S<3,4,3>">@!cute.swizzle<"S<3,4,3>">`,
		`!cute.coord<"(_,1)">@!cute.coord<"(_,1)">`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(errs) != 1 || errs[0].Range.Pos.Line != 2 || errs[0].Range.Pos.Column != 35 ||
		errs[0].Message != "expected ',' or ')' after 4, found ':'" {
		t.Errorf("errors %v", errs)
	}
}

func TestFindMLIRAttributes(t *testing.T) {
	src := "%0 = cute.x() {l = #cute.layout<\"(4,8):(1,4)\">} : !cute.ptr<f16, smem>, !cute.tile<[4:1;8:1]>\n" +
		"  #cute.shape<\"(2,3\">\n"
	types, errs := FindMLIRTypes([]byte(src))
	var got []string
	for _, m := range types {
		got = append(got, fmt.Sprintf("%d:%d %s", m.Pos.Line, m.Pos.Column, textOf(src, m)))
	}
	want := []string{`1:20 #cute.layout<"(4,8):(1,4)">`, `1:73 !cute.tile<[4:1;8:1]>`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(errs) != 1 || errs[0].Range.Pos.Line != 2 {
		t.Errorf("errors %v, want the one on line 2", errs)
	}
}

func TestByteOrderMark(t *testing.T) {
	f, errs := ParseFile("bom.cute", []byte("\ufeffA = 8:1\nB = (4:8)\n"))
	if len(f.Statements) != 2 || len(errs) != 1 || errs[0].Range.Pos.Line != 2 || errs[0].Range.Pos.Column != 7 {
		t.Fatalf("statements %d, errors %v", len(f.Statements), errs)
	}
	if got := PrintFile(f, Cute); got != "A = 8:1\nB = (4:8)\n" {
		t.Errorf("printed %q", got)
	}
}

// Trailing comments of consecutive lines share a column, as gofmt aligns
// them; a line without one, or a blank line, starts a new run.
func TestPrintFileAlignsTrailingComments(t *testing.T) {
	src := "gA = (128,64):(64,1)  // global\nsw = Sw<3,4,3>   # swizzle\nsA = composition(sw, gA) // atom\nn = 4\nx = 8:1 # alone\n\ny = 2:1   # after a blank ü\nlonger = 4:1 # é\n"
	f, errs := ParseFile("t.cute", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := "gA = (128,64):(64,1)      // global\n" +
		"sw = Sw<3,4,3>            # swizzle\n" +
		"sA = composition(sw, gA)  // atom\n" +
		"n = 4\n" +
		"x = 8:1  # alone\n" +
		"\n" +
		"y = 2:1       # after a blank ü\n" +
		"longer = 4:1  # é\n"
	if got := PrintFile(f, Cute); got != want {
		t.Errorf("PrintFile =\n%s\nwant\n%s", got, want)
	}
}

// A call the source splits over lines stays split where it was, aligned
// with its first argument (or indented four spaces when that argument is
// on a line of its own), with its comments on their lines; printing the
// result again changes nothing.
// TestPrintFileKeepsLineBreaks: the formatter keeps the line breaks the
// source has between a call's arguments, a tiler's modes and a tuple's
// elements (never inside an MLIR string).
func TestPrintFileKeepsLineBreaks(t *testing.T) {
	src := "a = composition((4,2):(1,4),   # first\n  (2,2):(1,2))\n" +
		"c = composition(\n  (4,2):(1,4),\n     logical_divide(8:1,\n 2:1))\n" +
		"d = coalesce(  (2,4):(1,2)  )\n" +
		"e = logical_divide((128,64):(64,1),\n    [32:1;\n     8:1])  # tile\n" +
		"f = (8,\n 1):(1,8)\n"
	want := "a = composition((4,2):(1,4),  # first\n" +
		"                (2,2):(1,2))\n" +
		"c = composition(\n" +
		"    (4,2):(1,4),\n" +
		"    logical_divide(8:1,\n" +
		"                   2:1))\n" +
		"d = coalesce((2,4):(1,2))\n" +
		"e = logical_divide((128,64):(64,1),\n" +
		"                   [32:1;\n" +
		"                    8:1])  # tile\n" +
		"f = (8,\n" +
		"     1):(1,8)\n"
	f, errs := ParseFile("t.cute", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := PrintFile(f, Cute)
	if got != want {
		t.Fatalf("PrintFile =\n%s\nwant\n%s", got, want)
	}
	f2, errs := ParseFile("t.cute", []byte(got))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if again := PrintFile(f2, Cute); again != got {
		t.Errorf("printing again gives\n%s", again)
	}
	mlir := PrintFile(f, MLIR)
	for _, line := range strings.Split(mlir, "\n") {
		if strings.Count(line, `"`)%2 != 0 {
			t.Errorf("a line break inside an MLIR string:\n%s", mlir)
			break
		}
	}
	// Print, for one node, keeps a call on one line.
	if one := Print(f.Statements[0], Cute); one != "a = composition((4,2):(1,4), (2,2):(1,2))" {
		t.Errorf("Print = %q", one)
	}
}
