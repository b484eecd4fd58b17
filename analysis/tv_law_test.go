package analysis

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/analysis/prop"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// randomTiledMMA is a TiledMMA of a catalogued atom with a small tile, over
// a random atom layout (compact or row-major, rank 2 or 3), sometimes with
// a permutation that interleaves M.
func randomTiledMMA(t *testing.T, r *rand.Rand, mmas []atom.MMA) (tiled.TiledMMA, string) {
	for {
		a := &mmas[r.IntN(len(mmas))]
		if a.M()*a.N() > 64*64 || a.M()*a.K() > 64*64 || a.N()*a.K() > 64*64 {
			continue
		}
		// CuTe's header gives SM80_16x8x128_S32U1U1S32_TN_XORPOPC an A
		// layout whose shape and stride differ: it has no A to check.
		if !layout.Congruent(a.ALayout.Shape, a.ALayout.Stride) {
			continue
		}
		m, n, k := int64(1+r.IntN(2)), int64(1+r.IntN(2)), int64(1)
		thr := layout.Make(layout.Ints(m, n, k), layout.Ints(1, m, 0))
		if r.IntN(2) == 0 {
			thr = layout.Make(layout.Ints(m, n, k), layout.Ints(n, 1, 0))
		}
		var perm layout.Tiler
		if r.IntN(3) == 0 && a.M()%2 == 0 {
			// interleave the two halves of M: a permutation of [0, M*m)
			h := a.M() * m / 2
			perm.Modes = []layout.TilerMode{{Layout: layout.Make(layout.Ints(h, 2), layout.Ints(2, 1))}}
		}
		av, _ := AtomValue{MMA: a}.TiledMMAAtom()
		tm, err := tiled.MakeTiledMMA(av, thr, perm)
		if err != nil {
			t.Fatalf("%s %v %v: %v", a.Name, thr, perm, err)
		}
		return tm, fmt.Sprintf("%s over %v %v", a.Name, thr, perm)
	}
}

// offsetsOf is l(i) + off for every i < size(l).
func offsetsOf(t *testing.T, l layout.Layout, off int64) []int64 {
	n, err := l.Size()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int64, n)
	for i := range out {
		v, err := l.Eval(int64(i))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = v + off
	}
	return out
}

// Laws of a TiledMMA, on random atoms and atom layouts:
//   - get_layoutC_TV is a bijection of (thread, value) onto the M x N tile;
//   - every element of A (M x K) and B (N x K) is held by some thread;
//   - for a tensor L of the tile's shape, thread t's partition_X(t, L)
//     lists L(get_layoutX_TV(t, v)) for v = 0, 1, ...: the TV layout
//     composed with the tensor's layout gives the partition's offsets;
//   - on a compact tensor of 2 x 2 tiles, the C partitions of all threads
//     cover every element exactly once.
func TestTiledMMALaws(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	mmas := atom.MMAs()
	for range 24 {
		m, what := randomTiledMMA(t, r, mmas)
		threads, _ := m.Size()
		tile := [3]int64{}
		for i := range tile {
			s, err := m.TileSize(i)
			if err != nil {
				t.Fatal(err)
			}
			tile[i] = s.Value()
		}
		dims := map[string][2]int64{"A": {tile[0], tile[2]}, "B": {tile[1], tile[2]}, "C": {tile[0], tile[1]}}
		for _, x := range []string{"A", "B", "C"} {
			tv, err := m.LayoutTV(x)
			if err != nil {
				t.Fatalf("%s: get_layout%s_TV: %v", what, x, err)
			}
			rows, cols := dims[x][0], dims[x][1]
			seen := make([]int, rows*cols)
			for _, e := range offsetsOf(t, tv, 0) {
				if e < 0 || e >= rows*cols {
					t.Fatalf("%s: %s TV %v reaches %d outside the %dx%d tile", what, x, tv, e, rows, cols)
				}
				seen[e]++
			}
			for e, n := range seen {
				if n == 0 || x == "C" && n != 1 {
					t.Fatalf("%s: element %d of %s is held %d times by %v", what, e, x, n, tv)
				}
			}
			// The partition of a row-major tile-shaped tensor by a few threads.
			L := layout.Make(layout.Ints(rows, cols), layout.Ints(cols, 1))
			T, _ := layout.Size(tv.Shape.At(0))
			for _, thr := range []int64{0, threads / 2, threads - 1, r.Int64N(threads)} {
				p, err := m.Partition(x, thr, L)
				if err != nil {
					t.Fatalf("%s: partition_%s(%d, %v): %v", what, x, thr, L, err)
				}
				got := offsetsOf(t, p.Layout, p.Offset.Value())
				V, _ := layout.Size(tv.Shape.At(1))
				if int64(len(got)) != V {
					t.Fatalf("%s: partition_%s(%d, %v) = %v has %d values, the TV layout %v %d", what, x, thr, L, p, len(got), tv, V)
				}
				var want []int64
				for v := range V {
					e, err := tv.Eval(thr + T*v)
					if err != nil {
						t.Fatal(err)
					}
					o, err := L.Eval(e)
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, o)
				}
				if i := firstDifference(got, want); i >= 0 {
					t.Fatalf("%s: partition_%s(%d, %v) = %v gives %d at value %d; L o TV gives %d", what, x, thr, L, p, got[i], i, want[i])
				}
			}
		}
		// C partitions of a compact tensor of 2x2 tiles cover it once.
		L, err := layout.MakeLayout(layout.Ints(2*tile[0], 2*tile[1]))
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]int, 4*tile[0]*tile[1])
		for thr := range threads {
			p, err := m.Partition("C", thr, L)
			if err != nil {
				t.Fatalf("%s: partition_C(%d, %v): %v", what, thr, L, err)
			}
			for _, o := range offsetsOf(t, p.Layout, p.Offset.Value()) {
				seen[o]++
			}
		}
		for o, n := range seen {
			if n != 1 {
				t.Fatalf("%s: offset %d of %v is in %d threads' C partitions", what, o, L, n)
			}
		}
	}
}

// Laws of a TiledCopy built from thread and value layouts, on every
// catalogued non-TMA copy atom with an element type it can move: the
// source and destination TV layouts reach every element of the tile, each
// once where the atom's own layout of that side is injective (ldmatrix x1
// and x2 read addresses from only some threads: their sources repeat), and
// partition_S / partition_D of a tile-shaped tensor list the tensor's
// layout composed with them, thread by thread.
func TestTiledCopyLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	tried := 0
	for i := range atom.Copies() {
		c := &atom.Copies()[i]
		if strings.Contains(c.Name, "TMA") || strings.Contains(c.Name, "BULK") {
			continue
		}
		for _, vt := range []string{"half_t", "float", "uint8_t"} {
			ca, _ := AtomValue{Copy: c, ValType: vt}.TiledCopyAtom()
			threads := []int64{32, 64, 128}[r.IntN(3)]
			a := []int64{4, 8, 16, 32}[r.IntN(4)]
			thr := layout.Make(layout.Ints(a, threads/a), layout.Ints(threads/a, 1))
			vals := []int64{1, 2, 4, 8}[r.IntN(4)]
			val := layout.Make(layout.Ints(1, vals), layout.Ints(0, 1))
			tc, err := tiled.MakeTiledCopy(ca, thr, val)
			if err != nil {
				continue // CuTe rejects it too (TestTVCases holds such cases)
			}
			tried++
			rows, cols := tc.TilerMN.At(0).Value(), tc.TilerMN.At(1).Value()
			L := layout.Make(layout.Ints(rows, cols), layout.Ints(1, rows+3)) // padded columns
			for _, side := range []string{"S", "D"} {
				tv, err := tc.LayoutTV(side)
				if err != nil {
					t.Fatalf("%v: get_layout%s_TV: %v", tc, side, err)
				}
				own := tc.ValSrc
				if side == "D" {
					own = tc.ValDst
				}
				once, err := prop.IsInjective(layout.Box(own))
				if err != nil {
					t.Fatal(err)
				}
				seen := make([]int, rows*cols)
				for _, e := range offsetsOf(t, tv, 0) {
					seen[e]++
				}
				for e, n := range seen {
					if n == 0 || once && n != 1 {
						t.Fatalf("%v: %s element %d moved %d times by %v", tc, side, e, n, tv)
					}
				}
				T, _ := layout.Size(tv.Shape.At(0))
				V, _ := layout.Size(tv.Shape.At(1))
				for _, th := range []int64{0, threads - 1, r.Int64N(threads)} {
					p, err := tc.Partition(side, th, L)
					if err != nil {
						t.Fatalf("%v: partition_%s(%d): %v", tc, side, th, err)
					}
					got := offsetsOf(t, p.Layout, p.Offset.Value())
					want := make([]int64, V)
					for v := range V {
						e, _ := tv.Eval(th + T*v)
						want[v], _ = L.Eval(e)
					}
					if i := firstDifference(got, want); i >= 0 {
						t.Fatalf("%v: partition_%s(%d, %v) = %v gives %d at value %d; L o TV gives %d", tc, side, th, L, p, got[i], i, want[i])
					}
				}
			}
		}
	}
	if tried < 20 {
		t.Fatalf("only %d tiled copies were built", tried)
	}
}

// firstDifference is the first index where a and b differ (a length
// difference counts at the shorter's end), or -1.
func firstDifference(a, b []int64) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b)) - 1
	}
	return -1
}
