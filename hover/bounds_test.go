package hover

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
)

// A table asked for 65536 x 65536 cells (the old maximum of tableCap) is
// cut to MaxTableCap: on main it asked for a 32 GiB slice.
func TestTableIsBoundedWhateverItsLimits(t *testing.T) {
	v, err := analysis.EvalString("(65536,65536,4):(1,65536,4294967296)")
	if err != nil {
		t.Fatal(err)
	}
	table, err := Table(v, TableLimits{MaxRows: 1 << 16, MaxCols: 1 << 16, MaxSlices: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	if len(table) > maxTableBytes+MaxTableCap*MaxTableCap*24 {
		t.Errorf("table of %d bytes", len(table))
	}
	if !strings.Contains(table, fmt.Sprintf("(%d of 65536 rows)", MaxTableCap)) {
		t.Errorf("the table does not say it was cut:\n%s", table[len(table)-200:])
	}
}

// The hover of a value of a million leaves shows a prefix and says how
// many leaves it left out; on main it printed all of them.
func TestHoverOfALargeValueIsBounded(t *testing.T) {
	src := "a0 = 2:1\n"
	for i := 1; i <= 19; i++ {
		src += fmt.Sprintf("a%d = make_layout(a%d, a%d)\n", i, i-1, i-1)
	}
	s := analysis.AnalyzeSheet("t.cute", []byte(src))
	for _, f := range s.Findings {
		t.Fatalf("unexpected finding %s: %s", f.Code, f.Message)
	}
	off := strings.LastIndex(src, "make_layout")
	tgt, ok := s.TargetAt(off)
	if !ok {
		t.Fatal("no target")
	}
	text := Target(tgt, DefaultOptions)
	if len(text) > 64<<10 {
		t.Errorf("hover of %d bytes", len(text))
	}
	if !strings.Contains(text, "(1,048,576 leaves; ") {
		t.Errorf("the hover does not say what it cut:\n%s", text[:min(len(text), 600)])
	}
}
