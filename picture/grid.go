package picture

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// The bounds on what is drawn. Past them a picture is refused with an error
// that says which form or which slice to ask for instead.
const (
	// MaxSVGCells bounds an SVG: 256x256 cells, about 8 MB of SVG text.
	MaxSVGCells = 1 << 16
	// MaxHTMLCells bounds an HTML page (and any Grid): 2048x2048 cells,
	// about 32 MB of embedded data.
	MaxHTMLCells = 1 << 22
	// MaxPanels bounds the panels of a higher-rank layout: each panel has
	// its heading and its own drawing, and past a few thousand they are too
	// small to read; grouping the modes draws them as columns instead.
	MaxPanels = 1 << 12
)

// Kind is what a grid's cells show.
type Kind string

const (
	KindOffsets Kind = "offsets" // a layout's offsets (after the swizzle, for a swizzled layout)
	KindBanks   Kind = "banks"   // a shared-memory layout's banks, with one phase of an access
	KindTV      Kind = "tv"      // a thread-value layout: the thread and value that own each tile element
	KindTIRx    Kind = "tirx"    // a TIRx layout: the lanes, warps, ... each element lives on
)

// Order is how a cell's place gives the index of the element it draws.
type Order string

const (
	// Colex: index r + Rows*(c + Cols*k), CuTe's order (mode 0 fastest).
	Colex Order = "colex"
	// RowMajor: index (k*Rows + r)*Cols + c, TIRx's order (last mode fastest).
	RowMajor Order = "rowmajor"
)

// Grid is the model every picture draws: Panels panels of Rows x Cols
// cells, stacked top to bottom. Cell (k, r, c) is cells[(k*Rows+r)*Cols+c]
// whatever the Order; Index gives the element it stands for.
type Grid struct {
	Kind  Kind
	Title string   // the value, as cute-lsp prints it
	Notes []string // how to read the picture: folding, element width, the phase shown
	Rows  int
	Cols  int
	// Panels is the number of 2-D panels; PanelLabel names panel k.
	Panels     int
	PanelLabel func(k int) string
	Order      Order
	// Modes are the shapes of the domain's modes: rows over Modes[0],
	// columns over Modes[1], panels over Modes[2:] (for a TIRx grid, in its
	// row-major order). Coordinates shown on hover are taken in them.
	Modes []layout.IntTuple
	// Rank is the domain's rank as written (a rank-1 layout has Modes
	// (n, 1) but its coordinates are 1-D).
	Rank int

	// Key selects each cell's colour through Palette (see Colour; nil when
	// the keys are the offsets: see KeyOf); Label is each cell's text.
	Key     []int64
	Palette Palette
	// Offsets holds each cell's offset (offsets and banks grids); Text
	// replaces it for a layout whose cells are not integers (basis strides).
	Offsets []int64
	Text    []string

	Bank *BankData
	TV   *TVData
	TIRx *TIRxData

	// Blocks, when set, are the operands of a tiled picture side by side
	// (see FromTVOperands): a cell outside every block is not drawn, and a
	// column is numbered within its block.
	Blocks []Block
}

// KeyOf is cell i's colour key (an offsets grid's keys are its offsets, clamped at 0).
func (g *Grid) KeyOf(i int) int64 {
	if g.Key == nil {
		return max(g.Offsets[i], 0)
	}
	return g.Key[i]
}

// Cells is the number of cells.
func (g *Grid) Cells() int { return g.Rows * g.Cols * g.Panels }

// Index is the element index cell (k, r, c) stands for, in the grid's Order.
func (g *Grid) Index(k, r, c int) int64 {
	if g.Order == RowMajor {
		return (int64(k)*int64(g.Rows)+int64(r))*int64(g.Cols) + int64(c)
	}
	return int64(r) + int64(g.Rows)*(int64(c)+int64(g.Cols)*int64(k))
}

// cell is the position in the cell slices of cell (k, r, c).
func (g *Grid) cell(k, r, c int) int { return (k*g.Rows+r)*g.Cols + c }

// place is the (k, r, c) of element index i, the inverse of Index.
func (g *Grid) place(i int64) (k, r, c int) {
	R, C := int64(g.Rows), int64(g.Cols)
	if g.Order == RowMajor {
		c = int(i % C)
		i /= C
		return int(i / R), int(i % R), c
	}
	r = int(i % R)
	i /= R
	return int(i / C), r, int(i % C)
}

// checkCells refuses a domain too large for any picture.
func checkCells(n int64, what string) error {
	if n > MaxHTMLCells {
		return fmt.Errorf("%s has %d cells: pictures stop at %d (2048x2048); draw a slice of it (e.g. %s)", what, n, MaxHTMLCells, sliceHint)
	}
	return nil
}

// sliceHint is how to ask for part of a large layout.
const sliceHint = "slice((_,_,0), L) or a tile of it with logical_divide"

// CheckSVG refuses a grid too large for an SVG.
func (g *Grid) CheckSVG() error {
	if n := g.Cells(); n > MaxSVGCells {
		return fmt.Errorf("%s has %d cells: an SVG stops at %d (256x256); use the HTML page (cute-lsp html), which draws up to %d, or draw a slice (%s)",
			g.Title, n, MaxSVGCells, MaxHTMLCells, sliceHint)
	}
	return nil
}
