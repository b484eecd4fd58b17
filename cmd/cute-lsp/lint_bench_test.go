//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// cutlassTree is the CUTLASS checkout the lint benchmarks read (CUTLASS in
// the environment, /work/cutlass by default); the benchmark skips without it.
func cutlassTree(b *testing.B, dirs ...string) []string {
	root := os.Getenv("CUTLASS")
	if root == "" {
		root = "/work/cutlass"
	}
	var args []string
	for _, d := range dirs {
		p := filepath.Join(root, d)
		if _, err := os.Stat(p); err != nil {
			b.Skipf("no CUTLASS checkout at %s (set CUTLASS): %v", root, err)
		}
		args = append(args, p)
	}
	return args
}

// BenchmarkLintCute is lint (findings, C++/Python code reading included)
// over CUTLASS's include/cute and examples/cute, as `cute-lsp lint` runs it
// after the walk: files/s is the figure of issue 14.
func BenchmarkLintCute(b *testing.B) {
	paths, _ := lintPaths(cutlassTree(b, "include/cute", "examples/cute"))
	configs, err := findConfigs(paths)
	if err != nil {
		b.Fatal(err)
	}
	var bytes int64
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil {
			bytes += info.Size()
		}
	}
	b.SetBytes(bytes)
	cpu := cpuTime()
	for b.Loop() {
		lintFiles(paths, configs, lintOptions{})
	}
	// On a shared machine the CPU time is the steadier figure.
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(len(paths))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
