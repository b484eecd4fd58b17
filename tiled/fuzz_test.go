package tiled_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/internal/layouttest"
	. "github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// sm80Atom is SM80_16x8x16_F32F16F16F32_TN's traits, as CuTe gives them.
var sm80Atom = tiled.MMAAtom{Name: "SM80_16x8x16_F32F16F16F32_TN", ShapeMNK: Ints(16, 8, 16), ThrID: Make(Int(32), Int(1)),
	A: Make(Tup(Ints(4, 8), Ints(2, 2, 2)), Tup(Ints(32, 1), Ints(16, 8, 128))),
	B: Make(Tup(Ints(4, 8), Ints(2, 2)), Tup(Ints(16, 1), Ints(8, 64))),
	C: Make(Tup(Ints(4, 8), Ints(2, 2)), Tup(Ints(32, 1), Ints(16, 8)))}

// ldsmAtom is Copy_Atom<SM75_U32x4_LDSM_N, half_t>'s traits (in bits).
var ldsmAtom = tiled.CopyAtom{Name: "SM75_U32x4_LDSM_N", ValType: "half_t", ValBits: 16, ThrID: Make(Int(32), Int(1)),
	Src: Make(Ints(32, 128), Ints(128, 1)),
	Dst: Make(Tup(Int(32), Ints(32, 4)), Tup(Int(32), Ints(1, 1024))),
	Ref: Make(Tup(Int(32), Ints(32, 4)), Tup(Int(32), Ints(1, 1024)))}

// wildTV is a thread-value value: an atom, a TiledMMA or a TiledCopy, built
// the way the sheet builds them or with any fields at all (the types'
// fields are exported, so every method must survive nonsense in them).
func wildTV(r *rand.Rand) Value {
	wildMMA := func() tiled.MMAAtom {
		if r.IntN(2) == 0 {
			return sm80Atom
		}
		return tiled.MMAAtom{Name: "wild", ShapeMNK: layouttest.WildTuple(r, 2), ThrID: layouttest.WildLayout(r), A: layouttest.WildLayout(r), B: layouttest.WildLayout(r), C: layouttest.WildLayout(r)}
	}
	wildCopy := func() tiled.CopyAtom {
		if r.IntN(2) == 0 {
			return ldsmAtom
		}
		return tiled.CopyAtom{Name: "wild", ValType: "t", ValBits: []int64{-8, 0, 1, 8, 16, 64, 1 << 40}[r.IntN(7)],
			ThrID: layouttest.WildLayout(r), Src: layouttest.WildLayout(r), Dst: layouttest.WildLayout(r), Ref: layouttest.WildLayout(r)}
	}
	switch r.IntN(9) {
	case 6:
		// a copy whose tile is a tuple of layouts, built as the sheet builds it
		m, err := tiled.MakeTiledMMA(sm80Atom, layouttest.WildLayout(r), Tiler{})
		if err != nil {
			m, _ = tiled.MakeTiledMMA(sm80Atom, Make(Ints(2, 2, 1), Ints(1, 2, 0)), Tiler{})
		}
		if c, err := tiled.MakeTiledCopyCAtom(wildCopy(), m); err == nil {
			return c
		}
		c, _ := tiled.MakeCotiledCopy(wildCopy(), layouttest.WildLayout(r), layouttest.WildLayout(r))
		return c
	case 7:
		// any fields at all, a tuple of layouts as the tile among them
		c := tiled.TiledCopy{Atom: wildCopy(), ValSrc: layouttest.WildLayout(r), ValDst: layouttest.WildLayout(r), ValRef: layouttest.WildLayout(r), TiledTV: layouttest.WildLayout(r), TilerMN: layouttest.WildTuple(r, 2)}
		c.TilerModes = make([]Layout, r.IntN(3))
		for i := range c.TilerModes {
			c.TilerModes[i] = layouttest.WildLayout(r)
		}
		return c
	case 8:
		// a swizzled tensor to partition, its offset perhaps part run-time
		return Composed{Outer: Swizzle{B: r.IntN(4), M: r.IntN(5), S: r.IntN(5) - 1}, Offset: Int(int64(r.IntN(64))), Inner: layouttest.WildLayout(r), OffsetRunTimeBits: int64(r.IntN(2) * r.IntN(64))}
	case 0:
		return wildMMA()
	case 1:
		return wildCopy()
	case 2:
		m, err := tiled.MakeTiledMMA(wildMMA(), layouttest.WildLayout(r), Tiler{})
		if err != nil {
			m, _ = tiled.MakeTiledMMA(sm80Atom, Make(Ints(2, 2, 1), Ints(1, 2, 0)), Tiler{})
		}
		return m
	case 3:
		c, err := tiled.MakeTiledCopy(wildCopy(), layouttest.WildLayout(r), layouttest.WildLayout(r))
		if err != nil {
			c, _ = tiled.MakeTiledCopy(ldsmAtom, Make(Ints(32, 4), Ints(4, 1)), Make(Ints(1, 8), Ints(0, 1)))
		}
		return c
	case 4:
		m := tiled.TiledMMA{Atom: wildMMA(), AtomLayoutMNK: layouttest.WildLayout(r), ThrLayoutVMNK: layouttest.WildLayout(r)}
		for i := range m.Permutation {
			m.Permutation[i] = []TilerMode{{Skip: true}, {Layout: layouttest.WildLayout(r)}, {Layout: Make(layouttest.WildTuple(r, 1), Int(1)), Int: true}}[r.IntN(3)]
		}
		return m
	}
	return tiled.TiledCopy{Atom: wildCopy(), ValSrc: layouttest.WildLayout(r), ValDst: layouttest.WildLayout(r), ValRef: layouttest.WildLayout(r), TiledTV: layouttest.WildLayout(r), TilerMN: layouttest.WildTuple(r, 2)}
}

// FuzzTV applies the thread-value operations (and size) to wild arguments,
// thread-value values among them most of the time, and then every other
// operation of the table once to wild arguments with thread-value values
// among them (layout's FuzzEveryOp cannot draw these): none may panic or
// hang, and every failure is an *Error.
func FuzzTV(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(4), uint64(9))
	f.Add(uint64(17), uint64(23))
	names := []string{"make_tiled_mma", "make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C",
		"get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV", "get_layoutS_TV", "get_layoutD_TV",
		"partition_A", "partition_B", "partition_C", "partition_S", "partition_D", "make_layout_tv", "tile_size", "size",
		"make_tiled_copy_C_atom", "make_cotiled_copy", "make_tiled_copy_S", "make_tiled_copy_D", "retile_S", "retile_D"}
	apply := map[string]func([]Value) (Value, error){}
	for _, op := range analysis.Ops() {
		apply[op.Name] = op.Apply
	}
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		r := rand.New(rand.NewPCG(s1, s2))
		for range 20 {
			for _, name := range names {
				args := make([]Value, r.IntN(4))
				for i := range args {
					if r.IntN(3) > 0 {
						args[i] = wildTV(r)
					} else {
						args[i] = layouttest.WildValue(r)
					}
				}
				layouttest.CheckSurvives(t, name, apply[name], args)
			}
		}
		for _, op := range analysis.Ops() {
			if op.Analysis || slices.Contains(names, op.Name) {
				continue
			}
			args := make([]Value, r.IntN(5))
			for i := range args {
				if r.IntN(3) == 0 {
					args[i] = wildTV(r)
				} else {
					args[i] = layouttest.WildValue(r)
				}
			}
			layouttest.CheckSurvives(t, op.Name, op.Apply, args)
		}
	})
}
