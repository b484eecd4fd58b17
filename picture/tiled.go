package picture

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// Block is one operand of a tiled picture (A, B or C of a TiledMMA, S or D
// of a TiledCopy): Rows x Cols cells at columns Col0.. of the grid, rows
// 0.., the blocks side by side with one blank column between them.
type Block struct {
	Name             string // "A (M x K)"
	Col0, Rows, Cols int
	RowName, ColName string // what a block's row and column count: "m", "k"
}

// TVOperand is one thread-value layout of a tiled value and its tile:
// TV maps (thread, value) to m + M*n in the M x N tile.
type TVOperand struct {
	Name             string
	RowName, ColName string
	TV               layout.Layout
	M, N             int64
}

// FromTiledMMA is CuTe's print_latex of a TiledMMA: A (M x K), B (N x K)
// and C (M x N) side by side, each cell T<thread> V<value> coloured by
// thread, from get_layoutA/B/C_TV over tile_size<0..2>.
func FromTiledMMA(m tiled.TiledMMA) (*Grid, error) {
	sizes := [3]int64{}
	for i := range sizes {
		s, err := m.TileSize(i)
		if err != nil {
			return nil, err
		}
		n, ok := plainInt(s)
		if !ok {
			return nil, fmt.Errorf("tile_size<%d> is %v, not an integer", i, s)
		}
		sizes[i] = n
	}
	var ops []TVOperand
	for _, x := range []struct {
		name, rn, cn string
		r, c         int
	}{{"A", "m", "k", 0, 2}, {"B", "n", "k", 1, 2}, {"C", "m", "n", 0, 1}} {
		tv, err := m.LayoutTV(x.name)
		if err != nil {
			return nil, err
		}
		ops = append(ops, TVOperand{Name: x.name, RowName: x.rn, ColName: x.cn, TV: tv, M: sizes[x.r], N: sizes[x.c]})
	}
	return FromTVOperands(m.String(), ops)
}

// FromTiledCopy is CuTe's print_latex of a TiledCopy: the source S and the
// destination D side by side over the copy's tile (tile_size<0> rows, the
// rest of the tile as columns).
func FromTiledCopy(c tiled.TiledCopy) (*Grid, error) {
	M, N := int64(1), int64(1)
	t := c.TilerMN
	for i := range max(rankOf(t), 1) {
		mode := t
		if t.IsTuple() {
			mode = t.At(i)
		}
		p, err := layout.Product(mode)
		if err != nil {
			return nil, err
		}
		n, ok := plainInt(p)
		if !ok {
			return nil, fmt.Errorf("the copy's tile %v is not made of integers", t)
		}
		if i == 0 {
			M = n
		} else if N > MaxHTMLCells || n > MaxHTMLCells {
			N = MaxHTMLCells + 1
		} else {
			N *= n
		}
	}
	var ops []TVOperand
	for _, side := range []string{"S", "D"} {
		tv, err := c.LayoutTV(side)
		if err != nil {
			return nil, err
		}
		ops = append(ops, TVOperand{Name: side, RowName: "m", ColName: "n", TV: tv, M: M, N: N})
	}
	return FromTVOperands(c.String(), ops)
}

// FromTVOperands draws thread-value layouts side by side, each as FromTV
// draws it, in one grid of one panel: rows up to the tallest operand,
// columns the operands' columns with one blank column between two.
func FromTVOperands(title string, ops []TVOperand) (*Grid, error) {
	if len(ops) == 0 {
		return nil, fmt.Errorf("%s: no thread-value layout to draw", title)
	}
	var total int64
	for _, op := range ops {
		if op.M <= 0 || op.N <= 0 {
			return nil, fmt.Errorf("%s: %s: tile %dx%d: both extents must be positive", title, op.Name, op.M, op.N)
		}
		if op.M > MaxHTMLCells || op.N > MaxHTMLCells || op.M*op.N > MaxHTMLCells {
			return nil, fmt.Errorf("%s: %s: tile %dx%d: pictures stop at %d cells (2048x2048)", title, op.Name, op.M, op.N, MaxHTMLCells)
		}
		total += op.M * op.N
	}
	if err := checkCells(total, title); err != nil {
		return nil, err
	}
	parts := make([]*Grid, len(ops))
	rows, cols := 0, -1
	for i, op := range ops {
		g, err := FromTV(op.TV, op.M, op.N)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", title, op.Name, err)
		}
		parts[i] = g
		rows = max(rows, g.Rows)
		cols += g.Cols + 1
	}
	if err := checkCells(int64(rows)*int64(cols), title); err != nil {
		return nil, err
	}
	n := rows * cols
	g := &Grid{Kind: KindTV, Title: title, Rows: rows, Cols: cols, Panels: 1, Order: Colex,
		Modes: []layout.IntTuple{layout.Int(int64(rows)), layout.Int(int64(cols))}, Rank: 2,
		PanelLabel: func(int) string { return "" }, Key: make([]int64, n), Palette: NewCycle(32)}
	d := &TVData{Thread: make([]int32, n), Value: make([]int32, n), Holders: make([]int32, n)}
	g.TV = d
	for i := range n {
		d.Thread[i], d.Value[i], g.Key[i] = -1, -1, -1
	}
	col0 := 0
	var names []string
	for i, p := range parts {
		op := ops[i]
		name := fmt.Sprintf("%s (%s x %s)", op.Name, strings.ToUpper(op.RowName), strings.ToUpper(op.ColName))
		g.Blocks = append(g.Blocks, Block{Name: name, Col0: col0, Rows: p.Rows, Cols: p.Cols, RowName: op.RowName, ColName: op.ColName})
		for r := range p.Rows {
			for c := range p.Cols {
				from, to := p.cell(0, r, c), g.cell(0, r, col0+c)
				d.Thread[to], d.Value[to], d.Holders[to], g.Key[to] = p.TV.Thread[from], p.TV.Value[from], p.TV.Holders[from], p.Key[from]
			}
		}
		d.Threads, d.Values = max(d.Threads, p.TV.Threads), max(d.Values, p.TV.Values)
		names = append(names, fmt.Sprintf("%s = %dx%d: %s", name, p.Rows, p.Cols, op.TV))
		for _, note := range p.Notes[1:] { // the first is FromTV's how-to-read line, said once below
			g.Notes = append(g.Notes, op.Name+": "+note)
		}
		col0 += p.Cols + 1
	}
	g.Notes = append([]string{fmt.Sprintf("%s side by side; each cell shows the first (thread, value) there, T<thread> V<value>, coloured by thread", strings.Join(names, "; "))}, g.Notes...)
	return g, nil
}

// BlockAt is the block holding cell (r, c) of a grid with blocks, or -1
// (a gap between blocks, or below a shorter block).
func (g *Grid) BlockAt(r, c int) int {
	for i, b := range g.Blocks {
		if c >= b.Col0 && c < b.Col0+b.Cols {
			if r < b.Rows {
				return i
			}
			return -1
		}
	}
	return -1
}

// columnNumber is the number shown above column c: c itself, or its column
// within its block; false for a gap between blocks.
func (g *Grid) columnNumber(c int) (int, bool) {
	if g.Blocks == nil {
		return c, true
	}
	for _, b := range g.Blocks {
		if c >= b.Col0 && c < b.Col0+b.Cols {
			return c - b.Col0, true
		}
	}
	return 0, false
}
