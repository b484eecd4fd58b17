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

// TableLimits caps an offset table: at most MaxRows rows in all (the rows
// of every slice shown counted together, so a layout of rank 3 or more
// shows as many slices as fit, at least one) and MaxCols columns, and at
// most MaxSlices slices; what is cut is said below it.
type TableLimits struct {
	MaxRows, MaxCols, MaxSlices int
}

// DefaultLimits fits a hover window.
var DefaultLimits = TableLimits{MaxRows: 16, MaxCols: 16, MaxSlices: 4}

// The most a table shows, whatever its limits ask: a 256 x 256 slice is
// already more than a hover window or a terminal shows, and the table
// stops adding slices once it holds maxTableBytes, so that no setting
// makes a hover cost more than a few megabytes.
const (
	MaxTableCap    = 256 // rows, and columns, of a slice
	MaxTableSlices = 64
	maxTableBytes  = 1 << 20
)

// clamped is lim within 1 and the maxima.
func (lim TableLimits) clamped() TableLimits {
	return TableLimits{
		MaxRows:   min(max(lim.MaxRows, 1), MaxTableCap),
		MaxCols:   min(max(lim.MaxCols, 1), MaxTableCap),
		MaxSlices: min(max(lim.MaxSlices, 1), MaxTableSlices),
	}
}

// function is a layout seen as a map from a 1-D index to an offset.
type function interface {
	layout.Value
	Eval(i int64) (int64, error)
}

// domainShape is the shape whose modes a value's table runs over.
func domainShape(v layout.Value) (layout.IntTuple, function, bool) {
	switch v := v.(type) {
	case *layout.Layout:
		return v.Shape, v, true
	case layout.Composed:
		return v.Inner.Shape, v, true
	case layout.NestedComposed:
		return v.Inner.Inner.Shape, v, true
	case layout.IntTuple:
		if v.IsLeaf() && !v.IsBasis() && !v.IsUnknown() {
			l := layout.Make(v, layout.Int(1))
			return l.Shape, &l, true
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
		return "", fmt.Errorf("%v has no offset table: it is not a layout", layout.FormatLimited(v, false, 200))
	}
	lim = lim.clamped()
	if shape.IsTuple() && shape.Len() == 0 {
		return "", fmt.Errorf("%v has no offset table: its shape has no modes", layout.FormatLimited(v, false, 200))
	}
	sizes := make([]int64, shape.Len())
	for i := range sizes {
		n, err := layout.Size(shape.At(i))
		if err != nil {
			return "", err
		}
		if n < 1 {
			// CuTe builds such shapes (left_inverse(4:-1) is (_-1,_4):(_0,_1)), but a mode with no
			// coordinates has no row or column to draw.
			return "", fmt.Errorf("%v has no offset table: mode %d has size %d", layout.FormatLimited(v, false, 200), i, n)
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
	// The row cap bounds the rows of all slices together: tableCap 16
	// shows one 16-row slice, or four 4-row slices, never 4 x 16 rows.
	perSlice := min(rows, int64(lim.MaxRows))
	shownSlices := min(slices, int64(lim.MaxSlices), max(1, int64(lim.MaxRows)/perSlice))
	for k := int64(0); k < shownSlices; k++ {
		if b.Len() >= maxTableBytes {
			shownSlices = k
			break
		}
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
// A hover on a large layout renders thousands of cells while the user
// waits: the cells and padding are written directly, without fmt.
func writeGrid(b *strings.Builder, f function, rows, cols, k int64, lim TableLimits) error {
	shownRows, shownCols := min(rows, int64(lim.MaxRows)), min(cols, int64(lim.MaxCols))
	// The cells' text back to back: cell i is text[ends[i-1]:ends[i]].
	ends := make([]int, shownRows*shownCols)
	text := make([]byte, 0, len(ends)*4)
	width := len(strconv.FormatInt(max(shownCols-1, shownRows-1), 10))
	// A layout of known integer leaves is evaluated on its flat form, with
	// no coordinate built per cell; anything else (bases, unknowns, an
	// offset that overflows) is rendered cell by cell.
	var flat layout.FlatLayout
	plain := false
	if l, ok := f.(*layout.Layout); ok {
		plain = l.FlattenInto(&flat) == nil
	}
	for r := range shownRows {
		for c := range shownCols {
			idx := r + rows*(c+cols*k)
			start := len(text)
			if off, ok := flatOffset(&flat, plain, idx); ok {
				text = strconv.AppendInt(text, off, 10)
			} else {
				cell, err := cellText(f, idx)
				if err != nil {
					return err
				}
				text = append(text, cell...)
			}
			ends[r*shownCols+c] = len(text)
			width = max(width, len(text)-start)
		}
	}
	rowLabel := len(strconv.FormatInt(shownRows-1, 10))
	pad := strings.Repeat(" ", rowLabel+2)
	rule := pad + "+" + strings.Repeat(strings.Repeat("-", width+2)+"+", int(shownCols)) + "\n"
	b.Grow(int(shownRows+2)*(len(rule)+1) + len(rule))
	// Column headers, then a rule, then each row followed by a rule.
	b.WriteString(pad)
	var num [20]byte
	for c := range shownCols {
		b.WriteByte(' ')
		writePadded(b, strconv.AppendInt(num[:0], c, 10), width)
		b.WriteByte(' ')
		if c+1 < shownCols {
			b.WriteByte(' ')
		}
	}
	if shownCols < cols {
		fmt.Fprintf(b, "  ... (%d of %d columns)", shownCols, cols)
	}
	b.WriteByte('\n')
	b.WriteString(rule)
	for r := range shownRows {
		writePadded(b, strconv.AppendInt(num[:0], r, 10), rowLabel)
		b.WriteString("  |")
		for c := range shownCols {
			i := r*shownCols + c
			start := 0
			if i > 0 {
				start = ends[i-1]
			}
			b.WriteByte(' ')
			writePadded(b, text[start:ends[i]], width)
			b.WriteString(" |")
		}
		b.WriteByte('\n')
		b.WriteString(rule)
	}
	if shownRows < rows {
		fmt.Fprintf(b, "%s... (%d of %d rows)\n", pad, shownRows, rows)
	}
	return nil
}

// writePadded writes text right-aligned in width columns (as %*s does).
func writePadded(b *strings.Builder, text []byte, width int) {
	for n := width - len(text); n > 0; n-- {
		b.WriteByte(' ')
	}
	b.Write(text)
}

// flatOffset is the offset of idx on the flat form, when there is one and
// the offset does not overflow.
func flatOffset(flat *layout.FlatLayout, plain bool, idx int64) (int64, bool) {
	if !plain {
		return 0, false
	}
	off, err := flat.Crd2Idx(idx)
	return off, err == nil
}

// cellText is f(idx) as a table shows it: an offset, or for a layout with
// basis strides (make_identity_layout, TMA coordinate layouts) the
// coordinate it maps to, as CuTe's print_layout shows one.
func cellText(f function, idx int64) (string, error) {
	if l, ok := f.(*layout.Layout); ok {
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
