package picture

import "strings"

// geometry places a grid on a page: cells of CellW x CellH pixels, row
// numbers in a left margin, column numbers above each panel, panels stacked
// with a heading each. Pixel sizes are integers so both outputs agree.
type geometry struct {
	CellW, CellH int
	Left         int // the row-number margin
	Top          int // where the first panel's column numbers start
	ColHead      int // the column-number band above each panel
	PanelHead    int // the heading band above each panel (0 for one panel)
	PanelGap     int
	Width        int
	Height       int
}

// Text metrics of the 12-pixel monospace font the pictures use.
const (
	charW    = 7
	lineH    = 14
	titleH   = 20
	noteH    = 16
	padCell  = 8
	minCellW = 22
)

func (g *Grid) geometry(headerLines int) geometry {
	chars, lines := g.labelSize()
	m := geometry{CellW: max(chars*charW+padCell, minCellW), CellH: lines*lineH + 6}
	m.Left = digits(int64(g.Rows-1))*charW + 12
	m.Top = titleH + headerLines*noteH + 6
	m.ColHead = lineH + 4
	if g.Panels > 1 || len(g.Blocks) > 0 { // a heading for each panel, or the blocks' names
		m.PanelHead, m.PanelGap = noteH+2, 8
	}
	m.Width = m.Left + g.Cols*m.CellW + 12
	m.Width = max(m.Width, 640)
	m.Height = m.Top + g.Panels*m.panelHeight(g) + 8
	return m
}

func (m geometry) panelHeight(g *Grid) int {
	return m.PanelHead + m.ColHead + g.Rows*m.CellH + m.PanelGap
}

// cellXY is the top-left corner of cell (k, r, c).
func (m geometry) cellXY(g *Grid, k, r, c int) (x, y int) {
	return m.Left + c*m.CellW, m.Top + k*m.panelHeight(g) + m.PanelHead + m.ColHead + r*m.CellH
}

// noteChars is how many characters of a note fit on one line of the picture.
func (g *Grid) noteChars() int {
	return max(g.geometry(0).Width-16, 600) / charW
}

// wrapNotes breaks notes at spaces into lines of at most width characters.
func wrapNotes(notes []string, width int) []string {
	var out []string
	for _, n := range notes {
		for len(n) > width {
			cut := strings.LastIndexByte(n[:width], ' ')
			if cut <= 0 {
				cut = width
			}
			out = append(out, n[:cut])
			n = strings.TrimLeft(n[cut:], " ")
		}
		out = append(out, n)
	}
	return out
}
