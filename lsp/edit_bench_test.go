package lsp

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkAnalyzeAfterEdit is the server's side of
// BenchmarkDiagnosticsAfterEdit without the pipe and the client: the same
// one-line edits of the 5,000-line sheet, each analyzed with the document's
// cache and its findings turned into the diagnostics the server publishes.
// It separates the analysis's cost from the transport's and the test
// client's.
func BenchmarkAnalyzeAfterEdit(b *testing.B) {
	a := NewAnalyzed()
	lines := strings.Split(generatedSheet(benchLines), "\n")
	version := int32(1)
	diagnose := func(text string) {
		snap := NewSnapshot(sheetURI, version, KindSheet, text)
		toDiagnostics(snap, UTF16, findingsOf(a, snap))
	}
	diagnose(strings.Join(lines, "\n"))
	r := rand.New(rand.NewPCG(2, 2))
	b.ReportAllocs()
	for b.Loop() {
		l := r.IntN(benchLines)
		version++
		// Insert a character at a line's start, or take it out again.
		if version%2 == 0 {
			lines[l] = "x" + lines[l]
		} else if lines[l] != "" {
			lines[l] = lines[l][1:]
		}
		diagnose(strings.Join(lines, "\n"))
	}
}
