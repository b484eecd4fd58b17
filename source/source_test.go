package source

import (
	"strings"
	"testing"
)

// rootTexts is the text of every root the reader found.
func rootTexts(src string, f *File) []string {
	var out []string
	for _, r := range f.Roots {
		s, e := r.Span()
		out = append(out, src[s:e])
	}
	return out
}

func TestCppSkipsCommentsStringsDirectives(t *testing.T) {
	src := `#define L make_layout(Shape<_1>{}) \
   + make_layout(Shape<_2>{})
// make_layout(Shape<_3>{})
/* make_layout(Shape<_4>{}) */
const char* a = "make_layout(Shape<_5>{})";
const char* b = R"x(make_layout(Shape<_6>{}) )" )x";
char c = '"';
auto d = u8"make_layout(Shape<_7>{})";
auto e = make_layout(Shape<_8>{});`
	f := ReadCpp([]byte(src))
	got := rootTexts(src, f)
	var layouts []string
	for _, g := range got {
		if strings.HasPrefix(g, "make_layout") {
			layouts = append(layouts, g)
		}
	}
	if len(layouts) != 1 || layouts[0] != "make_layout(Shape<_8>{})" {
		t.Errorf("roots = %q, want only make_layout(Shape<_8>{})", got)
	}
}

func TestCppTemplatesOnlyForKnownNames(t *testing.T) {
	src := "auto a = b < c;\nauto s = Shape<Shape<_2,_2>>{};\nauto t = cute::Int<8>{};"
	f := ReadCpp([]byte(src))
	if len(f.Bindings) != 3 {
		t.Fatalf("bindings = %+v", f.Bindings)
	}
	if _, ok := f.Bindings[0].Value.(*Binary); !ok {
		t.Errorf("b < c read as %T, want a comparison", f.Bindings[0].Value)
	}
	c, ok := f.Bindings[1].Value.(*Call)
	if !ok || !c.HasTArgs || !c.Braced || len(c.TArgs) != 1 {
		t.Fatalf("Shape<Shape<_2,_2>>{} read as %#v", f.Bindings[1].Value)
	}
	if inner, ok := c.TArgs[0].(*Call); !ok || len(inner.TArgs) != 2 {
		t.Errorf("inner Shape read as %#v", c.TArgs[0])
	}
	if c, ok := f.Bindings[2].Value.(*Call); !ok || c.Fun.Full != "cute::Int" || c.Fun.Qualifier() != "cute" {
		t.Errorf("cute::Int<8>{} read as %#v", f.Bindings[2].Value)
	}
}

func TestCppAliasTemplate(t *testing.T) {
	src := "template <int N, class T = float>\nusing X = Layout<Shape<Int<N>>>;\nusing Y = X<4, half_t>;"
	f := ReadCpp([]byte(src))
	var x, y *Binding
	for i := range f.Bindings {
		switch f.Bindings[i].Name {
		case "X":
			x = &f.Bindings[i]
		case "Y":
			y = &f.Bindings[i]
		}
	}
	if x == nil || !x.Template || strings.Join(x.Params, ",") != "N,T" {
		t.Fatalf("X = %+v", x)
	}
	if y == nil {
		t.Fatal("Y not bound")
	}
	if c, ok := y.Value.(*Call); !ok || len(c.TArgs) != 2 {
		t.Errorf("X<4, half_t> read as %#v", y.Value)
	}
}

func TestCppScopes(t *testing.T) {
	src := "void f(int m) {\n  auto a = make_layout(m);\n}\nauto b = 1;"
	f := ReadCpp([]byte(src))
	var m, a, b Binding
	for _, x := range f.Bindings {
		switch x.Name {
		case "m":
			m = x
		case "a":
			a = x
		case "b":
			b = x
		}
	}
	end := strings.Index(src, "}") + 1
	if !m.Unknown || m.Visible.End != end {
		t.Errorf("m = %+v, want an unknown visible to %d", m, end)
	}
	if a.Visible.End != end {
		t.Errorf("a visible to %d, want %d", a.Visible.End, end)
	}
	if b.Visible.End != len(src) {
		t.Errorf("b visible to %d, want the end of the file", b.Visible.End)
	}
}

// TestCppStructBodies: struct and class bodies are Scopes by name; a
// declaration, a template parameter, an elaborated type or an enum class
// has none.
func TestCppStructBodies(t *testing.T) {
	src := "template <class T, int N>\nstruct Traits : Base<T, N>, Other {\n  using X = int;\n};\nstruct Fwd;\nstruct Fwd f;\nenum class E { A };\nclass K final { int k; };\n"
	f := ReadCpp([]byte(src))
	var got []string
	for _, s := range f.Scopes {
		got = append(got, s.Name+"="+src[s.Body.Start:s.Body.End])
	}
	want := []string{"Traits={\n  using X = int;\n}", "K={ int k; }"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("scopes %q, want %q", got, want)
	}
}

// TestCppNamespaces: a namespace block other than cute's is foreign (its
// unqualified Layout may be its own), unless it is nested in a namespace
// cute block, whose names it sees.
func TestCppNamespaces(t *testing.T) {
	src := "namespace cute { namespace UMMA { using A = Layout<_1>; } }\nnamespace cutlass { using B = Layout<_1>; }\n"
	f := ReadCpp([]byte(src))
	if a := strings.Index(src, "Layout"); !f.CuteAt(a) {
		t.Errorf("Layout in cute::UMMA is not read as CuTe's")
	}
	if b := strings.LastIndex(src, "Layout"); f.CuteAt(b) {
		t.Errorf("Layout in namespace cutlass is read as CuTe's")
	}
}

func TestCppHalfTyped(t *testing.T) {
	for _, src := range []string{
		"auto a = make_layout(make_shape(8,",
		"auto a = Layout<Shape<_8,",
		"/* unterminated",
		"auto s = R\"x(unterminated",
		"template <int N",
		"using X = ;",
		"auto a = make_layout(Shape<_8>{}) }}}}) ;\nauto b = make_layout(Shape<_4>{});",
	} {
		f := ReadCpp([]byte(src))
		checkRanges(t, src, f)
	}
	src := "auto a = make_layout(make_shape(8,\nauto b = make_layout(Shape<_4>{});"
	f := ReadCpp([]byte(src))
	found := false
	for _, r := range rootTexts(src, f) {
		found = found || r == "make_layout(Shape<_4>{})"
	}
	if !found {
		t.Errorf("a broken line hid the next one: roots %q", rootTexts(src, f))
	}
}

func TestCppDeepNesting(t *testing.T) {
	src := "auto a = make_layout(" + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + ");"
	f := ReadCpp([]byte(src))
	checkRanges(t, src, f)
}

func TestPython(t *testing.T) {
	src := `import cutlass
import cutlass.cute as ct
from cutlass import cute as cc

tile = (128, 64)  # a tuple
L = ct.make_layout(tile, stride=(64, 1))
s = """make_layout((9,9))"""

def kernel(m: cutlass.Int32, t):
    x = cc.make_layout((m, 8))
    return x
`
	f := ReadPython([]byte(src))
	checkRanges(t, src, f)
	for _, alias := range []string{"ct", "cc", "cutlass.cute"} {
		if !f.Modules[alias] {
			t.Errorf("module alias %q not recorded (%v)", alias, f.Modules)
		}
	}
	names := map[string]Binding{}
	for _, b := range f.Bindings {
		names[b.Name] = b
	}
	if tup, ok := names["tile"].Value.(*Tuple); !ok || len(tup.Elems) != 2 {
		t.Errorf("tile = %#v", names["tile"].Value)
	}
	if c, ok := names["L"].Value.(*Call); !ok || len(c.Keywords) != 1 || c.Keywords[0].Name != "stride" {
		t.Errorf("L = %#v", names["L"].Value)
	}
	if !names["m"].Unknown || names["t"].Unknown {
		t.Errorf("m = %+v, t = %+v: want m an unknown integer, t without a value", names["m"], names["t"])
	}
	if end := len(src); names["x"].Visible.End != end {
		t.Errorf("x visible to %d, want %d", names["x"].Visible.End, end)
	}
	for _, r := range f.Roots {
		Inspect(r, func(n Node) bool {
			if c, ok := n.(*Call); ok && c.Fun.Name == "make_layout" && c.Fun.Qualifier() == "" {
				t.Errorf("a string was read as code: %#v", c)
			}
			return true
		})
	}
}

func TestParseIntLiteral(t *testing.T) {
	for text, want := range map[string]int64{"8": 8, "0x10": 16, "1'000": 1000, "0b101": 5, "010": 8, "8u": 8, "64ull": 64, "0": 0, "1_000": 1000} {
		if got, ok := parseIntLiteral(text); !ok || got != want {
			t.Errorf("parseIntLiteral(%q) = %d, %v; want %d", text, got, ok, want)
		}
	}
	for _, text := range []string{"1.5", "1e3", "0x", "99999999999999999999", "8f"} {
		if _, ok := parseIntLiteral(text); ok {
			t.Errorf("parseIntLiteral(%q) accepted", text)
		}
	}
}

// checkRanges fails when a root or binding lies outside src.
func checkRanges(t *testing.T, src string, f *File) {
	t.Helper()
	for _, r := range f.Roots {
		Inspect(r, func(n Node) bool {
			s, e := n.Span()
			if s < 0 || e > len(src) || s > e {
				t.Errorf("%T at [%d,%d) outside %d bytes", n, s, e, len(src))
			}
			return true
		})
	}
	for _, b := range f.Bindings {
		if b.NameAt.Start < 0 || b.NameAt.End > len(src) || b.Visible.Start < 0 || b.Visible.End > len(src) || b.Visible.Start > b.Visible.End {
			t.Errorf("binding %+v outside %d bytes", b, len(src))
		}
	}
	for _, d := range f.Disabled {
		if d.Start < 0 || d.End > len(src) || d.Start > d.End {
			t.Errorf("disabled range %+v outside %d bytes", d, len(src))
		}
	}
	for _, w := range f.Writes {
		if w.At.Start < 0 || w.At.End > len(src) || w.At.Start >= w.At.End || src[w.At.Start:w.At.End] != w.Name {
			t.Errorf("write %+v is not its name in the text", w)
		}
	}
}
