package atom

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// TVGrid draws a thread-value layout whose thread index is the hardware
// thread itself (a TiledMMA's or TiledCopy's get_layoutA_TV, get_layoutS_TV,
// ...) over its rows x cols tile: tv maps (thread, value) to the tile's
// column-major index r + rows*c.
func TVGrid(title, rowName, colName string, tv layout.Layout, rows, cols int64) (*Grid, error) {
	if rows <= 0 || cols <= 0 {
		return nil, &layout.Error{Op: "thread-value grid", Detail: fmt.Sprintf("a %d x %d tile", rows, cols)}
	}
	thr, err := tv.Get(0)
	if err != nil {
		return nil, err
	}
	n, err := thr.Size()
	if err != nil {
		return nil, err
	}
	g := &Grid{Title: title, RowName: rowName, ColName: colName, Rows: rows, Cols: cols}
	if err := fill(g, tv, layout.Make(layout.Int(n), layout.Int(1)), 1, title); err != nil {
		return nil, err
	}
	return g, nil
}
