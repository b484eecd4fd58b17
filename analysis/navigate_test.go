package analysis

import (
	"fmt"
	"strings"
	"testing"
)

const navSheet = `A = (4,6):(1,4)
B = logical_divide(A, [2:1;3:1])  # B reads A
A = coalesce(A)
assert size(A) == 24
`

func offsetOf(t *testing.T, src, marker string, nth int) int {
	t.Helper()
	i := -1
	for range nth {
		j := strings.Index(src[i+1:], marker)
		if j < 0 {
			t.Fatalf("%q not found %d times", marker, nth)
		}
		i += 1 + j
	}
	return i
}

func rangesText(src string, sheet *Sheet, sym *Symbol, decl bool) []string {
	var out []string
	for _, r := range sheet.References(sym, decl) {
		out = append(out, fmt.Sprintf("%d:%d", r.Pos.Line, r.Pos.Column))
	}
	return out
}

func TestDefinitionAndReferences(t *testing.T) {
	s := AnalyzeSheet("t.cute", []byte(navSheet))
	first := s.SymbolAt(offsetOf(t, navSheet, "A", 2)) // the A read by B
	if first == nil || first.Line != 1 {
		t.Fatalf("the A in B's line resolves to %+v, want the binding on line 1", first)
	}
	if got := rangesText(navSheet, s, first, true); fmt.Sprint(got) != "[1:1 2:20 3:14]" {
		t.Errorf("references of the first A: %v", got)
	}
	second := s.SymbolAt(offsetOf(t, navSheet, "A", 4)) // the rebinding (the third A is in the comment)
	if second == nil || second.Line != 3 {
		t.Fatalf("the rebinding resolves to %+v", second)
	}
	if got := rangesText(navSheet, s, second, false); fmt.Sprint(got) != "[4:13]" {
		t.Errorf("references of the second A: %v", got)
	}
	if s.SymbolAt(offsetOf(t, navSheet, "logical_divide", 1)) != nil {
		t.Errorf("an operation name is not a sheet name")
	}
	if s.SymbolAt(offsetOf(t, navSheet, "#", 1)) != nil {
		t.Errorf("a comment has no symbol")
	}
}

func TestRename(t *testing.T) {
	s := AnalyzeSheet("t.cute", []byte(navSheet))
	edits, err := s.Rename(offsetOf(t, navSheet, "A", 1), "tile")
	if err != nil {
		t.Fatal(err)
	}
	got := applyFix(navSheet, Fix{Edits: edits})
	want := "tile = (4,6):(1,4)\nB = logical_divide(tile, [2:1;3:1])  # B reads A\nA = coalesce(tile)\nassert size(A) == 24\n"
	if got != want {
		t.Errorf("after rename:\n%s\nwant:\n%s", got, want)
	}
	for _, tc := range []struct{ name, why string }{
		{"B", "already bound on line 2"},
		{"9x", "is not a name"},
		{"assert", "keyword"},
		{"LayoutLeft", "layout tag"},
		{"coalesce", "CuTe operation"},
	} {
		if _, err := s.Rename(offsetOf(t, navSheet, "A", 1), tc.name); err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("rename to %q: %v, want an error about %q", tc.name, err, tc.why)
		}
	}
	if _, err := s.Rename(offsetOf(t, navSheet, "(4", 1), "x"); err == nil {
		t.Errorf("renaming a literal must fail")
	}
}

func TestOutlineAndInlayHints(t *testing.T) {
	s := AnalyzeSheet("t.cute", []byte(navSheet+"C = complement((2,2):(1,1))\n"))
	var got []string
	for _, o := range s.Outline() {
		got = append(got, o.Name+" "+o.Kind+" "+o.Detail)
	}
	if len(got) != 4 || got[1] != "B layout ((2,2),(3,2)):((1,2),(4,12))" || !strings.HasPrefix(got[3], "C error complement:") {
		t.Errorf("outline: %q", got)
	}
	var hints []string
	for _, h := range s.InlayHints(0, len(s.Src)) {
		hints = append(hints, fmt.Sprintf("%d:%d%s", h.At.Line, h.At.Column, h.Label))
	}
	if fmt.Sprint(hints) != "[2:33 = ((2,2),(3,2)):((1,2),(4,12)) 3:16 = 24:1]" {
		t.Errorf("inlay hints: %q", hints)
	}
}

func TestComplete(t *testing.T) {
	src := "Alpha = 8:1\nAlso = 4:1\nB = log\nC = Al"
	s := AnalyzeSheet("t.cute", []byte(src))
	labels := func(off int) []string {
		var out []string
		for _, c := range s.Complete(off) {
			out = append(out, c.Label)
		}
		return out
	}
	got := labels(strings.Index(src, "log") + 3)
	if fmt.Sprint(got) != "[logical_divide logical_product]" {
		t.Errorf("after 'log': %v", got)
	}
	got = labels(len(src))
	if fmt.Sprint(got) != "[Also Alpha]" {
		t.Errorf("after 'Al': %v", got)
	}
	full := AnalyzeSheet("t.cute", []byte("Alpha = 8:1\nC = Alpha"))
	if got := full.Complete(len("Alpha = 8:1\nC = Alpha")); len(got) != 1 || got[0].Label != "Alpha" || got[0].Detail != "8:1" {
		t.Errorf("a name typed out in full: %+v", got)
	}
	got = labels(strings.Index(src, "log")) // nothing typed: everything, names first
	if len(got) < 40 || got[0] != "Also" && got[0] != "Alpha" {
		t.Errorf("empty prefix: %d items starting %v", len(got), got[:3])
	}
	for _, c := range s.Complete(strings.Index(src, "log") + 3) {
		if c.Detail == "" || c.Doc == "" {
			t.Errorf("%s has no signature or doc", c.Label)
		}
	}
	if s.Complete(-1) != nil || s.Complete(len(src)+5) != nil {
		t.Errorf("positions outside the text complete nothing")
	}
}

func TestSignatureAt(t *testing.T) {
	for _, tc := range []struct {
		src    string
		op     string
		active int
	}{
		{"A = logical_divide(B, |", "logical_divide", 1},
		{"A = logical_divide(|", "logical_divide", 0},
		{"A = logical_divide((4,2):(1,4), [2:1;4:1], |", "logical_divide", 2},
		{"A = composition(coalesce(X|), Y)", "coalesce", 0},
		{"A = composition(coalesce(X), |Y)", "composition", 1},
		{"A = composition(\n  X,\n  |", "composition", 1},
		{"A = (4,|", "", 0},
		{"A = logical_divide(B, [2:1;|", "", 0},
		{"A = f(|", "", 0},
		{"X = coalesce(A)\nY = |", "", 0},
		{"A = select<1,3>(|", "select", 0},
		{"A = replace<2>(B, |", "replace", 1},
		{"A = composition(upcast<2>(B), |", "composition", 1},
	} {
		off := strings.Index(tc.src, "|")
		src := strings.Replace(tc.src, "|", "", 1)
		sig, ok := SignatureAt([]byte(src), off)
		if tc.op == "" {
			if ok {
				t.Errorf("%q: signature of %s, want none", tc.src, sig.Op.Name)
			}
			continue
		}
		if !ok || sig.Op.Name != tc.op || sig.ActiveParam != tc.active {
			t.Errorf("%q: %v %s param %d, want %s param %d", tc.src, ok, sig.Op.Name, sig.ActiveParam, tc.op, tc.active)
		}
	}
	sig, _ := SignatureAt([]byte("x = tile_to_shape("), 18)
	if fmt.Sprint(sig.Params) != "[B S O]" {
		t.Errorf("tile_to_shape params %q", sig.Params)
	}
}

func TestTokens(t *testing.T) {
	src := "# c\nA = composition(Sw<3,4,3>, make_layout((4,8), LayoutRight))\nassert A is A\n"
	s := AnalyzeSheet("t.cute", []byte(src))
	var got []string
	for _, tk := range s.Tokens() {
		text := src[tk.Range.Pos.Offset:tk.Range.End.Offset]
		d := ""
		if tk.Declaration {
			d = "!"
		}
		got = append(got, TokenTypeNames[tk.Type]+d+":"+text)
	}
	want := "[comment:# c variable!:A function:composition type:Sw<3,4,3> function:make_layout number:4 number:8 enumMember:LayoutRight keyword:assert variable:A keyword:is variable:A]"
	if fmt.Sprint(got) != want {
		t.Errorf("tokens:\n%v\nwant\n%s", got, want)
	}
}
