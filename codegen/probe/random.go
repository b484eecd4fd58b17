package probe

import (
	"math/rand/v2"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Random generates n distinct accesses of the given origin from a seed:
//
//   - "tile": a row- or column-major tile, padded or swizzled, read or
//     written by several warps in several steps with vectors of 4- to
//     64-bit elements (runs the layouts cannot vectorize are split);
//   - "matrix": ldmatrix and stmatrix (.x1, .x2, .x4, .trans) over tiles
//     of 16-byte rows, padded or swizzled;
//   - "scatter": hierarchical thread modes with arbitrary and zero strides
//     over a flat or swizzled buffer: broadcasts, lanes sharing words,
//     many-way conflicts, at every width.
//
// Accesses the model cannot lower, or that need more shared memory than a
// block has, are skipped.
func Random(origin string, seed uint64, n int) []*Record {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	seen := map[string]bool{}
	var out []*Record
	for tries := 0; len(out) < n && tries < 200*n; tries++ {
		var a bank.Access
		var ok bool
		switch origin {
		case "tile":
			a, ok = randomTile(rng)
		case "matrix":
			a, ok = randomMatrix(rng)
		case "scatter":
			a, ok = randomScatter(rng)
		default:
			return nil
		}
		if !ok {
			continue
		}
		key := a.Smem.String() + "|" + a.TV.String() + "|" + a.Op.String() + string(rune('0'+a.Matrices)) + string(rune('0'+a.ElemBits))
		if a.Trans {
			key += "t"
		}
		if seen[key] {
			continue
		}
		r, err := NewRecord(origin, a)
		if err != nil {
			continue
		}
		if _, err := r.Case(); err != nil {
			continue
		}
		c, _ := r.Case()
		if c.check(0) != nil {
			continue
		}
		seen[key] = true
		out = append(out, r)
	}
	return out
}

func pick[T any](rng *rand.Rand, xs ...T) T { return xs[rng.IntN(len(xs))] }

func log2(x int) int {
	k := 0
	for x > 1 {
		x >>= 1
		k++
	}
	return k
}

func ints(v ...int) layout.IntTuple {
	t := make([]layout.IntTuple, len(v))
	for i, x := range v {
		t[i] = layout.Int(int64(x))
	}
	return layout.Tup(t...)
}

// tile2 is an R x C tile: row-major (rows of C+pad) or column-major.
func tile2(rng *rand.Rand, R, C, pad int, rowMajor bool, swizzleUnit int) layout.Value {
	var base layout.Layout
	if rowMajor {
		base = layout.Make(ints(R, C), ints(C+pad, 1))
	} else {
		base = layout.Make(ints(R, C), ints(1, R+pad))
	}
	if pad == 0 && rng.IntN(10) < 6 {
		b := pick(rng, 1, 2, 3)
		m := log2(swizzleUnit) + rng.IntN(max(1, 6-log2(swizzleUnit)))
		s := b + rng.IntN(7-b)
		return layout.Composed{Outer: layout.Swizzle{B: b, M: m, S: s}, Offset: layout.Int(0), Inner: base}
	}
	return layout.Box(base)
}

func randomTile(rng *rand.Rand) (bank.Access, bool) {
	eb := pick(rng, 4, 6, 8, 8, 16, 16, 32, 32, 64)
	var V int
	switch eb {
	case 4:
		V = pick(rng, 1, 2, 4, 8, 16, 32)
	case 6:
		V = pick(rng, 1, 4, 8, 16, 64)
	default:
		V = pick(rng, 1, 2, 4, 8, 16)
		for V*eb > 128 {
			V /= 2
		}
	}
	C := pick(rng, 16, 32, 64, 128, 256)
	for C*eb/8 > 512 {
		C /= 2
	}
	C = max(C, V)
	R := pick(rng, 8, 16, 32, 64)
	pad := 0
	if rng.IntN(10) < 3 {
		pad = pick(rng, 0, V, 2*V, 1)
	}
	rowMajor := rng.IntN(10) < 7
	// The vector runs along the contiguous dimension, or (sometimes) across it.
	alongC := rowMajor
	if rng.IntN(10) < 2 {
		alongC = !alongC
	}
	smem := tile2(rng, R, C, pad, rowMajor, V)
	nw := pick(rng, 1, 1, 2, 4)
	T := 32 * nw
	// Coordinates are colexicographic over (R, C): r + R*c.
	var tv layout.Layout
	if alongC {
		tc := pick(rng, 1, 2, 4, 8, 16, 32)
		if tc*V > C || T/tc > R {
			return bank.Access{}, false
		}
		tr := T / tc
		rs := pick(rng, 1, 1, 2)
		cs := pick(rng, 1, 1, 2)
		if tc*V*cs > C || tr*rs > R {
			rs, cs = 1, 1
		}
		ns := pick(rng, 1, 1, 2, 3, 4)
		stepStride := tr * rs
		if tr*rs*ns > R {
			ns = 1
		}
		thr := layout.Make(ints(tr, tc), ints(rs, R*V*cs))
		if rng.IntN(2) == 0 {
			thr = layout.Make(ints(tc, tr), ints(R*V*cs, rs))
		}
		tv = layout.Make(layout.Tup(thr.Shape, layout.Int(int64(V)), layout.Int(int64(ns))),
			layout.Tup(thr.Stride, layout.Int(int64(R)), layout.Int(int64(stepStride))))
	} else {
		tr := pick(rng, 1, 2, 4, 8, 16, 32)
		if tr*V > R || T/tr > C {
			return bank.Access{}, false
		}
		tc := T / tr
		cstep := pick(rng, 1, 1, 2)
		if tc*cstep > C {
			cstep = 1
		}
		ns := pick(rng, 1, 1, 2, 4)
		if tc*cstep*ns > C {
			ns = 1
		}
		thr := layout.Make(ints(tr, tc), ints(V, R*cstep))
		if rng.IntN(2) == 0 {
			thr = layout.Make(ints(tc, tr), ints(R*cstep, V))
		}
		tv = layout.Make(layout.Tup(thr.Shape, layout.Int(int64(V)), layout.Int(int64(ns))),
			layout.Tup(thr.Stride, layout.Int(1), layout.Int(int64(R*tc*cstep))))
	}
	op := bank.Load
	if rng.IntN(10) < 4 {
		op = bank.Store
	}
	return bank.Access{Smem: smem, TV: tv, ElemBits: eb, Op: op}, true
}

func randomMatrix(rng *rand.Rand) (bank.Access, bool) {
	eb := pick(rng, 16, 16, 16, 8, 32)
	V := 128 / eb // one 16-byte row
	rowBytes := pick(rng, 16, 32, 64, 128, 128, 256)
	C := rowBytes * 8 / eb
	R := pick(rng, 16, 32, 64)
	rowMajor := rng.IntN(10) < 8
	pad := 0
	if rng.IntN(10) < 3 {
		pad = pick(rng, V, 2*V, 3*V)
	}
	if !rowMajor { // the rows of the matrices run down the columns
		R, C = C, R
	}
	smem := tile2(rng, R, C, pad, rowMajor, V)
	// Steps in coordinates: along a row of the tile (dr) and along its contiguous dimension (dv).
	dr, dv, vstride := 1, R*V, R
	if !rowMajor {
		dr, dv, vstride = R, V, 1
	}
	n := pick(rng, 1, 2, 4, 4)
	nw := pick(rng, 1, 1, 2, 4)
	ns := pick(rng, 1, 1, 2, 4)
	// Lane i of matrix m addresses row i*rs; matrices and warps and steps
	// move by a number of rows or of 16-byte chunks.
	rs := pick(rng, 1, 1, 1, 2)
	moves := []int{8 * rs * dr, dv, 16 * rs * dr, 2 * dv, 0}
	m0, m1 := pick(rng, moves...), pick(rng, moves...)
	w := pick(rng, moves...)
	s := pick(rng, moves...)
	if m0 == 0 && rng.IntN(3) > 0 {
		m0 = moves[0]
	}
	tv := layout.Make(
		layout.Tup(layout.Tup(ints(8, 2, 2), layout.Int(int64(nw))), layout.Int(int64(V)), layout.Int(int64(ns))),
		layout.Tup(layout.Tup(ints(rs*dr, m0, m1), layout.Int(int64(w))), layout.Int(int64(vstride)), layout.Int(int64(s))))
	// Stay inside the tile; the lowering rejects rows that are not 16 contiguous bytes.
	top := 7*rs*dr + (V-1)*vstride + m0 + m1 + w*(nw-1) + s*(ns-1)
	if top >= R*C {
		return bank.Access{}, false
	}
	op := bank.LdMatrix
	if rng.IntN(10) < 4 {
		op = bank.StMatrix
	}
	return bank.Access{Smem: smem, TV: tv, ElemBits: eb, Op: op, Matrices: n, Trans: rng.IntN(3) == 0}, true
}

func randomScatter(rng *rand.Rand) (bank.Access, bool) {
	eb := pick(rng, 8, 8, 16, 32, 32, 64)
	V := pick(rng, 1, 1, 2, 4, 8, 16)
	for V*eb > 128 {
		V /= 2
	}
	bytes := pick(rng, 4096, 16384, 65536)
	N := bytes * 8 / eb
	var smem layout.Value = layout.Box(layout.Make(layout.Int(int64(N)), layout.Int(1)))
	if rng.IntN(10) < 4 {
		b := pick(rng, 1, 2, 3)
		m := log2(V) + rng.IntN(max(1, 5-log2(V)))
		s := b + rng.IntN(8-b)
		smem = layout.Composed{Outer: layout.Swizzle{B: b, M: m, S: s}, Offset: layout.Int(0), Inner: *(smem.(*layout.Layout))}
	}
	unit := V
	zeros := rng.IntN(4) == 0 // mostly broadcasts
	strideOf := func() int {
		if zeros && rng.IntN(10) < 6 {
			return 0
		}
		return unit * pick(rng, 0, 0, 1, 1, 2, 3, 4, 5, 8, 16, 17, 31, 32, 33, 64, 128, 256)
	}
	nw := pick(rng, 1, 1, 2, 4)
	thrShape := []int{2, 2, 2, 2, 2}
	if rng.IntN(3) == 0 {
		thrShape = pick(rng, []int{4, 8}, []int{8, 4}, []int{2, 16}, []int{32}, []int{4, 2, 4})
	}
	thrStride := make([]int, len(thrShape))
	top := 0
	for i, s := range thrShape {
		thrStride[i] = strideOf()
		top += (s - 1) * thrStride[i]
	}
	ws := unit * pick(rng, 0, 32, 64, 256, 1024)
	ns := pick(rng, 1, 1, 2, 3)
	ss := unit * pick(rng, 0, 1, 32, 64, 512)
	top += (nw-1)*ws + (ns-1)*ss + V
	if top > N {
		return bank.Access{}, false
	}
	tv := layout.Make(
		layout.Tup(layout.Tup(ints(thrShape...), layout.Int(int64(nw))), layout.Int(int64(V)), layout.Int(int64(ns))),
		layout.Tup(layout.Tup(ints(thrStride...), layout.Int(int64(ws))), layout.Int(1), layout.Int(int64(ss))))
	op := bank.Load
	if rng.IntN(10) < 4 {
		op = bank.Store
	}
	return bank.Access{Smem: smem, TV: tv, ElemBits: eb, Op: op}, true
}
