package grammar

import (
	"reflect"
	"testing"
)

// TestCachedParseMovesAStringArgument is the edit that crashed the language
// server: a sheet with an atom named by a quoted string, then "x = 1:1" and
// a line break typed at its top, which moves the atom's statement (and its
// *String) one line down.
func TestCachedParseMovesAStringArgument(t *testing.T) {
	const before = `k = mma_atom("SM80_16x8x16_F32F16F16F32_TN")` + "\n"
	const after = "x = 1:1\n" + before
	for _, deferred := range []bool{false, true} {
		cache := NewCache()
		cache.DeferMoves(deferred)
		ParseFileCached("a.cute", []byte(before), cache)
		got, gotErrs := ParseFileCached("a.cute", []byte(after), cache)
		got.Settle()
		want, wantErrs := ParseFile("a.cute", []byte(after))
		if !reflect.DeepEqual(settled(got), settled(want)) || !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Errorf("deferred=%v: the cached parse differs from a fresh one", deferred)
		}
	}
}

// alienNode is a node type the mover does not know, as a type added to the
// AST and forgotten there would be.
type alienNode struct{ Range }

func (*alienNode) node() {}

// TestCacheParsesAnewWhatItCannotMove: a cached statement whose tree holds
// a node the mover does not know is parsed anew instead of moved, whether
// the move would come from a lookup, from the statements taken over after
// an edit, or be deferred; nothing panics, and every parse is the fresh one.
func TestCacheParsesAnewWhatItCannotMove(t *testing.T) {
	const first = "A = 1\nB = (2,3)\nC = 4\n"
	for _, deferred := range []bool{false, true} {
		for _, edit := range []struct {
			next string
			from int // the statements compared: B left in place keeps the alien
		}{
			{"\n" + first, 0},                           // everything moves: lookups
			{"A = 1\nX = 2\nB = (2,3)\nC = 4\n", 0},     // B and C taken over after the edit
			{"A = 1\nB = (2,3)\nB = (2,3)\nC = 4\n", 2}, // B in place, copied to the line after
		} {
			cache := NewCache()
			cache.DeferMoves(deferred)
			f, _ := ParseFileCached("a.cute", []byte(first), cache)
			// The cached tree of B, which f shares, now holds an alien.
			tuple := f.Statements[1].(*Binding).Value.(*Tuple)
			tuple.Elems = append(tuple.Elems, &alienNode{Range: tuple.Range})
			got, gotErrs := ParseFileCached("a.cute", []byte(edit.next), cache)
			got.Settle()
			want, wantErrs := ParseFile("a.cute", []byte(edit.next))
			if !reflect.DeepEqual(got.Statements[edit.from:], want.Statements[edit.from:]) || !reflect.DeepEqual(gotErrs, wantErrs) {
				t.Errorf("deferred=%v: the cached parse of %q differs from a fresh one", deferred, edit.next)
			}
		}
	}
	if moved, ok := moveNode(&alienNode{}, 1, 1); ok || moved != nil {
		t.Errorf("moveNode of an unknown node type = %v, %v; want nil, false", moved, ok)
	}
	if _, _, ok := moveStmt(&ExprStmt{X: &alienNode{}}, nil, 1, 1, nil); ok {
		t.Errorf("moveStmt of a tree with an unknown node type succeeded")
	}
}
