package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzAnalyzeSheet: any text is analyzed as a sheet without a panic, every
// finding's range lies inside the text, and the queries an editor makes
// (hover target, completion, refactors, inlay hints, tokens, outline,
// references) answer at every line start and at a few offsets.
func FuzzAnalyzeSheet(f *testing.F) {
	for _, dir := range []string{"../examples", "../testdata/markers"} {
		names, _ := filepath.Glob(filepath.Join(dir, "*.cute"))
		for _, name := range names {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(string(data))
			}
		}
	}
	f.Add("A = (4,2):(1,4)\nB = logical_divide(A, [2:1;_])\nassert B == B\n")
	f.Add("T = S[(8,2):(4@laneid,1)] + R[2:4@warpid]\nx = tirx_map(T, (1,1), (4,4))\n")
	f.Add("t = Sw<3,4,3>_smem_ptr[16b](SMEM_ADDR_A) o ((_128,_16),_1,_4):((_64,_1),_0,_16)\ng = ArithTuple(_0,0) o (4,8):(1@1,1@0)\nm = tmem_[32b](0x0000.0000) o (128,64):(65536,1)\nassert t == composition(Sw<3,4,3>, t)\n")
	f.Add("M = make_tiled_mma(mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), make_layout((2,2,1)), [32:1;_;16])\n" +
		"C = make_tiled_copy_A(copy_atom(\"SM75_U32x4_LDSM_N\", \"half_t\"), M)\n" +
		"assert tile_size<0>(M) == 32\np = partition_C(M, 5, (128,128):(1,128))\ns = get_layoutS_TV(C)\n" +
		"K = make_tiled_copy(copy_atom(\"Copy_Atom<UniversalCopy<uint128_t>, half_t>\"), (16,8):(8,1), (1,8):(0,1))\n" +
		"q = partition_D(K, 3, (128,64):(64,1))\nn = size(K)\nv = make_layout_tv((4,8):(8,1), (2,2):(2,1))\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		done := make(chan string, 1)
		go func() {
			done <- fuzzSheet(src)
		}()
		select {
		case msg := <-done:
			if msg != "" {
				t.Fatal(msg)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer in 10 s on %q", src)
		}
	})
}

// fuzzSheet is FuzzAnalyzeSheet's check of one text: "" or what is wrong.
func fuzzSheet(src string) string {
	{
		s := AnalyzeSheet("f.cute", []byte(src))
		for _, fd := range s.Findings {
			if fd.Range.Pos.Offset < 0 || int(fd.Range.End.Offset) > len(src) || fd.Range.Pos.Offset > fd.Range.End.Offset {
				return fmt.Sprintf("finding %s at %+v outside the text", fd.Code, fd.Range)
			}
		}
		offsets := []int{0, len(src) / 3, len(src) / 2, len(src)}
		for i := range len(src) {
			if src[i] == '\n' && len(offsets) < 40 {
				offsets = append(offsets, i, i+1)
			}
		}
		for _, off := range offsets {
			s.TargetAt(off)
			s.Complete(off)
			s.Refactors(off)
			if sym := s.SymbolAt(off); sym != nil {
				s.References(sym, true)
			}
		}
		s.InlayHints(0, len(src))
		s.Tokens()
		s.Outline()
	}
	return ""
}
