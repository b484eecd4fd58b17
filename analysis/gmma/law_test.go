package gmma

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// randomTiling draws a canonical atom and a tile_to_shape of it.
func randomTiling(rng *rand.Rand) (Atom, Arch, int64, int64, Order) {
	arch := Arch(rng.IntN(2))
	atoms := Atoms(arch, 1<<rng.IntN(8))
	a := atoms[rng.IntN(len(atoms))]
	av, _ := a.Layout()
	_, _, inner, _ := parts(av)
	m0, _ := inner.Get(0)
	m1, _ := inner.Get(1)
	am, _ := m0.Size()
	ak, _ := m1.Size()
	kb := InstructionK(a.Bits)
	if ak < kb {
		ak = kb
	}
	mn := am * int64(1+rng.IntN(3))
	if a.Major == MajorK && mn < 8 {
		mn = 8
	}
	k := ak * int64(1+rng.IntN(3))
	return a, arch, mn, k, Order(rng.IntN(2))
}

// TestRecognizeLaw: Recognize(TileToShape(a, mn, k, o)) finds a, (mn, k) and o
// (o up to the orders that give the same layout).
func TestRecognizeLaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		a, arch, mn, k, o := randomTiling(rng)
		tv, err := TileToShape(a, mn, k, o)
		if err != nil {
			t.Fatalf("%s (%d,%d): %v", a.Name(), mn, k, err)
		}
		got, err := Recognize(arch, Operand{Smem: tv, Bits: a.Bits})
		if err != nil {
			t.Fatalf("%s (%d,%d) %v: %v", a.Name(), mn, k, o, err)
		}
		if got.Atom != a || got.Shape != [2]int64{mn, k} || (got.Order != o && got.Reps[0] > 1 && got.Reps[1] > 1) {
			t.Fatalf("%s (%d,%d) %v: recognized %v", a.Name(), mn, k, o, got)
		}
	}
}

// TestBlockLaw: the block's offset at (x, y) is the tile's at (i*bm + x, j*bk + y).
func TestBlockLaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		a, _, mn, k, o := randomTiling(rng)
		tv, _ := TileToShape(a, mn, k, o)
		_, _, tile, _ := parts(tv)
		av, _ := a.Layout()
		_, _, ainner, _ := parts(av)
		am := ainner.Shape.At(0).Value()
		bm, bk := mn, InstructionK(a.Bits)
		if rng.IntN(2) == 0 && (mn/2)%am == 0 {
			bm = mn / 2
		}
		i, j := rng.Int64N(mn/bm), rng.Int64N(k/bk)
		b, err := Block(Operand{Smem: tv, Bits: a.Bits}, bm, bk, i, j)
		if err != nil {
			t.Fatal(err)
		}
		_, off, inner, _ := parts(b.Smem)
		whole, _ := offsets(tile, mn*k)
		part, _ := offsets(inner, bm*bk)
		for x := range bm {
			for y := range bk {
				if got, want := off+part[x+bm*y], whole[i*bm+x+mn*(j*bk+y)]; got != want {
					t.Fatalf("%s (%d,%d) block (%d,%d) at (%d,%d): (%d,%d) gives %d, the tile %d", a.Name(), mn, k, bm, bk, i, j, x, y, got, want)
				}
			}
		}
	}
}

// TestDescriptorLaw: for every block of a canonical tiling, the descriptor's
// canonical layout reproduces the block's offsets, and Analyze agrees with
// MakeDesc of the first block.
func TestDescriptorLaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		a, arch, mn, k, o := randomTiling(rng)
		tv, _ := TileToShape(a, mn, k, o)
		op := Operand{Smem: tv, Bits: a.Bits, Base: 1024 * rng.Int64N(64)}
		bk := InstructionK(a.Bits)
		j := rng.Int64N(k / bk)
		b, err := Block(op, mn, bk, 0, j)
		if err != nil {
			t.Fatal(err)
		}
		d, err := MakeDesc(arch, a.Major, b)
		if err != nil {
			t.Fatalf("%v %s (%d,%d) %v block at K %d: %v", arch, a.Name(), mn, k, o, j, err)
		}
		if err := checkCanonical(d, a.Major, b); err != nil {
			t.Fatalf("%v %s (%d,%d) %v: %v", arch, a.Name(), mn, k, o, err)
		}
		r, err := Analyze(arch, op)
		if err != nil {
			t.Fatal(err)
		}
		first, _ := Block(op, mn, bk, 0, 0)
		want, _ := MakeDesc(arch, a.Major, first)
		if r.Desc != want || r.Tiling == nil {
			t.Fatalf("Analyze %v, MakeDesc of the first block %v", r.Desc, want)
		}
	}
}

func BenchmarkMakeDesc(b *testing.B) {
	tv, _ := TileToShape(Atom{Major: MajorK, Kind: SW128, Bits: 16}, 128, 64, ColMajor)
	blk, _ := Block(Operand{Smem: tv, Bits: 16}, 128, 16, 0, 1)
	for b.Loop() {
		if _, err := MakeDesc(SM90, MajorK, blk); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	tv, _ := TileToShape(Atom{Major: MajorMN, Kind: SW128, Bits: 16}, 256, 64, RowMajor)
	for b.Loop() {
		if _, err := Analyze(SM100, Operand{Smem: tv, Bits: 16}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMakeDescRandom feeds random rank-2 layouts and swizzles: every answer
// is a descriptor or a *NotCanonical, never a panic.
func TestMakeDescRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	pick := func(xs ...int64) int64 { return xs[rng.IntN(len(xs))] }
	for range 5000 {
		bits := 1 << rng.IntN(8)
		s0 := layout.Ints(pick(4, 8, 16, 64), pick(1, 2, 4))
		s1 := layout.Ints(pick(2, 4, 8, 16, 32), pick(1, 2))
		d0 := layout.Ints(pick(1, 8, 16, 64, 72, 128, 512), pick(0, 512, 1024, 4096, -64))
		d1 := layout.Ints(pick(1, 2, 8, 64), pick(8, 64, 1024, 3))
		l := layout.Make(layout.Tup(s0, s1), layout.Tup(d0, d1))
		var smem layout.Value = layout.Box(l)
		if rng.IntN(3) > 0 {
			smem = layout.Composed{Outer: layout.Swizzle{B: rng.IntN(4), M: rng.IntN(6), S: 2 + rng.IntN(2)}, Offset: layout.Int(pick(0, 8, 64, 96)), Inner: l}
		}
		for _, arch := range []Arch{SM90, SM100} {
			for _, major := range []Major{MajorK, MajorMN} {
				d, err := MakeDesc(arch, major, Operand{Smem: smem, Bits: bits})
				var nc *NotCanonical
				if err != nil && !errors.As(err, &nc) {
					t.Fatalf("%v %v %v %db: %v is not a *NotCanonical", arch, major, smem, bits, err)
				}
				if err == nil && d.Arch != arch {
					t.Fatalf("descriptor of the wrong arch: %+v", d)
				}
			}
		}
	}
}
