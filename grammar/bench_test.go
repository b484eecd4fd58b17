package grammar

import (
	"runtime"

	"fmt"
	"github.com/cute-lsp/cute-lsp/internal/benchsheet"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sheet5000 is a generated 5,000-line sheet mixing every statement kind and notation.
func sheet5000() []byte {
	lines := []string{
		"# layouts of a 128x64 tile",
		"A%d = (2,(2,2)):(4,(2,1))",
		"B%d = (_8,_64):(_64,_1)",
		"S%d = Sw<3,4,3> o _0 o (8,64):(64,1)",
		"T%d = [(4,8):(1,4);(2,3):(1,2)]",
		"D%d = logical_divide(A, [4:1;8:1])",
		"assert composition((4,2):(1,4), (2,2):(1,2)) == (2,2):(1,2)",
		"C%d = composition(Sw<3,3,3>{}, make_layout((8,64), LayoutRight))",
		"M%d = !cute.layout<\"((2,3),4):((1@0@0,1@1@0),1@1)\">",
		"assert zipped_divide((4,6,2):(1,4,24), [2:1;3:1]) is ((2,3),(2,2,2)):((1,4),(2,12,24))",
		"X%d = S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid",
		"P%d = (4, 8):(1, 4)",
		"U%d = (?,?{i64}):(1,?{div=16})",
		"",
		"G%d = tiled_divide(coalesce(((2,2),(2,2)):((1,4),(2,8))), [2;_])",
	}
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		l := lines[i%len(lines)]
		if strings.Contains(l, "%d") {
			l = fmt.Sprintf(l, i)
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// BenchmarkParseSheet5000 parses a generated 5,000-line sheet. Besides the
// wall time it reports cpu-ns/op, the process CPU time (all threads, GC
// included) per parse, which is the figure to read on a shared machine.
func BenchmarkParseSheet5000(b *testing.B) {
	src := sheet5000()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		_, errs := ParseFile("bench.cute", src)
		if len(errs) > 0 {
			b.Fatal(errs[0])
		}
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkParseSheet5000Insert is a keystroke near the top of the sheet:
// a character typed into line 71 of sheet5000, then taken out again,
// re-parsed with a cache. Every statement after the line is found at a new
// offset and taken as it is; nothing is left for later.
func BenchmarkParseSheet5000Insert(b *testing.B) {
	src := sheet5000()
	lines := strings.SplitAfter(string(src), "\n")
	at := len(strings.Join(lines[:70], "")) + strings.Index(lines[70], "(8") + 1
	edited := append(append(append([]byte{}, src[:at]...), '1'), src[at:]...) // (8 becomes (18
	cache := NewCache()
	ParseFileCached("bench.cute", src, cache)
	b.ReportAllocs()
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		s := src
		if i%2 == 0 {
			s = edited
		}
		ParseFileCached("bench.cute", s, cache)
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkParsePeer is the first parse the server does on didOpen of the
// sheet make bench-lsp opens (benchsheet.Peer): ParseFileCached into a new
// cache. Besides the times it reports the bytes the File and the cache
// keep per line (retained-B/line: the live heap after a collection with
// both alive, less the heap before the parse, text not counted).
func BenchmarkParsePeer(b *testing.B) {
	for _, n := range []int{5000, 50000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			src := []byte(benchsheet.Peer(n))
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				_, errs := ParseFileCached("bench.cute", src, NewCache())
				if len(errs) > 0 {
					b.Fatal(errs[0])
				}
			}
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(retained(func() any {
				c := NewCache()
				f, _ := ParseFileCached("bench.cute", src, c)
				return [2]any{f, c}
			}))/float64(n), "retained-B/line")
		})
	}
}

// retained is the growth of the live heap while what make returns is alive.
func retained(make func() any) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := make()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return after.HeapAlloc - before.HeapAlloc
}
