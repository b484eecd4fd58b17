package hover

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// tiledMMAText shows a TiledMMA: its threads, its tile, how atoms and
// threads are laid out, and for A, B and C the thread-value layout with the
// thread and value holding each element of the tile (cut to the limits).
func tiledMMAText(m tiled.TiledMMA, opts Options) string {
	var b strings.Builder
	threads, _ := m.Size()
	var sizes [3]string
	for i := range sizes {
		sizes[i] = "?"
		if s, err := m.TileSize(i); err == nil {
			sizes[i] = s.String()
		}
	}
	perm := make([]string, 3)
	for i, p := range m.Permutation {
		perm[i] = p.String()
	}
	fmt.Fprintf(&b, "TiledMMA of %s: **%d threads**, tile M x N x K = %s x %s x %s\n\n", m.Atom.Name, threads, sizes[0], sizes[1], sizes[2])
	fmt.Fprintf(&b, "```text\nThrLayoutVMNK:  %s\nPermutationMNK: [%s]\n", m.ThrLayoutVMNK.Format(true), strings.Join(perm, ";"))
	tvs := map[string]layout.Layout{}
	for _, x := range []string{"A", "B", "C"} {
		tv, err := m.LayoutTV(x)
		if err != nil {
			fmt.Fprintf(&b, "Layout%s_TV:     %v\n", x, err)
			continue
		}
		tvs[x] = tv
		fmt.Fprintf(&b, "Layout%s_TV:     %s\n", x, tv.Format(true))
	}
	b.WriteString("```\n")
	for _, op := range []struct {
		x, rn, cn string
		r, c      int
	}{{"A", "m", "k", 0, 2}, {"B", "n", "k", 1, 2}, {"C", "m", "n", 0, 1}} {
		tv, ok := tvs[op.x]
		rows, err1 := m.TileSize(op.r)
		cols, err2 := m.TileSize(op.c)
		if !ok || err1 != nil || err2 != nil {
			continue
		}
		name := op.x + " (" + strings.ToUpper(op.rn) + " x " + strings.ToUpper(op.cn) + ")"
		b.WriteString(gridText(name, op.rn, op.cn, tv, rows.Value(), cols.Value(), opts))
	}
	return b.String()
}

func gridText(name, rn, cn string, tv layout.Layout, rows, cols int64, opts Options) string {
	g, err := atom.TVGrid(fmt.Sprintf("%s = %d x %d", name, rows, cols), rn, cn, tv, rows, cols)
	if err != nil {
		return fmt.Sprintf("\n%s: no table: %v\n", name, err)
	}
	return fmt.Sprintf("\n%s: thread and value holding each element\n```text\n%s```\n", name, g.Window(int64(opts.Limits.MaxRows), int64(opts.Limits.MaxCols)))
}

// tiledCopyText shows a TiledCopy: its threads, its tile, its thread-value
// layouts and, for a 2-D tile, which thread and value moves each element
// of the source and of the destination.
func tiledCopyText(c tiled.TiledCopy, opts Options) string {
	var b strings.Builder
	threads, _ := c.Size()
	fmt.Fprintf(&b, "TiledCopy of %v: **%d threads**, tile %s\n\n", c.Atom, threads, c.TilerMN.Format(true))
	fmt.Fprintf(&b, "```text\nTiledLayout_TV: %s\n", c.TiledTV.Format(true))
	tvs := map[string]layout.Layout{}
	for _, x := range []string{"S", "D"} {
		tv, err := c.LayoutTV(x)
		if err != nil {
			fmt.Fprintf(&b, "Layout%s_TV:     %v\n", x, err)
			continue
		}
		tvs[x] = tv
		fmt.Fprintf(&b, "Layout%s_TV:     %s\n", x, tv.Format(true))
	}
	b.WriteString("```\n")
	if !c.TilerMN.IsTuple() || c.TilerMN.Len() != 2 {
		return b.String()
	}
	rows, err1 := layout.Product(c.TilerMN.At(0))
	cols, err2 := layout.Product(c.TilerMN.At(1))
	if err1 != nil || err2 != nil {
		return b.String()
	}
	for _, side := range []struct{ x, name string }{{"S", "source"}, {"D", "destination"}} {
		if tv, ok := tvs[side.x]; ok {
			b.WriteString(gridText(side.name, "m", "n", tv, rows.Value(), cols.Value(), opts))
		}
	}
	return b.String()
}
