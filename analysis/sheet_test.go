package analysis

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/cute-lsp/cute-lsp/grammar"
)

// findingsOf renders a sheet's findings as "LINE:COL code: message" lines.
func findingsOf(src string) []string {
	s := AnalyzeSheet("t.cute", []byte(src))
	var out []string
	for _, f := range s.Findings {
		out = append(out, fmt.Sprintf("%d:%d %s: %s", f.Range.Pos.Line, f.Range.Pos.Column, f.Code, f.Message))
	}
	return out
}

func TestSheetFindings(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // each a prefix of one finding, in order
	}{
		{"clean", "A = (4,2):(1,4)\nassert size(A) == 8\n", nil},
		{"undefined", "B = coalesce(A)\nassert B == B\n", []string{"1:14 undefined-name: undefined: A"}},
		{"use before definition", "assert A == A\nA = 8:1\n", []string{"1:8 undefined-name: undefined: A"}},
		{"a binding nobody reads is a result", "A = 8:1\n", nil},
		{"overwritten before use", "A = 8:1\nA = 4:1\nassert A == A\n", []string{"1:1 unused-name: the value bound to A here is never used: A is bound again on line 2 before anything reads it"}},
		{"underscore names are not reported unused", "_scratch = 8:1\n", nil},
		{"redefined", "A = 8:1\nassert A == A\nA = 4:1\nassert A == A\n", []string{"3:1 redefined-name: A is bound again: from here on A is this value, not the one bound on line 1"}},
		{"an update reads the earlier binding", "A = 8:1\nA = coalesce(A)\nassert A == A\n", nil},
		{"incongruent", "A = (4,2):(1,(2,3))\nassert A == A\n", []string{"1:5 incongruent: "}},
		{"bad swizzle", "S = Sw<3,4,2>\nassert S is S\n", []string{"1:5 invalid-swizzle: "}},
		{"precondition", "C = complement((2,2):(1,1))\nassert C == C\n", []string{"1:5 precondition: complement: "}},
		{"failure reported once", "C = complement((2,2):(1,1))\nD = coalesce(C)\nassert D == D\n", []string{"1:5 precondition: "}},
		{"unknown operation", "x = frobnicate(8:1)\nassert x == x\n", []string{"1:5 unknown-operation: unknown operation frobnicate"}},
		{"syntax error keeps the rest", "A = (4,2:(1,4)\nB = 8:1\nassert B == coalesce(B)\n", []string{"1:9 syntax: "}},
		{"assert == fails at the first index", "assert (2,4):(4,1) == 8:1\n", []string{"1:1 assert-failed: assert failed: (2,4):(4,1) != 8:1: at index 1 the left side gives 4 and the right side 1"}},
		{"assert == sizes", "assert 4:1 == 8:1\n", []string{"1:1 assert-failed: assert failed: 4:1 != 8:1: sizes differ: 4 and 8"}},
		{"assert == holds across representations", "assert (2,4):(1,2) == 8:1\n", nil},
		{"assert is compares representation", "assert (2,4):(1,2) is 8:1\n", []string{"1:1 assert-failed: assert failed: (2,4):(1,2) is not 8:1"}},
		{"assert is holds", "assert coalesce((2,4):(1,2)) is 8:1\n", nil},
		{"assert on integers", "assert size((4,2):(1,4)) == 9\n", []string{"1:1 assert-failed: assert failed: 8 != 9: the values differ"}},
		{"swizzled sides", "assert composition(Sw<3,4,3>, (8,64):(64,1)) == Sw<3,4,3> o 0 o (8,64):(64,1)\n", nil},
		{"non-integral basis", "A = (4,8):(1/2@0,1@1)\nassert A is A\n", []string{"1:12 non-integral-basis: basis count 1/2 is not an integer"}},
		{"integral fraction", "assert (4,8):(2/2@0,1@1) is (4,8):(1@0,1@1)\n", nil},
		{"named axis", "A = (4,8):(1@laneid,1)\nassert A is A\n", []string{"1:14 unsupported: named axis @laneid"}},
		{"tiler mode kind", "A = logical_divide(8:1, [Sw<1,2,3>])\nassert A is A\n", []string{"1:26 type-mismatch: a tiler mode is a layout"}},
		{"tirx evaluated", "T = S[(8,2):(4@laneid,1)] + R[2:4@warpid]\nassert T is T\n", nil},
		{"tirx extent", "T = S[(8,0):(4@laneid,1)]\nassert T is T\n", []string{"1:10 non-positive-shape: extent 0 of iter 1 of S[...]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := findingsOf(tc.src)
			if len(got) != len(tc.want) {
				t.Fatalf("findings:\n%s\nwant %d:\n%s", strings.Join(got, "\n"), len(tc.want), strings.Join(tc.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("finding %d = %q, want prefix %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestSheetResultsAndSymbols(t *testing.T) {
	s := AnalyzeSheet("t.cute", []byte("A = (4,6):(1,4)\nB = logical_divide(A, [2:1;3:1])\nB\n"))
	if len(s.Results) != 3 {
		t.Fatalf("%d results, want 3", len(s.Results))
	}
	if got := s.Results[1].Value.String(); got != "((2,2),(3,2)):((1,2),(4,12))" {
		t.Errorf("B = %s", got)
	}
	a := s.Names["A"]
	if a == nil {
		t.Fatal("A is not bound")
	}
	uses := s.Uses(a)
	if a.Def == nil || len(uses) != 1 || s.References(a, false)[0].Pos.Line != 2 {
		t.Fatalf("symbol A = %+v used at %v, want its definition and one use on line 2", a, uses)
	}
	if s.Refs()[uses[0]] != a || s.Ref(uses[0]) != a {
		t.Errorf("the use of A does not resolve to its binding")
	}
}

func TestTargetAt(t *testing.T) {
	src := "A = (4,6):(1,4)\nB = logical_divide(A, [2:1;3:1])  # note\nA = 8:1\nassert A == 8:1\n"
	s := AnalyzeSheet("t.cute", []byte(src))
	at := func(line, col int) (Target, bool) {
		off := 0
		for l := 1; l < line; l++ {
			off += strings.IndexByte(src[off:], '\n') + 1
		}
		return s.TargetAt(off + col - 1)
	}
	for _, tc := range []struct {
		line, col int
		node, val string
	}{
		{1, 1, "*grammar.Name", "(4,6):(1,4)"},                  // a binding's name: its value
		{2, 20, "*grammar.Name", "(4,6):(1,4)"},                 // a use: the first A
		{2, 5, "*grammar.Call", "((2,2),(3,2)):((1,2),(4,12))"}, // the operation's name stands for the call
		{2, 10, "*grammar.Call", "((2,2),(3,2)):((1,2),(4,12))"},
		{2, 24, "*grammar.Layout", "2:1"},
		{2, 23, "*grammar.Tiler", "[2:1;3:1]"},
		{4, 8, "*grammar.Name", "8:1"}, // the second A
	} {
		tg, ok := at(tc.line, tc.col)
		if !ok {
			t.Errorf("%d:%d: no target", tc.line, tc.col)
			continue
		}
		if got := fmt.Sprintf("%T", tg.Node); got != tc.node || tg.Value == nil || tg.Value.String() != tc.val {
			t.Errorf("%d:%d: %s = %v (%v), want %s = %s", tc.line, tc.col, got, tg.Value, tg.Err, tc.node, tc.val)
		}
	}
	if _, ok := at(2, 36); ok {
		t.Errorf("a comment has no target")
	}
	if tg, _ := at(4, 8); tg.Symbol == nil || tg.Symbol.Stmt != 2 {
		t.Errorf("the second A resolves to %+v, want the binding on line 3", tg.Symbol)
	}
}

func TestEvalZeroDenominator(t *testing.T) {
	// The parser rejects 1/0@0 itself; the binder still refuses an AST built by hand.
	n := &grammar.Basis{Count: &grammar.Int{Value: 1}, Den: &grammar.Int{Value: 0}, Modes: []*grammar.BasisMode{{Index: 0}}}
	_, err := Eval(n, nil)
	if ee, ok := err.(*EvalError); !ok || ee.Code != CodeZeroDenominator {
		t.Fatalf("Eval(1/0@0) = %v, want a %s error", err, CodeZeroDenominator)
	}
}

func TestEvalString(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"composition((4,2):(1,4), (2,2):(1,2))", "(2,2):(1,2)"},
		{"make_layout((2,4), LayoutRight)", "(2,4):(4,1)"},
		{"!cute.layout<\"(4,8):(1,4)\">", "(4,8):(1,4)"},
		{"<8 : 2>", "8:2"},
		{"logical_divide((4,6):(1,4), <2, 3>)", "((2,2),(3,2)):((1,2),(4,12))"},
		{"(4,8):(1@0,1@1)", "(4,8):(1@0,1@1)"},
		{"Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "Sw<3,3,3> o 0 o (8,64):(64,1)"},
		{"Sw<3,4,3> o smem_ptr[32b](unset) o (8,32):(32,1)", "Sw<3,2,3> o 0 o (8,32):(32,1)"},
		{"Sw<3,4,3> o (8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
		{"(8,8):(8,1) o (2,2):(1,2)", "(2,2):(8,16)"},
		{"size((?,4):(1,?))", "?"},
	} {
		v, err := EvalString(tc.src)
		if err != nil {
			t.Errorf("EvalString(%q): %v", tc.src, err)
			continue
		}
		if v.String() != tc.want {
			t.Errorf("EvalString(%q) = %v, want %s", tc.src, v, tc.want)
		}
	}
	for _, src := range []string{"(4,", "frob(1)", "x", "1/0@0", "Sw<3,4,3> o smem_ptr[0b](unset) o 8:1", "Sw<3,4,3> o smem_ptr[3b](unset) o 8:1", "8:1 o smem_ptr[16b](unset) o 8:1"} {
		if v, err := EvalString(src); err == nil {
			t.Errorf("EvalString(%q) = %v, want an error", src, v)
		}
	}
}

func TestCacheReevaluatesOnlyWhatChanged(t *testing.T) {
	cache := NewCache()
	v1 := "A = (4,6):(1,4)\nB = logical_divide(A, [2:1;3:1])\nC = coalesce((2,4):(1,2))\nassert B == B\nD = complement((2,2):(1,1))\n"
	s := AnalyzeSheetCached("t.cute", []byte(v1), cache)
	if s.Reused != 0 {
		t.Fatalf("first analysis reused %d statements", s.Reused)
	}
	// A comment line above moves every statement down a line: all are reused,
	// with their findings moved along.
	v2 := "# new\nA = (4,6):(1,4)\nB = logical_divide(A, [2:1;3:1])\nC = coalesce((2,4):(1,2))\nassert B == B\nD = complement((2,2):(1,1))\n"
	s = AnalyzeSheetCached("t.cute", []byte(v2), cache)
	if s.Reused != 5 {
		t.Errorf("after inserting a comment: reused %d statements, want all 5", s.Reused)
	}
	fresh := AnalyzeSheet("t.cute", []byte(v2))
	if got, want := fmt.Sprint(findingsOfSheet(s)), fmt.Sprint(findingsOfSheet(fresh)); got != want {
		t.Errorf("cached findings differ from fresh ones:\n%s\n%s", got, want)
	}
	v3 := strings.Replace(v2, "A = (4,6):(1,4)", "A = (8,6):(1,8)", 1)
	s = AnalyzeSheetCached("t.cute", []byte(v3), cache)
	if s.Reused != 2 {
		t.Errorf("after editing A: reused %d statements, want 2 (C and D)", s.Reused)
	}
	if got := s.Names["B"].Value.String(); got != "((2,4),(3,2)):((1,2),(8,24))" {
		t.Errorf("B after the edit = %s", got)
	}
}

func findingsOfSheet(s *Sheet) []string {
	var out []string
	for _, f := range s.Findings {
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %v", f.Range.Pos.Line, f.Range.Pos.Column, f.Range.End.Line, f.Range.End.Column, f.Message, f.Related))
	}
	return out
}

func TestNonPositiveShapeAndOverflow(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"A = (4,0):(1,4)\nassert A is A\n", "1:8 non-positive-shape: shape leaf 0: every mode of a shape needs at least one element"},
		{"A = (4,(2,-3)):(1,(4,8))\nassert A is A\n", "1:11 non-positive-shape: shape leaf -3"},
		{"A = cosize((4611686018427387904,4):(4,1))\nassert A is A\n", "1:5 overflow: "},
	} {
		got := findingsOf(tc.src)
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%q: findings %q, want one starting %q", tc.src, got, tc.want)
		}
	}
}

// TestLiteralHintsMoved checks bindingHints, the hints of a literal taken
// from the hints of the same text elsewhere, against hintFindings on the
// binding itself: the same literals at other columns, lines, after
// non-ASCII text, in statements over several lines, and the literals of the
// examples and the generated sheets, each hinted twice (computed, then
// taken). Checked: moving by the literal's start without the column (or
// the offset) fails it.
func TestLiteralHintsMoved(t *testing.T) {
	srcs := []string{
		"A = (2,2):(1,8)\nBé = (2,2):(1,8)\n  C   =     (2,2):(1,8)\nD = (\n  (2,2):(1,8))\nE = ((2,2):(1,8))\nF = (4,1):(1,0)\nG = (2,(2,2)):(1,(2,4))\nH = (2,2):(1,8) # again\n",
		"é = 1\nX = (8,8):(1,16)\nY = (8, 8) : (1, 16)\nZ = (8,8):(1,16)\nW = (4,2):(2,1)\nV = (4,2):(2,1)\n",
		string(sheet5000()[:4000]),
		string(peerSheetOf(400)),
	}
	for _, name := range []string{"tiles.cute", "banks.cute", "tiled.cute", "tirx.cute"} {
		if b, err := os.ReadFile("../examples/" + name); err == nil {
			srcs = append(srcs, string(b))
		}
	}
	hinted := 0
	for _, src := range srcs {
		f, _ := grammar.ParseFile("t.cute", []byte(src))
		for round := range 2 {
			for i, st := range f.Statements {
				b, ok := st.(*grammar.Binding)
				if !ok {
					continue
				}
				want := hintFindings(b)
				hints, at := bindingHints(b, statementText(f, []byte(src), i))
				got := moveFindings(hints, at)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, statement %d %q: bindingHints\n%+v\nhintFindings\n%+v", round, i, statementText(f, []byte(src), i), got, want)
				}
				hinted += len(want)
			}
		}
	}
	if hinted == 0 {
		t.Fatal("no hints: the test checks nothing")
	}
}

// TestFindingsInOrder: a sheet's Findings are its findings in order of
// place, whether they came in that order (shared with found) or not (an
// unused binding's warning points back at it), and a suppression applies
// either way.
func TestFindingsInOrder(t *testing.T) {
	for _, src := range []string{
		"A = (2,2):(1,8)\nB = composition(A, (2,2):(1,2)\nC = (4,4):(1,8)\n",
		"A = (2,2):(1,8)\nA = (4,4):(1,8)\nB = coalesce(A)\nB = (2,2):(1,8)\n",
		"A = (2,2):(1,8) # cute-lsp: ignore[non-compact]\nA = 8:1\nx = undefined_name\n",
	} {
		s := AnalyzeSheet("t.cute", []byte(src))
		want := Unsuppressed([]byte(src), slices.Clone(s.found))
		slices.SortStableFunc(want, byOffset)
		if !reflect.DeepEqual(s.Findings, want) {
			t.Errorf("%q: Findings\n%+v\nwant\n%+v", src, s.Findings, want)
		}
		if !slices.IsSortedFunc(s.Findings, byOffset) {
			t.Errorf("%q: Findings out of order", src)
		}
		if len(s.Findings) == 0 {
			t.Errorf("%q: no findings, the test checks nothing", src)
		}
	}
}

// TestLiteralValuesShared: a statement's value and error with its layout
// literals from literalValues (evaluated with the statement's text) are
// those without (no text), computed and then taken, in the examples, the
// generated sheets and literals that fail or name something; and so are
// the calls they check (CallSite), with calls from callValues. Checked:
// memoizing a literal with letters in its text (a name) fails it, and so
// does memoizing a call with a call among its arguments.
func TestLiteralValuesShared(t *testing.T) {
	srcs := []string{
		"X = composition((16,8):(8,1), (2,4):(1,2))\nY = composition((16,8):(8,1),  (2,4):(1,2))\nZ = complement(4:1, 0)\nW = complement(4:1, 0)\nV = logical_divide((6,4):(1,6), 4)\nU = logical_divide((6,4):(1,6), 4)\nT = select<1>((2,3):(1,2))\nS = composition(composition(4:1, 2:1), 2:1)\n",
		"N = 4\nA = (2,2):(1,8)\nB = (N,2):(1,N)\nC = (2,2):(1,(2,3))\nD = composition((16,8):(8,1), (2,2):(1,2))\nE = ((2,2):(1,8))\nF = (0,2):(1,2)\nG = (2,?):(1,2)\nN = 8\nH = (N,2):(1,N)\n",
		string(sheet5000()[:6000]),
		string(peerSheetOf(400)),
	}
	for _, name := range []string{"tiles.cute", "banks.cute", "tiled.cute", "tirx.cute"} {
		if b, err := os.ReadFile("../examples/" + name); err == nil {
			srcs = append(srcs, string(b))
		}
	}
	for _, src := range srcs {
		s := AnalyzeSheet("t.cute", []byte(src))
		f := s.File
		for round := range 2 {
			scope := scopeEnv{}
			for i, st := range f.Statements {
				var n grammar.Node
				switch st := st.(type) {
				case *grammar.Binding:
					n = st.Value
				case *grammar.ExprStmt:
					n = st.X
				default:
					continue
				}
				text := []byte(src)[f.Base(i).Offset:]
				var gotSites, wantSites []CallSite
				got, gotErr := evalSites(n, scope, &gotSites, text)
				want, wantErr := evalSites(n, scope, &wantSites, nil)
				if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Fatalf("round %d, statement %d %q: %v, %v; without the text %v, %v", round, i, statementText(f, []byte(src), i), got, gotErr, want, wantErr)
				}
				if len(gotSites) != len(wantSites) {
					t.Fatalf("round %d, statement %d %q: %d checked calls, without the text %d", round, i, statementText(f, []byte(src), i), len(gotSites), len(wantSites))
				}
				for k, g := range gotSites {
					w := wantSites[k]
					if g.Call != w.Call || g.Op.Name != w.Op.Name || !reflect.DeepEqual(g.Args, w.Args) || !reflect.DeepEqual(g.Result, w.Result) {
						t.Fatalf("round %d, statement %d %q: checked call %d is %v(%v) = %v, without the text %v(%v) = %v", round, i, statementText(f, []byte(src), i), k, g.Op.Name, g.Args, g.Result, w.Op.Name, w.Args, w.Result)
					}
				}
				if b, ok := st.(*grammar.Binding); ok {
					scope[b.Name.Name] = &Symbol{Name: b.Name.Name, Value: got, Err: gotErr}
				}
			}
		}
	}
}

// TestTextBytesSharesTheText: a sheet held as a string is analysed in
// place, with no room to append to it.
func TestTextBytesSharesTheText(t *testing.T) {
	text := strings.Repeat("A = 8:1\n", 3)
	b := textBytes(text)
	if string(b) != text || cap(b) != len(text) || &b[0] != unsafe.StringData(text) {
		t.Fatalf("textBytes(%q) = %q (cap %d), not the text's own memory", text, b, cap(b))
	}
	if b := textBytes(""); len(b) != 0 {
		t.Fatalf("textBytes(\"\") = %q", b)
	}
	s, want := AnalyzeSheetText("a.cute", text, NewCache()), AnalyzeSheet("a.cute", []byte(text))
	if &s.Src[0] != unsafe.StringData(text) {
		t.Fatal("AnalyzeSheetText: Src is not the text's memory")
	}
	if !reflect.DeepEqual(s.Findings, want.Findings) {
		t.Fatalf("AnalyzeSheetText: findings %v, AnalyzeSheet's %v", s.Findings, want.Findings)
	}
}
