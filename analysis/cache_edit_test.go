package analysis

import (
	"os"
	"strings"
	"testing"
)

// TestCachedAnalysisMovesAnAtom is the edit that crashed the language
// server's diagnostics: a sheet naming an atom by a quoted string, then
// "x = 1:1" and a line break typed at its top; and Enter pressed at the top
// of testdata/markers/atoms.cute. Each version's cached analysis is the
// fresh one.
func TestCachedAnalysisMovesAnAtom(t *testing.T) {
	atoms, err := os.ReadFile("../testdata/markers/atoms.cute")
	if err != nil {
		t.Fatal(err)
	}
	const atom = `k = mma_atom("SM80_16x8x16_F32F16F16F32_TN")` + "\n"
	for _, versions := range [][]string{
		{atom, "x = 1:1\n" + atom},
		{string(atoms), "\n" + string(atoms)},
	} {
		cache := NewCache()
		for step, src := range versions {
			cached := AnalyzeSheetCached("a.cute", []byte(src), cache)
			fresh := AnalyzeSheet("a.cute", []byte(src))
			if got, want := renderFindings(cached), renderFindings(fresh); got != want {
				t.Fatalf("step %d: cached findings\n%s\nfresh\n%s", step, got, want)
			}
			if got, want := renderResults(cached)+renderNames(t, cached), renderResults(fresh)+renderNames(t, fresh); got != want {
				t.Fatalf("step %d: cached results\n%s\nfresh\n%s\nsource:\n%s", step, got, want, strings.TrimSpace(src))
			}
		}
	}
}
