package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The 500-byte sheet whose values double line after line (a30 would hold
// 2^30 leaves): the requests an editor sends on open answer in a bounded
// number of bytes. On main the first of them printed whole values until
// the process ran out of memory.
func TestDoublingSheetAnswersAreBounded(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	const uri = "file:///tmp/cute-lsp-test/doubling.cute"
	var b strings.Builder
	b.WriteString("a0 = 2\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "a%d = (a%d,a%d)\n", i, i-1, i-1)
	}
	b.WriteString("m = make_layout(a15, a15)\n")
	text := b.String()
	s.open(uri, text)
	doc := map[string]any{"uri": uri}
	total := 0
	ask := func(method string, params any) {
		var raw json.RawMessage
		s.call(method, params, &raw)
		total += len(raw)
		if len(raw) > 64<<10 {
			t.Errorf("%s: %d bytes", method, len(raw))
		}
	}
	whole := lspRange{lspPos{0, 0}, lspPos{40, 0}}
	ask("textDocument/documentSymbol", map[string]any{"textDocument": doc})
	ask("textDocument/inlayHint", map[string]any{"textDocument": doc, "range": whole})
	ask("textDocument/completion", at(uri, 32, 0))
	for _, line := range []int{0, 10, 19, 20, 21, 22, 30, 31} { // a19..a21 hold up to 2^21 leaves
		ask("textDocument/hover", at(uri, line, 0))
		ask("textDocument/hover", at(uri, line, 7))
		ask("textDocument/codeAction", map[string]any{"textDocument": doc,
			"range": lspRange{lspPos{line, 6}, lspPos{line, 6}}, "context": map[string]any{"diagnostics": []any{}}})
	}
	d := s.diagnosticsFor(uri, 1)
	if len(d.Diagnostics) == 0 || !strings.Contains(string(mustJSON(d.Diagnostics)), "too-large") {
		t.Errorf("diagnostics %+v, want a too-large error on line 22", d.Diagnostics)
	}
	if total > 1<<20 {
		t.Errorf("the answers hold %d bytes", total)
	}
}

// tableCap past its maximum is refused; at the maximum, a hover on a large
// layout stays within a megabyte or two (on main, tableCap 65536 made a
// hover ask for a 32 GiB slice).
func TestTableCapIsBounded(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cute": map[string]any{"tableCap": 65536}}})
	s.wait("a warning about tableCap", func() bool {
		for _, n := range s.notes {
			if n.Method == "window/showMessage" && strings.Contains(string(n.Params), "tableCap 65536 out of range 1..256") {
				return true
			}
		}
		return false
	})
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cute": map[string]any{"tableCap": 256}}})
	const uri = "file:///tmp/cute-lsp-test/table.cute"
	s.open(uri, "big = (65536,65536):(65536,1)\n")
	s.diagnosticsFor(uri, 1)
	var hover struct{ Contents struct{ Value string } }
	s.call("textDocument/hover", at(uri, 0, 1), &hover)
	if n := len(hover.Contents.Value); n > 2<<20 || !strings.Contains(hover.Contents.Value, "(256 of 65536 rows)") {
		t.Errorf("hover of %d bytes, ending %q", n, hover.Contents.Value[max(0, n-300):])
	}
}
