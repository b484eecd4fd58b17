package atom

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
)

// Holder is one (thread, value) pair of a thread-value layout: the hardware
// thread (the logical thread mapped through ThrID) and the value index in
// that thread's fragment.
type Holder struct {
	Thread int64
	Value  int64
}

func (h Holder) String() string { return fmt.Sprintf("T%dV%d", h.Thread, h.Value) }

// Grid is a thread-value layout drawn over its tile: for each element
// (row, col), every (thread, value) pair that maps to it. Row r, column c is
// the tile's column-major index r + Rows*c.
type Grid struct {
	Title            string
	RowName, ColName string
	Rows, Cols       int64
	Cells            [][]Holder // Rows*Cols cells, column-major; holders sorted by thread, then value
}

// At is the holders of element (r, c).
func (g *Grid) At(r, c int64) []Holder { return g.Cells[r+g.Rows*c] }

// Operand is an operand of an MMA: 'A', 'B' or 'C'.
type Operand byte

// gridLimit bounds the cells a grid enumerates (the largest catalogued tile,
// UMMA's 256 x 256 C, has 65536).
const gridLimit = 1 << 20

// Grid draws the operand's thread-value layout over its tile: A over M x K
// (rows m, columns k), B over N x K, C over M x N, as CuTe's traits index them.
func (a *MMA) Grid(op Operand) (*Grid, error) {
	var tv layout.Layout
	var rows, cols int64
	var rn, cn string
	switch op {
	case 'A':
		tv, rows, cols, rn, cn = a.ALayout, a.M(), a.K(), "m", "k"
	case 'B':
		tv, rows, cols, rn, cn = a.BLayout, a.N(), a.K(), "n", "k"
	case 'C':
		tv, rows, cols, rn, cn = a.CLayout, a.M(), a.N(), "m", "n"
	default:
		return nil, &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("operand %q: an MMA has operands A, B and C", string(op))}
	}
	g := &Grid{Title: fmt.Sprintf("%s %c (%s x %s = %d x %d)", a.Name, op, strings.ToUpper(rn), strings.ToUpper(cn), rows, cols),
		RowName: rn, ColName: cn, Rows: rows, Cols: cols}
	err := fill(g, tv, a.ThrID, 1, a.Name+" "+string(op)+"Layout")
	return g, err
}

// Side is the source or destination side of a copy.
type Side byte

const (
	Src Side = 'S'
	Dst Side = 'D'
)

// Grid draws one side of the copy in elements of elemBits bits: the data
// one copy moves, as elements 0, 1, ..., laid out cols to a row (row r,
// column c is element r*cols + c), each with the (thread, value) pairs that
// hold it. cols 0 picks 128 bits a row when 32 threads copy together (an
// 8x8 matrix of 16-bit elements for ldmatrix), else the whole copy on one row.
func (c *Copy) Grid(side Side, elemBits int, cols int64) (*Grid, error) {
	tv, name := c.SrcLayout, "source"
	if side == Dst {
		tv, name = c.DstLayout, "destination"
	} else if side != Src {
		return nil, &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("side %q: a copy has a source (S) and a destination (D)", string(side))}
	}
	if elemBits <= 0 {
		return nil, &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("element width %d bits: it must be positive", elemBits)}
	}
	bits, err := tv.Cosize()
	if err != nil {
		return nil, err
	}
	if bits%int64(elemBits) != 0 {
		return nil, &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("%s moves %d bits, not a whole number of %d-bit elements", c.Name, bits, elemBits)}
	}
	elems := bits / int64(elemBits)
	thr, _ := c.ThrID.Size()
	if cols <= 0 {
		cols = elems
		if thr == 32 && elems > 128/int64(elemBits) && 128%elemBits == 0 {
			cols = 128 / int64(elemBits)
		}
	}
	if elems%cols != 0 {
		return nil, &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("%d elements do not fill rows of %d", elems, cols)}
	}
	rows := elems / cols
	g := &Grid{Title: fmt.Sprintf("%s %s (%d-bit elements, %d a row)", c.Name, name, elemBits, cols),
		RowName: "row", ColName: "col", Rows: cols, Cols: rows}
	// Fill over the element index space, then transpose into row-major rows.
	if err := fill(g, tv, c.ThrID, int64(elemBits), c.Name+" "+name); err != nil {
		return nil, err
	}
	t := &Grid{Title: g.Title, RowName: "row", ColName: "col", Rows: rows, Cols: cols, Cells: make([][]Holder, rows*cols)}
	for e := int64(0); e < elems; e++ {
		t.Cells[e/cols+rows*(e%cols)] = g.Cells[e]
	}
	return t, nil
}

// fill enumerates tv's (thread, value) domain and records, for each tile
// index tv(t, v)/unit, the holder (ThrID(t), v/unit). With unit > 1 (bits
// per element) each thread's values must come in whole, aligned elements.
func fill(g *Grid, tv, thrID layout.Layout, unit int64, what string) error {
	n := g.Rows * g.Cols
	if n > gridLimit {
		return &layout.Error{Op: "atom grid", Condition: layout.CondTooLarge, Detail: fmt.Sprintf("%s covers %d elements", what, n)}
	}
	g.Cells = make([][]Holder, n)
	thrMode, err := tv.Get(0)
	if err != nil {
		return err
	}
	T, err := thrMode.Size()
	if err != nil {
		return err
	}
	size, err := tv.Size()
	if err != nil {
		return err
	}
	if size > gridLimit {
		return &layout.Error{Op: "atom grid", Condition: layout.CondTooLarge, Detail: fmt.Sprintf("%s has %d (thread, value) pairs", what, size)}
	}
	V := size / T
	if V%unit != 0 {
		return &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("%s: each thread holds %d bits, not whole %d-bit elements", what, V, unit)}
	}
	offs, err := offsets(tv)
	if err != nil {
		return err
	}
	for t := int64(0); t < T; t++ {
		phys, err := thrID.Eval(t)
		if err != nil {
			return err
		}
		for v := int64(0); v < V; v += unit {
			first := offs[t+T*v]
			if first%unit != 0 {
				return &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("%s: thread %d value bit %d lands on bit %d, inside a %d-bit element", what, t, v, first, unit)}
			}
			for b := int64(1); b < unit; b++ {
				if offs[t+T*(v+b)] != first+b {
					return &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("%s: thread %d's bits %d..%d are not one contiguous %d-bit element", what, t, v, v+unit-1, unit)}
				}
			}
			e := first / unit
			if e < 0 || e >= n {
				return &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("%s: thread %d value %d maps to %d, outside the %d x %d tile", what, t, v/unit, e, g.Rows, g.Cols)}
			}
			g.Cells[e] = append(g.Cells[e], Holder{Thread: phys, Value: v / unit})
		}
	}
	for _, c := range g.Cells {
		sortHolders(c)
	}
	return nil
}

func sortHolders(hs []Holder) {
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && (hs[j].Thread < hs[j-1].Thread || hs[j].Thread == hs[j-1].Thread && hs[j].Value < hs[j-1].Value); j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
}

// String prints the grid as a text table, as CuTe's print_layout draws a
// thread-value layout: a header of column indices, one line per row, each
// cell the thread and value holding the element (T3V1). A cell several
// pairs hold shows the first and how many more (T0V0+127: an operand every
// thread sees, such as one read through a shared-memory descriptor); a
// cell no pair holds shows "-".
func (g *Grid) String() string { return g.Window(g.Rows, g.Cols) }

// Window prints the grid as String does, but only its first rows rows and
// cols columns, saying how many it leaves out (for hover on large tiles).
func (g *Grid) Window(rows, cols int64) string {
	rows, cols = max(0, min(rows, g.Rows)), max(0, min(cols, g.Cols))
	cells := make([]string, len(g.Cells))
	w := len(fmt.Sprint(max(cols-1, 0)))
	for c := int64(0); c < cols; c++ {
		for r := int64(0); r < rows; r++ {
			i := r + g.Rows*c
			switch hs := g.Cells[i]; len(hs) {
			case 0:
				cells[i] = "-"
			case 1:
				cells[i] = hs[0].String()
			default:
				cells[i] = fmt.Sprintf("%s+%d", hs[0], len(hs)-1)
			}
			w = max(w, len(cells[i]))
		}
	}
	lw := len(fmt.Sprint(max(rows-1, 0))) + len(g.RowName) + 1
	var b strings.Builder
	b.WriteString(g.Title)
	b.WriteByte('\n')
	fmt.Fprintf(&b, "%*s", lw, g.RowName+"\\"+g.ColName)
	for c := int64(0); c < cols; c++ {
		fmt.Fprintf(&b, " %*d", w, c)
	}
	b.WriteByte('\n')
	for r := int64(0); r < rows; r++ {
		fmt.Fprintf(&b, "%*d", lw, r)
		for c := int64(0); c < cols; c++ {
			fmt.Fprintf(&b, " %*s", w, cells[r+g.Rows*c])
		}
		if cols < g.Cols {
			b.WriteString(" ...")
		}
		b.WriteByte('\n')
	}
	if rows < g.Rows || cols < g.Cols {
		fmt.Fprintf(&b, "(%d of %d rows, %d of %d columns shown)\n", rows, g.Rows, cols, g.Cols)
	}
	return b.String()
}

// offsets is l(i) for every i < size(l), in order, walking the flattened
// coordinate like an odometer (one addition per step).
func offsets(l layout.Layout) ([]int64, error) {
	flat := l.Flatten()
	var shape, stride []int64
	leaves := func(t layout.IntTuple) []layout.IntTuple {
		if t.IsTuple() {
			return t.Elems()
		}
		return []layout.IntTuple{t}
	}
	sh, st := leaves(flat.Shape), leaves(flat.Stride)
	if len(sh) != len(st) {
		return nil, &layout.Error{Op: "atom grid", Condition: layout.CondCongruent, Detail: l.String()}
	}
	size := int64(1)
	for i := range sh {
		if sh[i].IsTuple() || st[i].IsTuple() || sh[i].IsUnknown() || st[i].IsUnknown() || st[i].IsBasis() || sh[i].Value() <= 0 {
			return nil, &layout.Error{Op: "atom grid", Detail: fmt.Sprintf("%v: mode %d is not a known positive extent with an integer stride", l, i)}
		}
		shape = append(shape, sh[i].Value())
		stride = append(stride, st[i].Value())
		size *= sh[i].Value()
		if size > gridLimit {
			return nil, &layout.Error{Op: "atom grid", Condition: layout.CondTooLarge, Detail: fmt.Sprintf("%v has more than %d points", l, gridLimit)}
		}
	}
	out := make([]int64, size)
	crd := make([]int64, len(shape))
	off := int64(0)
	for i := range out {
		out[i] = off
		for m := range crd {
			crd[m]++
			off += stride[m]
			if crd[m] < shape[m] {
				break
			}
			off -= crd[m] * stride[m]
			crd[m] = 0
		}
	}
	return out, nil
}
