package atom_test

import (
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/layout"
)

// TestSmemAccessFeedsBankModel runs an atom's shared-memory access through
// the bank model: ldmatrix.x4 rows placed 128 bytes apart all start in
// bank 0 (each phase of 8 rows costs 8 wavefronts); the 128-byte swizzle
// (Sw<3,3,3> on 16-bit elements) spreads them over the banks (one
// wavefront a phase).
func TestSmemAccessFeedsBankModel(t *testing.T) {
	c, err := atom.LookupCopy("SM75_U32x4_LDSM_N")
	if err != nil {
		t.Fatal(err)
	}
	acc, err := c.SmemAccess(16)
	if err != nil {
		t.Fatal(err)
	}
	op, err := bank.ParseOp(acc.Op)
	if err != nil {
		t.Fatal(err)
	}
	// The atom's tile index 8*row + j (row = lane) at offset 64*row + j halves.
	rows := layout.Make(layout.Tup(layout.Int(8), layout.Int(32)), layout.Tup(layout.Int(1), layout.Int(64)))
	for _, tc := range []struct {
		smem       layout.Value
		wavefronts int
	}{
		{layout.Box(rows), 4 * 8},
		{layout.Composed{Outer: layout.Swizzle{B: 3, M: 3, S: 3}, Offset: layout.Int(0), Inner: rows}, 4},
	} {
		r, err := bank.AnalyzeAccess(bank.Access{Smem: tc.smem, TV: acc.TV, ElemBits: 16, Op: op, Matrices: acc.Matrices, Trans: acc.Trans})
		if err != nil {
			t.Fatal(err)
		}
		if r.Wavefronts != tc.wavefronts || r.Ideal != 4 {
			t.Errorf("%v: %d wavefronts (ideal %d), want %d", tc.smem, r.Wavefronts, r.Ideal, tc.wavefronts)
		}
	}
}
