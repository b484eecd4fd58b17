package lsp

import (
	"fmt"
	"github.com/cute-lsp/cute-lsp/internal/benchsheet"
	"math/rand/v2"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// generatedSheet is a sheet of n lines in the mix users write: literals,
// calls of the common operations, asserts, comments (with non-ASCII text),
// and every 500 lines a call left open, so there are findings with fixes.
func generatedSheet(n int) string {
	var b strings.Builder
	written := 0
	for i := 0; ; i++ {
		lines := []string{
			fmt.Sprintf("# stage %d: tiles é😀", i),
			fmt.Sprintf("a%d = (%d,(2,2)):(4,(2,1))", i, 1+i%8),
			fmt.Sprintf("sw%d = composition(Sw<3,4,3>, (8,64):(64,1))", i),
			fmt.Sprintf("tv%d = logical_divide((128,64):(64,1), [32:1;8:1])", i),
			fmt.Sprintf("c%d = coalesce(a%d)", i, i),
			fmt.Sprintf("z%d = zipped_divide(tv%d, [4:1;_])", i, i),
			fmt.Sprintf("assert size(tv%d) == 8192", i),
			fmt.Sprintf("k%d = complement((4,%d):(1,8), 256) // rest", i, 1+i%2),
			fmt.Sprintf("r%d = make_layout((4,8), LayoutRight)", i),
			fmt.Sprintf("u%d = composition(c%d, r%d)", i, i, i),
		}
		for _, l := range lines {
			if written == n {
				return b.String()
			}
			if written%500 == 499 {
				l = fmt.Sprintf("open%d = composition(a%d, (2,2):(1,2)", i, i)
			}
			b.WriteString(l + "\n")
			written++
		}
	}
}

// peerSheet is benchsheet.Peer: the sheet make bench-lsp opens.
func peerSheet(n int) string { return benchsheet.Peer(n) }

// BenchmarkOpenPeer is BenchmarkOpen on the sheet make bench-lsp opens
// (peerSheet; CUTE_BENCH_LINES lines, 5,000 by default).
func BenchmarkOpenPeer(b *testing.B) { eachFeatureSet(b, benchOpenPeer) }

func benchOpenPeer(b *testing.B, f *Analyzed) { openLoop(b, f, peerSheet(benchLines)) }

// benchLines is the size of the benchmarks' sheet: 5,000 lines, or
// CUTE_BENCH_LINES (to profile the server at the sizes of make bench-lsp).
var benchLines = func() int {
	if n, err := strconv.Atoi(os.Getenv("CUTE_BENCH_LINES")); err == nil && n > 0 {
		return n
	}
	return 5000
}()

// quantileMS is the q-quantile of durations in milliseconds.
func quantileMS(ds []time.Duration, q float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	sorted := append([]time.Duration(nil), ds...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	i := int(q * float64(len(sorted)-1))
	return float64(sorted[i]) / float64(time.Millisecond)
}

// reportLatency reports the latency quantiles, and the CPU time per
// operation since cpu0 as cpu reads it (processCPU: server and client
// together): on a busy machine the quantiles include waiting for a core,
// the CPU time does not.
func reportLatency(b *testing.B, ds []time.Duration, cpu0 time.Duration, cpu func() time.Duration) {
	b.ReportMetric(quantileMS(ds, 0.5), "p50-ms")
	b.ReportMetric(quantileMS(ds, 0.9), "p90-ms")
	b.ReportMetric(quantileMS(ds, 0.99), "p99-ms")
	b.ReportMetric(quantileMS(ds, 1), "max-ms")
	b.ReportMetric(float64(cpu()-cpu0)/float64(time.Millisecond)/float64(max(1, len(ds))), "cpu-ms/op")
}

// processCPU is the CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// featureSets are what the benchmarks measure: the server as it ships
// (package analysis). The sub-benchmarks keep its name, so that commands
// such as -bench 'Open/analysis' go on naming them.
var featureSets = []struct {
	name string
	make func() *Analyzed
}{
	{"analysis", NewAnalyzed},
}

// eachFeatureSet runs bench once per feature set, as sub-benchmarks.
func eachFeatureSet(b *testing.B, bench func(b *testing.B, f *Analyzed)) {
	for _, fs := range featureSets {
		b.Run(fs.name, func(b *testing.B) { bench(b, fs.make()) })
	}
}

func benchSession(b *testing.B, f *Analyzed) (*session, string) {
	s := startSession(b, Options{Features: f})
	s.initialize()
	text := generatedSheet(benchLines)
	s.open(sheetURI, text)
	s.diagnosticsFor(sheetURI, 1)
	return s, text
}

// BenchmarkHover: hover at random names of the 5,000-line sheet, each
// request answered before the next is sent. Target: p99 <= 5 ms.
func BenchmarkHover(b *testing.B) { eachFeatureSet(b, benchHover) }

func benchHover(b *testing.B, f *Analyzed) {
	s, text := benchSession(b, f)
	lines := strings.Split(text, "\n")
	r := rand.New(rand.NewPCG(1, 1))
	lat := make([]time.Duration, 0, b.N)
	cpu0 := processCPU()
	for b.Loop() {
		l := r.IntN(benchLines)
		c := r.IntN(len(lines[l]) + 1)
		start := time.Now()
		s.call("textDocument/hover", at(sheetURI, l, c), nil)
		lat = append(lat, time.Since(start))
	}
	reportLatency(b, lat, cpu0, processCPU)
}

// BenchmarkDiagnosticsAfterEdit: a one-line edit, then the time until the
// diagnostics of that version are published. Edits are spaced past the
// debounce window, as a user's are; edits closer together than it are
// coalesced by design and wait out the window. Target: p99 <= 20 ms.
func BenchmarkDiagnosticsAfterEdit(b *testing.B) { eachFeatureSet(b, benchDiagnosticsAfterEdit) }

func benchDiagnosticsAfterEdit(b *testing.B, f *Analyzed) {
	s, _ := benchSession(b, f)
	s.setCountOnly(true)
	_, cfg, _ := s.server.session()
	editLoop(b, s.testClient, sheetURI, benchLines, cfg.DiagnosticsDelay, processCPU)
}

// editLoop times one-line edits of the first lines lines of the document
// at uri until the diagnostics of their version arrive; cpu is the CPU time
// of the server's process so far.
func editLoop(b *testing.B, c *testClient, uri string, lines int, delay time.Duration, cpu func() time.Duration) {
	s := &session{testClient: c}
	r := rand.New(rand.NewPCG(2, 2))
	version := 1
	lat := make([]time.Duration, 0, b.N)
	cpu0 := cpu()
	for b.Loop() {
		b.StopTimer()
		time.Sleep(delay + time.Millisecond)
		b.StartTimer()
		l := r.IntN(lines)
		version++
		start := time.Now()
		// Insert a character at a line's start, or take it out again.
		if version%2 == 0 {
			s.change(uri, version, lspPos{l, 0}, lspPos{l, 0}, "x")
		} else {
			s.change(uri, version, lspPos{l, 0}, lspPos{l, 1}, "")
		}
		s.diagnosticsFor(uri, version)
		lat = append(lat, time.Since(start))
	}
	reportLatency(b, lat, cpu0, cpu)
}

// BenchmarkDiagnosticsAfterEditBinary is BenchmarkDiagnosticsAfterEdit
// against the cute-lsp binary as it ships (its own process and runtime
// settings), the client in this process; cpu-ms/op is the server's.
func BenchmarkDiagnosticsAfterEditBinary(b *testing.B) {
	cmd, c := startBinary(b)
	s := &session{testClient: c}
	s.initialize()
	s.open(sheetURI, generatedSheet(benchLines))
	s.diagnosticsFor(sheetURI, 1)
	s.setCountOnly(true)
	editLoop(b, c, sheetURI, benchLines, DefaultConfig().DiagnosticsDelay, func() time.Duration { return childCPU(cmd.Process.Pid) })
	s.setCountOnly(false) // answers are kept again: shutdown waits for its own
	s.call("shutdown", nil, nil)
	s.notify("exit", nil)
	cmd.Wait()
}

// childCPU is the CPU time process pid has used (user and system), from
// /proc/pid/stat; 0 where that cannot be read.
func childCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces) start past ')'.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticksPerSecond
}

// BenchmarkOpen: open the 5,000-line sheet under a new name and wait for its
// first diagnostics. Target: p99 <= 250 ms.
func BenchmarkOpen(b *testing.B) { eachFeatureSet(b, benchOpen) }

func benchOpen(b *testing.B, f *Analyzed) { openLoop(b, f, generatedSheet(benchLines)) }

// openLoop opens text under a new name each time and waits for its first
// diagnostics, closing it after.
func openLoop(b *testing.B, f *Analyzed, text string) {
	s := startSession(b, Options{Features: f})
	s.initialize()
	s.setCountOnly(true)
	lat := make([]time.Duration, 0, b.N)
	i := 0
	cpu0 := processCPU()
	for b.Loop() {
		i++
		uri := fmt.Sprintf("file:///bench/open%d.cute", i)
		start := time.Now()
		s.open(uri, text)
		s.diagnosticsFor(uri, 1)
		lat = append(lat, time.Since(start))
		s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	reportLatency(b, lat, cpu0, processCPU)
}

// startBinary starts the cute-lsp binary with a client on its stdio.
func startBinary(b *testing.B) (*exec.Cmd, *testClient) {
	cmd := exec.Command(cuteLSPBinary(b))
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return cmd, newTestClient(b, out, in)
}

// BenchmarkResidentMemory runs the real binary, opens the 5,000-line sheet,
// edits it and hovers, and reports the process's peak resident set.
// Target: <= 80 MB.
func BenchmarkResidentMemory(b *testing.B) {
	var peak float64
	for b.Loop() {
		cmd, c := startBinary(b)
		c.call("initialize", map[string]any{"capabilities": map[string]any{}}, nil)
		c.notify("initialized", map[string]any{})
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": sheetURI, "languageId": "cute", "version": 1, "text": generatedSheet(benchLines)}})
		c.diagnosticsFor(sheetURI, 1)
		for v := 2; v < 32; v++ {
			c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": sheetURI, "version": v},
				"contentChanges": []any{map[string]any{"range": lspRange{lspPos{v * 7, 0}, lspPos{v * 7, 0}}, "text": "x"}}})
			c.call("textDocument/hover", at(sheetURI, v*11, 1), nil)
			c.call("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": sheetURI}}, nil)
		}
		c.diagnosticsFor(sheetURI, 31)
		if kb := procStatusKB(cmd.Process.Pid, "VmHWM"); float64(kb)/1024 > peak {
			peak = float64(kb) / 1024
		}
		c.call("shutdown", nil, nil)
		c.notify("exit", nil)
		cmd.Wait()
	}
	b.ReportMetric(peak, "peak-rss-MB")
}

// procStatusKB reads a "kB" field of /proc/PID/status (0 where there is none).
func procStatusKB(pid int, field string) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}
