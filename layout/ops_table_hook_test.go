package layout_test

import (
	"math/rand/v2"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// init gives the tests of package layout the table of operations
// (ops_table_test.go), its entries of the algebra sorted by name, and
// FuzzEveryOp its TIRx layouts.
func init() {
	layout.WildTIRx = wildTIRx
	for _, op := range analysis.Ops() {
		if !op.Analysis {
			layout.TableOps = append(layout.TableOps, layout.Op{Name: op.Name, Signature: op.Signature, Doc: op.Doc, Apply: op.Apply})
		}
	}
}

// wildTIRx draws a small TIRx layout, valid or not: 0..3 shard iters and
// 0..2 replica iters of extent -1..8 and stride -4..8 on a few axes (one
// unnamed), and an offset term or two.
func wildTIRx(r *rand.Rand) layout.Value {
	axes := []tirx.Axis{"laneid", "warpid", tirx.MemoryAxis, "TCol", ""}
	iters := func(n int) []tirx.Iter {
		out := make([]tirx.Iter, n)
		for i := range out {
			out[i] = tirx.Iter{Extent: r.Int64N(10) - 1, Stride: r.Int64N(13) - 4, Axis: axes[r.IntN(len(axes))]}
		}
		return out
	}
	t := tirx.Layout{Shard: iters(r.IntN(4)), Replica: iters(r.IntN(3))}
	for range r.IntN(3) {
		t.Offset = append(t.Offset, tirx.AxisValue{Axis: axes[r.IntN(len(axes))], Value: r.Int64N(16)})
	}
	return t
}
