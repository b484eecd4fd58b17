package hover

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/analysis/atom"
)

// atomText shows an atom's facts and which thread holds which element: the
// A, B and C tiles of an MMA, the source and destination of a copy (as
// 16-bit elements), each cut to the table limits.
func atomText(v analysis.AtomValue, opts Options) string {
	var b strings.Builder
	rows, cols := int64(opts.Limits.MaxRows), int64(opts.Limits.MaxCols)
	if v.MMA != nil {
		fmt.Fprintf(&b, "```text\n%s```\n", v.MMA.Describe())
		for _, op := range []struct {
			name    string
			operand atom.Operand
		}{{"A (M x K)", 'A'}, {"B (N x K)", 'B'}, {"C (M x N)", 'C'}} {
			g, err := v.MMA.Grid(op.operand)
			if err != nil {
				fmt.Fprintf(&b, "\n%s: %v\n", op.name, err)
				continue
			}
			fmt.Fprintf(&b, "\n%s: thread and value holding each element\n```text\n%s```\n", op.name, g.Window(rows, cols))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "```text\n%s```\n", v.Copy.Describe())
	for _, side := range []struct {
		name string
		side atom.Side
	}{{"source", atom.Src}, {"destination", atom.Dst}} {
		g, err := v.Copy.Grid(side.side, 16, 0)
		if err != nil {
			fmt.Fprintf(&b, "\n%s: %v\n", side.name, err)
			continue
		}
		fmt.Fprintf(&b, "\n%s (16-bit elements): thread and value holding each element\n```text\n%s```\n", side.name, g.Window(rows, cols))
	}
	return b.String()
}
