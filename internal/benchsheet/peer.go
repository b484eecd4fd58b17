// Package benchsheet writes the generated sheets the benchmarks open, so
// that the in-process benchmarks of analysis and lsp time the same text
// as make bench-lsp.
package benchsheet

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Peer is a sheet of n lines in the mix ../shared/bench/lsp_peer.py opens
// (make bench-lsp): each line at random a literal layout, a coalesce of the
// line before, a composition of literals or a complement, one binding per
// line and no two of the same name. The draws are Go's, not Python's: the
// same kinds of statement in the same proportions.
func Peer(n int) string {
	r := rand.New(rand.NewPCG(5, 5))
	pick := func(xs ...int) int { return xs[r.IntN(len(xs))] }
	var b strings.Builder
	for i := range n {
		switch k := r.IntN(4); {
		case k == 0:
			fmt.Fprintf(&b, "L%d = (%d,%d):(1,%d)\n", i, pick(2, 4, 8), pick(2, 4, 8), pick(8, 16))
		case k == 1 && i > 0:
			fmt.Fprintf(&b, "L%d = coalesce(L%d)\n", i, i-1)
		case k == 2:
			fmt.Fprintf(&b, "L%d = composition((16,8):(8,1), (%d,%d):(1,%d))\n", i, pick(2, 4), pick(2, 4), pick(2, 4))
		default:
			fmt.Fprintf(&b, "L%d = complement(%d:%d, 64)\n", i, pick(4, 8), pick(1, 2, 4))
		}
	}
	return b.String()
}
