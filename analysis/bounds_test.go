package analysis

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// doublingSheet is a0 = base, then aI = op(aI-1, aI-1, ...) for I up to
// depth: each line doubles (or triples) the leaves of the one before, in a
// few hundred bytes of source.
func doublingSheet(base, call string, copies, depth int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "a0 = %s\n", base)
	for i := 1; i <= depth; i++ {
		args := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("a%d,", i-1), copies), ",")
		fmt.Fprintf(&b, "a%d = %s(%s)\n", i, call, args)
	}
	return b.String()
}

// The texts every feature shows of a sheet whose values would hold 2^30
// leaves: each is bounded, however large the values.
func TestFeaturesOfDoublingSheetsAreBounded(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		tooLarge  string // the binding refused as too large
	}{
		{"tuples", doublingSheet("2", "", 2, 30), "a21"},
		{"make_layout", doublingSheet("2:1", "make_layout", 3, 20), "a12"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := AnalyzeSheet("t.cute", []byte(tc.src))
			sym := s.Names[tc.tooLarge]
			if sym == nil || sym.Err == nil || !strings.Contains(sym.Err.Error(), "more than the limit of 1,048,576") {
				t.Fatalf("%s: want a too-large error, got %v", tc.tooLarge, sym)
			}
			// Each text is bounded by its place's budget (with the note
			// saying what was cut); whole values would be gigabytes.
			const detail = ShowDetailBytes + 100
			check := func(what string, n, limit int) {
				if n > limit {
					t.Errorf("%s: %d bytes, want at most %d", what, n, limit)
				}
			}
			for _, f := range s.Findings {
				check("finding "+f.Code, len(f.Message), maxMessageBytes+100)
			}
			for _, o := range s.Outline() {
				check("symbol "+o.Name, len(o.Detail), detail)
			}
			for _, h := range s.InlayHints(0, len(tc.src)) {
				check("inlay hint", len(h.Label), maxInlayLength+10)
			}
			for _, c := range s.Complete(len(tc.src)) {
				check("completion "+c.Label, len(c.Detail), detail)
			}
			for line, text := range strings.Split(tc.src, "\n") {
				if line > 14 {
					break
				}
				off := strings.Index(tc.src, text) + strings.Index(text, "=") + 2
				for _, r := range s.Refactors(off) {
					check("action title", len(r.Title), detail+100)
					for _, e := range r.Edits {
						check("action edit", len(e.NewText), maxEditBytes)
					}
				}
			}
		})
	}
}

func TestTooLargeValueIsAnErrorAtItsRange(t *testing.T) {
	src := doublingSheet("2", "", 2, 21) + "b = (a20,a20,a20)\nc = [a19:a19;a19:a19;a19:a19]\n"
	got := findingsOf(src)
	want := []string{
		"22:7 too-large: this integer tuple has 2,097,152 leaves, more than the limit of 1,048,576",
		"23:5 too-large: this integer tuple has 3,145,728 leaves",
		"24:5 too-large: this tiler has 3,145,728 leaves",
	}
	if len(got) != len(want) {
		t.Fatalf("findings:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("got  %s\nwant %s", got[i], want[i])
		}
	}
}

func TestShowSaysWhatItCut(t *testing.T) {
	v, err := EvalString(strings.Repeat("(", 20) + "1" + strings.Repeat(",1)", 20))
	if err != nil {
		t.Fatal(err)
	}
	if s := Show(v, 30); !strings.HasSuffix(s, "(21 leaves; 17 not shown)") {
		t.Errorf("Show = %s", s)
	}
	if s := Show(layout.Int(8), 30); s != "8" {
		t.Errorf("Show(8) = %s", s)
	}
}

// a1 = (a0), a2 = (a1), ...: each line nests one level deeper; past
// layout.MaxValueDepth the value is an error (every walk of it recurses).
func TestTooDeepValueIsAnError(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0 = 2\n")
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "a%d = (a%d)\n", i, i-1)
	}
	got := findingsOf(b.String())
	if len(got) != 1 || !strings.HasPrefix(got[0], "258:8 too-large: this integer tuple nests deeper than the limit of 256 levels") {
		t.Errorf("findings:\n%s", strings.Join(got, "\n"))
	}
}

// TestLiteralHintsDoNotEnumerateLargeLayouts: a literal whose strides do
// not settle injectivity and that has 2^21 points gets its hints without
// enumerating them (hints run on every literal at every edit); on the
// previous code the non-compact check enumerated every point (16 MB).
func TestLiteralHintsDoNotEnumerateLargeLayouts(t *testing.T) {
	src := []byte("x = (256,256,32):(1,200,7)\n")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	AnalyzeSheet("big.cute", src)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("analyzing one literal allocated %d bytes", grew)
	}
}
