package lsp

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkAnalyzeAfterEdit is the server's side of
// BenchmarkDiagnosticsAfterEdit without the pipe and the client: the same
// one-line edits of the 5,000-line sheet, each analyzed with the document's
// cache and turned into findings. It separates the analysis's cost from the
// transport's and the test client's.
func BenchmarkAnalyzeAfterEdit(b *testing.B) {
	a := NewAnalyzed()
	lines := strings.Split(generatedSheet(benchLines), "\n")
	cfg := DefaultConfig()
	version := int32(1)
	a.Analyze(context.Background(), NewSnapshot(sheetURI, version, KindSheet, strings.Join(lines, "\n")), cfg)
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
		a.Analyze(context.Background(), NewSnapshot(sheetURI, version, KindSheet, strings.Join(lines, "\n")), cfg)
	}
}
