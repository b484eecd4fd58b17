package hover

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
)

// BenchmarkHoverDoublingSheet hovers the last binding of aI = (aI-1,aI-1)
// for I up to 20: a value of 2^20 leaves named in 300 bytes. The figure is
// the bytes allocated per hover (on main the whole value was printed, and
// at depth 22 one hover took 12 s and 691 MB).
func BenchmarkHoverDoublingSheet(b *testing.B) {
	var src strings.Builder
	src.WriteString("a0 = 2\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&src, "a%d = (a%d,a%d)\n", i, i-1, i-1)
	}
	s := analysis.AnalyzeSheet("t.cute", []byte(src.String()))
	tgt, ok := s.TargetAt(strings.LastIndex(src.String(), "(a19"))
	if !ok {
		b.Fatal("no target")
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(Target(tgt, DefaultOptions))
	}
	b.ReportMetric(float64(n), "hover-bytes")
}

// BenchmarkTableCap4096 renders the offset table of a 4096 x 4096 layout
// asked for 4096 rows and columns (the tableCap main accepted, 369 MB a
// hover there); the limits are clamped to MaxTableCap.
func BenchmarkTableCap4096(b *testing.B) {
	v, err := analysis.EvalString("(4096,4096):(4096,1)")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		t, err := Table(v, TableLimits{MaxRows: 4096, MaxCols: 4096, MaxSlices: 4})
		if err != nil {
			b.Fatal(err)
		}
		n = len(t)
	}
	b.ReportMetric(float64(n), "table-bytes")
}
