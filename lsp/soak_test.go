package lsp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSoak plays random edits (range and whole), hovers, symbols, inlay
// hints, code actions and cancellations against one server for a while,
// in rounds whose answers are all waited for, and samples the heap in use
// after a collection at the end of each round: across the second half of
// the run it must stay flat (the last quarter's mean within 20% of the
// third quarter's), and the server must neither crash nor answer an error
// other than a cancellation.
//
// It runs for 3 s (1 s with -short); CUTE_SOAK=10m runs it by hand for
// longer.
func TestSoak(t *testing.T) {
	length := 3 * time.Second
	if testing.Short() {
		length = time.Second
	}
	if v := os.Getenv("CUTE_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("CUTE_SOAK=%q: %v", v, err)
		}
		length = d
	}
	var log lockedBuffer
	s := startSession(t, Options{Features: NewAnalyzed(), Log: &log})
	s.initialize("utf-8")
	model := &textModel{text: strings.Join(fuzzSheets, "")}
	s.open(sheetURI, model.text)
	s.diagnosticsFor(sheetURI, 1)
	s.setCountOnly(true)
	r := rand.New(rand.NewPCG(5, 8))
	doc := map[string]any{"uri": sheetURI}
	version, requests := 1, 0
	var samples []uint64
	start := time.Now()
	for round := 0; time.Since(start) < length; round++ {
		for range 40 {
			switch k := r.IntN(12); {
			case k < 4:
				a, b := randomPosition(r, model), randomPosition(r, model)
				text := fuzzSnippets[r.IntN(len(fuzzSnippets))]
				if len(model.text) > 16<<10 {
					text = ""
				}
				version++
				s.change(sheetURI, version, a, b, text)
				model.apply(a, b, text)
			case k == 4 && r.IntN(8) == 0:
				// Now and then a whole new text, so that the sheet does not
				// wear down to nothing.
				model.text = strings.Join(fuzzSheets, "")
				version++
				s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": sheetURI, "version": version}, "contentChanges": []any{map[string]any{"text": model.text}}})
			case k == 5 && requests > 0:
				s.notify("$/cancelRequest", map[string]any{"id": requests - r.IntN(min(requests, 5))})
			default:
				a, b := randomPosition(r, model), randomPosition(r, model)
				switch r.IntN(4) {
				case 0:
					s.send("textDocument/documentSymbol", map[string]any{"textDocument": doc})
				case 1:
					s.send("textDocument/inlayHint", map[string]any{"textDocument": doc, "range": lspRange{a, b}})
				case 2:
					s.send("textDocument/codeAction", map[string]any{"textDocument": doc, "range": lspRange{a, b}, "context": map[string]any{"diagnostics": []any{}}})
				default:
					s.send("textDocument/hover", at(sheetURI, a.Line, a.Character))
				}
				requests++
			}
		}
		s.wait(fmt.Sprintf("answers to all %d requests", requests), func() bool { return s.answered == requests })
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		samples = append(samples, ms.HeapInuse)
	}
	s.mu.Lock()
	for code, n := range s.errorCodes {
		if code != -32800 {
			t.Errorf("%d requests answered with error %d", n, code)
		}
	}
	s.mu.Unlock()
	// A panic recovered on the way (the incremental parser's, while it has
	// one) is reported, not failed: this test is about surviving. The
	// diagnostics of the last version must still be those of a fresh
	// analysis.
	if n := strings.Count(log.String(), "cute-lsp: panic in"); n > 0 {
		t.Logf("%d panics recovered:\n%s", n, panicLines(log.String()))
	}
	s.setCountOnly(false)
	version++
	s.change(sheetURI, version, lspPos{0, 0}, lspPos{0, 0}, "")
	got := s.diagnosticsFor(sheetURI, version)
	want := NewAnalyzed().Analyze(context.Background(), NewSnapshot(sheetURI, 1, KindSheet, model.text), DefaultConfig())
	if len(got.Diagnostics) != len(want) {
		t.Errorf("the last version has %d diagnostics, a fresh analysis %d", len(got.Diagnostics), len(want))
	}
	if len(samples) < 8 {
		t.Logf("only %d rounds: too few to judge the heap", len(samples))
		return
	}
	n := len(samples)
	third, last := mean(samples[n/2:3*n/4]), mean(samples[3*n/4:])
	t.Logf("%d rounds, %d edits, %d requests in %v: heap in use %.1f MB in the third quarter, %.1f MB in the last",
		len(samples), version-1, requests, time.Since(start).Round(time.Millisecond), third/(1<<20), last/(1<<20))
	if last > 1.2*third {
		t.Errorf("heap in use grew from %.1f MB to %.1f MB across the second half", third/(1<<20), last/(1<<20))
	}
}

func mean(xs []uint64) float64 {
	var sum float64
	for _, x := range xs {
		sum += float64(x)
	}
	return sum / float64(len(xs))
}
