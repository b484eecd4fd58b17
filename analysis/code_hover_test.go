package analysis

import (
	"strings"
	"testing"
)

// TestCodeHover: the operation and operands of a hovered call (for its
// steps), and the note on a value a name bound again may change.
func TestCodeHover(t *testing.T) {
	for _, tc := range []struct {
		name, src, at string
		python        bool
		op            string // "" for none
		args          int
		note          string // a substring; "" for no note
	}{
		{"composition", "auto A = make_layout(make_shape(_8{}, _4{}));\nauto C = composition(A, make_layout(_4{}, _2{}));", "composition", false, "composition", 2, ""},
		{"divide", "auto D = logical_divide(make_layout(_16{}), make_layout(_4{}, _2{}));", "logical_divide", false, "logical_divide", 2, ""},
		{"dsl divide", "import cutlass.cute as cute\nD = cute.zipped_divide(cute.make_layout(16), cute.make_layout(4))\n", "zipped_divide", true, "zipped_divide", 2, ""},
		{"a name has no operands", "auto A = make_layout(_8{});\nauto C = coalesce(A);", "A)", false, "", 0, ""},
		{"bound again later (C++)", "void f() {\nauto P = make_layout(_4{});\nauto p = size(P);\nfor (auto P : ps) {}\n}", "P)", false, "", 0, "the value at this point: `P` is bound or changed again on line 4"},
		{"bound again in an #if (C++)", "void f() {\nauto L = make_layout(_8{});\n#if X\nauto L = make_layout(_16{});\n#endif\nauto y = cosize(L);\n}", "L)", false, "", 0, "may not be the value here:** `L` is bound or changed again (line 2)"},
		{"an expression reading it", "void f() {\nauto L = make_layout(_8{});\n#if X\nauto L = make_layout(_16{});\n#endif\nauto y = cosize(L);\n}", "cosize", false, "cosize", 1, "it reads a name that is bound or changed again"},
		{"bound again in python", "import cutlass.cute as cute\nL = cute.make_layout(8)\nn = cute.size(L)\nL = cute.make_layout(16)\n", "L)", true, "", 0, "may not be the value here:** `L` is bound or changed again (line 4)"},
		{"own name, python", "import cutlass.cute as cute\nL = cute.make_layout(8)\nL = cute.make_layout(16)\n", "L =", true, "", 0, "may not be the value here"},
		{"not bound again", "import cutlass.cute as cute\nL = cute.make_layout(8)\nn = cute.size(L)\n", "L)", true, "", 0, ""},
		// A template parameter is declared once, by its clause: the last one
		// ("int N>") as the others (the reader took it for a second declaration).
		{"last template parameter", "template <class TA, int M, int N>\nvoid f() {\nauto L = make_layout(make_shape(_8{}, Int<N>{}));\nauto y = cosize(L);\n}", "L)", false, "", 0, ""},
		{"first template parameter", "template <int M, class TB>\nvoid f() {\nauto L = make_layout(make_shape(Int<M>{}, _4{}));\nauto y = cosize(L);\n}", "L)", false, "", 0, ""},
		{"nested template parameter", "using U = Layout<_8>;\ntemplate <template <class U> class X, int N>\nvoid f() {\nauto L = make_layout(make_shape(Int<N>{}, size(U{})));\nauto y = cosize(L);\n}", "L)", false, "", 0, ""},
		{"written to in python", "import cutlass.cute as cute\nL = cute.make_layout(8)\nn = cute.size(L)\nfor L in xs:\n    pass\n", "L)", true, "", 0, "may not be the value here:** `L` is bound or changed again (line 4)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lang := LangCpp
			if tc.python {
				lang = LangPython
			}
			c := ReadCode(lang, []byte(tc.src))
			h, ok := c.HoverAt(strings.Index(tc.src, tc.at))
			if !ok {
				t.Fatalf("no hover at %q", tc.at)
			}
			if h.Op != tc.op || len(h.Args) != tc.args {
				t.Errorf("op %q with %d operands, want %q with %d", h.Op, len(h.Args), tc.op, tc.args)
			}
			if tc.note == "" && h.Note != "" || !strings.Contains(h.Note, tc.note) {
				t.Errorf("note %q, want %q", h.Note, tc.note)
			}
		})
	}
}

// TestCodeHoverNone: no hover where At has none, nil code included.
func TestCodeHoverNone(t *testing.T) {
	var nilCode *Code
	if _, ok := nilCode.HoverAt(0); ok {
		t.Error("a hover on nil code")
	}
	src := "auto A = make_layout(elsewhere);\n// make_layout(_8{})\n"
	c := ReadCode(LangCpp, []byte(src))
	for _, off := range []int{-1, 0, strings.Index(src, "elsewhere"), strings.Index(src, "// make") + 5, len(src), len(src) + 10} {
		if h, ok := c.HoverAt(off); ok {
			t.Errorf("hover at %d: %+v", off, h)
		}
	}
}
