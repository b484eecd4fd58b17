package grammar

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/cute-lsp/cute-lsp/internal/sheetedit"
)

// sheetSeeds are the project's example and marker sheets, the texts the
// incremental fuzzers start from.
func sheetSeeds(tb testing.TB) []string {
	var out []string
	for _, dir := range []string{"../examples", "../testdata/markers"} {
		names, err := filepath.Glob(filepath.Join(dir, "*.cute"))
		if err != nil || len(names) == 0 {
			tb.Fatalf("no sheets in %s (%v)", dir, err)
		}
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, string(data))
		}
	}
	return out
}

// editScripts are the seed scripts of the incremental fuzzers: the edit
// that crashed the server (a line typed at the top of a sheet naming an
// atom), Enter at the top, and random sequences of each kind of edit. The
// first byte of a script holds the options (cachedEditOptions).
func editScripts() [][]byte {
	line := byte(slices.Index(sheetedit.Fragments, "x = 1:1"))
	scripts := [][]byte{
		{0, 4, 0, 0, line, 0},                   // "x = 1:1" and a line break at line 0
		{1, 1, 0, 0, 0, 0},                      // Enter at the top, moves deferred
		{2, 1, 0, 0, 0, 0, 1, 0x80, 0, 0, 0},    // Enter twice, deferred, settled a version late
		{1, 5, 0, 0, 0, 0, 6, 0xff, 0xff, 0, 0}, // a line deleted, another duplicated
	}
	r := rand.New(rand.NewPCG(1, 2))
	for k := range 12 {
		s := []byte{byte(k % 4)}
		for range 6 + r.IntN(10) {
			s = append(s, byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)))
		}
		scripts = append(scripts, s)
	}
	return scripts
}

// cachedEditOptions decodes a script's first byte: moves deferred, and
// which versions are settled only after the next parse (odd or even ones).
func cachedEditOptions(script []byte) (deferred bool, lateParity int, rest sheetedit.Script) {
	if len(script) == 0 {
		return false, -1, nil
	}
	deferred = script[0]&1 != 0
	lateParity = -1
	if deferred && script[0]&2 != 0 {
		lateParity = int(script[0]>>2) & 1
	}
	return deferred, lateParity, sheetedit.Script(script[1:])
}

// maxFuzzEdits bounds a script, maxFuzzSheet a text: each version is
// parsed twice.
const (
	maxFuzzEdits = 48
	maxFuzzSheet = 1 << 13
)

// FuzzParseCachedEdits: a sheet edited version after version through one
// Cache (sheetedit's edits: fragments of real sheets typed, pasted, deleted
// and replaced, lines inserted, moved, duplicated and deleted) is, at every
// version, parsed exactly as a fresh parse parses it, trees, positions,
// comments and errors; with deferred moves, the statements' own ranges are
// in place before the file is settled, some versions are settled only after
// the next parse, and a parse never changes the trees of the one before.
func FuzzParseCachedEdits(f *testing.F) {
	for _, src := range append(sheetSeeds(f), `k = mma_atom("SM80_16x8x16_F32F16F16F32_TN")`+"\n", everyKind) {
		for _, script := range editScripts() {
			f.Add(src, script)
		}
	}
	f.Fuzz(func(t *testing.T, src string, script []byte) {
		if len(src) > maxFuzzSheet || len(script) > 1+maxFuzzEdits*sheetedit.OpSize {
			return
		}
		checkCachedEdits(t, src, script)
	})
}

func checkCachedEdits(t *testing.T, src string, script []byte) {
	deferred, lateParity, edits := cachedEditOptions(script)
	cache := NewCache()
	cache.DeferMoves(deferred)
	var prev, prevWant *File
	text := src
	for step := 0; ; step++ {
		got, gotErrs := ParseFileCached("f.cute", []byte(text), cache)
		want, wantErrs := ParseFile("f.cute", []byte(text))
		if prev != nil {
			prev.Settle()
			if !reflect.DeepEqual(settled(prev), settled(prevWant)) {
				t.Fatalf("step %d: the parse of version %d changed the trees of version %d, or they were settled wrong", step, step, step-1)
			}
		}
		if !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Fatalf("step %d: cached errors %v, fresh %v, on\n%q", step, gotErrs, wantErrs, text)
		}
		if len(got.Statements) != len(want.Statements) {
			t.Fatalf("step %d: %d statements cached, %d fresh, on\n%q", step, len(got.Statements), len(want.Statements), text)
		}
		for i, s := range got.Statements {
			if s.Span() != want.Statements[i].Span() {
				t.Fatalf("step %d: statement %d at %+v before settling, fresh %+v, on\n%q", step, i, s.Span(), want.Statements[i].Span(), text)
			}
		}
		if step%2 != lateParity {
			got.Settle()
			if !reflect.DeepEqual(settled(got), settled(want)) {
				t.Fatalf("step %d: the cached parse differs from a fresh one on\n%q", step, text)
			}
		}
		if n := cache.Len(); n > len(got.Statements) {
			t.Fatalf("step %d: the cache holds %d statements, the sheet %d", step, n, len(got.Statements))
		}
		prev, prevWant = got, want
		var more bool
		if text, more = edits.Next(text); !more || step >= maxFuzzEdits {
			return
		}
	}
}
