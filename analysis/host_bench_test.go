package analysis

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkHostScan: the descriptor scan of comments and string literals
// (AnalyzeHostCode with no code to read, as lint runs it where
// source.MayCall refuses the code) over CuTe's inline-assembly headers,
// the largest files lint reads, in MB/s of the file. Skipped without a
// CUTLASS checkout ($CUTLASS, default /work/cutlass).
func BenchmarkHostScan(b *testing.B) {
	root := os.Getenv("CUTLASS")
	if root == "" {
		root = "/work/cutlass"
	}
	for _, name := range []string{
		"mma_sm90_gmma_sparse_ext.hpp", "mma_sm90_gmma_ext.hpp", "mma_sm90_gmma.hpp",
		"mma_sm90_gmma_sparse.hpp", "copy_sm100.hpp", "mma_sm90.hpp",
	} {
		path := filepath.Join(root, "include", "cute", "arch", name)
		src, err := os.ReadFile(path)
		if err != nil {
			b.Skipf("no CUTLASS checkout: %v", err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				AnalyzeHostCode(path, src, nil)
			}
		})
	}
}
