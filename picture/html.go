package picture

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"io"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// page is the HTML page: its styles and script inline, the grid's data
// put in place of the DATA marker as JSON, so that it works offline.
//
//go:embed page.html
var page string

const dataMarker = "/*DATA*/null"

// pageData is the grid as the page's script reads it (see page.html).
type pageData struct {
	Kind    Kind        `json:"kind"`
	Title   string      `json:"title"`
	Notes   []string    `json:"notes"`
	Rows    int         `json:"rows"`
	Cols    int         `json:"cols"`
	Panels  int         `json:"panels"`
	Order   Order       `json:"order"`
	Modes   []any       `json:"modes"`
	Rank    int         `json:"rank"`
	CellW   int         `json:"cellW"`
	CellH   int         `json:"cellH"`
	Lines   int         `json:"lines"`
	Palette pagePalette `json:"palette"`
	// Key is nil when the keys are the offsets (an offsets grid).
	Key     []int64     `json:"key"`
	Offsets []int64     `json:"offsets,omitempty"`
	Text    []string    `json:"text,omitempty"`
	Bank    *pageBank   `json:"bank,omitempty"`
	TV      *pageTV     `json:"tv,omitempty"`
	TIRx    *pageTIRx   `json:"tirx,omitempty"`
	Blocks  []pageBlock `json:"blocks,omitempty"`
}

type pageBlock struct {
	Name    string `json:"name"`
	Col0    int    `json:"col0"`
	Rows    int    `json:"rows"`
	Cols    int    `json:"cols"`
	RowName string `json:"rowName"`
	ColName string `json:"colName"`
}

type pagePalette struct {
	Ramp bool     `json:"ramp"`
	Max  int64    `json:"max"`
	Fill []string `json:"fill"`
	Ink  []string `json:"ink"`
}

type pageBank struct {
	Bits       int           `json:"bits"`
	Phase      int           `json:"phase"`
	Phases     int           `json:"phases"`
	Warp       int           `json:"warp"`
	Step       int           `json:"step"`
	FirstLane  int           `json:"firstLane"`
	Lanes      int           `json:"lanes"`
	Wavefronts int           `json:"wavefronts"`
	Width      int           `json:"width"`
	Words      []int         `json:"words"`
	Marked     map[int][]int `json:"marked"` // cell -> [mark, lanes...]
}

type pageTV struct {
	Threads int     `json:"threads"`
	Values  int     `json:"values"`
	Thread  []int32 `json:"thread"`
	Value   []int32 `json:"value"`
	Holders []int32 `json:"holders"`
}

type pageTIRx struct {
	Axes   []tirx.Axis `json:"axes"`
	Points int         `json:"points"`
	Values []int64     `json:"values"`
	Labels [][]string  `json:"labels"`
	Colour tirx.Axis   `json:"colour"` // the axis whose value colours a cell
}

// WriteHTML writes g as one self-contained interactive page: hover or
// click a cell for its coordinate, offset, bank, thread and value or
// owners; wheel to zoom, drag to pan. It draws on a canvas, only the cells
// in view, so that grids of millions of cells stay smooth.
func (g *Grid) WriteHTML(w io.Writer) error {
	if err := checkCells(int64(g.Cells()), g.Title); err != nil {
		return err
	}
	_, lines := g.labelSize()
	m := g.geometry(0)
	d := pageData{Kind: g.Kind, Title: g.Title, Notes: g.Notes, Rows: g.Rows, Cols: g.Cols, Panels: g.Panels, Order: g.Order,
		Rank: g.Rank, CellW: m.CellW, CellH: m.CellH, Lines: lines,
		Palette: pagePalette{Ramp: g.Palette.Ramp, Max: g.Palette.Max, Fill: g.Palette.Fill, Ink: g.Palette.Ink},
		Offsets: g.Offsets, Text: g.Text}
	if d.Notes == nil {
		d.Notes = []string{}
	}
	for _, mode := range g.Modes {
		d.Modes = append(d.Modes, shapeJSON(mode))
	}
	d.Key = g.Key // nil: the page takes the offsets (clamped at 0) as keys
	if b := g.Bank; b != nil {
		pb := &pageBank{Bits: b.Bits, Phase: b.Phase, Phases: b.Phases, Warp: b.Warp, Step: b.Step, FirstLane: b.FirstLane,
			Lanes: b.Lanes, Wavefronts: b.Wavefronts, Width: b.Width, Words: b.Words[:], Marked: map[int][]int{}}
		for cell, lanes := range b.CellLanes {
			pb.Marked[cell] = append([]int{int(b.Mark[cell])}, lanes...)
		}
		d.Bank = pb
	}
	if t := g.TV; t != nil {
		d.TV = &pageTV{Threads: t.Threads, Values: t.Values, Thread: t.Thread, Value: t.Value, Holders: t.Holders}
	}
	if t := g.TIRx; t != nil {
		pt := &pageTIRx{Axes: t.Axes, Points: t.Points, Values: t.Values, Labels: make([][]string, g.Cells()), Colour: t.Colour}
		for i := range pt.Labels {
			pt.Labels[i] = t.ownerLines(i)
		}
		d.TIRx = pt
	}
	for _, b := range g.Blocks {
		d.Blocks = append(d.Blocks, pageBlock{Name: b.Name, Col0: b.Col0, Rows: b.Rows, Cols: b.Cols, RowName: b.RowName, ColName: b.ColName})
	}
	before, after, ok := strings.Cut(page, dataMarker)
	if !ok {
		panic("picture: page.html has no data marker")
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(strings.Replace(before, "<title></title>", "<title>"+string(appendEscaped(nil, g.Title))+"</title>", 1))
	// encoding/json escapes <, > and & in strings, so no "</script>" can
	// end the script early.
	enc := json.NewEncoder(bw)
	if err := enc.Encode(d); err != nil {
		return err
	}
	bw.WriteString(after)
	return bw.Flush()
}

// shapeJSON is a shape as nested arrays of integers.
func shapeJSON(t layout.IntTuple) any {
	if !t.IsTuple() {
		return t.Value()
	}
	out := make([]any, t.Len())
	for i := range out {
		out[i] = shapeJSON(t.At(i))
	}
	return out
}
