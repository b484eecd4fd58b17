package picture

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// TVData is what a thread-value picture holds per cell of its M x N tile:
// the thread and value that own it (the first (thread, value), threads
// outer, that maps there, as CuTe's print_latex keeps it) and how many
// (thread, value) pairs map there in all.
type TVData struct {
	Threads, Values int
	Thread, Value   []int32 // -1: no thread holds the element
	Holders         []int32
}

// FromTV is the picture of a thread-value layout: tv maps (thread, value)
// to an element of an M x N tile, either a 1-D index in the tile's
// column-major order (m + M*n, as CuTe's MMA and copy atoms give their
// layouts) or an (m, n) coordinate (basis strides). Each tile cell shows
// T<thread> V<value>, coloured by thread, as CuTe's print_latex draws a TV
// layout.
func FromTV(tv layout.Layout, M, N int64) (*Grid, error) {
	if !tv.Shape.IsTuple() || tv.Shape.Len() != 2 {
		return nil, fmt.Errorf("thread-value layout %v: want rank 2, (thread, value) -> tile element; it has rank %d", tv, rankOf(tv.Shape))
	}
	if M <= 0 || N <= 0 {
		return nil, fmt.Errorf("tile %dx%d: both extents must be positive", M, N)
	}
	if M > MaxHTMLCells || N > MaxHTMLCells || M*N > MaxHTMLCells {
		return nil, fmt.Errorf("tile %dx%d: pictures stop at %d cells (2048x2048)", M, N, MaxHTMLCells)
	}
	T, err := layout.Size(tv.Shape.At(0))
	if err != nil {
		return nil, fmt.Errorf("thread-value layout %v: thread mode: %v", tv, err)
	}
	V, err := layout.Size(tv.Shape.At(1))
	if err != nil {
		return nil, fmt.Errorf("thread-value layout %v: value mode: %v", tv, err)
	}
	if T <= 0 || V <= 0 || T > MaxHTMLCells || V > MaxHTMLCells || T*V > MaxHTMLCells {
		return nil, fmt.Errorf("thread-value layout %v: %d threads x %d values: pictures stop at %d pairs", tv, T, V, MaxHTMLCells)
	}
	n := int(M * N)
	g := &Grid{Kind: KindTV, Title: tv.String(), Rows: int(M), Cols: int(N), Panels: 1, Order: Colex,
		Modes: []layout.IntTuple{layout.Int(M), layout.Int(N)}, Rank: 2, PanelLabel: func(int) string { return "" },
		Key: make([]int64, n), Palette: NewCycle(32)}
	d := &TVData{Threads: int(T), Values: int(V), Thread: make([]int32, n), Value: make([]int32, n), Holders: make([]int32, n)}
	g.TV = d
	for i := range d.Thread {
		d.Thread[i], d.Value[i], g.Key[i] = -1, -1, -1
	}
	var flat layout.FlatLayout
	plain := tv.FlattenInto(&flat) == nil
	for t := range T {
		for v := range V {
			m, nn, err := tvElement(tv, &flat, plain, t+T*v, M)
			if err != nil {
				return nil, fmt.Errorf("thread-value layout %v: T%d V%d: %v", tv, t, v, err)
			}
			if m < 0 || m >= M || nn < 0 || nn >= N {
				return nil, fmt.Errorf("thread-value layout %v: T%d V%d maps to (%d,%d), outside the %dx%d tile", tv, t, v, m, nn, M, N)
			}
			at := g.cell(0, int(m), int(nn))
			d.Holders[at]++
			if d.Thread[at] < 0 {
				d.Thread[at], d.Value[at], g.Key[at] = int32(t), int32(v), t
			}
		}
	}
	g.Notes = []string{fmt.Sprintf("(thread, value) -> element of the %dx%d tile: %d threads x %d values; each cell shows the first thread and value there, coloured by thread", M, N, T, V)}
	empty, shared := 0, 0
	for i := range d.Holders {
		switch {
		case d.Holders[i] == 0:
			empty++
		case d.Holders[i] > 1:
			shared++
		}
	}
	if empty > 0 {
		g.Notes = append(g.Notes, fmt.Sprintf("%d tile elements held by no thread (blank)", empty))
	}
	if shared > 0 {
		g.Notes = append(g.Notes, fmt.Sprintf("%d tile elements held by more than one (thread, value)", shared))
	}
	return g, nil
}

// tvElement is the (m, n) of tile element tv(i).
func tvElement(tv layout.Layout, flat *layout.FlatLayout, plain bool, i, M int64) (int64, int64, error) {
	if plain {
		x, err := flat.Crd2Idx(i)
		if err != nil {
			return 0, 0, err
		}
		return x % M, x / M, nil
	}
	r, err := tv.EvalCoord(layout.Int(i))
	if err != nil {
		return 0, 0, err
	}
	if x, ok := plainInt(r); ok {
		return x % M, x / M, nil
	}
	if r.IsTuple() && r.Len() == 2 {
		m, ok1 := plainInt(r.At(0))
		n, ok2 := plainInt(r.At(1))
		if ok1 && ok2 {
			return m, n, nil
		}
	}
	return 0, 0, fmt.Errorf("maps to %v, not a tile index or an (m,n) coordinate", r)
}

func rankOf(t layout.IntTuple) int {
	if t.IsTuple() {
		return t.Len()
	}
	return 1
}
