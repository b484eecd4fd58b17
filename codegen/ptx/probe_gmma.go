package ptx

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
)

// GMMA probes keep A (SS) and B in shared memory without swizzling, in
// CuTe's canonical INTERLEAVE layouts: 8x16-byte core matrices, adjacent
// core matrices along K gmmaLBO bytes apart and along M or N gmmaSBO apart
// (K is always 32 bytes: two core matrices; for MN-major, K = 16 elements of
// 16 bits is two core matrices of 8 K-rows).
const (
	gmmaLBO = 128
	gmmaSBO = 256
	gmmaM   = 64
)

// gmmaOffset is the byte offset of element (mn, k) of a K-major or
// MN-major operand of elements of size bytes.
func gmmaOffset(mn, k, size int, mnMajor bool) int {
	if mnMajor {
		t := 16 / size
		return (mn/t)*gmmaSBO + (k/8)*gmmaLBO + (k%8)*16 + (mn%t)*size
	}
	kb := k * size
	return (mn/8)*gmmaSBO + (kb/16)*gmmaLBO + (mn%8)*16 + kb%16
}

// gmmaInput is the element type of a wgmma's A and B, from its instruction.
func gmmaInput(ptx string) string {
	parts := strings.Split(ptx, ".")
	in := parts[len(parts)-1]
	if in == "satfinite" {
		in = parts[len(parts)-2]
	}
	return in
}

// gmmaProbeImmediates are the immediates after the scale-d predicate: scales
// of 1 for floating-point inputs, and for 16-bit inputs the transposes (1:
// MN-major) of A where A is in shared memory, and of B.
func gmmaProbeImmediates(ptx string, aFromSmem, aMN, bMN bool) []string {
	bit := func(b bool) string {
		if b {
			return "1"
		}
		return "0"
	}
	switch gmmaInput(ptx) {
	case "s8", "u8":
		return nil
	case "f16", "bf16":
		if aFromSmem {
			return []string{"1", "1", bit(aMN), bit(bMN)}
		}
		return []string{"1", "1", bit(bMN)}
	}
	return []string{"1", "1"}
}

// gmmaProbe builds the probe of a wgmma atom's accumulator ("C": SS atoms,
// A(m,k) B(n,k) summing to m + 64n) or of its register-sourced A ("A": RS
// atoms, B the identity, one run per octal digit of each A value's code).
func gmmaProbe(a *atom.MMA, majors, operand string) (*Probe, error) {
	aMN, bMN := false, false
	switch majors {
	case "K,K":
	case "MN,K":
		aMN = true
	case "K,MN":
		bMN = true
	case "MN,MN":
		aMN, bMN = true, true
	default:
		return nil, fmt.Errorf("%s: majors %q", a.Name, majors)
	}
	aFromSmem := a.RegA.PTXType() == "b64"
	in := gmmaInput(a.PTX)
	if (aMN && aFromSmem || bMN) && in != "f16" && in != "bf16" {
		return nil, fmt.Errorf("%s: only 16-bit inputs may be MN-major", a.Name)
	}
	if aMN && !aFromSmem {
		return nil, fmt.Errorf("%s: A in registers is K-major", a.Name)
	}
	if operand == "C" && !aFromSmem || operand == "A" && aFromSmem || operand != "A" && operand != "C" {
		return nil, fmt.Errorf("%s: no %s probe (C probes take SS atoms, A probes RS atoms)", a.Name, operand)
	}
	M, N, K := int(a.M()), int(a.N()), int(a.K())
	size := a.ValA.Bits / 8
	if M != gmmaM || K*size != 32 || a.ValB.Bits != a.ValA.Bits {
		return nil, fmt.Errorf("%s: expected 64xNx(32 bytes of K)", a.Name)
	}
	if operand == "A" && N < K {
		return nil, fmt.Errorf("%s: the A probe's identity B needs N >= K", a.Name)
	}
	if operand == "C" && a.ValD.Name == "half_t" && gmmaM*N > 2048 {
		return nil, fmt.Errorf("%s: f16 accumulators hold m + 64n exactly only for N <= 32", a.Name)
	}
	aRegBytes := 0
	if !aFromSmem {
		aRegBytes = 128 * a.RegA.Count * a.RegA.Bits / 8
	}
	aImg := 0
	if aFromSmem {
		aImg = M * K * size
	}
	bImg := N * K * size
	offA, offB := aRegBytes, aRegBytes+aImg

	k := &kernel{name: "cute_probe"}
	k.param("u64", "param_in")
	k.param("u64", "param_out")
	k.threadIndex()
	k.reg("b64", "%g_in", "%g_at")
	k.reg("b32", "%i", "%s_at", "%w0", "%w1", "%w2", "%w3")
	k.reg("pred", "%p_end", "%p_scale_d")
	k.emit("ld.param.u64 %%g_in, [param_in];")
	k.emit("cvta.to.global.u64 %%g_in, %%g_in;")
	stage := func(label, smem string, off, n int) {
		k.shared = append(k.shared, fmt.Sprintf(".shared .align 128 .b8 %s[%d];", smem, n))
		k.emit("mul.lo.u32 %%i, %%t, 16;")
		k.label(label)
		k.emit("setp.ge.u32 %%p_end, %%i, %d;", n)
		k.emit("@%%p_end bra %s_END;", label)
		k.emit("cvt.u64.u32 %%off, %%i;")
		k.emit("add.s64 %%g_at, %%g_in, %%off;")
		k.emit("ld.global.v4.b32 {%%w0, %%w1, %%w2, %%w3}, [%%g_at+%d];", off)
		k.emit("mov.u32 %%s_at, %s;", smem)
		k.emit("add.u32 %%s_at, %%s_at, %%i;")
		k.emit("st.shared.v4.b32 [%%s_at], {%%w0, %%w1, %%w2, %%w3};")
		k.emit("add.u32 %%i, %%i, %d;", 128*16)
		k.emit("bra %s;", label)
		k.label(label + "_END")
	}
	descBits := uint64(gmmaLBO>>4)<<16 | uint64(gmmaSBO>>4)<<32
	desc := func(reg, smem string) {
		k.reg("b64", reg)
		k.emit("mov.u32 %%s_at, %s;", smem)
		k.emit("shr.u32 %%s_at, %%s_at, 4;")
		k.emit("and.b32 %%s_at, %%s_at, 16383;")
		k.emit("cvt.u64.u32 %s, %%s_at;", reg)
		k.emit("or.b64 %s, %s, %d;", reg, reg, descBits)
	}
	if aFromSmem {
		stage("STAGE_A", k.smem("a"), offA, aImg)
	}
	stage("STAGE_B", k.smem("b"), offB, bImg)
	// The tensor cores read shared memory through the async proxy.
	k.emit("fence.proxy.async.shared::cta;")
	k.emit("bar.sync 0;")
	var aOperand string
	if aFromSmem {
		desc("%desc_a", k.smem("a"))
		aOperand = "%desc_a"
	} else {
		ra, err := k.load("param_in", "a", a.RegA)
		if err != nil {
			return nil, err
		}
		aOperand = vec(ra)
	}
	desc("%desc_b", k.smem("b"))
	typ := a.RegC.PTXType()
	rc := names("c", a.RegC.Count)
	k.reg(typ, rc...)
	for _, r := range rc {
		if typ == "f32" {
			k.emit("mov.f32 %s, 0f00000000;", r)
		} else {
			k.emit("mov.b32 %s, 0;", r)
		}
	}
	// scale-d false: D = A B, the zeroed C ignored.
	k.emit("setp.ne.u32 %%p_scale_d, %%t, %%t;")
	ops := append([]string{vec(rc), aOperand, "%desc_b", "%p_scale_d"}, gmmaProbeImmediates(a.PTX, aFromSmem, aMN, bMN)...)
	k.emit("wgmma.fence.sync.aligned;")
	k.emit("%s %s;", a.PTX, strings.Join(ops, ", "))
	k.emit("wgmma.commit_group.sync.aligned;")
	k.emit("wgmma.wait_group.sync.aligned 0;")
	k.store("param_out", "c", a.RegC, rc)

	base := make([]byte, offB+bImg)
	var runs [][]byte
	put := func(img []byte, at int, t atom.ValType, x int64) error {
		return putExact(img[at:], t, x)
	}
	if operand == "C" {
		// A(m,k) B(n,k) summed over k = m%8 + 8(m/8) + 64(n%8) + 512((n/8)%8) + 4096(n/64).
		for m := 0; m < M; m++ {
			for kk, x := range []int64{int64(m % 8), int64(m / 8), 64, 64, 64} {
				if err := put(base, offA+gmmaOffset(m, kk, size, aMN), a.ValA, x); err != nil {
					return nil, fmt.Errorf("%s: A: %w", a.Name, err)
				}
			}
		}
		for n := 0; n < N; n++ {
			for kk, x := range []int64{1, 8, int64(n % 8), int64(8 * ((n / 8) % 8)), int64(64 * (n / 64))} {
				if err := put(base, offB+gmmaOffset(n, kk, size, bMN), a.ValB, x); err != nil {
					return nil, fmt.Errorf("%s: B: %w", a.Name, err)
				}
			}
		}
		runs = [][]byte{base}
	} else {
		for n := 0; n < K; n++ {
			if err := put(base, offB+gmmaOffset(n, n, size, bMN), a.ValB, 1); err != nil {
				return nil, fmt.Errorf("%s: B: %w", a.Name, err)
			}
		}
		va := a.RegA.Count * a.RegA.Bits / a.ValA.Bits
		for digit := range gmmaDigits {
			run := append([]byte{}, base...)
			for t := range 128 {
				for v := range va {
					code := int64(1 + t*va + v)
					x := code >> (3 * digit) & 7
					if err := put(run, (t*va+v)*size, a.ValA, x); err != nil {
						return nil, fmt.Errorf("%s: A: %w", a.Name, err)
					}
				}
			}
			runs = append(runs, run)
		}
	}
	v := mmaVersion(a.PTX)
	return &Probe{
		Atom: a.Name, Operand: operand, Majors: majors, Entry: "cute_probe", Threads: 128, Target: "sm_90a",
		Text:   module(a.Name+" ("+operand+" probe, majors "+majors+")", "sm_90a", v, 128, []*kernel{k}),
		Inputs: runs, OutBytes: 128 * a.RegC.Count * a.RegC.Bits / 8,
	}, nil
}

// gmmaDigits is the number of octal digits of an A code: 1 + t*VA + v is at
// most 128*16 = 2048 < 8^4. Each run carries one digit, small enough to be
// exact in every input type.
const gmmaDigits = 4
