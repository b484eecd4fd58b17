// Package hover renders what cute-lsp shows about a value: its notation and
// properties, its offset table in the style of CuTe's print_layout, and for a
// call the steps that produced it. It returns Markdown and plain text and
// knows nothing of the editor protocol.
package hover

import (
	"fmt"
	"math"
	"math/bits"
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
// A hover on a large layout renders thousands of cells while the user
// waits: the cells and padding are written directly, without fmt.
func writeGrid(b *strings.Builder, f function, rows, cols, k int64, lim TableLimits) error {
	shownRows, shownCols := min(rows, int64(lim.MaxRows)), min(cols, int64(lim.MaxCols))
	// The cells' text back to back: cell i is text[ends[i-1]:ends[i]].
	ends := make([]int, shownRows*shownCols)
	text := make([]byte, 0, len(ends)*4)
	width := len(strconv.FormatInt(max(shownCols-1, shownRows-1), 10))
	flat, plain := plainOffsets(f)
	for r := range shownRows {
		for c := range shownCols {
			idx := r + rows*(c+cols*k)
			start := len(text)
			if plain {
				text = strconv.AppendInt(text, flat.offset(idx), 10)
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

// flatLayout is a layout of known integer leaves, flattened: the offset of
// index i in its domain is the sum over modes of (i's coordinate in the mode)
// times the mode's stride, coordinates taken colexicographically.
type flatLayout struct {
	shape, stride []int64
}

func (fl flatLayout) offset(idx int64) int64 {
	var off int64
	for m, s := range fl.shape {
		off += (idx % s) * fl.stride[m]
		idx /= s
	}
	return off
}

// plainOffsets flattens f when it is a layout whose offsets are plain
// integers that cannot overflow (every shape leaf at least 1, every stride
// a known integer, and the sum of the largest coordinate times the stride's
// magnitude within int64): its cells are then computed without building
// coordinates. ok is false otherwise, and cellText renders each cell.
func plainOffsets(f function) (flatLayout, bool) {
	l, ok := f.(layout.Layout)
	if !ok {
		return flatLayout{}, false
	}
	shape, stride := layout.FlattenToTuple(l.Shape), layout.FlattenToTuple(l.Stride)
	if shape.Len() != stride.Len() {
		return flatLayout{}, false
	}
	fl := flatLayout{shape: make([]int64, shape.Len()), stride: make([]int64, shape.Len())}
	var bound uint64
	for m := range fl.shape {
		s, d := shape.At(m), stride.At(m)
		if !plainLeaf(s) || !plainLeaf(d) || s.Value() < 1 {
			return flatLayout{}, false
		}
		mag := d.Value()
		if mag < 0 {
			if mag == math.MinInt64 {
				return flatLayout{}, false
			}
			mag = -mag
		}
		hi, term := bits.Mul64(uint64(s.Value()-1), uint64(mag))
		var carry uint64
		bound, carry = bits.Add64(bound, term, 0)
		if hi != 0 || carry != 0 || bound > math.MaxInt64 {
			return flatLayout{}, false
		}
		fl.shape[m], fl.stride[m] = s.Value(), d.Value()
	}
	return fl, true
}

// plainLeaf reports whether t is a known integer leaf (not a tuple, basis,
// unknown or _).
func plainLeaf(t layout.IntTuple) bool {
	return !t.IsTuple() && !t.IsUnknown() && !t.IsBasis() && !t.IsUnderscore()
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
