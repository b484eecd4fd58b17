package analysis

import (
	"slices"
	"sync"
	"testing"

	"github.com/cute-lsp/cute-lsp/source"
)

// cuteNamesInt searches cuteIntNames, which must stay ascending.
func TestCuteIntNamesSorted(t *testing.T) {
	if !slices.IsSorted(cuteIntNames[:]) {
		t.Fatal("cuteIntNames is not ascending: cuteNamesInt's binary search misses names")
	}
	for _, c := range []struct {
		v    int64
		want string
	}{{-32, "_m32"}, {-1, "_m1"}, {0, "_0"}, {11, "Int<11>"}, {12, "_12"}, {524288, "_524288"}, {524289, "Int<524289>"}, {-33, "Int<-33>"}} {
		if got := staticInt(c.v); got != c.want {
			t.Errorf("staticInt(%d) = %q, want %q", c.v, got, c.want)
		}
	}
}

// The tables built on first use are asked from lint's concurrent
// workers: run with -race.
func TestLazyTablesConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := staticSpelling("x = make_layout(Int<4>{}, _8{})"); got != "Int" {
				t.Errorf("staticSpelling = %q, want Int", got)
			}
			if !findingNames().Contains("make_layout") {
				t.Error("findingNames lacks make_layout")
			}
			if c := ReadCodeForFindings(LangCpp, []byte("auto l = make_layout(make_shape(Int<4>{}, Int<8>{}));\n")); c == nil {
				t.Error("ReadCodeForFindings read nothing of a call of make_layout")
			}
			if !knownCodes()[Codes[0].Code] || knownCodes()["no-such-code"] {
				t.Error("knownCodes")
			}
			if got := staticSpelling("x = C<4>{}"); got != "C" {
				t.Errorf("staticSpelling = %q, want C", got)
			}
		})
	}
	wg.Wait()
}

// FindingCalls, built at init from opTable's Analysis fields, is the set
// of names isAlgebraOp accepts.
func TestFindingCallsAreAlgebraOps(t *testing.T) {
	for i := range opTable {
		if name := opTable[i].Name; source.FindingCalls.Contains(name) != isAlgebraOp(name) {
			t.Errorf("%s: in FindingCalls %v, isAlgebraOp %v", name, source.FindingCalls.Contains(name), isAlgebraOp(name))
		}
	}
}
