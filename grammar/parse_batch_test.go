package grammar

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
)

// TestParallelParseMatchesSequential: a first parse that parses its
// statements in parallel (parseBatch) gives the sequential parse's file,
// trees, bases, errors and comments included, with and without a cache,
// and a cache it filled serves the next (edited) parse as a sequential
// first parse's cache does.
func TestParallelParseMatchesSequential(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(n int) { parallelParseMin = n }(parallelParseMin)
	base := everyKind + string(sheet5000()) + "Z = (1,\n  2):(1,\n  2)\nassert 1 == \nA = (2,2):(1,2)\nA = (2,2):(1,2)\n"
	r := rand.New(rand.NewPCG(3, 5))
	srcs := []string{"", "\n", everyKind, base}
	for k := 0; k < 12; k++ {
		src := base
		for e := 0; e < 1+r.IntN(20); e++ {
			src = editSheet(r, src)
		}
		srcs = append(srcs, src)
	}
	for i, src := range srcs {
		parallelParseMin = 1 << 62
		want, wantErrs := ParseFile("p.cute", []byte(src))
		seqCache := NewCache()
		ParseFileCached("p.cute", []byte(src), seqCache)
		parallelParseMin = 1
		got, gotErrs := ParseFile("p.cute", []byte(src))
		if !reflect.DeepEqual(normalized(got), normalized(want)) || !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Fatalf("sheet %d: the parallel parse differs from the sequential one", i)
		}
		cache := NewCache()
		got, gotErrs = ParseFileCached("p.cute", []byte(src), cache)
		if !reflect.DeepEqual(normalized(got), normalized(want)) || !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Fatalf("sheet %d: the parallel cached parse differs from the sequential one", i)
		}
		checkNoSharedNodes(t, got)
		if cache.Len() != seqCache.Len() {
			t.Fatalf("sheet %d: the parallel parse cached %d statements, the sequential %d", i, cache.Len(), seqCache.Len())
		}
		if notes := cache.Notes(got, 0, nil); len(notes) != len(got.Statements) {
			t.Fatalf("sheet %d: %d notes for %d statements", i, len(notes), len(got.Statements))
		}
		edited := editSheet(r, src)
		again, againErrs := ParseFileCached("p.cute", []byte(edited), cache)
		fresh, freshErrs := ParseFile("p.cute", []byte(edited))
		if !reflect.DeepEqual(normalized(again), normalized(fresh)) || !reflect.DeepEqual(againErrs, freshErrs) {
			t.Fatalf("sheet %d: the parse after an edit, from the parallel parse's cache, differs from a fresh one", i)
		}
	}
}

// parseParallel is ParseFileCached of src with cache (nil for none), its
// statements parsed in parallel (parseBatch) however short it is and
// however few cores there are.
func parseParallel(src string, cache *Cache) (*File, []*Error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(4, runtime.GOMAXPROCS(0))))
	defer func(n, p int) { parallelParseMin, parallelParseProcs = n, p }(parallelParseMin, parallelParseProcs)
	parallelParseMin, parallelParseProcs = 1, 2
	return ParseFileCached("f.cute", []byte(src), cache)
}
