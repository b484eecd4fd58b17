package layout_test

import (
	"math/rand/v2"
	"testing"

	"github.com/cute-lsp/cute-lsp/internal/layouttest"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// wildValue is any kind of value an operation may be handed, often one it
// does not take: layouttest's wild values (layouts valid or not, tuples,
// integers, tilers, swizzles, swizzled layouts, tags), layouts and swizzled
// layouts with valid parts, and TIRx layouts. Thread-value values (package
// tiled, above this one) are tiled's FuzzTV's.
func wildValue(r *rand.Rand) layout.Value {
	switch r.IntN(6) {
	case 0:
		return wildTIRx(r)
	case 1:
		return layout.Composed{Outer: layouttest.RandomSwizzle(r), Offset: layout.Int(r.Int64N(256)), Inner: layouttest.PropertyLayout(r)}
	case 2:
		return layout.Box(layouttest.PropertyLayout(r))
	}
	return layouttest.WildValue(r)
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

// FuzzEveryOp applies every operation of the table of the algebra to zero
// to four wild arguments: none may panic or hang, and every failure is an
// *Error.
func FuzzEveryOp(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(3), uint64(5))
	f.Add(uint64(8), uint64(13))
	ops := layout.Ops()
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		r := rand.New(rand.NewPCG(s1, s2))
		for _, op := range ops {
			args := make([]layout.Value, r.IntN(5))
			for i := range args {
				args[i] = wildValue(r)
			}
			layouttest.CheckSurvives(t, op.Name, op.Apply, args)
		}
	})
}
