package analysis

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cute-lsp/cute-lsp/internal/sheetedit"
)

// FuzzAnalyzeSheetCachedEdits: a sheet edited version after version
// (sheetedit's edits of real sheet fragments) and analyzed through one Cache
// has, at every version, the analysis a fresh one makes: findings, results,
// names, tokens, outline and inlay hints. The script's first byte holds the
// options: a second sheet analyzed with the same cache in between (bit 3;
// bits 0 to 2 are unused).
func FuzzAnalyzeSheetCachedEdits(f *testing.F) {
	var sheets []string
	for _, dir := range []string{"../examples", "../testdata/markers"} {
		names, _ := filepath.Glob(filepath.Join(dir, "*.cute"))
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			sheets = append(sheets, string(data))
		}
	}
	if len(sheets) == 0 {
		f.Fatal("no seed sheets")
	}
	sheets = append(sheets, `k = mma_atom("SM80_16x8x16_F32F16F16F32_TN")`+"\n")
	line := byte(slices.Index(sheetedit.Fragments, "x = 1:1"))
	scripts := [][]byte{
		{0, 4, 0, 0, line, 0}, // "x = 1:1" and a line break at line 0
		{1, 1, 0, 0, 0, 0},    // Enter at the top
		{3, 1, 0, 0, 0, 0, 1, 0x80, 0, 0, 0},
		{8, 5, 0, 0, 0, 0, 6, 0xff, 0xff, 0, 0},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for k := range 6 {
		s := []byte{byte(k * 3)}
		for range 4 + r.IntN(8) {
			s = append(s, byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)))
		}
		scripts = append(scripts, s)
	}
	for _, src := range sheets {
		for _, s := range scripts {
			f.Add(src, s)
		}
	}
	f.Fuzz(func(t *testing.T, src string, script []byte) {
		if len(src) > 1<<12 || len(script) > 1+32*sheetedit.OpSize {
			return
		}
		checkCachedAnalysisEdits(t, src, script)
	})
}

func checkCachedAnalysisEdits(t *testing.T, src string, script []byte) {
	// The options byte's bits 0 to 2 once chose deferred moves (there are
	// none now); they are left alone so the seeds keep their edits.
	var opts byte
	if len(script) > 0 {
		opts, script = script[0], script[1:]
	}
	other := opts&8 != 0
	edits := sheetedit.Script(script)
	cache := NewCache()
	text := src
	for step := 0; ; step++ {
		cached := AnalyzeSheetCached("f.cute", []byte(text), cache)
		fresh := AnalyzeSheet("f.cute", []byte(text))
		if step == 0 {
			par := analyzeParallel(text)
			if got, want := renderFindings(par)+renderResults(par)+renderNames(t, par), renderFindings(fresh)+renderResults(fresh)+renderNames(t, fresh); got != want {
				t.Fatalf("the parallel analysis\n%s\nthe sequential\n%s\non %q", got, want, text)
			}
		}
		if got, want := renderFindings(cached), renderFindings(fresh); got != want {
			t.Fatalf("step %d: cached findings\n%s\nfresh\n%s\non %q", step, got, want, text)
		}
		if got, want := renderAll(t, cached), renderAll(t, fresh); got != want {
			t.Fatalf("step %d: cached analysis\n%s\nfresh\n%s\non %q", step, got, want, text)
		}
		if other && step%3 == 2 {
			// Another sheet analyzed with the cache in between.
			AnalyzeSheetCached("o.cute", []byte(src), cache)
		}
		var more bool
		if text, more = edits.Next(text); !more || step >= 32 {
			return
		}
	}
}

// renderAll is what an editor reads of an analysis, beyond its findings.
func renderAll(t *testing.T, s *Sheet) string {
	out := renderResults(s) + renderNames(t, s)
	out += fmt.Sprintf("tokens %v\noutline %v\n", s.Tokens(), s.Outline())
	for _, h := range s.InlayHints(0, len(s.Src)) {
		out += fmt.Sprintf("hint %+v\n", h)
	}
	return out
}
