package gmma

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// checkCanonical is the law of MakeDesc: the descriptor's canonical layout,
// evaluated at every coordinate of the block, is the block's offset from its start.
func checkCanonical(d Descriptor, major Major, op Operand) error {
	_, _, inner, err := parts(op.Smem)
	if err != nil {
		return err
	}
	m0, _ := inner.Get(0)
	m1, _ := inner.Get(1)
	mn, _ := m0.Size()
	k, _ := m1.Size()
	c, err := CanonicalLayout(d, major, op.Bits, mn, k)
	if err != nil {
		return err
	}
	n := mn * k
	want, err := offsets(inner, n)
	if err != nil {
		return err
	}
	flat, err := offsets(c, n)
	if err != nil {
		return err
	}
	for i := range want {
		if want[i]-want[0] != flat[i] {
			return fmt.Errorf("canonical layout %v of the descriptor gives %d at (%d,%d), the block %v gives %d",
				c, flat[i], int64(i)%mn, int64(i)/mn, inner, want[i]-want[0])
		}
	}
	return nil
}

// offsets evaluates l at the 1-D coordinates 0..n-1.
func offsets(l layout.Layout, n int64) ([]int64, error) {
	var flat layout.FlatLayout
	if err := l.FlattenInto(&flat); err != nil {
		return nil, err
	}
	out := make([]int64, n)
	for i := range n {
		v, err := flat.Crd2Idx(i)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
