package analysis

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cute-lsp/cute-lsp/grammar"
)

// BenchmarkPeerOpenPerLine is the language server's first analysis of the
// sheet make bench-lsp opens (peerSheetOf, CUTE_BENCH_LINES lines, 50,000
// by default), as the server runs it: the text held as a string
// (AnalyzeSheetText), the collector paused (lsp's pauseGC), and the heap
// collected and given back to the system between the opens, outside the
// figures. Its phases apart:
// "parse" the parse alone (grammar, with the cache a first analysis
// fills), "analysis" the evaluation of the parsed sheet, "open" both. The
// figures are per line of the sheet (cpu-ns/line: this process's CPU time,
// which a busy machine does not inflate as it does the wall clock), so
// that runs at 5,000 and 200,000 lines compare directly: an open that
// scales linearly has the same figures at both.
func BenchmarkPeerOpenPerLine(b *testing.B) {
	lines := 50000
	if n, err := strconv.Atoi(os.Getenv("CUTE_BENCH_LINES")); err == nil && n > 0 {
		lines = n
	}
	text := strings.Clone(string(peerSheetOf(lines)))
	for _, phase := range []string{"parse", "analysis", "open"} {
		b.Run(phase, func(b *testing.B) {
			defer debug.SetGCPercent(debug.SetGCPercent(100))
			var cpu, wall time.Duration
			for b.Loop() {
				b.StopTimer()
				// The memory of the opens before goes back to the system,
				// as a new server process starts without it: an open
				// writes fresh pages (page faults), which in a process that
				// has just freed as much would be reused instead, at 5,000
				// lines and not at 200,000.
				debug.FreeOSMemory()
				cache := NewCache()
				var f *grammar.File
				if phase == "analysis" {
					f, _ = grammar.ParseTextCached("bench.cute", text, cache.parsed)
				}
				debug.SetGCPercent(-1)
				b.StartTimer()
				c0, w0 := cpuTime(), time.Now()
				switch phase {
				case "parse":
					grammar.ParseTextCached("bench.cute", text, cache.parsed)
				case "analysis":
					AnalyzeFile(f, textBytes(text), cache)
				case "open":
					AnalyzeSheetText("bench.cute", text, cache)
				}
				cpu += cpuTime() - c0
				wall += time.Since(w0)
				b.StopTimer()
				debug.SetGCPercent(100)
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(lines), "cpu-ns/line")
			b.ReportMetric(float64(wall.Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
		})
	}
}
