package layout

import (
	"math/rand/v2"
	"testing"
)

// TestDivideFusedMatchesSteps: where the fused logical_divide by a layout
// answers, it answers exactly what the steps of the definition build; and
// it answers often.
func TestDivideFusedMatchesSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 1))
	answered := 0
	for range 20 * propertyRounds {
		l := randomLayout(r, 4, 3)
		b := randomLayout(r, 2, 2)
		if r.IntN(2) == 0 { // a tiler that fits l more often
			n, _ := l.Size()
			b = Layout{Shape: Int(int64(1 + r.IntN(int(min(n, 16))))), Stride: Int(int64(1 + r.IntN(2)))}
		}
		top, ok := (*Buffer)(nil).divideFused(l, b)
		if !ok {
			continue
		}
		answered++
		want, err := (*Buffer)(nil).divideSteps(l, b)
		if err != nil {
			t.Fatalf("logical_divide(%v, %v): fused gives %v, the steps fail: %v", l, b, slabLayout(top), err)
		}
		if got := slabLayout(top); got.String() != want.String() {
			t.Fatalf("logical_divide(%v, %v): fused gives %v, the steps %v", l, b, got, want)
		}
	}
	t.Logf("the fused path answered %d of %d", answered, 20*propertyRounds)
	if answered < 2*propertyRounds {
		t.Fatalf("the fused path answered only %d cases", answered)
	}
}
