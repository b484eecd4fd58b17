//go:build unix

package analysis

import (
	"path/filepath"
	"testing"

	"github.com/cute-lsp/cute-lsp/source"
)

// BenchmarkHostScan: the descriptor scan of comments and string literals
// (AnalyzeHostCode with no code to read, as lint runs it where
// source.MayCall refuses the code) over CuTe's inline-assembly headers,
// the largest files lint reads, in MB/s of the file. Skipped without a
// CUTLASS checkout ($CUTLASS, default /work/cutlass).
func BenchmarkHostScan(b *testing.B) {
	benchFiles(b, asmHeaders("mma_sm90_gmma_sparse_ext.hpp", "mma_sm90_gmma_ext.hpp", "mma_sm90_gmma.hpp",
		"mma_sm90_gmma_sparse.hpp", "copy_sm100.hpp", "mma_sm90.hpp"), func(b *testing.B, path string, src []byte) {
		AnalyzeHostCode(path, src, nil)
	})
}

// BenchmarkMayCall: the finding filter (source.MayCall over findingNames)
// over CuTe's inline-assembly headers, which it refuses, in MB/s of the
// file: about 4.5 GB/s on the largest (0.62 ms for 2.9 MB, 60,000
// openers, 92% of them right after a quote: "+r"(d00)). Tried without
// gain (min of 6 interleaved runs): turning those away in MayCall's loop
// before calledAt's call, finding the next opener within 16 bytes by a
// byte loop instead of IndexByte, and searching the three openers block
// by block (16 KiB) so that the text is read from memory once: the cost
// is the work per opener, not the reading.
func BenchmarkMayCall(b *testing.B) {
	benchFiles(b, asmHeaders("mma_sm90_gmma_sparse_ext.hpp", "mma_sm90_gmma.hpp", "copy_sm100.hpp"), func(b *testing.B, path string, src []byte) {
		if source.MayCall(src, findingNames()) {
			b.Fatal("the filter lets an asm header through")
		}
	})
}

// BenchmarkHostForFindings: AnalyzeHostForFindings (lint without
// --code-stats: the descriptor scan answering source.MayCall in its pass,
// host_calls.go) over CuTe's inline-assembly headers, against
// BenchmarkHostScan plus BenchmarkMayCall, the two passes it replaces.
func BenchmarkHostForFindings(b *testing.B) {
	benchFiles(b, asmHeaders("mma_sm90_gmma_sparse_ext.hpp", "mma_sm90_gmma.hpp", "copy_sm100.hpp"), func(b *testing.B, path string, src []byte) {
		AnalyzeHostForFindings(path, src)
	})
}

// asmHeaders are the paths of CuTe's inline-assembly headers names.
func asmHeaders(names ...string) []string {
	for i, n := range names {
		names[i] = filepath.Join("include", "cute", "arch", n)
	}
	return names
}
