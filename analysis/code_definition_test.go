package analysis

import (
	"fmt"
	"strings"
	"testing"
)

// TestCodeDefinition: a name in code goes to the binding visible there.
// at and want are "text#k": the k-th occurrence of text (0-based), at its
// first byte.
func TestCodeDefinition(t *testing.T) {
	occurrence := func(src, spec string) int {
		text, k := spec, 0
		if i := strings.LastIndexByte(spec, '#'); i >= 0 {
			text, k = spec[:i], int(spec[i+1]-'0')
		}
		off := -1
		for n := 0; n <= k; n++ {
			i := strings.Index(src[off+1:], text)
			if i < 0 {
				t.Fatalf("no occurrence %d of %q", k, text)
			}
			off += 1 + i
		}
		return off
	}
	for _, tc := range []struct {
		name, src, at, want string // want "" for no definition
		python              bool
	}{
		{"auto", "auto sA = make_layout(Shape<_8,_4>{});\nauto t = logical_divide(sA, _2{});", "sA#1", "sA#0", false},
		{"using", "using Atom = Layout<Shape<_8,_64>>;\nauto s = tile_to_shape(Atom{}, Shape<_64,_64>{});", "Atom#1", "Atom#0", false},
		{"constexpr int", "constexpr int kBlockM = 64;\nauto s = make_shape(Int<kBlockM>{}, _8{});", "kBlockM#1", "kBlockM#0", false},
		{"inside the name", "auto sA = make_layout(Shape<_8,_4>{});\nauto t = logical_divide(sA, _2{});", "A, _2", "sA#0", false},
		{"the binding itself", "auto sA = make_layout(Shape<_8,_4>{});", "sA", "sA", false},
		{"function parameter", "void f(int n) {\n  auto s = make_shape(n, _8{});\n}", "n, _8", "n)", false},
		{"template parameter", "template <class TA, int N>\nvoid f() {\n  auto s = make_shape(Int<N>{}, _8{});\n}", "N>{}", "N>\n", false},
		{"shadowed in a block", "auto k = _4{};\nvoid f() {\n  auto k = _8{};\n  auto s = make_shape(k, k);\n}\nauto u = make_shape(k);", "k, k", "k = _8", false},
		{"outer after the block", "auto k = _4{};\nvoid f() {\n  auto k = _8{};\n}\nauto u = make_shape(k);", "k);", "k = _4", false},
		{"outside any expression", "auto sA = make_layout(Shape<_8,_4>{});\nprint(sA);", "sA);", "sA#0", false},
		{"dsl assignment", "import cutlass.cute as cute\nL = cute.make_layout((4, 8))\nn = cute.size(L)", "L)", "L =", true},
		{"dsl reassignment", "import cutlass.cute as cute\nL = cute.make_layout((4, 8))\nL = cute.coalesce(L)\nn = cute.size(L)", "L)#1", "L = cute.coalesce", true},
		{"dsl def parameter", "import cutlass.cute as cute\ndef f(m):\n    T = cute.make_layout((m, 8))", "m, 8", "m)", true},
		{"dsl attribute's object", "import cutlass.cute as cute\nL = cute.make_layout((4, 8))\ns = L.shape", "L.shape", "L =", true},
		{"dsl attribute", "import cutlass.cute as cute\nL = cute.make_layout((4, 8))\ns = L.shape", "shape", "", true},
		{"qualified", "auto sA = make_layout(Shape<_8,_4>{});\nauto x = cute::sA;", "sA;", "", false},
		{"cute's own name", "auto sA = make_layout(Shape<_8,_4>{});", "make_layout", "", false},
		{"in a comment", "auto sA = make_layout(Shape<_8,_4>{});\n// sA is the smem layout", "sA is", "", false},
		{"in a string", "auto sA = make_layout(Shape<_8,_4>{});\nconst char* s = \"sA\";", "sA\"", "", false},
		{"before its binding", "auto t = make_shape(kM);\nconstexpr int kM = 8;", "kM", "", false},
		{"a number", "auto sA = make_layout(Shape<_8,_4>{});\nint x = 42;", "42", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lang := LangCpp
			if tc.python {
				lang = LangPython
			}
			c := ReadCode(lang, []byte(tc.src))
			r, ok := c.Definition(occurrence(tc.src, tc.at))
			if tc.want == "" {
				if ok {
					t.Errorf("definition %q, want none", tc.src[r.Start:r.End])
				}
				return
			}
			want := occurrence(tc.src, tc.want)
			if !ok || r.Start != want {
				t.Errorf("definition at %d (%v), want %d", r.Start, ok, want)
			}
		})
	}
}

// TestCodeReferences: the references to a name are the reads that resolve
// to its binding (Definition's binding), with the binding's own name when
// asked; a later binding of the name, a shadowing one, a member, a
// qualified name, a comment, a string and a longer word are none. want
// holds each reference as line:column (both from 0).
func TestCodeReferences(t *testing.T) {
	for _, tc := range []struct {
		name, src, at string
		python        bool
		decl          bool
		want          string
	}{
		{"auto", "auto sA = make_layout(_8{});\nauto t = logical_divide(sA, _2{});\nprint(sA); // sA\nauto sAx = sA.shape(); const char* s = \"sA\";", "sA", false, true,
			"0:5 1:24 2:6 3:11"},
		{"without the binding", "auto sA = make_layout(_8{});\nauto t = logical_divide(sA, _2{});", "sA, _2", false, false, "1:24"},
		{"shadowed in a block", "auto k = _4{};\nvoid f() {\n  auto k = _8{};\n  auto s = make_shape(k, k);\n}\nauto u = make_shape(k);", "k = _4", false, true,
			"0:5 5:20"},
		{"the shadowing one", "auto k = _4{};\nvoid f() {\n  auto k = _8{};\n  auto s = make_shape(k, k);\n}\nauto u = make_shape(k);", "k, k", false, true,
			"2:7 3:22 3:25"},
		{"qualified names are others'", "auto sA = make_layout(_8{});\nauto x = cute::sA;", "sA", false, true, "0:5"},
		{"dsl reassignment: the first", "import cutlass.cute as cute\nL = cute.make_layout((4, 8))\nL = cute.coalesce(L)\nn = cute.size(L)", "L =", true, true,
			"1:0 2:18"},
		{"dsl reassignment: the second", "import cutlass.cute as cute\nL = cute.make_layout((4, 8))\nL = cute.coalesce(L)\nn = cute.size(L)\ns = L.shape  # L", "L)\nn", true, true,
			"2:0 3:14 4:4"},
		{"no name there", "auto sA = make_layout(_8{});\n// sA", "// sA", false, true, ""},
		{"a name bound elsewhere", "auto t = logical_divide(sB, _2{});", "sB", false, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lang := LangCpp
			if tc.python {
				lang = LangPython
			}
			at := strings.Index(tc.src, tc.at)
			if strings.HasPrefix(tc.at, "L)") {
				at = strings.Index(tc.src, "size(L") + len("size(")
			}
			var got []string
			for _, r := range ReadCode(lang, []byte(tc.src)).References(at, tc.decl) {
				line := strings.Count(tc.src[:r.Start], "\n")
				col := r.Start - (strings.LastIndexByte(tc.src[:r.Start], '\n') + 1)
				got = append(got, fmt.Sprintf("%d:%d", line, col))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("references %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}
