package analysis

import (
	"strings"
	"testing"
)

func TestAtomOps(t *testing.T) {
	for _, src := range []string{`mma_atom("SM80_16x8x16_F32F16F16F32_TN")`, `copy_atom("SM75_U32x4_LDSM_N")`, `mma_atom("cute::SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>")`} {
		if _, err := EvalString(src); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
	s := AnalyzeSheet("t.cute", []byte("a = mma_atom(\"SM80_16x8x16_F32F16F16F32_NT\")\nassert a is a\n"))
	f, ok := findingWithCode(s, CodeUnknownAtom)
	if !ok || !strings.Contains(f.Message, "did you mean SM80_16x8x16_F32F16F16F32_TN") || len(f.Fixes) == 0 {
		t.Fatalf("findings %v", findingsOfSheet(s))
	}
	fixed := applyFix(string(s.Src), f.Fixes[0])
	if !strings.HasPrefix(fixed, `a = mma_atom("SM80_16x8x16_F32F16F16F32_TN")`) {
		t.Errorf("after the fix: %s", fixed)
	}
	for _, tc := range []struct{ src, code, msg string }{
		{"a = mma_atom(8)\nassert a is a\n", CodeType, "quoted string"},
		{"a = copy_atom()\nassert a is a\n", CodeType, "takes the atom's name in quotes"},
		{"a = mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\", \"half_t\")\nassert a is a\n", CodeType, "takes one argument"},
		{"a = copy_atom(\"SM80_16x8x16_F32F16F16F32_TN\")\nassert a is a\n", CodeUnknownAtom, "no copy atom named"},
	} {
		s := AnalyzeSheet("t.cute", []byte(tc.src))
		f, ok := findingWithCode(s, tc.code)
		if !ok || !strings.Contains(f.Message, tc.msg) {
			t.Errorf("%q: findings %v, want %s with %q", tc.src, findingsOfSheet(s), tc.code, tc.msg)
		}
	}
}

// An ldmatrix atom as the access: 8 rows of 128 bytes conflict 8-way in
// every phase; the 128-byte swizzle on 16-bit offsets removes it.
func TestBankWithCopyAtom(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`bank_conflicts((8,8,8):(1,64,8), copy_atom("SM75_U32x4_LDSM_N"), 16)`, "28"},
		{`bank_conflicts(Sw<3,3,3> o 0 o (8,8,8):(1,64,8), copy_atom("SM75_U32x4_LDSM_N"), 16)`, "0"},
		{`bank_wavefronts(Sw<3,3,3> o 0 o (8,8,8):(1,64,8), copy_atom("SM75_U32x4_LDSM_N"), 16)`, "4"},
	} {
		v, err := EvalString(tc.src)
		if err != nil || v.String() != tc.want {
			t.Errorf("%s = %v (%v), want %s", tc.src, v, err, tc.want)
		}
	}
	for _, tc := range []struct{ src, msg string }{
		{`bank_conflicts((8,64):(64,1), copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"), 16)`, "no warp-wide shared-memory access"},
		{`bank_conflicts((8,64):(64,1), copy_atom("SM75_U32x4_LDSM_N"), 16, ld)`, "a copy atom fixes the instruction"},
		{`bank_conflicts((8,64):(64,1), mma_atom("SM80_16x8x16_F32F16F16F32_TN"), 16)`, "not a (thread, value, step...) layout or an ldmatrix/stmatrix copy_atom"},
	} {
		if _, err := EvalString(tc.src); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want an error containing %q", tc.src, err, tc.msg)
		}
	}
}
