package analysis

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/source"
)

// sameValuesForLint fails t when lint's reading of src (ReadCodeForLint)
// gives any value, count or finding other than the full reading's: the
// value of every root and of every bound name, Values, and the findings.
func sameValuesForLint(t *testing.T, name string, src []byte) {
	t.Helper()
	full, lint := ReadCode(LangCpp, src), ReadCodeForLint(LangCpp, src)
	if (full == nil) != (lint == nil) {
		t.Fatalf("%s: one reading found code, the other none", name)
	}
	if full == nil {
		return
	}
	if fc, lc := full.Counts(), lint.Counts(); fc != lc {
		t.Errorf("%s: Counts = %+v for lint, %+v in full", name, lc, fc)
	}
	var offsets []int
	for _, r := range full.File.Roots {
		s, _ := r.Span()
		offsets = append(offsets, s)
	}
	for _, b := range full.File.Bindings {
		if b.Value != nil {
			offsets = append(offsets, b.NameAt.Start)
		}
	}
	for _, off := range offsets {
		fv, fok := full.At(off)
		lv, lok := lint.At(off)
		if fok != lok || fok && (fv.Printed != lv.Printed || fv.Start != lv.Start || fv.End != lv.End || fv.Name != lv.Name) {
			t.Errorf("%s: at %d lint reads %q (%v), the full read %q (%v)", name, off, lv.Printed, lok, fv.Printed, fok)
			return
		}
	}
	path := name + ".cu"
	if f, l := AnalyzeHostCode(path, src, ReadCode(LangCpp, src)).Findings, AnalyzeHostCode(path, src, ReadCodeForLint(LangCpp, src)).Findings; !reflect.DeepEqual(f, l) {
		t.Errorf("%s: lint's findings differ from the full read's:\n got %v\nwant %v", name, l, f)
	}
}

// sameFindingsForLint fails t when lint's read for findings alone
// (ReadCodeForFindings, C++ by source.ReadCppForLint) finds anything other
// than the full read does; it reports whether the read left code out
// (source.File.Partial).
func sameFindingsForLint(t *testing.T, name string, src []byte) (partial bool) {
	t.Helper()
	path := name + ".cu"
	full := AnalyzeHostCode(path, src, ReadCode(LangCpp, src)).Findings
	code := ReadCodeForFindings(LangCpp, src)
	if got := AnalyzeHostCode(path, src, code).Findings; !reflect.DeepEqual(full, got) {
		t.Errorf("%s: lint's findings differ from the full read's:\n got %v\nwant %v", name, got, full)
	}
	return code != nil && code.File.Partial
}

// TestLintReadingKeepsValues: on the reader's fixture of skipped code and
// on every C++ file of CUTLASS's include/cute, examples and test/unit/cute
// (CUTLASS, default /work/cutlass, when present), lint's reading gives the
// values, counts and findings of the full one.
func TestLintReadingKeepsValues(t *testing.T) {
	src, err := os.ReadFile("../source/testdata/skip.cu")
	if err != nil {
		t.Fatal(err)
	}
	sameValuesForLint(t, "skip", src)
	sameFindingsForLint(t, "skip", src)
	root := cutlassRoot()
	partial := 0
	defer func() {
		// Not vacuous where CUTLASS is there: its traits headers call none of the algebra.
		if _, err := os.Stat(filepath.Join(root, "include/cute")); err == nil && partial == 0 {
			t.Error("no file of CUTLASS was read partially for findings")
		}
	}()
	for _, dir := range []string{"include/cute", "examples", "test/unit/cute"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || LanguageOf(p) != LangCpp {
				return nil
			}
			if src, err := os.ReadFile(p); err == nil {
				sameValuesForLint(t, p, src)
				sameAlgebraForLint(t, p, src)
				if sameFindingsForLint(t, p, src) {
					partial++
				}
			}
			return nil
		})
	}
}

// TestLintFindingsRead: lint's read for findings alone reads nothing of a
// file that calls none of the algebra (File.Partial), the findings stay
// the full read's, and a stale comment's binding is read all the same.
func TestLintFindingsRead(t *testing.T) {
	for _, c := range []struct {
		src      string
		partial  bool
		findings int
	}{
		// No call of the algebra: nothing read; the stale comment is found by a second read.
		{"using L = Layout<Shape<_4,_8>, Stride<_8,_1>>;  // L = (_4,_8):(_1,_4)\nusing S = Shape<_2>;\n", true, 1},
		{"using L = Layout<Shape<_4,_8>, Stride<_8,_1>>;  // L = (_4,_8):(_8,_1)\n", true, 0},
		// A call of the algebra: read in full.
		{"auto a = Layout<Shape<_4,_3>, Stride<_3,_1>>{};\nauto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n", false, 1},
		{"auto n = size /* the size */ (Layout<_4>{});  // 4:1\n", false, 0},
		// Rejected calls that are not certain: disabled, or (the writes the
		// read deferred, File.Deferred) a name declared again.
		{"#if 0\nauto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n#endif\n", false, 0},
		{"template <class T> void f() { if constexpr (sizeof(T) > 2) { auto r = logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{})); } }\n", false, 0},
		{"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { Foo a(3); auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }\n", false, 0},
		{"auto a = Layout<Shape<_4,_3>>{};\nvoid g() { auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{})); }\n", false, 1},
		// The else of an if constexpr whose statement calls none of the
		// algebra: the call in it is discarded by instantiations as well.
		{"template <class T> void f(int x) { {\n" + strings.Repeat("  y = 1;\n", 20) + "  if constexpr (sizeof(T) > 2) z = 2;\n  else logical_divide(Layout<Shape<_4,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n} }\n", true, 0},
		// An alias declared in a struct body makes "X a{};" a declaration
		// that shadows a, wherever it is (statements left out around).
		{"struct S { using X = Layout<_4>; };\n" + strings.Repeat("using U = Layout<Shape<_1,_2,_3,_4,_5,_6,_7,_8>>;\n", 8) +
			"void g() {\n  auto a = Layout<Shape<_4,_3>>{};\n  X a{};\n  auto r = logical_divide(a, make_tile(_2{}, _2{}, _2{}));\n}\n", true, 0},
	} {
		src := []byte("using namespace cute;\n" + c.src)
		if partial := sameFindingsForLint(t, c.src, src); partial != c.partial {
			t.Errorf("%q: Partial = %v, want %v", c.src, partial, c.partial)
		}
		if n := len(AnalyzeHostCode("a.cu", src, ReadCodeForFindings(LangCpp, src)).Findings); n != c.findings {
			t.Errorf("%q: %d findings, want %d", c.src, n, c.findings)
		}
	}
}

// FuzzLintFindingsRead: on any text, lint's read for findings alone
// (ReadCodeForFindings) finds what the full read finds.
func FuzzLintFindingsRead(f *testing.F) {
	f.Add("using L = Layout<Shape<_4,_8>, Stride<_8,_1>>;  // (_4,_8):(_1,_4)\nusing S = Shape<_2>;\n")
	f.Add("auto a = Layout<Shape<_4,_3>, Stride<_3,_1>>{};\nauto r = logical_divide(composition(a, Layout<_6>{}), make_tile(_2{}, _2{}, _2{}));\nauto n = size<3>(a);  // (_4,_3):(_3,_1)\n")
	f.Add("struct T { using A = Layout<Shape<_4,_3>>; };\nauto r = logical_divide(T::A{}, make_tile(_2{}, _2{}, _2{})); // (_2):(_1)\n")
	f.Add("auto n = size // a\n(Layout<Shape<_4,_3>>{});\nauto m = take<3,1>(Layout<_4>{});\n#define X\n")
	f.Add("template <int N> using X = Layout<Shape<Int<N>,_3>>;\nusing Y = X<4>; // (4,3):(1,4)\nauto z = select<5>(Y{});\n")
	// Statements lint's read leaves out (source.readCppRuns) beside the
	// calls it reads: bindings, structs, templates and writes they read.
	f.Add("namespace cute {\nusing A = Layout<Shape<_4,_3>>;\nstruct T { using X = Layout<_6>; };\nint k = 2;\nvoid f() { k = 3; }\nauto r = logical_divide(A{}, make_tile(_2{}, _2{}, _2{}));\nauto s = composition(T::X{}, Layout<Shape<_4>, Stride<_2>>{});\nauto u = take<k,1>(A{});\n}\n")
	f.Add("template <int N> using L = Layout<Shape<Int<N>,_3>>;\nusing M = L<4>;\nstruct S { int a; };\nvoid g() { auto b = 1; auto a = M{}; b = 2; auto r = select<5>(a); }\nusing SM80_X = int;\nSM80_Y<int> y;\nauto z = size<3>(M{});\n")
	f.Add("void h() {\n  constexpr int n = 4;\n  Tensor t = make_tensor(p, Layout<_8>{});\n  for (int i = 0; i < n; ++i) { x += i; }\n  auto r = logical_divide(Layout<Shape<Int<n>,_3>>{}, make_tile(_2{}, _2{}, _2{}));\n}\nusing namespace cute;\n")
	f.Add("namespace cute {\nint k = 2;\ntemplate <class S> auto f() {\n  auto N = size<1>(S{});\n  if constexpr (N % 2 == 0) {\n    static_assert(size<2>(S{}) % 4 == 0);\n    if constexpr (N % 4 == 0) { return Layout<_2>{}; } else if constexpr (N % 8) { k = 1; } else { return B{}; }\n  }\n  else { using X = Layout<_8>; X x{}; if (k) { x = Layout<_4>{}; } }\n}\nauto r = take<k,1>(Layout<_4>{});\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		sameFindingsForLint(t, "fuzz", []byte("cute\n"+src))
		sameAlgebraForLint(t, "fuzz", []byte("cute\n"+src))
	})
}

// sameAlgebraForLint fails t when lint's read for findings alone
// (ReadCodeForFindings) reads the calls of the algebra other than the full
// read: the roots that call it (their ranges, in order), the value of
// each, and at every call of the algebra in them the algebra's answer and
// whether a rejection would be certain (the names it reads, their bindings,
// writes and disabled stretches). CUTLASS has no finding: this compares
// what findings are made of.
func sameAlgebraForLint(t *testing.T, name string, src []byte) {
	t.Helper()
	full, lint := ReadCodeForLint(LangCpp, src), ReadCodeForFindings(LangCpp, src)
	if full == nil || lint == nil {
		return
	}
	// A finding comes only from a call of the algebra by name, neither
	// braced (logical_divide{} evaluates nothing) nor through a receiver
	// (Code.operands): roots holding none are not compared, as lint may
	// leave them out.
	findingCall := func(n source.Node) bool {
		call, ok := n.(*source.Call)
		return ok && call.Fun != nil && isAlgebraOp(call.Fun.Name) && !call.Braced && call.Recv == nil
	}
	algebraRoots := func(c *Code) []source.Node {
		var out []source.Node
		for _, r := range c.File.Roots {
			holds := false
			source.Inspect(r, func(n source.Node) bool {
				holds = holds || findingCall(n)
				return !holds
			})
			if holds {
				out = append(out, r)
			}
		}
		return out
	}
	describe := func(c *Code, roots []source.Node) []string {
		var out []string
		for _, r := range roots {
			s, e := r.Span()
			v, err := c.eval(r, nil, 0)
			d := fmt.Sprintf("[%d,%d) %v", s, e, err)
			if err == nil {
				d += " " + CuTePrint(v)
			}
			source.Inspect(r, func(n source.Node) bool {
				if call, ok := n.(*source.Call); ok && isAlgebraOp(call.Fun.Name) {
					le, ok := c.algebraError(call)
					d += fmt.Sprintf(" | %s: %v %v certain=%v", call.Fun.Full, ok, le, c.certain(call))
				}
				return true
			})
			out = append(out, d)
		}
		return out
	}
	fr, lr := algebraRoots(full), algebraRoots(lint)
	if lint.File.Partial && len(lint.File.Roots) == 0 {
		// Nothing read: no call of the algebra is rejected in the full read.
		for _, r := range fr {
			source.Inspect(r, func(n source.Node) bool {
				if call, ok := n.(*source.Call); ok && findingCall(call) {
					if _, ok := full.algebraError(call); ok {
						t.Errorf("%s: nothing read, but the full read's %s is rejected", name, call.Fun.Full)
					}
				}
				return true
			})
		}
		return
	}
	if f, l := describe(full, fr), describe(lint, lr); !reflect.DeepEqual(f, l) {
		t.Errorf("%s: lint's read of the algebra differs from the full read's:\n got %q\nwant %q", name, l, f)
	}
}
