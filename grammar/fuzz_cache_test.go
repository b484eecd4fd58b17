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
// first byte of a script is left for options (cachedEditOptions).
func editScripts() [][]byte {
	line := byte(slices.Index(sheetedit.Fragments, "x = 1:1"))
	scripts := [][]byte{
		{0, 4, 0, 0, line, 0},                   // "x = 1:1" and a line break at line 0
		{1, 1, 0, 0, 0, 0},                      // Enter at the top
		{2, 1, 0, 0, 0, 0, 1, 0x80, 0, 0, 0},    // Enter twice
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

// cachedEditOptions splits a script into its first byte, which once chose
// deferred moves (there are none now: the byte is kept so that the seeds
// and the corpus found so far keep their edits), and its edits.
func cachedEditOptions(script []byte) sheetedit.Script {
	if len(script) == 0 {
		return nil
	}
	return sheetedit.Script(script[1:])
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
// version, parsed exactly as a fresh parse parses it, trees, bases,
// comments and errors, and a parse never changes the trees of the one before.
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
	edits := cachedEditOptions(script)
	cache := NewCache()
	var prev, prevWant *File
	text := src
	for step := 0; ; step++ {
		got, gotErrs := ParseFileCached("f.cute", []byte(text), cache)
		want, wantErrs := ParseFile("f.cute", []byte(text))
		if prev != nil && !reflect.DeepEqual(normalized(prev), normalized(prevWant)) {
			t.Fatalf("step %d: the parse of version %d changed the trees of version %d", step, step, step-1)
		}
		if !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Fatalf("step %d: cached errors %v, fresh %v, on\n%q", step, gotErrs, wantErrs, text)
		}
		if !reflect.DeepEqual(normalized(got), normalized(want)) {
			t.Fatalf("step %d: the cached parse differs from a fresh one on\n%q", step, text)
		}
		if n := cache.Len(); n > len(got.Statements) {
			t.Fatalf("step %d: the cache holds %d statements, the sheet %d", step, n, len(got.Statements))
		}
		checkNoSharedNodes(t, got)
		if step == 0 {
			par, parErrs := parseParallel(text, NewCache())
			if !reflect.DeepEqual(normalized(par), normalized(want)) || !reflect.DeepEqual(parErrs, wantErrs) {
				t.Fatalf("the parallel parse differs from the sequential one on\n%q", text)
			}
		}
		prev, prevWant = got, want
		var more bool
		if text, more = edits.Next(text); !more || step >= maxFuzzEdits {
			return
		}
	}
}

// checkNoSharedNodes fails when two statements of f share a node other
// than a literal (an Int, or a Tuple or Layout of literals alone) or the
// name of the operation a call calls, which a first parse shares (see
// literals): the analysis tells uses of names apart by their nodes, and a
// statement's root holds its tree alive.
func checkNoSharedNodes(t *testing.T, f *File) {
	t.Helper()
	funs := map[*Name]bool{}
	for _, s := range f.Statements {
		Inspect(s, func(n Node) bool {
			if c, ok := n.(*Call); ok {
				funs[c.Fun] = true
			}
			return true
		})
	}
	seen := map[Node]int{}
	for i, s := range f.Statements {
		Inspect(s, func(n Node) bool {
			if name, ok := n.(*Name); ok && funs[name] {
				return true
			}
			if j, ok := seen[n]; ok && j != i && !isLiteral(n) {
				t.Fatalf("statements %d and %d share the node %T", j, i, n)
			}
			seen[n] = i
			return true
		})
	}
}

// isLiteral reports whether n is an Int, or a Tuple or Layout of literals.
func isLiteral(n Node) bool {
	switch n := n.(type) {
	case *Int:
		return true
	case *Tuple:
		for _, e := range n.Elems {
			if !isLiteral(e) {
				return false
			}
		}
		return true
	case *Layout:
		return isLiteral(n.Shape) && isLiteral(n.Stride)
	}
	return false
}
