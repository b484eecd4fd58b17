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

// TestFirstAnalysisIndexesLater: a first analysis keeps its results out of
// the map of entries (a look-up it could not make use of), and they are in
// it after IndexDeferred, as after the first look-up of a later analysis (the
// results of an edit undone are found there: TestCacheUndoneEditReuses).
func TestFirstAnalysisIndexesLater(t *testing.T) {
	src := "A = 4:1\nB = coalesce(A)\nassert B == A\n"
	cache := NewCache()
	AnalyzeSheetCached("settle.cute", []byte(src), cache)
	if len(cache.entries) != 0 || len(cache.unindexed) != 3 {
		t.Fatalf("after a first analysis: %d entries in the map, %d to index; want 0 and 3", len(cache.entries), len(cache.unindexed))
	}
	cache.IndexDeferred()
	if len(cache.entries) != 3 || cache.unindexed != nil {
		t.Fatalf("after IndexDeferred: %d entries in the map, %d to index; want 3 and 0", len(cache.entries), len(cache.unindexed))
	}
	edited := strings.Replace(src, "4:1", "8:1", 1)
	if s := AnalyzeSheetCached("settle.cute", []byte(edited), cache); s.Reused != 0 {
		t.Fatalf("the edit reused %d statements, want 0", s.Reused)
	}
	if s := AnalyzeSheetCached("settle.cute", []byte(src), cache); s.Reused != 3 {
		t.Fatalf("undoing the edit reused %d statements, want 3", s.Reused)
	}
}
