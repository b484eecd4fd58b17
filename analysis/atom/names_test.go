package atom

import (
	"slices"
	"testing"
)

// TestNamesAreTheCatalogs: Names, a list generated beside the catalog so
// that it builds nothing, is exactly the names of MMAs and Copies, sorted.
func TestNamesAreTheCatalogs(t *testing.T) {
	var want []string
	for _, a := range MMAs() {
		want = append(want, a.Name)
	}
	for _, c := range Copies() {
		want = append(want, c.Name)
	}
	slices.Sort(want)
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() holds %d names, the catalog %d; first difference at %d", len(got), len(want),
			func() int {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						return i
					}
				}
				return min(len(got), len(want))
			}())
	}
}
