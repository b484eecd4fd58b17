package probe

import (
	"fmt"
	"math/rand/v2"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
)

// Patterns generates n single-instruction cases given by their lane
// addresses alone, built to probe how the hardware treats lanes that share
// addresses: sweeps that move lanes of one phase onto another phase's
// address, and random assignments of a few addresses to the lanes, whole,
// per phase, per lane pair, or copied from one phase to the next.
func Patterns(seed uint64, n int) []*Record {
	rng := rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))
	var out []*Record
	add := func(kind string, op bank.Op, width int, addrs []int64) {
		in := bank.Instruction{Op: op, Width: width}
		copy(in.Addrs[:], addrs)
		c, err := bank.Analyze(&in)
		if err != nil {
			panic(fmt.Sprintf("probe: pattern %s: %v", kind, err))
		}
		out = append(out, &Record{Origin: "pattern", Smem: kind, ElemBits: 8 * width, Op: op.String(),
			VectorBytes: width, Warps: 1, PerWarp: 1, Addrs: [][]int64{addrs}, Predicted: c.Wavefronts})
	}
	// Sweeps: phase 0 on one address, phase 1 moving lane by lane from a
	// second address onto the first, for 8- and 16-byte loads.
	for _, w := range []int{8, 16} {
		per := 128 / w
		for _, other := range []int64{int64(w), 128, 4096 + int64(w)} {
			for k := 0; k <= per; k++ {
				a := make([]int64, 32)
				for lane := range a {
					ph := lane / per
					switch {
					case ph%2 == 0:
						a[lane] = 0
					case lane%per < k:
						a[lane] = 0
					default:
						a[lane] = other
					}
					a[lane] += int64(lane/(2*per)) * 8192
				}
				add(fmt.Sprintf("sweep w%d other%d k%d", w, other, k), bank.Load, w, a)
			}
		}
	}
	// Random assignments of a few addresses.
	styles := []string{"any", "per-phase", "pairs", "copy", "permute", "quads"}
	for len(out) < n {
		op := bank.Load
		w := pick(rng, 8, 8, 16, 16, 16, 4, 2, 1)
		if rng.IntN(8) == 0 {
			op = bank.Store
		}
		per := 128 / max(w, 4)
		m := pick(rng, 1, 2, 2, 3, 4, 4, 6, 8, 12)
		pool := make([]int64, m)
		for i := range pool {
			// Nearby chunks (no conflict) or chunks 128 bytes apart (same banks).
			pool[i] = int64(w) * int64(rng.IntN(128/w)) // within one 128-byte row
			if rng.IntN(3) == 0 {
				pool[i] += 128 * int64(1+rng.IntN(8))
			}
		}
		style := pick(rng, styles...)
		a := make([]int64, 32)
		for lane := range a {
			switch style {
			case "any":
				a[lane] = pick(rng, pool...)
			case "per-phase":
				if lane%per == 0 {
					a[lane] = pick(rng, pool...)
				} else {
					a[lane] = a[lane-1]
				}
			case "pairs":
				if lane%2 == 0 {
					a[lane] = pick(rng, pool...)
				} else {
					a[lane] = a[lane-1]
				}
			case "quads":
				if lane%4 == 0 {
					a[lane] = pick(rng, pool...)
				} else {
					a[lane] = a[lane-1]
				}
			case "copy", "permute":
				if (lane/per)%2 == 0 || per == 32 {
					a[lane] = pick(rng, pool...)
				} else if style == "copy" {
					a[lane] = a[lane-per]
				} else {
					a[lane] = a[lane-per-lane%per+rng.IntN(per)]
				}
			}
		}
		add(fmt.Sprintf("random %s m%d", style, m), op, w, a)
	}
	return out
}

// Families generates single-instruction 8- and 16-byte loads whose lanes
// repeat a few addresses in fixed lane structures (every lane equal to its
// neighbour, to the lane two or four away, quarter copies), with random
// addresses, to pin down when the hardware serves two phases together.
func Families(seed uint64) []*Record {
	rng := rand.New(rand.NewPCG(seed, 0x853c49e6748fea9b))
	var out []*Record
	// Each family: a template over 16 lanes, letters naming distinct addresses.
	families := []string{
		"ababcdcdababcdcd", "abababababababab", "ababbabaababbaba", "abcdabcdabcdabcd",
		"ababcdcdefefghgh", "aabbccddaabbccdd", "abcbabcbabcbabcb", "abacabacabacabac",
		"ababcdcdcdcdabab", "abcdefghabcdefgh", "aaaabbbbaaaabbbb", "abbaabbaabbaabba",
		"ababababcdcdcdcd", "abcdcdababcdcdab", "aabbaabbccddccdd", "abab" + "abab" + "cdcd" + "cdcd",
	}
	for _, w := range []int{16, 8} {
		for _, fam := range families {
			for rep := 0; rep < 4; rep++ {
				pool := map[byte]int64{}
				a := make([]int64, 32)
				for lane := range a {
					var letter byte
					if w == 16 {
						letter = fam[lane%16]
					} else {
						// 8-byte loads: the template over lanes 0-15, then again with fresh letters.
						letter = fam[lane%16] + byte(lane/16)*8
					}
					if _, ok := pool[letter]; !ok {
						pool[letter] = int64(w) * int64(rng.IntN(128/w))
						if rng.IntN(3) == 0 {
							pool[letter] += 128 * int64(1+rng.IntN(8))
						}
					}
					a[lane] = pool[letter]
					if w == 16 && lane >= 16 {
						a[lane] += 8192 // the second half-warp repeats the first, elsewhere
					}
				}
				in := bank.Instruction{Op: bank.Load, Width: w}
				copy(in.Addrs[:], a)
				c, err := bank.Analyze(&in)
				if err != nil {
					panic(err)
				}
				out = append(out, &Record{Origin: "family", Smem: fmt.Sprintf("family %s w%d", fam, w), ElemBits: 8 * w, Op: "ld",
					VectorBytes: w, Warps: 1, PerWarp: 1, Addrs: [][]int64{a}, Predicted: c.Wavefronts})
			}
		}
	}
	return out
}

// Mixed generates the cases that tell apart whether the pairing of lanes
// with equal addresses must hold for the whole warp or for each group of
// four lanes on its own: quads that pair lanes 2j with 2j+1 mixed with quads
// that pair lanes i with i+2, for 8- and 16-byte loads and stores; and
// ldmatrix and stmatrix whose row addresses repeat in the same structures.
func Mixed(seed uint64) []*Record {
	rng := rand.New(rand.NewPCG(seed, 0xda942042e4dd58b5))
	var out []*Record
	quads := []string{"aabb", "abab", "aaaa"}
	emit := func(name string, op bank.Op, w, matrices int, tmpl string) {
		pool := map[byte]int64{}
		a := make([]int64, 32)
		for lane := range a {
			letter := tmpl[lane]
			if _, ok := pool[letter]; !ok {
				pool[letter] = int64(w) * int64(rng.IntN(128/w))
				if rng.IntN(3) == 0 {
					pool[letter] += 128 * int64(1+rng.IntN(8))
				}
			}
			a[lane] = pool[letter]
		}
		in := bank.Instruction{Op: op, Width: w, Matrices: matrices}
		copy(in.Addrs[:], a)
		c, err := bank.Analyze(&in)
		if err != nil {
			panic(err)
		}
		out = append(out, &Record{Origin: "mixed", Smem: fmt.Sprintf("%s %s", name, tmpl), ElemBits: 8 * min(w, 8), Op: op.String(),
			Matrices: matrices, VectorBytes: w, Warps: 1, PerWarp: 1, Addrs: [][]int64{a}, Predicted: c.Wavefronts})
	}
	template := func(force string) string {
		var b []byte
		for q := 0; q < 8; q++ {
			k := pick(rng, quads...)
			if force != "" {
				k = force
			}
			for _, ch := range []byte(k) {
				b = append(b, ch+byte(2*q)) // fresh letters per quad
			}
		}
		return string(b)
	}
	for i := 0; i < 40; i++ {
		emit("mixed", bank.Load, pick(rng, 8, 16), 0, template(""))
	}
	for _, w := range []int{8, 16} {
		for _, f := range []string{"aabb", "abab", "aaaa", ""} {
			for i := 0; i < 3; i++ {
				emit("store", bank.Store, w, 0, template(f))
			}
		}
	}
	for _, op := range []bank.Op{bank.LdMatrix, bank.StMatrix} {
		for _, n := range []int{1, 2, 4} {
			for _, f := range []string{"aabb", "abab", "aaaa", ""} {
				for i := 0; i < 2; i++ {
					emit("matrix", op, 16, n, template(f))
				}
			}
		}
	}
	return out
}

// Masks generates ld and st cases with lanes predicated off: random masks,
// one phase or one lane alone, every other lane, and paired patterns with
// a lane off, over random or regular addresses.
func Masks(seed uint64, n int) []*Record {
	rng := rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))
	var out []*Record
	for len(out) < n {
		w := pick(rng, 1, 2, 4, 8, 8, 16, 16)
		op := bank.Load
		if rng.IntN(3) == 0 {
			op = bank.Store
		}
		per := 128 / max(w, 4)
		a := make([]int64, 32)
		style := pick(rng, "random", "stride", "pairs", "broadcast")
		stride := int64(w) * int64(pick(rng, 1, 2, 8, 32))
		pool := []int64{0, int64(w), 128, 256 + int64(w)}
		for lane := range a {
			switch style {
			case "random":
				a[lane] = int64(w) * int64(rng.IntN(512/w))
			case "stride":
				a[lane] = stride * int64(lane)
			case "pairs":
				if lane%2 == 0 {
					a[lane] = pick(rng, pool...)
				} else {
					a[lane] = a[lane-1]
				}
			case "broadcast":
				a[lane] = 0
			}
		}
		var off uint32
		mask := pick(rng, "random", "one-phase", "one-lane", "all-but-one", "even", "upper-half")
		switch mask {
		case "random":
			off = rng.Uint32()
		case "one-phase":
			ph := rng.IntN(32 / per)
			off = ^uint32(0)
			for lane := ph * per; lane < (ph+1)*per; lane++ {
				off &^= 1 << lane
			}
		case "one-lane":
			off = ^uint32(0) &^ (1 << rng.IntN(32))
		case "all-but-one":
			off = 1 << rng.IntN(32)
		case "even":
			off = 0xaaaaaaaa
		case "upper-half":
			off = 0x0000ffff
		}
		in := bank.Instruction{Op: op, Width: w, Inactive: off}
		copy(in.Addrs[:], a)
		for lane := range a {
			if !in.Active(lane) {
				a[lane] = 0
				in.Addrs[lane] = 0
			}
		}
		c, err := bank.Analyze(&in)
		if err != nil {
			panic(err)
		}
		out = append(out, &Record{Origin: "mask", Smem: fmt.Sprintf("mask %s %s", style, mask), ElemBits: 8 * w, Op: op.String(),
			VectorBytes: w, Warps: 1, PerWarp: 1, Addrs: [][]int64{a}, Inactive: []uint32{off}, Predicted: c.Wavefronts})
	}
	return out
}
