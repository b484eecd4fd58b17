package ptx

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Fragments are the inputs of one run of an MMA atom's kernel and the D it
// must produce: per hardware thread, its register arrays back to back, as
// the kernel reads and writes them. The matrices hold small integers, exact
// in every element type, so D is compared bit for bit.
type Fragments struct {
	Threads    int64
	A, B, C, D []byte
}

// Reference builds the fragments of an mma.sync atom from the matrices
// A(m,k) = (3m+5k) mod 7 - 3, B(n,k) = (5n+3k) mod 5 - 2 (without the
// offsets for unsigned types) and C(m,n) = (m+2n) mod 9 - 4, placing each
// element where the atom's thread-value layouts say, and D = A B^T + C
// computed on the CPU.
func Reference(a *atom.MMA) (*Fragments, error) {
	if !strings.HasPrefix(a.PTX, "mma.sync") {
		return nil, fmt.Errorf("%s: only mma.sync atoms have a reference run", a.Name)
	}
	threads, err := a.ThrID.Size()
	if err != nil {
		return nil, err
	}
	M, N, K := a.M(), a.N(), a.K()
	valA := func(m, k int64) int64 { return (3*m+5*k)%7 - signedOffset(a.ValA, 3) }
	valB := func(n, k int64) int64 { return (5*n+3*k)%5 - signedOffset(a.ValB, 2) }
	valC := func(m, n int64) int64 { return (m+2*n)%9 - 4 }
	if threads > 32 {
		return nil, fmt.Errorf("%s: %d threads, mma.sync is one warp's", a.Name, threads)
	}
	// mma.sync is issued by the whole warp; ThrID may name only some of its
	// lanes (SM70's quad pairs), so every lane gets a fragment.
	f := &Fragments{Threads: 32}
	fill := func(tv layout.Layout, val atom.ValType, regs atom.Registers, rows int64, at func(r, c int64) int64) ([]byte, error) {
		perThread := int64(regs.Count * regs.Bits / 8)
		out := make([]byte, perThread*32)
		thr, err := tv.Get(0)
		if err != nil {
			return nil, err
		}
		T, err := thr.Size()
		if err != nil {
			return nil, err
		}
		size, err := tv.Size()
		if err != nil {
			return nil, err
		}
		V := size / T
		if V*int64(val.Bits) != int64(regs.Count*regs.Bits) {
			return nil, fmt.Errorf("%s: %d values of %d bits do not fill %s", a.Name, V, val.Bits, regs)
		}
		for t := int64(0); t < T; t++ {
			hw, err := a.ThrID.Eval(t)
			if err != nil {
				return nil, err
			}
			for v := int64(0); v < V; v++ {
				idx, err := tv.Eval(t + T*v)
				if err != nil {
					return nil, err
				}
				x := at(idx%rows, idx/rows)
				if err := put(out[hw*perThread:], v, val, x); err != nil {
					return nil, fmt.Errorf("%s: %w", a.Name, err)
				}
			}
		}
		return out, nil
	}
	if f.A, err = fill(a.ALayout, a.ValA, a.RegA, M, valA); err != nil {
		return nil, err
	}
	if f.B, err = fill(a.BLayout, a.ValB, a.RegB, N, valB); err != nil {
		return nil, err
	}
	if f.C, err = fill(a.CLayout, a.ValC, a.RegC, M, valC); err != nil {
		return nil, err
	}
	f.D, err = fill(a.CLayout, a.ValD, a.RegD, M, func(m, n int64) int64 {
		s := valC(m, n)
		for k := int64(0); k < K; k++ {
			s += valA(m, k) * valB(n, k)
		}
		return s
	})
	return f, err
}

func signedOffset(t atom.ValType, off int64) int64 {
	if strings.HasPrefix(t.Name, "uint") {
		return 0
	}
	return off
}

// put writes the small integer x as value v of type t into a fragment.
func put(frag []byte, v int64, t atom.ValType, x int64) error {
	at := v * int64(t.Bits) / 8
	switch t.Name {
	case "half_t":
		binary.LittleEndian.PutUint16(frag[at:], half(x))
	case "bfloat16_t":
		binary.LittleEndian.PutUint16(frag[at:], uint16(math.Float32bits(float32(x))>>16))
	case "float", "tfloat32_t":
		binary.LittleEndian.PutUint32(frag[at:], math.Float32bits(float32(x)))
	case "double":
		binary.LittleEndian.PutUint64(frag[at:], math.Float64bits(float64(x)))
	case "int8_t", "uint8_t":
		frag[at] = byte(int8(x))
	case "int32_t":
		binary.LittleEndian.PutUint32(frag[at:], uint32(int32(x)))
	default:
		return fmt.Errorf("no reference encoding for %s", t.Name)
	}
	return nil
}

// half is the binary16 encoding of an integer of magnitude below 2048.
func half(x int64) uint16 {
	if x == 0 {
		return 0
	}
	var sign uint16
	if x < 0 {
		sign, x = 0x8000, -x
	}
	e := 63 - bits.LeadingZeros64(uint64(x))
	mant := uint16((x - 1<<e) << (10 - e))
	return sign | uint16(e+15)<<10 | mant
}
