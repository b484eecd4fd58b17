package analysis

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis/prop"
	"github.com/cute-lsp/cute-lsp/layout"
)

// applyFix applies a fix's edits to src (edits do not overlap).
func applyFix(src string, fix Fix) string {
	edits := append([]Edit(nil), fix.Edits...)
	sort.Slice(edits, func(i, j int) bool { return edits[i].Range.Pos.Offset > edits[j].Range.Pos.Offset })
	for _, e := range edits {
		src = src[:e.Range.Pos.Offset] + e.NewText + src[e.Range.End.Offset:]
	}
	return src
}

func findingWithCode(s *Sheet, code string) (Finding, bool) {
	for _, f := range s.Findings {
		if f.Code == code {
			return f, true
		}
	}
	return Finding{}, false
}

func TestQuickFixes(t *testing.T) {
	for _, tc := range []struct {
		name, src, code, title, after string
	}{
		{"coalesce within modes", "A = ((2,4),3):((1,2),8)\nassert A == A\n", CodeCoalescible, "Replace with (8,3):(1,8)", "A = (8,3):(1,8)\n"},
		{"compact", "A = (4,8):(1,5)\nassert A == A\n", CodeNonCompact, "Replace with the compact layout (4,8):(1,4) (same mode order)", "A = (4,8):(1,4)\n"},
		{"compact row-major", "A = (4,8):(9,1)\nassert A == A\n", CodeNonCompact, "Replace with the compact layout (4,8):(8,1) (same mode order)", "A = (4,8):(8,1)\n"},
		{"did you mean a name", "Alpha = 8:1\nB = coalesce(Alpah)\nassert B == Alpha\n", CodeUndefined, "Change to Alpha", "B = coalesce(Alpha)\n"},
		{"did you mean an operation", "x = logical_divid(8:1, 2:1)\nassert x == x\n", CodeUnknownOp, "Change to logical_divide", "x = logical_divide(8:1, 2:1)\n"},
		{"missing parenthesis", "A = (4,2:(1,4)\nassert A == A\n", CodeSyntax, "Insert ')'", "A = (4,2):(1,4)\n"},
		{"missing bracket", "T = logical_divide(8:1, [2:1;4:1)\nassert T == T\n", CodeSyntax, "Insert ']'", "T = logical_divide(8:1, [2:1;4:1])\n"},
		{"assert", "assert coalesce((2,4):(1,2)) is (2,4):(1,2)\n", CodeAssertFailed, "Update the expected value to 8:1", "assert coalesce((2,4):(1,2)) is 8:1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := AnalyzeSheet("t.cute", []byte(tc.src))
			f, ok := findingWithCode(s, tc.code)
			if !ok {
				t.Fatalf("no %s finding in %v", tc.code, findingsOfSheet(s))
			}
			var fix *Fix
			for i := range f.Fixes {
				if f.Fixes[i].Title == tc.title {
					fix = &f.Fixes[i]
				}
			}
			if fix == nil {
				t.Fatalf("no fix %q among %+v", tc.title, f.Fixes)
			}
			after := applyFix(tc.src, *fix)
			if !strings.Contains(after, tc.after) {
				t.Errorf("after the fix:\n%s\nwant it to contain %q", after, tc.after)
			}
			fixed := AnalyzeSheet("t.cute", []byte(after))
			if _, still := findingWithCode(fixed, tc.code); still {
				t.Errorf("the fix leaves a %s finding: %v", tc.code, findingsOfSheet(fixed))
			}
		})
	}
}

func TestNoFixWhenNothingIsClose(t *testing.T) {
	s := AnalyzeSheet("t.cute", []byte("B = coalesce(zzzzzzzz)\nassert B == B\n"))
	f, _ := findingWithCode(s, CodeUndefined)
	if len(f.Fixes) != 0 {
		t.Errorf("fixes %+v for a name nothing resembles", f.Fixes)
	}
}

func TestZeroStrideHint(t *testing.T) {
	s := AnalyzeSheet("t.cute", []byte("A = (4,8):(1,0)\nassert A == A\n"))
	f, ok := findingWithCode(s, CodeZeroStride)
	if !ok || !strings.Contains(f.Message, "mode 1 of (4,8):(1,0) has stride 0: its 8 coordinates") {
		t.Errorf("zero-stride hint: %+v", f)
	}
}

// Every refactor offered on a random layout literal keeps its function;
// Normalize keeps the set of offsets it reaches.
func TestRefactorsKeepTheFunction(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for range 300 {
		l := randomLiteral(r)
		src := "A = " + l + "\n"
		s := AnalyzeSheet("t.cute", []byte(src))
		orig := s.Results[0].Value
		if orig == nil {
			continue
		}
		refs := s.Refactors(5)
		if len(refs) == 0 {
			t.Fatalf("no refactors offered on %s", l)
		}
		for _, ref := range refs {
			after := applyFix(src, ref.Fix)
			v, err := EvalString(strings.TrimSpace(strings.TrimPrefix(after, "A = ")))
			if err != nil {
				t.Errorf("%s: %q gives %q, which does not evaluate: %v", l, ref.Title, after, err)
				continue
			}
			if strings.HasPrefix(ref.Title, "Normalize") {
				if a, b := imageOf(t, orig), imageOf(t, v); a != b {
					t.Errorf("%s: %q changes the image: %s to %s", l, ref.Title, a, b)
				}
				continue
			}
			if same, why, _ := SameFunction(orig, v); !same {
				t.Errorf("%s: %q changes the function: %s", l, ref.Title, why)
			}
		}
	}
}

func TestRefactorsOnCalls(t *testing.T) {
	src := "A = logical_divide((4,6):(1,4), [2:1;3:1])\n"
	s := AnalyzeSheet("t.cute", []byte(src))
	refs := s.Refactors(6)
	var titles []string
	for _, r := range refs {
		titles = append(titles, r.Title)
	}
	if len(refs) == 0 || refs[0].Kind != "refactor.inline" || applyFix(src, refs[0].Fix) != "A = ((2,2),(3,2)):((1,2),(4,12))\n" {
		t.Errorf("refactors on a call: %q", titles)
	}
	if got := s.Refactors(1); len(got) != 0 {
		t.Errorf("a binding's name offers %d refactors, want none", len(got))
	}
}

func imageOf(t *testing.T, v layout.Value) string {
	img, err := prop.Image(v)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(img)
}

func randomLiteral(r *rand.Rand) string {
	var shape func(depth int) (string, string)
	shape = func(depth int) (string, string) {
		if depth == 0 || r.IntN(3) == 0 {
			return []string{"1", "2", "3", "4"}[r.IntN(4)], []string{"0", "1", "2", "4", "8", "16", "-1"}[r.IntN(7)]
		}
		n := 1 + r.IntN(3)
		var ss, ds []string
		for range n {
			s, d := shape(depth - 1)
			ss, ds = append(ss, s), append(ds, d)
		}
		return "(" + strings.Join(ss, ",") + ")", "(" + strings.Join(ds, ",") + ")"
	}
	s, d := shape(2)
	return s + ":" + d
}
