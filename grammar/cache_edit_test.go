package grammar

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestCachedParseMovesAStringArgument is the edit that crashed the language
// server: a sheet with an atom named by a quoted string, then "x = 1:1" and
// a line break typed at its top, which moves the atom's statement (and its
// *String) one line down.
func TestCachedParseMovesAStringArgument(t *testing.T) {
	const before = `k = mma_atom("SM80_16x8x16_F32F16F16F32_TN")` + "\n"
	const after = "x = 1:1\n" + before
	cache := NewCache()
	first, _ := ParseFileCached("a.cute", []byte(before), cache)
	got, gotErrs := ParseFileCached("a.cute", []byte(after), cache)
	want, wantErrs := ParseFile("a.cute", []byte(after))
	if !reflect.DeepEqual(normalized(got), normalized(want)) || !reflect.DeepEqual(gotErrs, wantErrs) {
		t.Errorf("the cached parse differs from a fresh one")
	}
	if got.Statements[1] != first.Statements[0] {
		t.Errorf("the moved statement was not taken as it was")
	}
	s := got.Statements[1].(*Binding).Value.(*Call).Args[0].(*String)
	if p := got.Position(1, s.Pos); p != (Position{Offset: 21, Line: 2, Column: 14}) {
		t.Errorf("the moved string is placed at %+v", p)
	}
}

// TestCachedParseParsesRepeatsAnew: a statement repeated gets a tree of its
// own at each place (the first takes the cached one), so no two statements
// of a File share a node, and each repeat is placed where it is.
func TestCachedParseParsesRepeatsAnew(t *testing.T) {
	const first = "A = 1\nB = (2,3)\nC = 4\n"
	cache := NewCache()
	f1, _ := ParseFileCached("a.cute", []byte(first), cache)
	const next = "A = 1\nB = (2,3)\nB = (2,3)\nC = 4\n"
	got, gotErrs := ParseFileCached("a.cute", []byte(next), cache)
	want, wantErrs := ParseFile("a.cute", []byte(next))
	if !reflect.DeepEqual(normalized(got), normalized(want)) || !reflect.DeepEqual(gotErrs, wantErrs) {
		t.Errorf("the cached parse of %q differs from a fresh one", next)
	}
	if got.Statements[1] != f1.Statements[1] || got.Statements[2] == got.Statements[1] {
		t.Errorf("the repeat shares its tree, or the first occurrence was parsed again")
	}
	checkNoSharedNodes(t, got)
	if r := got.StatementRange(2); r.Pos != (Position{Offset: 16, Line: 3, Column: 1}) {
		t.Errorf("the repeat is at %+v", r.Pos)
	}
}

// TestCacheDropsErrorsWithTheirStatements: the errors of a statement the
// cache drops (kept beside the entries, Cache.errs) are dropped with it,
// and those of a statement taken over are its own still.
func TestCacheDropsErrorsWithTheirStatements(t *testing.T) {
	cache := NewCache()
	ParseFileCached("e.cute", []byte("A = (1,\nB = 2\nC = )\n"), cache)
	if n := len(cache.errs); n != 2 {
		t.Fatalf("the cache keeps the errors of %d statements, want 2", n)
	}
	const next = "X = 1\nB = 2\nC = )\n"
	got, errs := ParseFileCached("e.cute", []byte(next), cache)
	_, want := ParseFile("e.cute", []byte(next))
	if !reflect.DeepEqual(errs, want) || len(got.Errors) != 1 {
		t.Fatalf("errors %v, want %v", errs, want)
	}
	if n := len(cache.errs); n != 1 {
		t.Fatalf("the cache keeps the errors of %d statements, want 1", n)
	}
}

// TestCacheStartsOverAfterAnUnfinishedParse: a parse that does not finish
// (a panic going through ParseTextCached's deferred end) leaves no record
// of the entries it stored, which end finds through the records: the
// cache drops everything rather than keep them for good.
func TestCacheStartsOverAfterAnUnfinishedParse(t *testing.T) {
	cache := NewCache()
	ParseFileCached("u.cute", []byte("A = 1\nB = (2,3)\n"), cache)
	cache.begin() // what ParseTextCached does, up to a panic after a store
	cache.store(stmtKey{text: "C = 4", col: 1, endOffset: 5, endCol: 6}, 12, &Binding{}, nil, nil)
	cache.end()
	if n := cache.Len(); n != 0 || cache.last != nil {
		t.Fatalf("after an unfinished parse the cache holds %d statements (last parse kept: %v)", n, cache.last != nil)
	}
	const next = "A = 1\nB = (2,3)\nC = 4\n"
	got, gotErrs := ParseFileCached("u.cute", []byte(next), cache)
	want, wantErrs := ParseFile("u.cute", []byte(next))
	if !reflect.DeepEqual(normalized(got), normalized(want)) || !reflect.DeepEqual(gotErrs, wantErrs) {
		t.Errorf("the parse after an unfinished one differs from a fresh one")
	}
	if n := cache.Len(); n != 3 {
		t.Errorf("the cache holds %d statements, want 3", n)
	}
}

// TestCacheGrowKeepsTheOrderOfEqualStatements: the entries of equal
// statements stay in the order stored when the buckets double (in an
// edit: a first parse makes room for all at once), so that lookup prefers
// the ones that were there before.
func TestCacheGrowKeepsTheOrderOfEqualStatements(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "A = 1\nB%d = %d\n", i, i)
	}
	cache := NewCache()
	ParseFileCached("g.cute", []byte("C = 0\n"), cache) // a first parse makes room at once
	ParseFileCached("g.cute", []byte(b.String()), cache)
	if len(cache.buckets) <= minBuckets {
		t.Fatalf("the buckets did not grow: %d", len(cache.buckets))
	}
	var ats []int32
	for _, e := range cache.buckets {
		for ; e != nil; e = e.next {
			if e.key.text == "A = 1" {
				ats = append(ats, e.at)
			}
		}
	}
	if len(ats) != 40 || !slices.IsSorted(ats) {
		t.Errorf("the entries of A = 1 are at %v, want 40 in the order stored", ats)
	}
}

// TestFirstParseIndexesLater: a parse that fills an empty cache leaves its
// entries out of the buckets (it could find nothing there); they are put
// there, in the order stored, by IndexDeferred or when the next parse begins, and
// that parse takes every unchanged statement's tree either way.
func TestFirstParseIndexesLater(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "A = 1\nB%d = %d\n", i, i)
	}
	src := b.String()
	inBuckets := func(c *Cache) (n int, ats []int32) {
		for _, e := range c.buckets {
			for ; e != nil; e = e.next {
				n++
				if e.key.text == "A = 1" {
					ats = append(ats, e.at)
				}
			}
		}
		return n, ats
	}
	for _, settle := range []bool{false, true} {
		cache := NewCache()
		first, _ := ParseFileCached("g.cute", []byte(src), cache)
		if n, _ := inBuckets(cache); n != 0 || !cache.unindexed {
			t.Fatalf("after a first parse: %d entries in the buckets (unindexed %v), want 0 and true", n, cache.unindexed)
		}
		if settle {
			cache.IndexDeferred()
			n, ats := inBuckets(cache)
			if n != 80 || cache.unindexed {
				t.Fatalf("after IndexDeferred: %d entries in the buckets (unindexed %v), want 80 and false", n, cache.unindexed)
			}
			if len(ats) != 40 || !slices.IsSorted(ats) {
				t.Errorf("after IndexDeferred the entries of A = 1 are at %v, want 40 in the order stored", ats)
			}
		}
		// An edit in the middle: the statements after it are found by
		// look-up (and moved by a line).
		edited := strings.Replace(src, "B3 = 3\n", "B3 = 3\nX = 9\n", 1)
		second, _ := ParseFileCached("g.cute", []byte(edited), cache)
		if len(second.Statements) != len(first.Statements)+1 {
			t.Fatalf("settle %v: %d statements after the edit, want %d", settle, len(second.Statements), len(first.Statements)+1)
		}
		for i, s := range first.Statements {
			j := i
			if i > 7 {
				j = i + 1
			}
			if second.Statements[j] != s {
				t.Errorf("settle %v: statement %d was parsed anew, want the first parse's tree", settle, i)
			}
		}
		if got := cache.Len(); got != 81 {
			t.Errorf("settle %v: the cache holds %d statements, want 81", settle, got)
		}
	}
}
