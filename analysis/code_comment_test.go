package analysis

import (
	"strings"
	"testing"
)

// staleComments are the stale-comment findings of src (a .cu file, .py when python).
func staleCommentFindings(python bool, src string) []Finding {
	name := "f.cu"
	if python {
		name = "f.py"
	}
	var out []Finding
	for _, f := range AnalyzeHost(name, []byte(src)).Findings {
		if f.Code == CodeStaleComment {
			out = append(out, f)
		}
	}
	return out
}

// TestStaleComment: a layout comment beside a binding that states another
// layout is a warning on the comment's descriptor, fixed by the value as
// CuTe prints it (without static marks when the comment writes none).
func TestStaleComment(t *testing.T) {
	for _, tc := range []struct {
		name, src, stated, fix string
		python                 bool
	}{
		{"same line", "auto sA = make_layout(make_shape(_8{}, _4{}));  // (_8,_4):(_4,_1)", "(_8,_4):(_4,_1)", "(_8,_4):(_1,_8)", false},
		{"same line, no marks", "auto sA = make_layout(make_shape(_8{}, _4{}));  // (8,4):(4,1)", "(8,4):(4,1)", "(8,4):(1,8)", false},
		{"line above", "// (_8,_4):(_4,_1)\nauto sA = make_layout(make_shape(_8{}, _4{}));", "(_8,_4):(_4,_1)", "(_8,_4):(_1,_8)", false},
		{"named", "auto sA = make_layout(make_shape(_8{}, _4{}));  // sA: (_8,_4):(_4,_1)", "(_8,_4):(_4,_1)", "(_8,_4):(_1,_8)", false},
		{"a using", "using L = Layout<Shape<_8,_4>, Stride<_4,_1>>;  // = (_8,_4):(_1,_8)", "(_8,_4):(_1,_8)", "(_8,_4):(_4,_1)", false},
		{"another shape", "auto t = logical_divide(Layout<_64>{}, _8{});  // (_8,_8):(_1,_8)", "(_8,_8):(_1,_8)", "(_8,_8):(_1,_8)", false},
		{"swizzled", "auto sw = composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{});  // Sw<2,4,3> o _0 o (_8,_64):(_64,_1)",
			"Sw<2,4,3> o _0 o (_8,_64):(_64,_1)", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", false},
		{"python", "import cutlass.cute as cute\nL = cute.make_layout((4, 8), stride=(8, 1))  # (4,8):(1,4)", "(4,8):(1,4)", "(4,8):(8,1)", true},
		{"python line above", "import cutlass.cute as cute\n# (4,8):(1,4)\nL = cute.make_layout((4, 8), stride=(8, 1))", "(4,8):(1,4)", "(4,8):(8,1)", true},
		{"run-time integers", "int M = 256;\nauto L = make_layout(make_shape(M, _8{}));  // (256,_8):(_8,_1)", "(256,_8):(_8,_1)", "(256,_8):(_1,256)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := staleCommentFindings(tc.python, tc.src)
			if tc.name == "another shape" {
				// logical_divide(64:1, 8) is (_8,_8):(_1,_8): the comment agrees.
				if len(fs) != 0 {
					t.Fatalf("findings %v, want none", fs)
				}
				return
			}
			if len(fs) != 1 {
				t.Fatalf("%d findings, want 1", len(fs))
			}
			f := fs[0]
			if got := tc.src[f.Range.Pos.Offset:f.Range.End.Offset]; got != tc.stated || f.Severity != SeverityWarning {
				t.Errorf("finding on %q (%v), want a warning on %q", got, f.Severity, tc.stated)
			}
			if len(f.Fixes) != 1 || len(f.Fixes[0].Edits) != 1 || f.Fixes[0].Edits[0].NewText != tc.fix {
				t.Fatalf("fixes %+v, want one writing %q", f.Fixes, tc.fix)
			}
			if !strings.Contains(f.Message, "the comment says") {
				t.Errorf("message %q", f.Message)
			}
		})
	}
}

// TestNoStaleComment: a comment that agrees (static marks and one-element
// tuples aside), that does not clearly state the binding's layout, or a
// binding without a known value, gives nothing.
func TestNoStaleComment(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		python    bool
	}{
		{"agrees", "auto sA = make_layout(make_shape(_8{}, _4{}));  // (_8,_4):(_1,_8)", false},
		{"agrees without marks", "auto sA = make_layout(make_shape(_8{}, _4{}));  // (8,4):(1,8)", false},
		{"one-element tuple", "auto L = Layout<Shape<_8>>{};  // 8:1", false},
		{"run-time marks", "int M = 256;\nauto L = make_layout(make_shape(M, _8{}));  // (_256,8):(1,_256)", false},
		{"in a sentence", "auto sA = make_layout(make_shape(_8{}, _4{}));  // not (8,4):(4,1) as before", false},
		{"another name", "auto sA = make_layout(make_shape(_8{}, _4{}));  // sB: (8,4):(4,1)", false},
		{"two descriptors", "auto sA = make_layout(make_shape(_8{}, _4{}));  // (8,4):(4,1) or (4,8):(8,1)", false},
		{"a blank line between", "// (8,4):(4,1)\n\nauto sA = make_layout(make_shape(_8{}, _4{}));", false},
		{"code before the comment above", "auto x = 1; // (8,4):(4,1)\nauto sA = make_layout(make_shape(_8{}, _4{}));", false},
		{"a string", "auto sA = make_layout(make_shape(_8{}, _4{})); const char* s = \"(8,4):(4,1)\";", false},
		{"unknown value", "template <int N>\nvoid f() { auto sA = make_layout(make_shape(Int<N>{}, _4{}));  // (8,4):(4,1)\n}", false},
		{"not evaluated", "auto sA = make_layout(shape_from_elsewhere);  // (8,4):(4,1)", false},
		{"inner layout of a swizzle", "auto sw = composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{});  // (_8,_64):(_1,_8)", false},
		{"a tuple, not a layout", "auto s = make_shape(_8{}, _4{});  // (4,8)", false},
		{"suppressed", "// cute-lsp: ignore[stale-comment]\nauto sA = make_layout(make_shape(_8{}, _4{}));  // (8,4):(4,1)", false},
		{"python agrees", "import cutlass.cute as cute\nL = cute.make_layout((4, 8), stride=(8, 1))  # (4,8):(8,1)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if fs := staleCommentFindings(tc.python, tc.src); len(fs) > 0 {
				t.Errorf("findings %v, want none", fs)
			}
		})
	}
}
