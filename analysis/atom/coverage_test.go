package atom

import (
	"fmt"
	"testing"
)

// TestCoverage guards the catalog's reach: every N CuTe defines for each
// GMMA family, and the atoms of each other family, by name.
func TestCoverage(t *testing.T) {
	var everyN, intN []int
	for n := 8; n <= 256; n += 8 {
		everyN = append(everyN, n)
	}
	intN = []int{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256}
	families := map[string]struct {
		k  int
		ns []int
	}{
		"F16F16F16_SS": {16, everyN}, "F16F16F16_RS": {16, everyN}, "F32F16F16_SS": {16, everyN}, "F32F16F16_RS": {16, everyN},
		"F32BF16BF16_SS": {16, everyN}, "F32BF16BF16_RS": {16, everyN},
		"F32TF32TF32_SS_TN": {8, everyN}, "F32TF32TF32_RS_TN": {8, everyN},
		"S32S8S8_SS_TN": {32, intN}, "S32S8U8_RS_TN": {32, intN}, "S32U8S8_SS_TN_SATURATE": {32, intN}, "S32U8U8_RS_TN_SATURATE": {32, intN},
	}
	for _, ab := range []string{"E4M3E4M3", "E4M3E5M2", "E5M2E4M3", "E5M2E5M2"} {
		for _, acc := range []string{"F32", "F16"} {
			for _, src := range []string{"SS", "RS"} {
				families[acc+ab+"_"+src+"_TN"] = struct {
					k  int
					ns []int
				}{32, everyN}
			}
		}
	}
	n := 0
	for fam, f := range families {
		for _, N := range f.ns {
			name := fmt.Sprintf("SM90_64x%dx%d_%s", N, f.k, fam)
			a, err := LookupMMA(name)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			n++
			if a.M() != 64 || a.N() != int64(N) || a.K() != int64(f.k) {
				t.Errorf("%s: shape %v", name, a.ShapeMNK)
			}
		}
	}
	for _, name := range []string{
		"SM70_8x8x4_F32F16F16F32_NT", "SM75_16x8x8_F32F16F16F32_TN", "SM75_8x8x16_S32S8S8S32_TN",
		"SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x16_F32BF16BF16F32_TN",
		"SM80_16x8x8_F32TF32TF32F32_TN", "SM80_8x8x4_F64F64F64F64_TN", "SM80_16x8x32_S32S8S8S32_TN", "SM80_16x8x32_S32U8U8S32_TN_SATURATE",
		"SM80_16x8x64_S32S4S4S32_TN", "SM80_16x8x256_S32U1U1S32_TN_XORPOPC", "SM89_16x8x32_F32E4M3E4M3F32_TN", "SM89_16x8x32_F16E5M2E5M2F16_TN",
		"SM90_16x8x16_F64F64F64F64_TN",
		"SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>",
		"SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 256, UMMA::Major::K, UMMA::Major::K>",
	} {
		if _, err := LookupMMA(name); err != nil {
			t.Error(err)
		}
	}
	for _, name := range []string{
		"SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N", "SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T",
		"SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N", "SM90_U32x4_STSM_N", "SM90_U16x2_STSM_T", "SM90_U16x4_STSM_T", "SM90_U16x8_STSM_T",
		"SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
		"SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint32_t>",
		"UniversalCopy<uint8_t>", "UniversalCopy<uint16_t>", "UniversalCopy<uint32_t>", "UniversalCopy<uint64_t>", "UniversalCopy<uint128_t>",
		"SM90_TMA_LOAD<NumBitsPerTMA=1024>", "SM90_TMA_LOAD_MULTICAST<NumBitsPerTMA=1024>", "SM90_TMA_STORE<NumBitsPerTMA=1024>",
		"SM90_TMA_REDUCE_ADD<NumBitsPerTMA=1024>", "SM90_BULK_COPY_G2S<NumBitsPerTMA=1024>", "SM90_BULK_COPY_S2G<NumBitsPerTMA=1024>",
	} {
		if _, err := LookupCopy(name); err != nil {
			t.Error(err)
		}
	}
	gmma := 0
	for _, a := range MMAs() {
		if len(a.Name) > 8 && a.Name[:8] == "SM90_64x" {
			gmma++
		}
	}
	// 24 floating-point families with 32 N each, 16 integer ones with 18 each.
	if gmma != 24*32+16*18 || n != 24*32+4*18 {
		t.Errorf("%d GMMA atoms catalogued, %d looked up", gmma, n)
	}
}

// TestUMMACoverage checks that every N the UMMA ops allow is catalogued for
// the instantiated families, and that the layouts follow M, N and K.
func TestUMMACoverage(t *testing.T) {
	for _, f := range []struct {
		op, types string
		m         int
		step      int
		k         int64
	}{
		{"SM100_MMA_F16BF16_SS", "half_t, half_t, float", 64, 8, 16},
		{"SM100_MMA_F16BF16_SS", "half_t, half_t, float", 128, 8, 16},
		{"SM100_MMA_F16BF16_TS", "half_t, half_t, float", 128, 16, 16},
		{"SM100_MMA_TF32_SS", "tfloat32_t, tfloat32_t, float", 128, 8, 8},
		{"SM100_MMA_S8_SS", "int8_t, int8_t, int32_t", 128, 16, 32},
		{"SM100_MMA_F8F6F4_SS", "float_e4m3_t, float_e4m3_t, float", 64, 8, 32},
		{"SM100_MMA_F16BF16_2x1SM_SS", "half_t, half_t, float", 256, 16, 16},
		{"SM100_MMA_F16BF16_2x1SM_TS", "half_t, half_t, float", 256, 32, 16},
	} {
		for n := f.step; n <= 256; n += f.step {
			name := fmt.Sprintf("%s<%s, %d, %d, UMMA::Major::K, UMMA::Major::K>", f.op, f.types, f.m, n)
			a, err := LookupMMA(name)
			if err != nil {
				t.Error(err)
				continue
			}
			if a.M() != int64(f.m) || a.N() != int64(n) || a.K() != f.k {
				t.Errorf("%s: shape %v", name, a.ShapeMNK)
			}
		}
	}
}
