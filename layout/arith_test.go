package layout

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestMulCheckedMatchesBig: MulChecked reports overflow exactly when the
// true product leaves int64, and otherwise gives the product.
func TestMulCheckedMatchesBig(t *testing.T) {
	edges := []int64{0, 1, -1, 2, -2, 3, 1 << 31, -1 << 31, 1<<31 - 1, 1 << 32, -1 << 32,
		1<<62 - 1, 1 << 62, -1 << 62, math.MaxInt64, math.MinInt64, math.MaxInt64 / 2, math.MinInt64 / 2, 3037000499, 3037000500, -3037000500}
	r := rand.New(rand.NewPCG(8, 8))
	vals := append([]int64(nil), edges...)
	for range 2000 {
		vals = append(vals, r.Int64()>>r.IntN(64)*(1-2*int64(r.IntN(2))))
	}
	lo, hi := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	for _, a := range vals {
		for _, b := range vals[:200] {
			want := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
			fits := want.Cmp(lo) >= 0 && want.Cmp(hi) <= 0
			got, ok := MulChecked(a, b)
			if ok != fits || (ok && got != want.Int64()) {
				t.Fatalf("MulChecked(%d, %d) = %d, %v; the product is %v", a, b, got, ok, want)
			}
		}
	}
}
