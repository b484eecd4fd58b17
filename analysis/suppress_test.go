package analysis

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/grammar"
)

// findingAt is a finding of code on the 0-based line of src.
func findingAt(t *testing.T, src string, line int, code string) Finding {
	t.Helper()
	off := 0
	for i := 0; i < line; i++ {
		nl := strings.IndexByte(src[off:], '\n')
		if nl < 0 {
			t.Fatalf("line %d past the end", line)
		}
		off += nl + 1
	}
	return Finding{Range: grammar.Range{Pos: grammar.Position{Offset: int32(off + 1)}}, Code: code}
}

func TestUnsuppressed(t *testing.T) {
	tests := []struct {
		name string
		src  string
		// each finding: line and code; want: the indices kept
		at   [][2]any
		want []int
	}{
		{"same line, listed code", "x = (4,2):(1,1)   # cute-lsp: ignore[non-compact]\n",
			[][2]any{{0, "non-compact"}, {0, "precondition"}}, []int{1}},
		{"same line, every code", "x = 1  // cute-lsp: ignore\ny = 2\n",
			[][2]any{{0, "precondition"}, {0, "incongruent"}, {1, "precondition"}}, []int{2}},
		{"own line applies to the next code line", "// cute-lsp: ignore[precondition]\n\n// why: see issue\nauto t = f();\nauto u = f();\n",
			[][2]any{{3, "precondition"}, {4, "precondition"}, {3, "coalescible"}}, []int{1, 2}},
		{"several codes", "a = b  # cute-lsp: ignore[precondition, incongruent]\n", [][2]any{{0, "precondition"}, {0, "incongruent"}, {0, "coalescible"}}, []int{2}},
		{"ignore-file with codes", "a\n# cute-lsp: ignore-file[coalescible]\nb\n", [][2]any{{0, "coalescible"}, {2, "coalescible"}, {2, "precondition"}}, []int{2}},
		{"ignore-file bare", "/* cute-lsp: ignore-file */\na\n", [][2]any{{1, "precondition"}, {1, "incongruent"}}, nil},
		{"not in a comment", "s = \"cute-lsp: ignore\"\n", [][2]any{{0, "precondition"}}, []int{0}},
		{"not a directive", "a  # cute-lsp: ignored this once\n", [][2]any{{0, "precondition"}}, []int{0}},
		{"empty list is not a directive", "a  # cute-lsp: ignore[]\n", [][2]any{{0, "precondition"}}, []int{0}},
		{"unclosed list is not a directive", "a  # cute-lsp: ignore[x\n", [][2]any{{0, "precondition"}}, []int{0}},
		{"other line untouched", "a  # cute-lsp: ignore\nb\n", [][2]any{{1, "precondition"}}, []int{0}},
		{"python comment after code", "l = cute.make_layout((4,8))  # cute-lsp: ignore[precondition]\n", [][2]any{{0, "precondition"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var in []Finding
			for _, a := range tc.at {
				in = append(in, findingAt(t, tc.src, a[0].(int), a[1].(string)))
			}
			got := Unsuppressed([]byte(tc.src), in)
			var want []Finding
			for _, i := range tc.want {
				want = append(want, in[i])
			}
			if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
				t.Errorf("kept %v, want %v", got, want)
			}
		})
	}
}

// TestUnsuppressedThroughAnalyze: a sheet's real finding is silenced by its
// directive, and only that one.
func TestUnsuppressedThroughAnalyze(t *testing.T) {
	line := "composition((4,2):(1,4), 3:q)"
	plain := "a = " + line + "\nb = " + line + "\n"
	if all, _ := Analyze("s.cute", []byte(plain)); len(all) != 2 {
		t.Fatalf("want a finding on each line, got %v", all)
	}
	src := "a = " + line + "\nb = " + line + "  # cute-lsp: ignore\n"
	kept, _ := Analyze("s.cute", []byte(src))
	for _, f := range kept {
		if f.Range.Pos.Line != 1 {
			t.Errorf("a finding on line %d was kept: %v", f.Range.Pos.Line, f)
		}
	}
	if len(kept) == 0 {
		t.Errorf("the finding on line 1 was silenced too")
	}
}

// TestUnsuppressedInHostFiles: a C++ comment descriptor's finding is
// silenced by a directive on its line, in the host analysis itself.
func TestUnsuppressedInHostFiles(t *testing.T) {
	bad := "// (4,2):(1,2,3)\n"
	if f, _ := Analyze("k.cu", []byte(bad)); len(f) == 0 {
		t.Fatalf("want a finding for %q", bad)
	}
	quiet := "// (4,2):(1,2,3)  cute-lsp: ignore\n"
	if f, _ := Analyze("k.cu", []byte(quiet)); len(f) != 0 {
		t.Errorf("a silenced finding is reported: %v", f)
	}
}

// TestUnknownSuppressionCode: a misspelt code is a warning at its own
// range, with the nearest code as a fix, instead of silencing nothing
// without a word.
func TestUnknownSuppressionCode(t *testing.T) {
	if got, _ := Analyze("s.cute", []byte("x = (4,8):(1,5)\n")); len(got) != 1 || got[0].Code != CodeNonCompact {
		t.Fatalf("want one non-compact finding without a directive, got %v", got)
	}
	src := "x = (4,8):(1,5)   # cute-lsp: ignore[non-compat]\n"
	got, _ := Analyze("s.cute", []byte(src))
	var w *Finding
	for i := range got {
		if got[i].Code == CodeUnknownSuppression {
			w = &got[i]
		}
	}
	if w == nil {
		t.Fatalf("no %s finding in %v", CodeUnknownSuppression, got)
	}
	if text := src[w.Range.Pos.Offset:w.Range.End.Offset]; text != "non-compat" {
		t.Errorf("range covers %q, want the code", text)
	}
	if w.Severity != SeverityWarning || !strings.Contains(w.Message, `did you mean "non-compact"`) {
		t.Errorf("got %v", *w)
	}
	if len(w.Fixes) != 1 || w.Fixes[0].Edits[0].NewText != "non-compact" {
		t.Errorf("fixes %v", w.Fixes)
	}
	if w.Range.Pos.Line != 1 || int(w.Range.Pos.Column) != strings.Index(src, "non-compat")+1 {
		t.Errorf("position %+v", w.Range.Pos)
	}
	// Columns count runes, as grammar's positions do.
	wide := "x = (4,8):(1,5)   # é cute-lsp: ignore[non-compat]\n"
	got, _ = Analyze("s.cute", []byte(wide))
	for _, f := range got {
		if f.Code == CodeUnknownSuppression && int(f.Range.Pos.Column) != strings.Index(wide, "non-compat") {
			t.Errorf("column %d after a two-byte rune, want %d", f.Range.Pos.Column, strings.Index(wide, "non-compat"))
		}
	}
	known := "x = (4,8):(1,5)   # cute-lsp: ignore[non-compact]\n"
	if got, _ := Analyze("s.cute", []byte(known)); len(got) != 0 {
		t.Errorf("known code: %v", got)
	}
}

// TestHasSuppressionMarker checks the dash-jumping search against
// bytes.Contains: the marker at either end, cut short, behind dashes, and
// dashes where "cute" cannot stand before them.
func TestHasSuppressionMarker(t *testing.T) {
	for _, src := range []string{
		"", "-", "cute-", "cute-lsp", "cute-lsp:", "ute-lsp:", "xcute-lsp:", "cute-lsp:x",
		"--cute-lsp:", "cute--lsp:", "-cute-lsp:-", "a-b-c cute-lsp: ignore", "cute-lsp;cute-ls:",
		"// x - y\n// cute-lsp: ignore[precondition]\n", "cute-lsp cute-lsp", "cute-lsp:" + "----",
	} {
		if got, want := hasSuppressionMarker([]byte(src)), bytes.Contains([]byte(src), []byte(suppressionMarker)); got != want {
			t.Errorf("hasSuppressionMarker(%q) = %v, bytes.Contains says %v", src, got, want)
		}
	}
}

func FuzzHasSuppressionMarker(f *testing.F) {
	for _, s := range []string{"cute-lsp:", "x-cute-lsp: ignore", "cute-ls", "--"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := hasSuppressionMarker(src), bytes.Contains(src, []byte(suppressionMarker)); got != want {
			t.Errorf("hasSuppressionMarker(%q) = %v, bytes.Contains says %v", src, got, want)
		}
	})
}
