package prop

import (
	"math/rand"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// TestInjectiveFromStridesAgrees: where the strides decide, the answer is
// IsInjective's (law of InjectiveFromStrides).
func TestInjectiveFromStridesAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	decided := 0
	for i := 0; i < 3000; i++ {
		rank := 1 + r.Intn(3)
		s, d := make([]layout.IntTuple, rank), make([]layout.IntTuple, rank)
		for k := range rank {
			s[k] = layout.Int(int64(1 + r.Intn(6)))
			d[k] = layout.Int(int64(r.Intn(13) - 3))
		}
		l := layout.Layout{Shape: layout.Tup(s...), Stride: layout.Tup(d...)}
		inj, known, err := InjectiveFromStrides(l)
		if err != nil || !known {
			continue
		}
		decided++
		want, err := IsInjective(layout.Box(l))
		if err != nil || want != inj {
			t.Fatalf("%v: strides say %v, IsInjective %v (%v)", l, inj, want, err)
		}
	}
	if decided < 1000 {
		t.Errorf("only %d of 3000 decided from strides", decided)
	}
}
