package analysis

import (
	"fmt"
	"github.com/cute-lsp/cute-lsp/internal/benchsheet"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cute-lsp/cute-lsp/grammar"
)

// cpuTime is the process's CPU time (all threads, GC included): the figure
// to compare on a shared machine, reported as cpu-ns/op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// sheet5000 is a generated 5,000-line sheet in the mix users write: literals
// of every notation, calls of the common operations, asserts, comments.
func sheet5000() []byte { return sheetOf(5000) }

// sheetOf is sheet5000's mix at about n lines, every name bound once.
func sheetOf(n int) []byte {
	var b strings.Builder
	for i := 0; i*10 < n; i++ {
		n := i % 10
		fmt.Fprintf(&b, "# block %d\n", i)
		fmt.Fprintf(&b, "A%d = (%d,(2,2)):(4,(2,1))\n", i, n+1)
		fmt.Fprintf(&b, "B%d = composition(Sw<3,4,3>, (8,64):(64,1))\n", i)
		fmt.Fprintf(&b, "C%d = logical_divide((128,64):(64,1), [32:1;8:1])\n", i)
		fmt.Fprintf(&b, "D%d = coalesce(A%d)\n", i, i)
		fmt.Fprintf(&b, "E%d = zipped_divide(C%d, [4:1;_])\n", i, i)
		fmt.Fprintf(&b, "assert size(C%d) == 8192\n", i)
		fmt.Fprintf(&b, "assert composition((4,2):(1,4), (2,2):(1,2)) is (2,2):(1,2)\n")
		fmt.Fprintf(&b, "F%d = complement((4,%d):(1,8), 256) // tail\n", i, n%2+1)
		fmt.Fprintf(&b, "G%d = make_layout((4,8), LayoutRight)\n", i)
	}
	return []byte(b.String())
}

func BenchmarkAnalyzeSheet5000(b *testing.B) {
	src := sheet5000()
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	start := cpuTime()
	for b.Loop() {
		AnalyzeSheet("bench.cute", src)
	}
	reportCPU(b, start)
}

// BenchmarkAnalyzeSheet5000Edit is the editor's case: one line of a
// 5,000-line sheet changes and the sheet is analyzed again with the cache.
func BenchmarkAnalyzeSheet5000Edit(b *testing.B) {
	src := sheet5000()
	edited := []byte(strings.Replace(string(src), "A7 = (8,(2,2)):(4,(2,1))", "A7 = (9,(2,2)):(4,(2,1))", 1))
	cache := NewCache()
	AnalyzeSheetCached("bench.cute", src, cache)
	b.ReportAllocs()
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			AnalyzeSheetCached("bench.cute", edited, cache)
		} else {
			AnalyzeSheetCached("bench.cute", src, cache)
		}
	}
	reportCPU(b, start)
}

// BenchmarkAnalyzeFile5000Cached is the analysis alone (the sheet parsed
// already) after a one-line edit, every statement but one found in the cache.
func BenchmarkAnalyzeFile5000Cached(b *testing.B) {
	src := sheet5000()
	edited := []byte(strings.Replace(string(src), "A7 = (8,(2,2)):(4,(2,1))", "A7 = (9,(2,2)):(4,(2,1))", 1))
	f1, _ := grammar.ParseFile("bench.cute", src)
	f2, _ := grammar.ParseFile("bench.cute", edited)
	cache := NewCache()
	AnalyzeFile(f1, src, cache)
	b.ReportAllocs()
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			AnalyzeFile(f2, edited, cache)
		} else {
			AnalyzeFile(f1, src, cache)
		}
	}
	reportCPU(b, start)
}

// BenchmarkAnalyzeSheet5000Insert is a keystroke near the top of the sheet:
// a character typed into line 71, then taken out again. Every statement
// after it is found in the cache at a new offset, taken as it is (its tree
// is relative to it). "whole" is the parse and the analysis, "analysis"
// the analysis alone (the timer stops while the sheet is parsed).
func BenchmarkAnalyzeSheet5000Insert(b *testing.B) {
	for _, mode := range []string{"whole", "analysis"} {
		b.Run(mode, func(b *testing.B) {
			src := sheet5000()
			edited := []byte(strings.Replace(string(src), "A7 = (8,(2,2)):(4,(2,1))", "A7 = (18,(2,2)):(4,(2,1))", 1))
			cache := NewCache()
			AnalyzeSheetCached("bench.cute", src, cache)
			b.ReportAllocs()
			start := cpuTime()
			for i := 0; b.Loop(); i++ {
				text := src
				if i%2 == 0 {
					text = edited
				}
				if mode == "whole" {
					AnalyzeSheetCached("bench.cute", text, cache)
					continue
				}
				b.StopTimer()
				f, _ := grammar.ParseFileCached("bench.cute", text, cache.parsed)
				b.StartTimer()
				AnalyzeFile(f, text, cache)
			}
			reportCPU(b, start)
		})
	}
}

// BenchmarkAnalyzeHostLongLines scans comments of one long line each that
// hold many candidate starts: unclosed iterators ("ArithTuple(" 20,000
// times; before the bound on an iterator's argument this took seconds) and
// tensor prints with layouts.
func BenchmarkAnalyzeHostLongLines(b *testing.B) {
	srcs := [][]byte{
		[]byte("// " + strings.Repeat("ArithTuple(", 20000) + "\n"),
		[]byte("// " + strings.Repeat("gmem_ptr[16b](A) o (4,8):(1,4), ", 2000) + "\n"),
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			AnalyzeHost("k.cu", src)
		}
	}
}

// BenchmarkSheetHeapPerLine is what an open sheet keeps in memory: the
// heap still reachable, after a collection, from the analysis of a
// 50,000-line sheet (sheet5000's mix, every name bound once) and its cache
// after a one-line edit (the language
// server holds both), reported per line of the sheet as heap-B/line.
func BenchmarkSheetHeapPerLine(b *testing.B) {
	text := sheetOf(50000)
	lines := strings.Count(string(text), "\n")
	edited := []byte(strings.Replace(string(text), "A7 = (8,(2,2)):(4,(2,1))", "A7 = (18,(2,2)):(4,(2,1))", 1))
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var perLine float64
	for b.Loop() {
		before := heap()
		cache := NewCache()
		AnalyzeSheetCached("bench.cute", text, cache)
		s := AnalyzeSheetCached("bench.cute", edited, cache)
		after := heap()
		runtime.KeepAlive(s)
		runtime.KeepAlive(cache)
		perLine = float64(after-before) / float64(lines)
	}
	b.ReportMetric(perLine, "heap-B/line")
}

// peerSheetOf is benchsheet.Peer: the sheet make bench-lsp opens.
func peerSheetOf(n int) []byte { return []byte(benchsheet.Peer(n)) }

// BenchmarkPeerSheetHeapPerLine is BenchmarkSheetHeapPerLine on the sheet
// make bench-lsp opens (peerSheetOf, 50,000 lines), after the first
// analysis and after a one-line edit.
func BenchmarkPeerSheetHeapPerLine(b *testing.B) {
	const lines = 50000
	text := peerSheetOf(lines)
	edited := []byte(strings.Replace(string(text), "\nL7 = ", "\nL7 = (18,2):(1,2) # ", 1))
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var open, edit float64
	for b.Loop() {
		before := heap()
		cache := NewCache()
		s := AnalyzeSheetCached("bench.cute", text, cache)
		afterOpen := heap()
		runtime.KeepAlive(s)
		s = AnalyzeSheetCached("bench.cute", edited, cache)
		after := heap()
		runtime.KeepAlive(s)
		runtime.KeepAlive(cache)
		open = float64(afterOpen-before) / lines
		edit = float64(after-before) / lines
	}
	b.ReportMetric(open, "open-heap-B/line")
	b.ReportMetric(edit, "edited-heap-B/line")
}

// BenchmarkPeerSheetOpen is the language server's first analysis of the
// sheet make bench-lsp opens (peerSheetOf, CUTE_BENCH_LINES lines, 50,000
// by default): parse and evaluate with a new cache.
func BenchmarkPeerSheetOpen(b *testing.B) {
	lines := 50000
	if n, err := strconv.Atoi(os.Getenv("CUTE_BENCH_LINES")); err == nil && n > 0 {
		lines = n
	}
	text := peerSheetOf(lines)
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	start := cpuTime()
	for b.Loop() {
		AnalyzeSheetCached("bench.cute", text, NewCache())
	}
	reportCPU(b, start)
}
