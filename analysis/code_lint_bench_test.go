//go:build unix

package analysis

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"
	"time"
)

// lintReadFiles are the CUTLASS files that hold CuTe code and cost lint the
// most to read (issue 14): the traits headers of thousands of near-identical
// MMA_Traits blocks, layout.hpp, a tutorial.
var lintReadFiles = []string{
	"include/cute/atom/mma_traits_sm90_gmma_sparse_ext.hpp",
	"include/cute/atom/mma_traits_sm90_gmma_ext.hpp",
	"include/cute/atom/mma_traits_sm90_gmma.hpp",
	"include/cute/atom/mma_traits_sm90_gmma_sparse.hpp",
	"include/cute/atom/mma_traits_sm100.hpp",
	"include/cute/atom/copy_traits_sm100.hpp",
	"include/cute/layout.hpp",
	"examples/cute/tutorial/sgemm_sm80.cu",
	"include/cute/arch/mma_sm90.hpp",
	"examples/cute/tutorial/blackwell/05_mma_tma_epi_sm100.cu",
}

// BenchmarkLintRead is what lint --code-stats does with one C++ file
// holding CuTe code (ReadCodeForLint, then the findings), per file of
// lintReadFiles, under the collector setting lint runs with
// (cmd/cute-lsp's lintGCPercent); the CUTLASS checkout is CUTLASS in the
// environment, /work/cutlass by default.
func BenchmarkLintRead(b *testing.B) { benchLintFiles(b, ReadCodeForLint) }

// BenchmarkLintFindings is what lint without --code-stats does with one C++
// file holding CuTe code (ReadCodeForFindings, then the findings), per file
// of lintReadFiles: the path make bench-lint measures.
func BenchmarkLintFindings(b *testing.B) { benchLintFiles(b, ReadCodeForFindings) }

// benchLintFiles times read and then the findings on each file of
// lintReadFiles, under the collector setting lint runs with.
func benchLintFiles(b *testing.B, read func(Language, []byte) *Code) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	benchFiles(b, lintReadFiles, func(_ *testing.B, name string, src []byte) {
		code := read(LangCpp, src)
		_ = AnalyzeHostCode(name, src, code).Findings
	})
}

// BenchmarkReadCodeForLint is BenchmarkLintRead's read alone (tokens,
// bindings, roots, writes; no comment scan, no findings).
func BenchmarkReadCodeForLint(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	benchFiles(b, lintReadFiles, func(_ *testing.B, _ string, src []byte) { ReadCodeForLint(LangCpp, src) })
}

// benchFiles runs body on each file of the CUTLASS checkout at paths
// (relative to it), a sub-benchmark a file named by its base name, in MB/s
// of the file, with the process's CPU time an op beside (on a shared
// machine the steadier figure); skipped without a checkout.
func benchFiles(b *testing.B, paths []string, body func(b *testing.B, path string, src []byte)) {
	root := cutlassRoot()
	for _, name := range paths {
		path := filepath.Join(root, name)
		src, err := os.ReadFile(path)
		if err != nil {
			b.Skipf("no CUTLASS checkout at %s (set CUTLASS): %v", root, err)
		}
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			cpu := processCPU()
			for b.Loop() {
				body(b, path, src)
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// BenchmarkLintAll is what lint --code-stats does with every C++/Python
// file of include/cute and examples/cute (issue 14's 10,000 files/s is
// about 25 ms of CPU for them): ReadCodeForLint, the findings, the counts.
func BenchmarkLintAll(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	root := cutlassRoot()
	var names []string
	var srcs [][]byte
	for _, dir := range []string{"include/cute", "examples/cute"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, e fs.DirEntry, err error) error {
			if err != nil || !e.Type().IsRegular() {
				return nil
			}
			if lang := LanguageOf(p); lang == LangCpp || lang == LangPython {
				src, err := os.ReadFile(p)
				if err == nil {
					names, srcs = append(names, p), append(srcs, src)
				}
			}
			return nil
		})
	}
	if len(names) == 0 {
		b.Skipf("no CUTLASS checkout at %s (set CUTLASS)", root)
	}
	cpu := processCPU()
	for b.Loop() {
		for i, name := range names {
			code := ReadCodeForLint(LanguageOf(name), srcs[i])
			_ = AnalyzeHostCode(name, srcs[i], code).Findings
			code.Counts()
		}
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(len(names)), "files")
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
