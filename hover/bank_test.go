package hover

import (
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
)

func TestHoverBankReport(t *testing.T) {
	got := Value(mustEval(t, "bank_conflicts((128,64):(64,1), ((16,2),8,(8,4)):((1,1024),128,(16,2048)), 16, ldmatrix_x4)"), DefaultOptions)
	for _, want := range []string{
		"```cute\n896\n```",
		"conflicts: ldmatrix.x4, 16-bit elements, 1 warp(s) x 32 instruction(s) of 16 bytes per lane (8 of 8 value elements contiguous)",
		"1024 wavefronts where 128 would do (8-way at worst: warp 0 instruction 0, lanes 0-7, banks 0-3 hold 8 words each)",
		"warp instr  wavefronts / ideal\n   0     0          32 / 4  conflict\n",
		"... (32 instructions in all)",
		"worst phase: warp 0 instruction 0, lanes 0-7, 8 wavefronts",
		"bank   0  1  2  3  4",
		"words  8  8  8  8  0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
	got = Value(mustEval(t, "bank_wavefronts(Sw<3,3,3> o 0 o (128,64):(64,1), ((16,2),8):((1,1024),128), 16, stmatrix_x2_trans)"), DefaultOptions)
	for _, want := range []string{"wavefronts: stmatrix.x2.trans", "2 wavefronts, the ideal: no bank conflict", "   0     0           2 / 2\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "worst phase") {
		t.Errorf("a conflict-free report shows a worst phase:\n%s", got)
	}
	got = Value(mustEval(t, "vector_width((8,64):(68,1), ((8,4),8):((64,1),8), 16, 128)"), DefaultOptions)
	for _, want := range []string{"```cute\n64\n```", "vector bits: ld", "**vector-width:** 128-bit accesses asked for"} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
}

func TestHoverAdvice(t *testing.T) {
	got := Value(mustEval(t, "swizzle_advice((8,64):(64,1), ((8,4),1):((1,64),0), 32)"), DefaultOptions)
	for _, want := range []string{
		"```cute\nSw<3,0,6> o 0 o (8,64):(64,1)\n```",
		"use Sw<3,0,6> o 0 o (8,64):(64,1): 1 wavefronts, the ideal (now 8), at 4 bytes per lane",
		"given: `(8,64):(64,1)`, 8 wavefronts where 1 would do",
		"- `(8,64):(65,1) (rows of 64 padded by 1: 7 more elements)`",
		"size 512", // the advised layout's own facts and table follow
	} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
	got = Value(mustEval(t, "swizzle_advice((128,64):(64,1), ((16,2),8):((1,1024),128), 16, ldmatrix)"), DefaultOptions)
	if !strings.Contains(got, "- `Sw<3,3,3> o 0 o (128,64):(64,1)` (CuTe's shared-memory atom)") {
		t.Errorf("hover:\n%s", got)
	}
	got = Value(mustEval(t, "swizzle_advice(Sw<3,3,3> o 0 o (128,64):(64,1), ((16,2),8):((1,1024),128), 16, ldmatrix)"), DefaultOptions)
	if !strings.Contains(got, "is already free of bank conflicts at 16 bytes per lane") {
		t.Errorf("hover:\n%s", got)
	}
}

func TestHoverAnalysisCallSignature(t *testing.T) {
	src := "n = bank_conflicts((8,64):(64,1), ((8,4),1):((1,64),0), 32)\nassert n == 7\n"
	s := analysis.AnalyzeSheet("t.cute", []byte(src))
	tgt, ok := s.TargetAt(strings.Index(src, "bank_conflicts") + 2)
	if !ok {
		t.Fatal("no target")
	}
	got := Target(tgt, DefaultOptions)
	for _, want := range []string{"`bank_conflicts(smem, access, bits [, op] [, vector_bits])`: shared-memory wavefronts beyond the ideal", "```cute\n7\n```", "banks 0, 8, 16, 24 hold 8 words each"} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
	// A name bound to a report shows it too.
	tgt, _ = s.TargetAt(strings.Index(src, "assert n") + 7)
	if got := Target(tgt, DefaultOptions); !strings.Contains(got, "8 wavefronts where 1 would do") {
		t.Errorf("hover on n:\n%s", got)
	}
}
