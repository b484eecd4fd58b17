package analysis

import (
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// TestFlatLeaves: a leaf and a tuple of leaves (a basis leaf is one) are
// counted; anything nested more is past layout.MaxLeaves, left to
// checkLeaves. Checked: counting a nested tuple's elements fails it.
func TestFlatLeaves(t *testing.T) {
	for _, tc := range []struct {
		t    layout.IntTuple
		want int
	}{
		{layout.Int(8), 1},
		{layout.Ints(2, 4, 8), 3},
		{layout.Tup(layout.Int(1), layout.Basis(1, 0), layout.Unknown()), 3},
		{layout.Tup(layout.Int(1), layout.Ints(2, 2)), layout.MaxLeaves + 1},
		{layout.Tup(layout.Ints(2, 2)), layout.MaxLeaves + 1},
	} {
		if got := flatLeaves(tc.t); got != tc.want {
			t.Errorf("flatLeaves(%v) = %d, want %d", tc.t, got, tc.want)
		}
	}
}
