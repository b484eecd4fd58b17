package hover

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// referenceGrid is writeGrid as first written, with fmt: the direct
// writer must give the same text.
func referenceGrid(b *strings.Builder, f function, rows, cols, k int64, lim TableLimits) error {
	shownRows, shownCols := min(rows, int64(lim.MaxRows)), min(cols, int64(lim.MaxCols))
	cells := make([][]string, shownRows)
	width := len(strconv.FormatInt(max(shownCols-1, shownRows-1), 10))
	for r := range shownRows {
		cells[r] = make([]string, shownCols)
		for c := range shownCols {
			cell, err := cellText(f, r+rows*(c+cols*k))
			if err != nil {
				return err
			}
			cells[r][c] = cell
			width = max(width, len(cell))
		}
	}
	rowLabel := len(strconv.FormatInt(shownRows-1, 10))
	pad := strings.Repeat(" ", rowLabel+2)
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

func TestGridMatchesReference(t *testing.T) {
	values := []string{
		"(2,(2,2)):(4,(2,1))", "8:2", "(64,32):(32,1)", "(2,2,3):(1,2,4)", "((32,4),(8,8)):((64,2048),(1,8))",
		"(4,8):(1@0,1@1)", "(4,?):(1,4)", "(4,8):(?,1)", "Sw<1,0,1> o 0 o (2,2):(1,2)", "(3,5):(-7,100000)", "1", "((2,3),(4,5)):((1,40),(2,8))", "(2,2):(4611686018427387904,4611686018427387904)", "(2,(3,2)):(-1,(-9223372036854775807,3))",
	}
	limits := []TableLimits{DefaultLimits, {MaxRows: 4, MaxCols: 3, MaxSlices: 1}, {MaxRows: 64, MaxCols: 64, MaxSlices: 4}, {MaxRows: 1, MaxCols: 1, MaxSlices: 1}}
	for _, src := range values {
		v := mustEval(t, src)
		shape, f, ok := domainShape(v)
		if !ok {
			t.Fatalf("%s: no table", src)
		}
		rows, cols := int64(1), int64(1)
		if shape.IsTuple() && shape.Len() > 1 {
			rows, _ = layout.Size(shape.At(0))
			cols, _ = layout.Size(shape.At(1))
		} else {
			cols, _ = layout.Size(shape)
		}
		for _, lim := range limits {
			var got, want strings.Builder
			errGot := writeGrid(&got, f, rows, cols, 0, lim)
			errWant := referenceGrid(&want, f, rows, cols, 0, lim)
			if fmt.Sprint(errGot) != fmt.Sprint(errWant) || got.String() != want.String() {
				t.Errorf("%s %v: writeGrid gives\n%s(%v)\nwant\n%s(%v)", src, lim, got.String(), errGot, want.String(), errWant)
			}
		}
	}
}

// TestTableOfShapesWithoutCells: the empty layout and modes of size below 1
// (CuTe's left_inverse(4:-1) is (_-1,_4):(_0,_1)) have no table: an error
// that says why, never a panic.
func TestTableOfShapesWithoutCells(t *testing.T) {
	for _, tc := range []struct {
		v    layout.Value
		want string
	}{
		{layout.Box(layout.Make(layout.Tup(), layout.Tup())), "its shape has no modes"},
		{layout.Box(layout.Make(layout.Tup(layout.Int(-1), layout.Int(4)), layout.Tup(layout.Int(0), layout.Int(1)))), "mode 0 has size -1"},
		{layout.Box(layout.Make(layout.Tup(layout.Int(4), layout.Int(0)), layout.Tup(layout.Int(1), layout.Int(4)))), "mode 1 has size 0"},
	} {
		got, err := Table(tc.v, TableLimits{MaxRows: 16, MaxCols: 16, MaxSlices: 4})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Table(%v) = %q, %v; want an error with %q", tc.v, got, err, tc.want)
		}
	}
}
