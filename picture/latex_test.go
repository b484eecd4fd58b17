package picture

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// latexCase is one TiledMMA or TiledCopy as CuTe's own print_latex drew it
// (testdata/latex/gen.py): per operand block, the labelled cells as
// [row, col, thread, value] inside the block.
type latexCase struct {
	Expr string `json:"expr"`
	Kind string `json:"kind"`
	Ops  map[string]struct {
		Rows  int        `json:"rows"`
		Cols  int        `json:"cols"`
		Cells [][4]int32 `json:"cells"`
	} `json:"ops"`
}

func loadLatexCases(t *testing.T) []latexCase {
	t.Helper()
	f, err := os.Open("testdata/latex/cases.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var cases []latexCase
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var c latexCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("case %d: %v", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// latexPicture is the project's picture of c's expression and the operand
// names of its blocks, in block order.
func latexPicture(c latexCase) (*Grid, []string, error) {
	v, err := analysis.EvalString(c.Expr)
	if err != nil {
		return nil, nil, err
	}
	switch x := v.(type) {
	case tiled.TiledMMA:
		g, err := FromTiledMMA(x)
		return g, []string{"A", "B", "C"}, err
	case tiled.TiledCopy:
		g, err := FromTiledCopy(x)
		return g, []string{"S", "D"}, err
	}
	return nil, nil, fmt.Errorf("%T is neither a TiledMMA nor a TiledCopy", v)
}

// latexMismatches compares every cell CuTe labelled with the picture's
// label of the same cell, and that the picture labels no cell CuTe left
// blank; it returns the differences and the number of cells compared.
func latexMismatches(c latexCase, g *Grid, names []string) (diffs []string, cells int) {
	if len(g.Blocks) != len(names) || len(c.Ops) != len(names) {
		return []string{fmt.Sprintf("%d blocks, CuTe draws %d", len(g.Blocks), len(c.Ops))}, 0
	}
	for b, name := range names {
		op, ok := c.Ops[name]
		blk := g.Blocks[b]
		if !ok {
			diffs = append(diffs, "CuTe draws no "+name)
			continue
		}
		if blk.Rows != op.Rows || blk.Cols != op.Cols {
			diffs = append(diffs, fmt.Sprintf("%s is %dx%d, CuTe's %dx%d", name, blk.Rows, blk.Cols, op.Rows, op.Cols))
			continue
		}
		labelled := 0
		for r := range blk.Rows {
			for col := range blk.Cols {
				if g.TV.Thread[g.cell(0, r, blk.Col0+col)] >= 0 {
					labelled++
				}
			}
		}
		if labelled != len(op.Cells) {
			diffs = append(diffs, fmt.Sprintf("%s labels %d cells, CuTe %d", name, labelled, len(op.Cells)))
		}
		for _, cell := range op.Cells {
			r, col, th, v := int(cell[0]), int(cell[1]), cell[2], cell[3]
			i := g.cell(0, r, blk.Col0+col)
			cells++
			if g.TV.Thread[i] != th || g.TV.Value[i] != v {
				diffs = append(diffs, fmt.Sprintf("%s (%d,%d) = T%d V%d, CuTe T%d V%d", name, r, col, g.TV.Thread[i], g.TV.Value[i], th, v))
			}
		}
	}
	return diffs, cells
}

// TestTVPicturesMatchCuTePrintLatex: every T<thread> V<value> label of the
// pictures of 94 TiledMMAs and TiledCopies (SM75/SM80 mma.sync, SM90 wgmma,
// SM100 UMMA; ldmatrix, stmatrix and universal copies) is the one CuTe's print_latex
// prints for the same cell (when several thread-value pairs hold an element,
// CuTe keeps the first in thread-major order).
func TestTVPicturesMatchCuTePrintLatex(t *testing.T) {
	cases := loadLatexCases(t)
	if len(cases) < 50 {
		t.Fatalf("%d objects, want at least 50", len(cases))
	}
	cells := 0
	for _, c := range cases {
		g, names, err := latexPicture(c)
		if err != nil {
			t.Errorf("%s: %v", c.Expr, err)
			continue
		}
		diffs, n := latexMismatches(c, g, names)
		cells += n
		for i, d := range diffs {
			if i == 5 {
				t.Errorf("%s: %d more differences", c.Expr, len(diffs)-5)
				break
			}
			t.Errorf("%s: %s", c.Expr, d)
		}
	}
	t.Logf("%d objects, %d cells compared with CuTe's print_latex", len(cases), cells)
}

// TestLatexComparisonSeesOneWrongLabel: the comparison is not vacuous: one
// expected value changed, in each kind of object, is reported.
func TestLatexComparisonSeesOneWrongLabel(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range loadLatexCases(t) {
		if seen[c.Kind] {
			continue
		}
		seen[c.Kind] = true
		g, names, err := latexPicture(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Expr, err)
		}
		last := names[len(names)-1]
		c.Ops[last].Cells[0][3]++
		if diffs, _ := latexMismatches(c, g, names); len(diffs) != 1 {
			t.Errorf("%s: one changed value gives %q, want one difference", c.Expr, diffs)
		}
	}
	if len(seen) != 2 {
		t.Errorf("kinds %v, want mma and copy", seen)
	}
}
