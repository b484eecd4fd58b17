package analysis

import (
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/tiled"
)

// TestCopiesWithLayoutTilers: make_tiled_copy_C_atom, make_cotiled_copy,
// make_tiled_copy_S/D and retile_S/D against values CuTe C++ printed for the
// same constructions (host g++, CUTLASS 4.7.0; testdata/tv/more_cases.jsonl
// holds the random ones), and their rejections.
func TestCopiesWithLayoutTilers(t *testing.T) {
	const (
		mma   = `make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((2,2,1)), [32;32;16])`
		stsm  = `copy_atom("SM90_U32x4_STSM_N", "half_t")`
		vec   = `copy_atom("UniversalCopy<uint128_t>", "half_t")`
		cAtom = `make_tiled_copy_C_atom(` + stsm + `, ` + mma + `)`
	)
	for _, c := range []struct{ expr, want string }{
		// TiledLayout_TV and Tiler_MN of make_tiled_copy_C_atom: a tuple of layouts
		{cAtom, `TiledCopy(copy_atom("SM90_U32x4_STSM_N", "half_t"), ((_4,_8,_2,_2),(_2,_2,_2)):((_32,_1,_8,_128),(_256,_16,_512)), ((_8,_2,_2):(_1,_16,_8),(_8,_2,_2):(_2,_1,_16)))`},
		{`tile_size<1>(` + cAtom + `)`, `_32`},
		{`retile_S(make_tiled_copy_C(` + stsm + `, ` + mma + `), make_layout((4,1,2)))`, `((_8,_1),_1,_1):((_1,_0),_0,_0)`},
		{`make_cotiled_copy(` + vec + `, (32,8):(8,1), (32,8):(8,1))`, `TiledCopy(copy_atom("UniversalCopy<uint128_t>", "half_t"), (_32,_8):(_1,_32), (_32:_1,_8:_1))`},
		// only thread 0's values are checked against the data: 128 of 256 addresses is enough
		{`make_cotiled_copy(` + vec + `, (32,8):(8,1), (16,8):(8,1))`, `TiledCopy(copy_atom("UniversalCopy<uint128_t>", "half_t"), ((_16,_2),_8):((_1,_0),_16), (_16:_1,_8:_1))`},
	} {
		got, err := EvalString(c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		s := cutePrint(got)
		if tc, ok := got.(tiled.TiledCopy); ok {
			s = tc.Format(true)
		}
		if s != c.want {
			t.Errorf("%s\n  got  %s\n  CuTe %s", c.expr, s, c.want)
		}
	}
	for _, c := range []struct{ expr, want string }{
		// CuTe: CUTE_STATIC_ASSERT_V(copy_V <= size<1>(layoutC_TV))
		{`make_tiled_copy_C_atom(` + vec + `, make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((1,1,1))))`, "moves 8 values per thread, more than the 4 of C"},
		{`make_cotiled_copy(` + vec + `, (32,8):(8,1), (32,8):(16,2))`, "The memory pointed to by AtomTVLayout does not exist in the DataLayout."},
		{`make_cotiled_copy(` + vec + `, 32:1, 32:1)`, "has rank 1"},
		{`make_tiled_copy_S(` + vec + `, 4:1)`, "expected a TiledCopy"},
		{`retile_D(` + cAtom + `, (4,2):(1,4,2))`, "congruent"},
		{`make_tiled_copy_C_atom(` + vec + `)`, "takes 2 arguments"},
	} {
		_, err := EvalString(c.expr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.expr, err, c.want)
		}
	}
}
