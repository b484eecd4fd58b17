package grammar

import "testing"

// TestSlabTakes: a slab hands out slices of the length asked for, of
// their own capacity, from a first block smaller than they are too.
func TestSlabTakes(t *testing.T) {
	var s slab[int]
	for _, n := range []int{1, 17, 16, 300, 255, 256, 1, 1000} {
		got := s.take(n)
		if len(got) != n || cap(got) != n {
			t.Fatalf("take(%d): len %d, cap %d", n, len(got), cap(got))
		}
	}
}
