package analysis

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// CuTe checks divisibility weakly: it accepts some compositions whose result
// is not A o B, and divides by tiles that do not divide the layout (the
// rest mode is a ceil-div, so the result is larger than its input). The
// sheet reproduces CuTe's answer and says where it is not the mathematical
// one, since a kernel built on it reads or writes the wrong elements.

// maxCheckedSize bounds the indices checkComposition walks.
const maxCheckedSize = 1 << 16

// inexactComposition is the first index i < size(B) where r(i) != A(B(i)),
// with both values; ok is false when there is none (or it cannot be told).
func inexactComposition(a, b, r layout.Layout) (i, want, got int64, ok bool) {
	n, err := b.Size()
	if err != nil || n > maxCheckedSize {
		return 0, 0, 0, false
	}
	for i := range n {
		bi, err := b.Eval(i)
		if err != nil {
			return 0, 0, 0, false
		}
		want, err := a.Eval(bi)
		if err != nil {
			return 0, 0, 0, false
		}
		got, err := r.Eval(i)
		if err != nil {
			return 0, 0, 0, false
		}
		if want != got {
			return i, want, got, true
		}
	}
	return 0, 0, 0, false
}

func checkComposition(c *CallSite) []CallFinding {
	if len(c.Args) != 2 {
		return nil
	}
	a, okA := c.Args[0].(layout.Layout)
	b, okB := c.Args[1].(layout.Layout)
	r, okR := c.Result.(layout.Layout)
	if !okA || !okB || !okR {
		return nil
	}
	i, want, got, bad := inexactComposition(a, b, r)
	if !bad {
		return nil
	}
	bi, _ := b.Eval(i)
	return []CallFinding{{Finding: Finding{Range: c.Call.Span(), Severity: SeverityWarning, Code: CodeInexact,
		Message: fmt.Sprintf("CuTe accepts composition(%v, %v) and returns %v, but that is not A o B: at i = %d, A(B(%d)) = A(%d) = %d while the result gives %d (CuTe's divisibility check is weak: a stride of B that neither divides a mode of A nor is a multiple of it)", shown{a}, shown{b}, shown{r}, i, i, bi, want, got)}}}
}

func checkDivideSize(c *CallSite) []CallFinding {
	if len(c.Args) != 2 {
		return nil
	}
	a, okA := c.Args[0].(layout.Layout)
	r, okR := c.Result.(layout.Layout)
	if !okA || !okR {
		return nil
	}
	in, err1 := a.Size()
	out, err2 := r.Size()
	if err1 != nil || err2 != nil || out <= in {
		return nil
	}
	return []CallFinding{{Finding: Finding{Range: c.Call.Span(), Severity: SeverityWarning, Code: CodeInexact,
		Message: fmt.Sprintf("the tile does not divide %v: CuTe rounds the rest up, so the result %v has %d coordinates where the layout has %d; the last tiles run past it and need predication", shown{a}, shown{r}, out, in)}}}
}
