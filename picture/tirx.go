package picture

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// TIRxData is what a TIRx picture holds: the axes, and for each cell the
// points its element lives on (every element has the same number of points:
// L(x) - D(x) is the replica set, the same for every x).
type TIRxData struct {
	Axes   []tirx.Axis
	Points int     // points per element
	Values []int64 // cell i, point p, axis a: Values[(i*Points+p)*len(Axes)+a]
	// Colour is the axis whose value colours a cell: laneid, else TLane,
	// else the first axis.
	Colour tirx.Axis
}

// maxTIRxValues bounds the point values a TIRx picture holds.
const maxTIRxValues = 1 << 24

// FromTIRx is the ownership picture of a TIRx layout over a logical shape
// (row-major, last mode fastest, as TIRx indexes it): each element shows
// the lanes, warps, ... it lives on. shape nil draws the shard extents as
// (first extent) x (the rest).
func FromTIRx(t tirx.Layout, shape []int64) (*Grid, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	size, err := t.Size()
	if err != nil {
		return nil, err
	}
	if shape == nil {
		first := t.Shard[0].Extent
		shape = []int64{first, size / first}
	}
	if err := t.Admits(shape); err != nil {
		return nil, err
	}
	if err := checkCells(size, t.String()); err != nil {
		return nil, err
	}
	g := &Grid{Kind: KindTIRx, Title: t.String(), Order: RowMajor, Panels: 1, Rank: len(shape)}
	for _, s := range shape {
		g.Modes = append(g.Modes, layout.Int(s))
	}
	switch len(shape) {
	case 1:
		g.Rows, g.Cols = int(shape[0]), 1
		g.Notes = append(g.Notes, "rank 1: one column")
	default:
		g.Rows, g.Cols = int(shape[len(shape)-2]), int(shape[len(shape)-1])
		for _, s := range shape[:len(shape)-2] {
			g.Panels *= int(s)
		}
	}
	if g.Panels > MaxPanels {
		return nil, fmt.Errorf("shape %v has %d panels (one per index of the leading modes): pictures stop at %d; merge the leading modes into the rows", shape, g.Panels, MaxPanels)
	}
	lead := g.Modes[:max(len(shape)-2, 0)]
	g.PanelLabel = func(k int) string {
		if len(lead) == 0 {
			return ""
		}
		return "leading modes = " + rowMajorCoord(int64(k), lead)
	}
	if len(shape) > 2 {
		g.Notes = append(g.Notes, fmt.Sprintf("rank %d: the last two modes down and across, one panel per index of the leading modes (row-major, as TIRx indexes)", len(shape)))
	}
	first, err := t.MapIndex(0)
	if err != nil {
		return nil, err
	}
	axes := t.Axes()
	d := &TIRxData{Axes: axes, Points: len(first), Colour: axes[0]}
	for _, want := range []tirx.Axis{"TLane", "laneid"} {
		for _, a := range axes {
			if a == want {
				d.Colour = a
			}
		}
	}
	if size*int64(d.Points)*int64(len(axes)) > maxTIRxValues {
		return nil, fmt.Errorf("%s: %d elements x %d points: pictures stop at %d point values", t, size, d.Points, maxTIRxValues)
	}
	colourAxis := 0
	for i, a := range axes {
		if a == d.Colour {
			colourAxis = i
		}
	}
	n := int(size)
	d.Values = make([]int64, 0, n*d.Points*len(axes))
	g.Key = make([]int64, n)
	for x := range size {
		pts, err := t.MapIndex(x)
		if err != nil {
			return nil, err
		}
		if len(pts) != d.Points {
			return nil, fmt.Errorf("%s: element %d has %d points, element 0 %d", t, x, len(pts), d.Points)
		}
		for _, p := range pts {
			for _, a := range axes {
				v, _ := p.Get(a)
				d.Values = append(d.Values, v)
			}
		}
		// Row-major order is the cell order: cell i is element i.
		g.Key[x] = max(d.Values[int(x)*d.Points*len(axes)+colourAxis], 0)
	}
	g.TIRx = d
	g.Palette = NewCycle(32)
	g.Notes = append(g.Notes, fmt.Sprintf("each element: the values of its %d point(s) on %s; coloured by %s", d.Points, axisNames(axes), d.Colour))
	return g, nil
}

// ownerLines is cell i's label: one line per axis, the distinct values of
// its points on that axis (at most three, then "+n").
func (d *TIRxData) ownerLines(i int) []string {
	lines := make([]string, len(d.Axes))
	na := len(d.Axes)
	for a, axis := range d.Axes {
		var vals []int64
		for p := range d.Points {
			v := d.Values[(i*d.Points+p)*na+a]
			seen := false
			for _, w := range vals {
				seen = seen || w == v
			}
			if !seen {
				vals = append(vals, v)
			}
		}
		var b strings.Builder
		b.WriteString(axisShort(axis))
		for j, v := range vals {
			if j == 3 {
				fmt.Fprintf(&b, "+%d", len(vals)-3)
				break
			}
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatInt(v, 10))
		}
		lines[a] = b.String()
	}
	return lines
}

// axisShort is the prefix of an axis in a cell: L for lanes, W for warps.
func axisShort(a tirx.Axis) string {
	switch a {
	case "laneid":
		return "L"
	case "warpid":
		return "W"
	}
	return string(a)
}

func axisNames(axes []tirx.Axis) string {
	s := make([]string, len(axes))
	for i, a := range axes {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}

// rowMajorCoord is index i as a coordinate of modes, last fastest.
func rowMajorCoord(i int64, modes []layout.IntTuple) string {
	c := make([]string, len(modes))
	for j := len(modes) - 1; j >= 0; j-- {
		n := modes[j].Value()
		c[j] = strconv.FormatInt(i%n, 10)
		i /= n
	}
	return "(" + strings.Join(c, ",") + ")"
}
