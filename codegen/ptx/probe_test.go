package ptx

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/layout"
)

type probed struct {
	atom, operand, majors, result string
	obs                           []int64
}

func readProbed(t *testing.T) []probed {
	t.Helper()
	var rows []probed
	for _, f := range readTSV(t, "../../testdata/ptx/probed.tsv") {
		if len(f) != 5 {
			t.Fatalf("probed.tsv row of %d fields: %.80q", len(f), strings.Join(f, "\t"))
		}
		var obs []int64
		for _, s := range strings.Split(f[4], ",") {
			x, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("%s %s: %v", f[0], f[1], err)
			}
			obs = append(obs, x)
		}
		rows = append(rows, probed{f[0], f[1], f[2], f[3], obs})
	}
	return rows
}

// What the H100 did (testdata/ptx/probed.tsv) must agree with the atoms'
// thread-value layouts as they are now, and cover exactly the probes built
// now: a layout change that disagrees with the hardware fails here.
func TestProbedHardwareAgreesWithLayouts(t *testing.T) {
	probes, err := Probes()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, p := range probes {
		want[p.Key()] = true
	}
	rows := readProbed(t)
	kinds := map[string]int{}
	for _, r := range rows {
		key := r.atom + "\t" + r.operand + "\t" + r.majors
		if !want[key] {
			t.Errorf("probed.tsv has %q, which Probes does not build", key)
		}
		delete(want, key)
		if r.result != "ok" {
			t.Errorf("%s: recorded as %q", key, r.result)
		}
		if err := CheckObserved(r.atom, r.operand, r.obs); err != nil {
			t.Errorf("hardware disagrees with the layout: %v", err)
		}
		if _, err := atom.LookupMMA(r.atom); err == nil {
			kinds["wgmma "+r.operand]++
		} else if c, err := atom.LookupCopy(r.atom); err == nil {
			kinds[strings.SplitN(c.PTX+"plain", ".", 2)[0]]++
		}
	}
	for key := range want {
		t.Errorf("%q is built but not in probed.tsv: run the probes again (testdata/ptx/README.md)", key)
	}
	for kind, n := range map[string]int{"ldmatrix": 6, "stmatrix": 6, "cp": 8, "plain": 5, "wgmma C": 20, "wgmma A": 10} {
		if kinds[kind] < n {
			t.Errorf("%d %s probes recorded, expected at least %d", kinds[kind], kind, n)
		}
	}
}

// Every recorded observation, with two of its codes swapped, must fail the
// check: the check reads every code.
func TestProbeCheckCatchesSwappedCodes(t *testing.T) {
	for _, r := range readProbed(t) {
		obs := append([]int64{}, r.obs...)
		i, j := -1, -1
		for k, x := range obs {
			if x < 0 || x == 0 && r.operand == "A" { // an A probe's 0 is D past K
				continue
			}
			if i < 0 {
				i = k
			} else if x != obs[i] {
				j = k
				break
			}
		}
		switch {
		case j >= 0:
			obs[i], obs[j] = obs[j], obs[i]
		case len(obs) == 1: // a one-byte copy: the byte's code changed instead
			obs[0]++
		default:
			t.Fatalf("%s %s: no two codes to swap", r.atom, r.operand)
		}
		if err := CheckObserved(r.atom, r.operand, obs); err == nil {
			t.Errorf("%s %s: codes %d and %d swapped, and the check passed", r.atom, r.operand, i, j)
		}
	}
}

// The recorded hardware must also tell layouts apart: each observation
// checked against a neighbouring atom's (wrong) layouts fails.
func TestProbeCheckRejectsOtherLayouts(t *testing.T) {
	rows := map[string]probed{}
	for _, r := range readProbed(t) {
		rows[r.atom+" "+r.operand+" "+r.majors] = r
	}
	copyAs := func(observed, layouts string) {
		t.Helper()
		obs, a := rows[observed+" D "], mustCopy(t, layouts)
		c := *mustCopy(t, observed)
		c.SrcLayout, c.DstLayout = a.SrcLayout, a.DstLayout
		if err := checkCopy(&c, obs.obs); err == nil {
			t.Errorf("%s's hardware passed with %s's layouts", observed, layouts)
		}
	}
	copyAs("SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T")
	copyAs("SM75_U16x2_LDSM_T", "SM75_U32x1_LDSM_N")
	copyAs("SM90_U32x2_STSM_N", "SM90_U16x4_STSM_T")
	copyAs("SM90_U16x8_STSM_T", "SM90_U32x4_STSM_N")

	// C with the two 2-value modes of CLayout_64xN exchanged.
	c := rows["SM90_64x64x16_F32F16F16_SS C K,MN"]
	a := *mustMMA(t, "SM90_64x64x16_F32F16F16_SS")
	a.CLayout = layout.Layout{Shape: a.CLayout.Shape, Stride: layout.Tup(a.CLayout.Stride.At(0),
		layout.Tup(a.CLayout.Stride.At(1).At(1), a.CLayout.Stride.At(1).At(0), a.CLayout.Stride.At(1).At(2)))}
	if err := checkGMMA(&a, "C", c.obs); err == nil {
		t.Errorf("C probe passed with CLayout %v", a.CLayout)
	}
	// The 8-bit A probe against the 16-bit register layout (same shape of threads).
	r := rows["SM90_64x32x16_F32BF16BF16_RS A K,K"]
	b := *mustMMA(t, "SM90_64x32x16_F32BF16BF16_RS")
	b.ALayout = mustMMA(t, "SM90_64x32x8_F32TF32TF32_RS_TN").ALayout
	if err := checkGMMA(&b, "A", r.obs); err == nil {
		t.Errorf("A probe passed with ALayout %v", b.ALayout)
	}
}

func mustCopy(t *testing.T, name string) *atom.Copy {
	t.Helper()
	c, err := atom.LookupCopy(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustMMA(t *testing.T, name string) *atom.MMA {
	t.Helper()
	a, err := atom.LookupMMA(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestProbeCheckErrors(t *testing.T) {
	for _, tc := range []struct {
		atom, operand string
		obs           []int64
		want          string
	}{
		{"SM75_U32x1_LDSM_N", "D", []int64{1, 2}, "2 observations, expected 64"},
		{"SM75_U32x1_LDSM_N", "D", append([]int64{-1}, make([]int64, 63)...), "received no row element"},
		{"SM90_U32x1_STSM_N", "D", make([]int64, 3), "3 observations, expected 256"},
		{"SM90_U32x1_STSM_N", "D", filled(256, -1), "0 of 64 source halves were stored"},
		{"SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "D", []int64{0}, "1 observations, expected 16"},
		{"SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", "D", []int64{0, 1, 2, -1}, "byte 3 was not copied"},
		{"SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", "D", []int64{0, 1, 3, 2}, "byte 2 holds source byte 3"},
		{"SM90_64x8x16_F16F16F16_SS", "C", []int64{0}, "1 observations, C has 512"},
		{"SM90_64x8x16_F16F16F16_SS", "B", make([]int64, 512), "no B probe"},
		{"SM90_64x16x16_F16F16F16_RS", "A", make([]int64, 1024), "holds no A value"},
		{"SM90_64x32x16_F32BF16BF16_RS", "A", pastK(t, "SM90_64x32x16_F32BF16BF16_RS", 5), "past K, holds A code 4"},
		{"SM90_TMA_LOAD<NumBitsPerTMA=65536>", "D", nil, "no probe for"},
		{"no such atom", "D", nil, "no copy atom named"},
	} {
		err := CheckObserved(tc.atom, tc.operand, tc.obs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want %q", tc.atom, tc.operand, err, tc.want)
		}
	}
}

// pastK is what an A probe of the atom sees if CuTe's layouts hold, except
// that D past K holds the given observation instead of 0 (nothing).
func pastK(t *testing.T, name string, past int64) []int64 {
	a := mustMMA(t, name)
	_, va, err := tvSize(a.ALayout)
	if err != nil {
		t.Fatal(err)
	}
	code := map[int64]int64{}
	for ta := int64(0); ta < 128; ta++ {
		for v := int64(0); v < va; v++ {
			mk, err := tv(a.ALayout, ta, v)
			if err != nil {
				t.Fatal(err)
			}
			code[mk] = 1 + ta*va + v
		}
	}
	_, vc, err := tvSize(a.CLayout)
	if err != nil {
		t.Fatal(err)
	}
	var obs []int64
	for tc := int64(0); tc < 128; tc++ {
		for v := int64(0); v < vc; v++ {
			mn, err := tv(a.CLayout, tc, v)
			if err != nil {
				t.Fatal(err)
			}
			if mn/64 >= a.K() {
				obs = append(obs, past)
			} else {
				obs = append(obs, code[mn])
			}
		}
	}
	return obs
}

func TestPastKModelPasses(t *testing.T) {
	if err := CheckObserved("SM90_64x32x16_F32BF16BF16_RS", "A", pastK(t, "SM90_64x32x16_F32BF16BF16_RS", 0)); err != nil {
		t.Error(err)
	}
}

func filled(n int, x int64) []int64 {
	s := make([]int64, n)
	for i := range s {
		s[i] = x
	}
	return s
}

func TestGMMAProbeRefusals(t *testing.T) {
	for _, tc := range []struct{ atom, majors, operand, want string }{
		{"SM90_64x16x16_F32F16F16_SS", "T,N", "C", `majors "T,N"`},
		{"SM90_64x8x8_F32TF32TF32_SS_TN", "MN,K", "C", "only 16-bit inputs may be MN-major"},
		{"SM90_64x16x16_F16F16F16_RS", "MN,K", "A", "A in registers is K-major"},
		{"SM90_64x16x16_F32F16F16_SS", "K,K", "A", "no A probe"},
		{"SM90_64x16x16_F16F16F16_RS", "K,K", "C", "no C probe"},
		{"SM90_64x8x16_F16F16F16_RS", "K,K", "A", "needs N >= K"},
		{"SM90_64x64x16_F16F16F16_SS", "K,K", "C", "only for N <= 32"},
		{"SM90_64x256x32_S32S8S8_SS_TN", "K,K", "C", "128 is not exact in int8_t"},
	} {
		_, err := gmmaProbe(mustMMA(t, tc.atom), tc.majors, tc.operand)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s %s: %v, want %q", tc.atom, tc.majors, tc.operand, err, tc.want)
		}
	}
}

func TestGMMAProbeModule(t *testing.T) {
	p, err := gmmaProbe(mustMMA(t, "SM90_64x32x16_F16F16F16_SS"), "MN,K", "C")
	if err != nil {
		t.Fatal(err)
	}
	// Descriptor: LBO 128 and SBO 256 bytes, in 16-byte units at bits 16 and 32.
	for _, want := range []string{
		"wgmma.mma_async.sync.aligned.m64n32k16.f16.f16.f16 {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, %desc_a, %desc_b, %p_scale_d, 1, 1, 1, 0;",
		"or.b64 %desc_b, %desc_b, " + strconv.Itoa(8<<16|16<<32) + ";",
		"fence.proxy.async.shared::cta;",
	} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("module lacks %q:\n%s", want, p.Text)
		}
	}
	if len(p.Inputs) != 1 || len(p.Inputs[0]) != 64*16*2+32*16*2 || p.OutBytes != 128*8*4 {
		t.Errorf("%d runs of %d bytes, %d out", len(p.Inputs), len(p.Inputs[0]), p.OutBytes)
	}
	rs, err := gmmaProbe(mustMMA(t, "SM90_64x32x32_F32E4M3E4M3_RS_TN"), "K,K", "A")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Inputs) != gmmaDigits || !strings.Contains(rs.Text, "{%a0, %a1, %a2, %a3}, %desc_b, %p_scale_d, 1, 1;") {
		t.Errorf("RS probe: %d runs\n%s", len(rs.Inputs), rs.Text)
	}
}

func TestGMMAOffsetIsABijection(t *testing.T) {
	for _, size := range []int{1, 2, 4} {
		for _, mn := range []bool{false, true} {
			if mn && size != 2 {
				continue
			}
			k := 32 / size
			seen := map[int]bool{}
			for r := 0; r < 64; r++ {
				for c := 0; c < k; c++ {
					off := gmmaOffset(r, c, size, mn)
					if off%size != 0 || off >= 64*32 || seen[off] {
						t.Fatalf("size %d mn %v: (%d,%d) at %d", size, mn, r, c, off)
					}
					seen[off] = true
				}
			}
		}
	}
}

func TestPutExact(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		x    int64
		want []byte
	}{
		{"float_e4m3_t", 1, []byte{0x38}},
		{"float_e4m3_t", 448, []byte{0x7e}},
		{"float_e4m3_t", 7, []byte{0x4e}},
		{"float_e5m2_t", 1, []byte{0x3c}},
		{"float_e5m2_t", 192, []byte{0x5a}},
		{"half_t", 3, []byte{0x00, 0x42}},
		{"bfloat16_t", 192, []byte{0x40, 0x43}},
		{"tfloat32_t", 1, []byte{0, 0, 0x80, 0x3f}},
		{"int32_t", 7, []byte{7, 0, 0, 0}},
		{"uint8_t", 255, []byte{255}},
	} {
		b := make([]byte, len(tc.want))
		if err := putExact(b, atom.ValType{Name: tc.typ}, tc.x); err != nil || !bytes.Equal(b, tc.want) {
			t.Errorf("%s %d: % x, %v; want % x", tc.typ, tc.x, b, err, tc.want)
		}
	}
	for _, tc := range []struct {
		typ  string
		x    int64
		want string
	}{
		{"half_t", -1, "non-negative"},
		{"half_t", 2048, "not exact in half_t"},
		{"bfloat16_t", 257, "not exact in bfloat16_t"},
		{"tfloat32_t", 2049, "not exact in tfloat32_t"},
		{"float_e4m3_t", 17, "not exact with 3 mantissa bits"},
		{"float_e4m3_t", 512, "past the largest value 448"},
		{"float_e5m2_t", 9, "not exact with 2 mantissa bits"},
		{"int8_t", 128, "not exact in int8_t"},
		{"uint8_t", 256, "not exact in uint8_t"},
		{"double", 1, "no probe encoding for double"},
	} {
		err := putExact(make([]byte, 8), atom.ValType{Name: tc.typ}, tc.x)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %d: %v, want %q", tc.typ, tc.x, err, tc.want)
		}
	}
}

func TestValueAt(t *testing.T) {
	regs := []byte{0x00, 0x42, 0x00, 0x7c, 0x00, 0x3c}
	if x, ok := valueAt(regs, 0, atom.ValType{Name: "half_t"}); !ok || x != 3 {
		t.Errorf("half 3: %d %v", x, ok)
	}
	if _, ok := valueAt(regs, 1, atom.ValType{Name: "half_t"}); ok {
		t.Error("half infinity read as an integer")
	}
	if _, ok := valueAt([]byte{0, 0x38}, 0, atom.ValType{Name: "half_t"}); ok {
		t.Error("half 0.5 read as an integer")
	}
	if _, ok := valueAt(regs, 0, atom.ValType{Name: "double"}); ok {
		t.Error("double read")
	}
}

func TestProbeConstructionRefusals(t *testing.T) {
	if _, err := universalProbe(&atom.Copy{Name: "UniversalCopy<x>", RegS: atom.Registers{Type: "x", Count: 1, Bits: 24}}); err == nil || !strings.Contains(err.Error(), "no single access moves 24 bits") {
		t.Errorf("24-bit plain copy: %v", err)
	}
	if _, err := stmatrixProbe(&atom.Copy{Name: "odd", RegS: atom.Registers{Type: "uint16_t", Count: 2, Bits: 16}}); err == nil || !strings.Contains(err.Error(), "expected 32-bit source registers") {
		t.Errorf("16-bit stmatrix registers: %v", err)
	}
	p, err := ldmatrixProbe(mustCopy(t, "SM75_U32x1_LDSM_N"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Observe(nil); err == nil || !strings.Contains(err.Error(), "0 outputs for 1 runs") {
		t.Errorf("no outputs: %v", err)
	}
	if _, err := p.Observe([][]byte{make([]byte, 3)}); err == nil || !strings.Contains(err.Error(), "output of 3 bytes, expected 128") {
		t.Errorf("short output: %v", err)
	}
}

func TestWriteProbesAndResults(t *testing.T) {
	dir := t.TempDir()
	if err := WriteProbes(dir); err != nil {
		t.Fatal(err)
	}
	probes, err := Probes()
	if err != nil {
		t.Fatal(err)
	}
	lines := readTSV(t, filepath.Join(dir, "probes.tsv"))
	if len(lines) != len(probes) {
		t.Fatalf("probes.tsv has %d lines for %d probes", len(lines), len(probes))
	}
	for i, f := range lines {
		in, err := os.ReadFile(filepath.Join(dir, f[0]+".in"))
		if err != nil {
			t.Fatal(err)
		}
		runs, _ := strconv.Atoi(f[3])
		per, _ := strconv.Atoi(f[4])
		if len(in) != runs*per || runs != len(probes[i].Inputs) || f[6] != probes[i].Atom {
			t.Errorf("line %d %q: input of %d bytes", i, f, len(in))
		}
	}
	var out bytes.Buffer
	raw := "0\t0\tERROR run: CUDA_ERROR_ILLEGAL_INSTRUCTION\n"
	if err := ProbeResults(strings.NewReader(raw), &out); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != len(probes) || !strings.Contains(got[0], "not run: ERROR run: CUDA_ERROR_ILLEGAL_INSTRUCTION") || !strings.Contains(got[1], "not run: ") {
		t.Errorf("results:\n%.300s", out.String())
	}
	for _, bad := range []string{"0\t0\n", "99999\t0\t00\n", "x\t0\t00\n", "0\t0\tzz\n"} {
		if err := ProbeResults(strings.NewReader(bad), &out); err == nil {
			t.Errorf("%q read without error", bad)
		}
	}
}
