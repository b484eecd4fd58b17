package source

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// writeLines are the source lines holding a write of name, 1-based, joined by ",".
func writeLines(src string, f *File, name string) string {
	var out []string
	for _, w := range f.Writes {
		if w.Name == name {
			out = append(out, strconv.Itoa(strings.Count(src[:w.At.Start], "\n")+1))
		}
	}
	return strings.Join(out, ",")
}

// TestWrites: the occurrences of a bound name that may bind it again
// without being a binding, and none of its reads but one: "k * x" reads
// like the declaration "T* x" (a write taken for a read would be worse).
func TestWrites(t *testing.T) {
	cpp := `auto x = make_layout(Shape<_8>{});
auto a = coalesce(x);
print(x); f(x, y); x.shape(); S::x; p->x;
for (auto x : xs) {}
for (auto& x : xs) {}
auto [y, x] = foo();
Foo x(3);
std::tuple<int,int> x;
decltype(a) x;
return x;
auto b = k * x;
template <class x> struct T {};`
	// Line 12 declares x once, as a binding of its template clause (TestTemplateParams).
	if got, want := writeLines(cpp, ReadCpp([]byte(cpp)), "x"), "4,5,6,7,8,9,11"; got != want {
		t.Errorf("C++ writes of x on lines %s, want %s", got, want)
	}
	py := `import cutlass.cute as cute
x = cute.make_layout(8)
a = cute.coalesce(x)
print(x); f(x, k=x); x.shape; f(x=1)
for x in xs: pass
for i, x in xs: pass
with f() as x: pass
a, x = f()
x, a = f()
x += (1,)
x[0] = 1
x.append(2)
x.attr = 3
if (x := 4): pass
del x
global x
import x
from m import a, x
y = [x for x in xs]
f = lambda x: x
if x == 1 and x >= 2 and x != 3 and x <= 4: pass`
	if got, want := writeLines(py, ReadPython([]byte(py)), "x"), "5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"; got != want {
		t.Errorf("Python writes of x on lines %s, want %s", got, want)
	}
}

// cppWritesReference is cppWrites as it was before nameSet and
// bindingStarts: a map of the bound names and a map of the binding starts
// (and a look through every template clause).
func cppWritesReference(r *cppReader) []NameRef {
	names, bindingAt := boundNames(&r.f)
	inClause := func(off int) bool {
		for _, c := range r.clauses {
			if c.Start <= off && off < c.End {
				return true
			}
		}
		return false
	}
	var out []NameRef
	for j, t := range r.toks {
		if t.kind != tIdent || bindingAt[t.start] || !names[r.word(j)] || inClause(t.start) {
			continue
		}
		if r.isPunctAt(j-1, ".") || r.isPunctAt(j-1, "->") || r.isPunctAt(j-1, "::") {
			continue
		}
		if r.declaresAny(j) || r.inStructuredBinding(j) {
			out = append(out, NameRef{Name: r.word(j), At: Range{t.start, t.end}})
		}
	}
	return out
}

// sameWrites fails t when cppWrites and the reference differ on src.
func sameWrites(t *testing.T, name string, src []byte) {
	t.Helper()
	r := &cppReader{src: src, str: string(src), toks: cppTokens(src, nil)}
	r.p = parser{src: src, str: r.str, toks: r.toks, cpp: true, templates: func() map[string]bool { t, _ := r.templateNames(); return t }()}
	r.match = matchBrackets(r.p, nil)
	r.read()
	if got, want := r.cppWrites(), cppWritesReference(r); !slices.Equal(got, want) {
		t.Errorf("%s: cppWrites gives %d writes, the reference %d", name, len(got), len(want))
	}
}

// TestCppWritesAsTheMapsFound: the set of names and the walk of the
// binding starts find the writes the maps found, in the fixtures and in
// the C++ of a CUTLASS checkout (CUTLASS, default /work/cutlass).
func TestCppWritesAsTheMapsFound(t *testing.T) {
	for _, src := range []string{"auto x = 1; int x; auto [x, y] = f(); auto y = 2;", "auto x = make_layout(x); Foo x(3);", "", "auto = 1;"} {
		sameWrites(t, src, []byte(src))
	}
	root := os.Getenv("CUTLASS")
	if root == "" {
		root = "/work/cutlass"
	}
	for _, dir := range []string{"include/cute", "examples/cute", "test/unit/cute"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if src, err := os.ReadFile(p); err == nil {
				sameWrites(t, p, src)
			}
			return nil
		})
	}
}

// FuzzCppWrites: on any text, cppWrites finds the reference's writes.
func FuzzCppWrites(f *testing.F) {
	fuzzSeeds(f, ".cu")
	f.Add("auto x = 1; x = 2; int x; auto [a, x] = g(); template <class x> struct S;")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<14 {
			return
		}
		sameWrites(t, "fuzz", []byte(src))
	})
}

// TestTemplateParams: each parameter of a template clause is declared
// once, by the binding at its name in the clause (integers unknown, types
// without a value), and is no write of its name: the clause's last
// parameter ("class TC>") included, and the names a nested template
// parameter declares.
func TestTemplateParams(t *testing.T) {
	for _, c := range []struct {
		src    string
		params string // name:kind of each binding of the clause, kind "int" or "type"
		alias  string // the alias template's Params, where the clause declares one
	}{
		{"template <class TA, class TB, class TC>\nvoid f() { auto x = make_layout(TC{}, TA{}); }", "TA:type TB:type TC:type", ""},
		{"template <typename T, int N, class U = float, int K = (1 > 2, 3)>\nstruct S {};", "T:type N:int U:type K:int", ""},
		{"template <class... Ts, int... Is>\nvoid g(Ts... ts);", "Ts:type Is:int", ""},
		{"template <template <class U> class X, template <class, int> class Y>\nstruct W {};", "X:type Y:type", ""},
		{"template <class, int, std::size_t = 0, int N = 2, class = void>\nusing A = Layout<Shape<Int<N>>>;", "N:int", ",,,N,"},
		{"template <int N, class T = Layout<Shape<_1>>>\nusing B = Layout<Shape<Int<N>>>;", "N:int T:type", "N,T"},
		{"template <>\nstruct S<int> {};", "", ""},
	} {
		f := ReadCpp([]byte(c.src))
		clauseEnd := strings.Index(c.src, "\n")
		var params []string
		for _, b := range f.Bindings {
			if b.NameAt.Start >= clauseEnd {
				if b.Template && strings.Join(b.Params, ",") != c.alias {
					t.Errorf("%s: alias %s has parameters %q, want %q", c.src, b.Name, b.Params, c.alias)
				}
				continue
			}
			if got := c.src[b.NameAt.Start:b.NameAt.End]; got != b.Name || b.Value != nil {
				t.Errorf("%s: binding %q at %q with value %v", c.src, b.Name, got, b.Value)
			}
			kind := "type"
			if b.Unknown {
				kind = "int"
			}
			params = append(params, b.Name+":"+kind)
		}
		if got := strings.Join(params, " "); got != c.params {
			t.Errorf("%s: parameters %q, want %q", c.src, got, c.params)
		}
		for _, w := range f.Writes {
			if w.At.Start < clauseEnd {
				t.Errorf("%s: write of %s in the clause at %v", c.src, w.Name, w.At)
			}
		}
	}
	// A nested parameter's name is no write of a name bound outside.
	src := "auto U = make_layout(_8{});\ntemplate <template <class U> class X> struct W {};\nauto c = coalesce(U);"
	if got := writeLines(src, ReadCpp([]byte(src)), "U"); got != "" {
		t.Errorf("writes of U on lines %s, want none", got)
	}
}
