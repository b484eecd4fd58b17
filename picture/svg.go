package picture

import (
	"bufio"
	"io"
	"strconv"
)

// WriteSVG draws g as a standalone SVG image: the title and notes, then
// each panel's cells with their labels, row numbers on the left and column
// numbers on top (as CuTe's print_latex labels them). A bank map outlines
// the cells its phase touches, in red where the phase conflicts.
func (g *Grid) WriteSVG(w io.Writer) error {
	if err := g.CheckSVG(); err != nil {
		return err
	}
	notes := wrapNotes(g.Notes, g.noteChars())
	m := g.geometry(len(notes))
	bw := bufio.NewWriterSize(w, 1<<16)
	b := make([]byte, 0, 256)
	flush := func() {
		bw.Write(b)
		b = b[:0]
	}
	b = append(b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<svg xmlns="http://www.w3.org/2000/svg" width="`...)
	b = strconv.AppendInt(b, int64(m.Width), 10)
	b = append(b, `" height="`...)
	b = strconv.AppendInt(b, int64(m.Height), 10)
	b = append(b, `" font-family="ui-monospace,Menlo,Consolas,monospace" font-size="12">`+"\n"...)
	b = append(b, `<style>.c{stroke:#555;stroke-width:0.5}.t{text-anchor:middle;dominant-baseline:central}.h{fill:#333}.touched{fill:none;stroke:#111;stroke-width:2}.conflict{fill:none;stroke:#e00000;stroke-width:3}.inner{fill:none;stroke:#ffffff;stroke-width:1}</style>`+"\n"...)
	b = append(b, `<rect width="100%" height="100%" fill="#ffffff"/>`+"\n"...)
	b = appendText(b, 8, titleH-5, "", "font-size=\"14\" font-weight=\"bold\"", string(g.Kind)+": "+g.Title)
	for i, n := range notes {
		b = appendText(b, 8, titleH+(i+1)*noteH-4, "h", "", n)
	}
	flush()
	for k := range g.Panels {
		_, y0 := m.cellXY(g, k, 0, 0)
		if g.Panels > 1 {
			b = appendText(b, m.Left, y0-m.ColHead-4, "h", `font-weight="bold"`, g.PanelLabel(k))
		}
		for _, blk := range g.Blocks {
			x, _ := m.cellXY(g, k, 0, blk.Col0)
			b = appendText(b, x, y0-m.ColHead-4, "h", `font-weight="bold"`, blk.Name)
		}
		for c := range g.Cols {
			x, _ := m.cellXY(g, k, 0, c)
			if col, ok := g.columnNumber(c); ok {
				b = appendText(b, x+m.CellW/2, y0-m.ColHead/2, "t h", "", strconv.Itoa(col))
			}
		}
		for r := range g.Rows {
			_, y := m.cellXY(g, k, r, 0)
			b = appendText(b, m.Left/2, y+m.CellH/2, "t h", "", strconv.Itoa(r))
			for c := range g.Cols {
				if g.Blocks != nil && g.BlockAt(r, c) < 0 {
					continue
				}
				b = g.appendCell(b, m, k, r, c)
				if len(b) > 1<<15 {
					flush()
				}
			}
		}
		flush()
	}
	if g.Bank != nil && g.Bank.Phase >= 0 {
		b = g.appendMarks(b, m)
	}
	b = append(b, "</svg>\n"...)
	flush()
	return bw.Flush()
}

// appendCell writes one cell: its rectangle in its colour and its label.
func (g *Grid) appendCell(b []byte, m geometry, k, r, c int) []byte {
	i := g.cell(k, r, c)
	x, y := m.cellXY(g, k, r, c)
	fill, ink := "#ffffff", "#000000"
	if ci := g.Palette.Colour(g.KeyOf(i)); ci >= 0 { // key -1: nothing there, left white
		fill, ink = g.Palette.Fill[ci], g.Palette.Ink[ci]
	}
	b = append(b, `<rect class="c" x="`...)
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, `" y="`...)
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, `" width="`...)
	b = strconv.AppendInt(b, int64(m.CellW), 10)
	b = append(b, `" height="`...)
	b = strconv.AppendInt(b, int64(m.CellH), 10)
	b = append(b, `" fill="`...)
	b = append(b, fill...)
	b = append(b, "\"/>"...)
	lines := g.Label(i)
	top := y + m.CellH/2 - (len(lines)-1)*lineH/2
	for j, s := range lines {
		if s == "" {
			continue
		}
		b = append(b, `<text class="t" x="`...)
		b = strconv.AppendInt(b, int64(x+m.CellW/2), 10)
		b = append(b, `" y="`...)
		b = strconv.AppendInt(b, int64(top+j*lineH), 10)
		if ink != "#000000" {
			b = append(b, `" fill="`...)
			b = append(b, ink...)
		}
		b = append(b, `">`...)
		b = appendEscaped(b, s)
		b = append(b, "</text>"...)
	}
	return append(b, '\n')
}

// appendMarks outlines the cells the highlighted phase touches.
func (g *Grid) appendMarks(b []byte, m geometry) []byte {
	for _, want := range []uint8{MarkTouched, MarkConflict} { // conflicts drawn last, on top
		for k := range g.Panels {
			for r := range g.Rows {
				for c := range g.Cols {
					if g.Bank.Mark[g.cell(k, r, c)] != want {
						continue
					}
					x, y := m.cellXY(g, k, r, c)
					class := "touched"
					if want == MarkConflict {
						class = "conflict"
					}
					b = append(b, `<rect class="`...)
					b = append(b, class...)
					b = append(b, `" x="`...)
					b = strconv.AppendInt(b, int64(x+1), 10)
					b = append(b, `" y="`...)
					b = strconv.AppendInt(b, int64(y+1), 10)
					b = append(b, `" width="`...)
					b = strconv.AppendInt(b, int64(m.CellW-2), 10)
					b = append(b, `" height="`...)
					b = strconv.AppendInt(b, int64(m.CellH-2), 10)
					b = append(b, "\"/>\n"...)
					if want == MarkConflict { // a white line inside, so the red reads on any fill
						b = append(b, `<rect class="inner" x="`...)
						b = strconv.AppendInt(b, int64(x+3), 10)
						b = append(b, `" y="`...)
						b = strconv.AppendInt(b, int64(y+3), 10)
						b = append(b, `" width="`...)
						b = strconv.AppendInt(b, int64(m.CellW-6), 10)
						b = append(b, `" height="`...)
						b = strconv.AppendInt(b, int64(m.CellH-6), 10)
						b = append(b, "\"/>\n"...)
					}
				}
			}
		}
	}
	return b
}

// appendText writes a <text> element at (x, y).
func appendText(b []byte, x, y int, class, attrs, s string) []byte {
	b = append(b, `<text x="`...)
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, `" y="`...)
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, '"')
	if class != "" {
		b = append(b, ` class="`...)
		b = append(b, class...)
		b = append(b, '"')
	}
	if attrs != "" {
		b = append(b, ' ')
		b = append(b, attrs...)
	}
	b = append(b, '>')
	b = appendEscaped(b, s)
	return append(b, "</text>\n"...)
}

// appendEscaped appends s with XML's special characters escaped.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '&':
			b = append(b, "&amp;"...)
		case '"':
			b = append(b, "&quot;"...)
		default:
			b = append(b, c)
		}
	}
	return b
}
