package hover

import (
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
)

// A TiledMMA's hover gives its threads and tile, the thread layout, the
// A/B/C thread-value layouts as CuTe prints them, and a table per operand:
// SM80 16x8x16 over 2x2 atoms is 128 threads on a 32x16x16 tile, and
// element (0,0) of C is thread 0's value 0.
func TestTiledMMAHover(t *testing.T) {
	got := Value(mustEval(t, `make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((2,2,1)))`), DefaultOptions)
	for _, want := range []string{
		"**128 threads**, tile M x N x K = 32 x 16 x 16",
		"ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_0)",
		"LayoutA_TV:     ((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))",
		"LayoutC_TV:", "A (M x K) = 32 x 16", "B (N x K) = 16 x 16", "C (M x N) = 32 x 16", "T0V0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
}

// A TiledCopy's hover: threads, tile, the tiled layout and its source and
// destination thread-value layouts, with both tables.
func TestTiledCopyHover(t *testing.T) {
	got := Value(mustEval(t, `make_tiled_copy(copy_atom("SM75_U32x4_LDSM_N", "half_t"), (16,8):(8,1), make_layout((1,8)))`), DefaultOptions)
	for _, want := range []string{
		`TiledCopy of copy_atom("SM75_U32x4_LDSM_N", "half_t"): **128 threads**, tile (_16,_64)`,
		"LayoutS_TV:     ((_2,_4,_4,_4),((_2,_4),_1)):((_512,_1,_32,_4),((_16,_128),_0))",
		"LayoutD_TV:     ((_8,_16),(_8,_1)):((_128,_1),(_16,_0))",
		"source = 16 x 64", "destination = 16 x 64", "columns shown",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
}

// Hovering every offset of a sheet of thread-value operations gives text
// (the name's value, a call's value and steps), never a panic.
func TestTiledHoverOnSheet(t *testing.T) {
	src := "M = make_tiled_mma(mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), make_layout((2,2,1)))\n" +
		"n = tile_size<1>(M)\np = partition_C(M, 3, (64,64):(1,64))\n" +
		"C = make_tiled_copy_B(copy_atom(\"SM75_U32x2_LDSM_N\", \"half_t\"), M)\n"
	s := analysis.AnalyzeSheet("t.cute", []byte(src))
	if len(s.Findings) > 0 {
		t.Fatalf("findings %v", s.Findings)
	}
	hovered := 0
	for off := range len(src) {
		if tg, ok := s.TargetAt(off); ok {
			if Target(tg, DefaultOptions) != "" {
				hovered++
			}
		}
	}
	if hovered < len(src)/2 {
		t.Errorf("only %d of %d offsets hover", hovered, len(src))
	}
	tg, _ := s.TargetAt(strings.Index(src, "C = ") + 1)
	if got := Target(tg, DefaultOptions); !strings.Contains(got, "TiledCopy of copy_atom(\"SM75_U32x2_LDSM_N\", \"half_t\"): **128 threads**, tile (_16,_16)") {
		t.Errorf("hover on C:\n%s", got)
	}
}
