package picture

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
)

// function is a layout as a map from a 1-D index to an offset.
type function interface {
	layout.Value
	Eval(i int64) (int64, error)
}

// domain is the shape a value's picture runs over and the value as a function.
func domain(v layout.Value) (layout.IntTuple, function, error) {
	switch v := v.(type) {
	case *layout.Layout:
		return v.Shape, v, nil
	case layout.Composed:
		return v.Inner.Shape, v, nil
	case layout.NestedComposed:
		return v.Inner.Inner.Shape, v, nil
	case layout.IntTuple:
		if v.IsLeaf() && !v.IsBasis() && !v.IsUnknown() && !v.IsUnderscore() {
			l := layout.Make(v, layout.Int(1))
			return l.Shape, &l, nil
		}
	}
	return layout.IntTuple{}, nil, fmt.Errorf("%v is not a layout: only layouts, swizzled layouts, TIRx layouts, thread-value layouts and bank_conflicts(...) have a picture", v)
}

// arrangement is how a domain shape is drawn: rows over mode 0, columns
// over mode 1 (a rank-1 shape is one column), panels over the rest.
type arrangement struct {
	rows, cols, panels int64
	rank               int
	modes              []layout.IntTuple
	notes              []string
}

func arrange(shape layout.IntTuple, what string) (arrangement, error) {
	var a arrangement
	if shape.IsTuple() {
		a.modes = shape.Elems()
	} else {
		a.modes = []layout.IntTuple{shape}
	}
	if len(a.modes) == 0 {
		return a, fmt.Errorf("%s has an empty shape: nothing to draw", what)
	}
	a.rank = len(a.modes)
	sizes := make([]int64, len(a.modes))
	total := int64(1)
	for i, m := range a.modes {
		n, err := layout.Size(m)
		if err != nil {
			return a, fmt.Errorf("%s: mode %d: %v", what, i, err)
		}
		if n <= 0 {
			return a, fmt.Errorf("%s: mode %d has size %d: nothing to draw", what, i, n)
		}
		sizes[i] = n
		if total > MaxHTMLCells || n > MaxHTMLCells {
			total = MaxHTMLCells + 1
		} else {
			total *= n
		}
	}
	if err := checkCells(total, what); err != nil {
		return a, err
	}
	a.rows, a.cols, a.panels = sizes[0], 1, 1
	if len(sizes) >= 2 {
		a.cols = sizes[1]
		a.notes = append(a.notes, fmt.Sprintf("rows: mode 0, shape %v; columns: mode 1, shape %v", a.modes[0], a.modes[1]))
	} else {
		a.modes = append(a.modes, layout.Int(1))
		a.notes = append(a.notes, "rank 1: one column, as CuTe's print_latex draws it")
	}
	for _, n := range sizes[min(2, len(sizes)):] {
		a.panels *= n
	}
	if a.panels > MaxPanels {
		return a, fmt.Errorf("%s has %d panels (one per index of modes 2..): pictures stop at %d; group modes 1.. into the columns, e.g. group<1,%d>(L), or draw a slice", what, a.panels, MaxPanels, len(sizes))
	}
	if len(sizes) > 2 {
		which := "mode 2"
		if len(sizes) > 3 {
			which = fmt.Sprintf("modes 2..%d (mode 2 fastest)", len(sizes)-1)
		}
		a.notes = append(a.notes, fmt.Sprintf("rank %d: mode 0 down, mode 1 across, one panel per index of %s, as CuTe's print_tensor folds it", len(sizes), which))
	}
	return a, nil
}

// panelLabel names panel k of a grid by its coordinate in modes 2.. .
func panelLabel(modes []layout.IntTuple) func(int) string {
	if len(modes) <= 2 {
		return func(int) string { return "" }
	}
	rest, name := layout.Tup(modes[2:]...), "modes 2.. = "
	if len(modes) == 3 {
		rest, name = modes[2], "mode 2 = "
	}
	return func(k int) string {
		c, err := layout.Idx2Crd(layout.Int(int64(k)), rest)
		if err != nil {
			return "panel " + strconv.Itoa(k)
		}
		return name + c.String()
	}
}

// FromLayout is the offsets picture of a layout, a swizzled layout
// (offsets after the swizzle) or an integer N (N:1).
func FromLayout(v layout.Value) (*Grid, error) {
	shape, f, err := domain(v)
	if err != nil {
		return nil, err
	}
	a, err := arrange(shape, v.String())
	if err != nil {
		return nil, err
	}
	g := &Grid{Kind: KindOffsets, Title: v.String(), Notes: a.notes, Rows: int(a.rows), Cols: int(a.cols), Panels: int(a.panels),
		Order: Colex, Modes: a.modes, Rank: a.rank}
	g.PanelLabel = panelLabel(a.modes)
	n := g.Cells()
	offsets, text, err := evalOffsets(f, g)
	if err != nil {
		return nil, fmt.Errorf("%v: %v", v, err)
	}
	if text != nil {
		g.Text = text
		g.Key = make([]int64, n)
		// Cells that are not integers (basis strides: coordinates) are
		// coloured by the order in which each distinct value first appears.
		seen := map[string]int64{}
		for i, s := range text {
			id, ok := seen[s]
			if !ok {
				id = int64(len(seen))
				seen[s] = id
			}
			g.Key[i] = id
		}
		g.Palette = NewRamp(int64(max(len(seen)-1, 1)))
		g.Notes = append(g.Notes, "cells are coordinates (basis strides), coloured by first appearance")
		return g, nil
	}
	g.Offsets = offsets
	var top int64
	for _, off := range offsets {
		top = max(top, off)
	}
	g.Palette = NewRamp(top) // Key stays nil: an offsets grid's keys are its offsets
	if _, ok := v.(*layout.Layout); !ok {
		g.Notes = append(g.Notes, "offsets after the swizzle")
	}
	return g, nil
}

// evalOffsets is f at every cell of g, in cell order: integer offsets,
// or text when f's values are not integers. A plain or swizzled layout of
// integer leaves is evaluated on its flat form, without building a
// coordinate per cell.
func evalOffsets(f function, g *Grid) ([]int64, []string, error) {
	n := g.Cells()
	var flat layout.FlatLayout
	switch f := f.(type) {
	case *layout.Layout:
		if f.FlattenInto(&flat) == nil {
			out := make([]int64, n)
			return out, nil, fillFlat(out, g, &flat, nil, 0)
		}
		text := make([]string, n)
		err := eachCell(g, func(at int, idx int64) error {
			r, err := f.EvalCoord(layout.Int(idx))
			text[at] = strings.ReplaceAll(r.String(), " ", "")
			return err
		})
		return nil, text, err
	case layout.Composed:
		if off, ok := plainInt(f.Offset); ok && f.Inner.FlattenInto(&flat) == nil {
			if err := f.Outer.Validate("swizzle"); err != nil {
				return nil, nil, err
			}
			sw := f.Outer
			out := make([]int64, n)
			return out, nil, fillFlat(out, g, &flat, &sw, off)
		}
	}
	out := make([]int64, n)
	err := eachCell(g, func(at int, idx int64) error {
		off, err := f.Eval(idx)
		out[at] = off
		return err
	})
	return out, nil, err
}

// eachCell calls f with each cell's position and element index, in cell order.
func eachCell(g *Grid, f func(at int, idx int64) error) error {
	at := 0
	for k := range g.Panels {
		for r := range g.Rows {
			for c := range g.Cols {
				if err := f(at, g.Index(k, r, c)); err != nil {
					return err
				}
				at++
			}
		}
	}
	return nil
}

// fillFlat writes sw(off + flat(idx)) for every cell (no swizzle when sw is nil).
func fillFlat(out []int64, g *Grid, flat *layout.FlatLayout, sw *layout.Swizzle, off int64) error {
	return eachCell(g, func(at int, idx int64) error {
		x, err := flat.Crd2Idx(idx)
		if err != nil {
			return err
		}
		x += off
		if sw != nil {
			if x, err = sw.Apply(x); err != nil {
				return err
			}
		}
		out[at] = x
		return nil
	})
}

// plainInt is the integer of a plain integer leaf.
func plainInt(t layout.IntTuple) (int64, bool) {
	if !t.IsLeaf() || t.IsBasis() || t.IsUnknown() || t.IsUnderscore() {
		return 0, false
	}
	return t.Value(), true
}
