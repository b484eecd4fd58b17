// Package hover renders what cute-lsp shows about a value: its notation and
// properties, its offset table in the style of CuTe's print_layout, and for a
// call the steps that produced it. It returns Markdown and plain text and
// knows nothing of the editor protocol.
package hover

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
)

// TableLimits caps an offset table: at most MaxRows rows and MaxCols columns
// per 2-D slice and at most MaxSlices slices; what is cut is said below it.
type TableLimits struct {
	MaxRows, MaxCols, MaxSlices int
}

// DefaultLimits fits a hover window.
var DefaultLimits = TableLimits{MaxRows: 16, MaxCols: 16, MaxSlices: 4}

// function is a layout seen as a map from a 1-D index to an offset.
type function interface {
	layout.Value
	Eval(i int64) (int64, error)
}

// domainShape is the shape whose modes a value's table runs over.
func domainShape(v layout.Value) (layout.IntTuple, function, bool) {
	switch v := v.(type) {
	case layout.Layout:
		return v.Shape, v, true
	case layout.Composed:
		return v.Inner.Shape, v, true
	case layout.NestedComposed:
		return v.Inner.Inner.Shape, v, true
	case layout.IntTuple:
		if v.IsLeaf() && !v.IsBasis() && !v.IsUnknown() {
			l := layout.Make(v, layout.Int(1))
			return l.Shape, l, true
		}
	}
	return layout.IntTuple{}, nil, false
}

// Table renders the offsets of a layout as CuTe's print_layout does: mode 0
// down the rows, mode 1 across the columns (a rank-1 layout is one row), and
// for higher ranks one 2-D slice per coordinate of the remaining modes.
func Table(v layout.Value, lim TableLimits) (string, error) {
	shape, f, ok := domainShape(v)
	if !ok {
		return "", fmt.Errorf("%v has no offset table: it is not a layout", v)
	}
	sizes := make([]int64, shape.Len())
	for i := range sizes {
		n, err := layout.Size(shape.At(i))
		if err != nil {
			return "", err
		}
		sizes[i] = n
	}
	rows, cols, slices := int64(1), int64(1), int64(1)
	switch {
	case !shape.IsTuple():
		rows, cols = 1, sizes[0]
	case len(sizes) == 1:
		rows, cols = 1, sizes[0]
	default:
		rows, cols = sizes[0], sizes[1]
		for _, s := range sizes[2:] {
			slices *= s
		}
	}
	var b strings.Builder
	shownSlices := min(slices, int64(lim.MaxSlices))
	for k := int64(0); k < shownSlices; k++ {
		if slices > 1 {
			fmt.Fprintf(&b, "slice %d of %d (modes 2.. at index %d):\n", k+1, slices, k)
		}
		if err := writeGrid(&b, f, rows, cols, k, lim); err != nil {
			return "", err
		}
	}
	if shownSlices < slices {
		fmt.Fprintf(&b, "... %d more slices not shown\n", slices-shownSlices)
	}
	return b.String(), nil
}

// writeGrid writes one 2-D slice: entry (r, c) is f(r + rows*(c + cols*k)).
func writeGrid(b *strings.Builder, f function, rows, cols, k int64, lim TableLimits) error {
	shownRows, shownCols := min(rows, int64(lim.MaxRows)), min(cols, int64(lim.MaxCols))
	cells := make([][]string, shownRows)
	width := len(strconv.FormatInt(max(shownCols-1, shownRows-1), 10))
	for r := range shownRows {
		cells[r] = make([]string, shownCols)
		for c := range shownCols {
			idx := r + rows*(c+cols*k)
			cell, err := cellText(f, idx)
			if err != nil {
				return err
			}
			cells[r][c] = cell
			width = max(width, len(cells[r][c]))
		}
	}
	rowLabel := len(strconv.FormatInt(shownRows-1, 10))
	pad := strings.Repeat(" ", rowLabel+2)
	// Column headers, then a rule, then each row followed by a rule.
	b.WriteString(pad)
	for c := range shownCols {
		fmt.Fprintf(b, " %*d ", width, c)
		if c+1 < shownCols {
			b.WriteByte(' ')
		}
	}
	if shownCols < cols {
		fmt.Fprintf(b, "  ... (%d of %d columns)", shownCols, cols)
	}
	b.WriteByte('\n')
	rule := pad + "+" + strings.Repeat(strings.Repeat("-", width+2)+"+", int(shownCols)) + "\n"
	b.WriteString(rule)
	for r := range shownRows {
		fmt.Fprintf(b, "%*d  |", rowLabel, r)
		for _, cell := range cells[r] {
			fmt.Fprintf(b, " %*s |", width, cell)
		}
		b.WriteByte('\n')
		b.WriteString(rule)
	}
	if shownRows < rows {
		fmt.Fprintf(b, "%s... (%d of %d rows)\n", pad, shownRows, rows)
	}
	return nil
}

// cellText is f(idx) as a table shows it: an offset, or for a layout with
// basis strides (make_identity_layout, TMA coordinate layouts) the
// coordinate it maps to, as CuTe's print_layout shows one.
func cellText(f function, idx int64) (string, error) {
	if l, ok := f.(layout.Layout); ok {
		r, err := l.EvalCoord(layout.Int(idx))
		if err != nil {
			return "", err
		}
		return r.String(), nil
	}
	off, err := f.Eval(idx)
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(off, 10), nil
}
