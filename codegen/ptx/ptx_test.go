package ptx

import (
	"errors"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
)

func TestEveryAtomLowersWellFormedOrIsSkippedWithAReason(t *testing.T) {
	mods, skips := All()
	if got, want := len(mods)+len(skips), len(atom.MMAs())+len(atom.Copies()); got != want {
		t.Fatalf("%d lowered + %d skipped, catalog has %d atoms", len(mods), len(skips), want)
	}
	for _, m := range mods {
		if err := Check(m); err != nil {
			t.Error(err)
		}
		if !strings.Contains(m.Text, ".target "+m.Target+"\n") || !strings.Contains(m.Text, ".version "+m.Version+"\n") {
			t.Errorf("%s: header does not declare %s / %s", m.Name, m.Target, m.Version)
		}
	}
	for _, s := range skips {
		if s.Name == "" || s.Reason == "" {
			t.Errorf("skip without name or reason: %+v", s)
		}
	}
}

func TestOperandCountsFollowTheRegisterArrays(t *testing.T) {
	for i := range atom.MMAs() {
		a := &atom.MMAs()[i]
		m, err := LowerMMA(a)
		if err != nil {
			continue
		}
		got := braceGroups(m.Instructions[0])
		var want []int
		switch {
		case strings.HasPrefix(a.PTX, "mma.sync"):
			want = []int{a.RegD.Count, a.RegA.Count, a.RegB.Count, a.RegC.Count}
		case strings.HasPrefix(a.PTX, "wgmma") && a.RegA.PTXType() == "b64":
			want = []int{a.RegC.Count}
		case strings.HasPrefix(a.PTX, "wgmma"):
			want = []int{a.RegC.Count, a.RegA.Count}
		default:
			continue
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %q has groups %v, want %v", a.Name, m.Instructions[0], got, want)
		}
		for j := range got {
			if got[j] != want[j] {
				t.Errorf("%s: %q has groups %v, want %v", a.Name, m.Instructions[0], got, want)
			}
		}
	}
}

func TestInstructionLines(t *testing.T) {
	cases := map[string]string{
		"SM80_16x8x16_F32F16F16F32_TN":               "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};",
		"SM61_DP4A":                                  "dp4a.s32.s32 %d0, %a0, %b0, %c0;",
		"SM90_64x8x16_F16F16F16_SS":                  "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%c0, %c1}, %desc_a, %desc_b, %p_scale_d, 1, 1, 0, 0;",
		"SM90_64x8x32_S32S8S8_SS_TN":                 "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%c0, %c1, %c2, %c3}, %desc_a, %desc_b, %p_scale_d;",
		"SM75_U16x8_LDSM_T":                          "ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%d0, %d1, %d2, %d3}, [%smem_row];",
		"SM90_U32x2_STSM_N":                          "stmatrix.sync.aligned.x2.m8n8.shared.b16 [%smem_row], {%s0, %s1};",
		"SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>": "cp.async.cg.shared.global.L2::128B [%smem_row], [%g_in], 16, %src_bytes;",
		"SM100_MMA_F16BF16_TS<half_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>": "tcgen05.mma.cta_group::1.kind::f16 [%tmem_c], [%tmem_a], %desc_b, %idesc, {%mask0, %mask1, %mask2, %mask3}, %p_scale_c;",
	}
	for name, want := range cases {
		m, err := Lower(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if m.Instructions[0] != want {
			t.Errorf("%s:\n got %s\nwant %s", name, m.Instructions[0], want)
		}
	}
	m, err := Lower("SM90_TMA_STORE<NumBitsPerTMA=1024>")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Instructions) != 5 || m.Instructions[2] != "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%tensormap, {%crd0, %crd1, %crd2}], [%smem_addr];" {
		t.Errorf("TMA store forms: %q", m.Instructions)
	}
	for name, v := range map[string]string{"SM89_16x8x32_F16E4M3E5M2F16_TN": "8.7", "SM89_16x8x32_F32E4M3E5M2F32_TN": "8.4",
		"SM90_64x8x32_S32S8U8_SS_TN": "8.4", "SM90_64x8x32_S32S8S8_SS_TN": "8.0", "SM80_16x8x16_F32F16F16F32_TN": "8.0"} {
		if m, err := Lower(name); err != nil || m.Version != v {
			t.Errorf("%s: want PTX ISA %s, have %+v %v", name, v, m, err)
		}
	}
	if m, _ := Lower("SM90_TMA_LOAD<NumBitsPerTMA=1024>"); m == nil || m.Version != "8.6" {
		t.Errorf("a TMA load into shared::cta needs PTX ISA 8.6: %+v", m)
	}
}

func TestUnknownAndSkippedAtoms(t *testing.T) {
	_, err := Lower("SM80_16x8x16_F32F16F16F32_TX")
	var nf *atom.NotFound
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "did you mean SM80_16x8x16_F32F16F16F32_TN") {
		t.Errorf("unknown atom: %v", err)
	}
	_, err = Lower("SM80_8x8x4_C64C64C64C64_TN")
	var s *Skip
	if !errors.As(err, &s) || !strings.Contains(s.Reason, "complex") {
		t.Errorf("complex MMA: %v", err)
	}
	_, err = Lower("UniversalCopy<uint32_t>")
	if !errors.As(err, &s) {
		t.Errorf("UniversalCopy: %v", err)
	}
}

func TestCheckCatchesBrokenModules(t *testing.T) {
	m, err := Lower("SM80_16x8x16_F32F16F16F32_TN")
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(m); err != nil {
		t.Fatal(err)
	}
	broken := map[string]func(Module) Module{
		"unbalanced": func(m Module) Module { m.Text = strings.Replace(m.Text, "{%b0, %b1}", "{%b0, %b1", 1); return m },
		"undeclared": func(m Module) Module { m.Text = strings.Replace(m.Text, "\t.reg .b32 %b0, %b1;\n", "", 1); return m },
		"declared twice": func(m Module) Module {
			m.Text = strings.Replace(m.Text, "\t.reg .b32 %b0, %b1;\n", "\t.reg .b32 %b0, %b1;\n\t.reg .b32 %b1;\n", 1)
			return m
		},
		"operand count": func(m Module) Module { m.Vectors = [][]int{{4, 4, 1, 4}}; return m },
		"missing line": func(m Module) Module {
			m.Instructions = []string{strings.Replace(m.Instructions[0], "m16n8k16", "m16n8k8", 1)}
			return m
		},
	}
	for what, breakIt := range broken {
		b := breakIt(*m)
		if err := Check(&b); err == nil {
			t.Errorf("%s: Check passed a broken module", what)
		}
	}
}

func TestReferenceFragments(t *testing.T) {
	if half(1) != 0x3c00 || half(-2) != 0xc000 || half(147) != 0x5898 {
		t.Errorf("half: %x %x %x", half(1), half(-2), half(147))
	}
	a, err := atom.LookupMMA("SM80_16x8x16_F32F16F16F32_TN")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Reference(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.A) != 32*16 || len(f.B) != 32*8 || len(f.C) != 32*16 || len(f.D) != 32*16 {
		t.Fatalf("sizes %d %d %d %d", len(f.A), len(f.B), len(f.C), len(f.D))
	}
	// Thread 0 holds A(0,0), A(0,1) in its first register (CuTe's SM80 A layout),
	// 3*0+5*1 mod 7 - 3 = 2 for the second.
	if f.A[0] != 0x00 || f.A[1] != 0xc2 || f.A[2] != 0x00 || f.A[3] != 0x40 {
		t.Errorf("thread 0 A register 0: % x", f.A[:4])
	}
}
