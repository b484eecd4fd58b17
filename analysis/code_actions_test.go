package analysis

import (
	"strings"
	"testing"
)

// applyRefactor applies the refactor of src (at the first occurrence of
// at) whose title contains title; ok is false when none is offered.
func applyRefactor(t *testing.T, python bool, src, at, title string) (string, bool) {
	t.Helper()
	lang := LangCpp
	if python {
		lang = LangPython
	}
	off := strings.Index(src, at)
	if off < 0 {
		t.Fatalf("no %q in the source", at)
	}
	for _, r := range ReadCode(lang, []byte(src)).Refactors(off) {
		if strings.Contains(r.Title, title) {
			out := src
			for k := len(r.Edits) - 1; k >= 0; k-- {
				e := r.Edits[k]
				out = out[:e.Range.Pos.Offset] + e.NewText + out[e.Range.End.Offset:]
			}
			return out, true
		}
	}
	return "", false
}

func TestCodeRefactors(t *testing.T) {
	for _, tc := range []struct {
		name, src, at, title, want string
		python                     bool
	}{
		{"value as a comment", "auto sA = make_layout(make_shape(_8{}, _4{}));\nauto x = 1;", "sA", "as a comment",
			"auto sA = make_layout(make_shape(_8{}, _4{}));  // (_8,_4):(_1,_8)\nauto x = 1;", false},
		{"value as a comment, cursor in the call", "auto sA = make_layout(make_shape(_8{}, _4{}));   ", "make_shape", "as a comment",
			"auto sA = make_layout(make_shape(_8{}, _4{}));  // (_8,_4):(_1,_8)", false},
		{"value as a comment, python", "import cutlass.cute as cute\nL = cute.make_layout((4, 8), stride=(8, 1))\n", "L =", "as a comment",
			"import cutlass.cute as cute\nL = cute.make_layout((4, 8), stride=(8, 1))  # (_4,_8):(_8,_1)\n", true},
		{"value as a comment, a using", "using L = Layout<Shape<_8,_4>, Stride<_4,_1>>;", "using", "as a comment",
			"using L = Layout<Shape<_8,_4>, Stride<_4,_1>>;  // (_8,_4):(_4,_1)", false},
		{"constructed type as a call", "auto sA = Layout<Shape<_8,Shape<_2,_2>>, Stride<_4,Stride<_1,_32>>>{};", "Layout", "make_layout call",
			"auto sA = make_layout(make_shape(_8{}, make_shape(_2{}, _2{})), make_stride(_4{}, make_stride(_1{}, _32{})));", false},
		{"type as decltype", "using L = cute::Layout<Shape<_11,_4>>;", "Layout", "decltype",
			"using L = decltype(cute::make_layout(cute::make_shape(Int<11>{}, _4{}), cute::make_stride(_1{}, Int<11>{})));", false},
		{"call as a type", "auto sA = make_layout(make_shape(_8{}, _4{}), LayoutRight{});", "make_layout", "Write as",
			"auto sA = Layout<Shape<_8,_4>, Stride<_4,_1>>{};", false},
		{"decltype as a type", "using L = decltype(make_layout(make_shape(_8{}, _4{})));", "make_layout", "the type",
			"using L = Layout<Shape<_8,_4>, Stride<_1,_8>>;", false},
		{"rank-1", "auto v = make_layout(_8{}, _m1{});", "make_layout", "Write as", "auto v = Layout<_8, _m1>{};", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := applyRefactor(t, tc.python, tc.src, tc.at, tc.title)
			if !ok || got != tc.want {
				t.Errorf("got %q (offered %v), want %q", got, ok, tc.want)
			}
		})
	}
}

// TestCodeRefactorsNotOffered: no rewrite of what the code does not have
// for certain, nor one a type cannot hold, nor a comment where one is.
func TestCodeRefactorsNotOffered(t *testing.T) {
	for _, tc := range []struct {
		name, src, at, title string
		python               bool
	}{
		{"a comment already", "auto sA = make_layout(make_shape(_8{}, _4{}));  // smem", "sA", "as a comment", false},
		{"more code after", "auto sA = make_layout(make_shape(_8{}, _4{})); auto b = 2;", "sA", "as a comment", false},
		{"unknown value", "template <int N> void f() { auto sA = make_layout(make_shape(Int<N>{}, _4{})); }", "sA", "as a comment", false},
		{"not followed", "auto sA = make_layout(elsewhere);", "sA", "as a comment", false},
		{"run-time layout as a type", "int m = 8;\nauto sA = make_layout(make_shape(m, _4{}));", "make_layout", "Write as", false},
		{"a constructed layout", "Layout<Shape<int,int>> L{m, n};", "Layout", "make_layout", false},
		{"python has no Layout type", "import cutlass.cute as cute\nL = cute.make_layout((4, 8))", "make_layout", "Write as", true},
		{"shadowed name", "auto sA = make_layout(_8{});\nvoid f() { for (auto sA : xs) { auto t = sA; } }", "t =", "as a comment", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := applyRefactor(t, tc.python, tc.src, tc.at, tc.title); ok {
				t.Errorf("offered: %q", got)
			}
		})
	}
}
