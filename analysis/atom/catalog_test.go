package atom

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestCatalogKeys: the generated key tables hold Key of every atom's name
// once, with its index, sorted by key, so that the binary search of a
// look-up finds each atom under the key the maps of the built catalog
// held it under.
func TestCatalogKeys(t *testing.T) {
	for _, tab := range []struct {
		kind  string
		keys  []keyedIndex
		names []string
	}{
		{"MMA", catalogMMAKeys[:], entryNames(catalogMMAs[:], func(e mmaEntry) string { return e.Name })},
		{"copy", catalogCopyKeys[:], entryNames(catalogCopies[:], func(e copyEntry) string { return e.Name })},
	} {
		if len(tab.keys) != len(tab.names) {
			t.Fatalf("%s: %d keys for %d atoms", tab.kind, len(tab.keys), len(tab.names))
		}
		if !slices.IsSortedFunc(tab.keys, func(a, b keyedIndex) int { return strings.Compare(a.Key, b.Key) }) {
			t.Errorf("%s: the keys are not sorted", tab.kind)
		}
		seen := make([]bool, len(tab.names))
		for _, k := range tab.keys {
			i := int(k.Index)
			if i >= len(tab.names) || seen[i] {
				t.Fatalf("%s: index %d out of range or listed twice", tab.kind, i)
			}
			seen[i] = true
			if want := Key(tab.names[i]); k.Key != want {
				t.Errorf("%s %d (%s): key %q, want Key = %q (regenerate: go generate in analysis/atom)", tab.kind, i, tab.names[i], k.Key, want)
			}
			if got, ok := keyIndex(tab.keys, Key(tab.names[i])); !ok || got != i {
				t.Errorf("%s %d (%s): look-up by key gives %d, %v", tab.kind, i, tab.names[i], got, ok)
			}
		}
	}
	if _, ok := mmaIndex("SM80_16x8x16_F32F16F16F32_XX"); ok {
		t.Error("an uncatalogued key was found")
	}
}

func entryNames[E any](entries []E, name func(E) string) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = name(e)
	}
	return out
}

// TestCatalogBuildLazily: a look-up builds the atom it finds and no other,
// the same pointer every time, also from goroutines racing for it (go test
// -race), and an atom built alone equals the one of the whole catalog (MMAs,
// Copies), whose atoms share their tuples.
func TestCatalogBuildLazily(t *testing.T) {
	var c catalogBuild
	i, ok := mmaIndex(Key("SM80_16x8x16_F32F16F16F32_TN"))
	if !ok {
		t.Fatal("SM80_16x8x16_F32F16F16F32_TN not found")
	}
	got := make([]*MMA, 8)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g] = c.mma(i)
		}()
	}
	wg.Wait()
	for g := range got {
		if got[g] != got[0] {
			t.Fatalf("look-ups of one atom gave different pointers")
		}
	}
	for k := range c.mmas {
		if built := c.mmas[k].Load() != nil; built != (k == i) {
			t.Errorf("MMA %d (%s): built %v after a look-up of %d alone", k, catalogMMAs[k].Name, built, i)
		}
	}
	for k := range c.copies {
		if c.copies[k].Load() != nil {
			t.Errorf("copy %d built after a look-up of an MMA atom", k)
		}
	}
	if !reflect.DeepEqual(*got[0], MMAs()[i]) {
		t.Errorf("the atom built alone differs from the catalog's:\n%+v\n%+v", *got[0], MMAs()[i])
	}
	j, ok := copyIndex(Key("SM75_U32x4_LDSM_N"))
	if !ok {
		t.Fatal("SM75_U32x4_LDSM_N not found")
	}
	if cp := c.copy(j); !reflect.DeepEqual(*cp, Copies()[j]) || c.copy(j) != cp {
		t.Errorf("the copy atom built alone differs from the catalog's, or a second look-up built it again")
	}
}
