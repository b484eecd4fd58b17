package analysis

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestParallelAnalysisMatchesSequential: a first analysis that evaluates
// its statements in parallel (evalParallel) gives the sequential
// analysis's results, findings and names, with and without a cache, and
// a cache it filled serves the next (edited) analysis as a sequential
// one's does.
func TestParallelAnalysisMatchesSequential(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(n int) { parallelEvalMin = n }(parallelEvalMin)
	base := "A = (4,6):(1,4)\nB = logical_divide(A, [2:1;3:1])\nC = coalesce(B)\nassert B == B\n" +
		"D = complement((2,2):(1,1))\nE = coalesce(D)\nF = zipped_divide(C, [4:1;_])\nassert size(A) == 24\n" +
		"G = (4,2:(1,4)\nA = 8:1\nH = composition(A, (2,2):(1,2))\nA = coalesce(A)\nLayoutRight = (2,2):(2,1)\n" +
		"I = make_layout((4,8), LayoutRight)\nJ = composition(G, A)\nassert H == (2,2):(1,3)\nK = Undefnied\nK = (4,8):(1,5)\n" +
		"L = logical_divide((8,8):(8,1), [3:1;_])\n_x = 1\n_x = size(_x)\nM = select<1>(I)\n"
	srcs := []string{base}
	for _, name := range []string{"tiles", "banks", "tiled", "tirx"} {
		data, err := os.ReadFile(filepath.Join("..", "examples", name+".cute"))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(data))
	}
	r := rand.New(rand.NewPCG(9, 4))
	for k := 0; k < 20; k++ {
		src := strings.Repeat(base, 1+r.IntN(4))
		for e := 0; e < 1+r.IntN(12); e++ {
			src = editLines(r, src)
		}
		srcs = append(srcs, src)
	}
	for i, src := range srcs {
		parallelEvalMin = 1 << 62
		want := AnalyzeSheet("p.cute", []byte(src))
		wantText := renderFindings(want) + renderResults(want) + renderNames(t, want)
		parallelEvalMin = 1
		got := AnalyzeSheet("p.cute", []byte(src))
		if text := renderFindings(got) + renderResults(got) + renderNames(t, got); text != wantText {
			t.Fatalf("sheet %d: the parallel analysis\n%s\nthe sequential\n%s\nsource:\n%s", i, text, wantText, src)
		}
		cache := NewCache()
		got = AnalyzeSheetCached("p.cute", []byte(src), cache)
		if text := renderFindings(got) + renderResults(got) + renderNames(t, got); text != wantText {
			t.Fatalf("sheet %d: the parallel cached analysis\n%s\nthe sequential\n%s\nsource:\n%s", i, text, wantText, src)
		}
		edited := editLines(r, src)
		again := AnalyzeSheetCached("p.cute", []byte(edited), cache)
		fresh := AnalyzeSheet("p.cute", []byte(edited))
		if a, b := renderFindings(again)+renderResults(again)+renderNames(t, again), renderFindings(fresh)+renderResults(fresh)+renderNames(t, fresh); a != b {
			t.Fatalf("sheet %d: the analysis after an edit, from the parallel analysis's cache\n%s\nfresh\n%s\nsource:\n%s", i, a, b, edited)
		}
	}
}

// analyzeParallel is AnalyzeSheetCached of src with a new cache, its
// statements evaluated in parallel (evalParallel) however short it is and
// however few cores there are.
func analyzeParallel(src string) *Sheet {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(4, runtime.GOMAXPROCS(0))))
	defer func(n, p int) { parallelEvalMin, parallelEvalProcs = n, p }(parallelEvalMin, parallelEvalProcs)
	parallelEvalMin, parallelEvalProcs = 1, 2
	return AnalyzeSheetCached("f.cute", []byte(src), NewCache())
}
