package lsp

import (
	"encoding/json"
	"runtime/debug"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// BenchmarkOpenPerLine is the server's own part of opening the sheet make
// bench-lsp opens (peerSheet, CUTE_BENCH_LINES lines, 5,000 by default),
// step by step, per line of the sheet: "check" the frame's check
// (checkMessage) of the didOpen message, "decode" its params
// (readOpenParams), "lines" the snapshot's line table (NewSnapshot),
// "publish" the diagnostics' params and their frame (as publish and
// tolerantStream.frame write them, for a server's first publish). The
// analysis between is package analysis's BenchmarkPeerOpenPerLine. The
// collector is paused during each step, as it is during an open, and
// the heap given back to the system between steps, as a new server starts
// without it; cpu-ns/line is this process's CPU time, so that runs at
// 5,000 and 200,000 lines compare directly.
func BenchmarkOpenPerLine(b *testing.B) {
	text := peerSheet(benchLines)
	params, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///p.cute", "languageId": "cute", "version": 1, "text": text}})
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": json.RawMessage(params)})
	snap := NewSnapshot("file:///p.cute", 1, KindSheet, text)
	findings := findingsOf(NewAnalyzed(), snap)
	steps := []struct {
		name string
		run  func()
	}{
		{"check", func() {
			if _, _, ok := checkMessage(body); !ok {
				b.Fatal("not a message")
			}
		}},
		{"decode", func() {
			if _, ok := readOpenParams(params); !ok {
				b.Fatal("not read")
			}
		}},
		{"lines", func() { NewSnapshot("file:///p.cute", 1, KindSheet, text) }},
		{"publish", func() {
			p := appendPublishDiagnostics(make([]byte, 0, 256+len(findings)*(firstDiagnosticBytes+firstDiagnosticBytes/8)), snap, UTF16, findings)
			s := &tolerantStream{raw: discardRWC{}}
			s.expect(len(protocol.MethodTextDocumentPublishDiagnostics) + len(p))
			s.Write(b.Context(), jsonrpc2.NewNotification(protocol.MethodTextDocumentPublishDiagnostics, p))
		}},
	}
	for _, step := range steps {
		b.Run(step.name, func(b *testing.B) {
			defer debug.SetGCPercent(debug.SetGCPercent(100))
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				debug.FreeOSMemory()
				debug.SetGCPercent(-1)
				b.StartTimer()
				c0 := processCPU()
				step.run()
				cpu += processCPU() - c0
				b.StopTimer()
				debug.SetGCPercent(100)
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(benchLines), "cpu-ns/line")
		})
	}
}

// discardRWC is a transport that takes every write.
type discardRWC struct{}

func (discardRWC) Read([]byte) (int, error)    { return 0, nil }
func (discardRWC) Write(p []byte) (int, error) { return len(p), nil }
func (discardRWC) Close() error                { return nil }
