package lsp

import (
	"strings"
	"sync/atomic"
	"testing"
)

// logMessages counts the window/logMessage notifications naming what.
func (c *testClient) logMessages(what string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.notes {
		if m.Method == "window/logMessage" && strings.Contains(string(m.Params), what) {
			n++
		}
	}
	return n
}

func (c *testClient) waitLogMessage(what string) {
	c.t.Helper()
	c.wait("a window/logMessage about "+what, func() bool {
		for _, m := range c.notes {
			if m.Method == "window/logMessage" && strings.Contains(string(m.Params), what) {
				return true
			}
		}
		return false
	})
}

// A panic in the incremental analysis of an edit (as the incremental
// parser's bugs raise) is reported, the document's cache is dropped and the
// edit analyzed from scratch: its diagnostics are the right ones, requests
// on it are answered, and later edits are analyzed incrementally again.
// Before the retry, the edit's diagnostics were an internal error and every
// request on the version answered InternalError.
func TestPanicInIncrementalAnalysisIsRetriedFromScratch(t *testing.T) {
	for _, requestFirst := range []bool{false, true} {
		a := NewAnalyzed()
		var incremental atomic.Int32
		a.beforeIncremental = func(snap *Snapshot) {
			incremental.Add(1)
			if snap.Version == 2 {
				panic("incremental parser exploded")
			}
		}
		s := startSession(t, Options{Features: a})
		s.initialize()
		s.open(sheetURI, brokenSheet)
		s.diagnosticsFor(sheetURI, 1)
		s.change(sheetURI, 2, lspPos{1, 0}, lspPos{1, 0}, "x = (2,2):(1,2)\n")
		if requestFirst {
			// The request's analysis may be the one that panics.
			var h struct{ Contents struct{ Value string } }
			s.call("textDocument/hover", at(sheetURI, 1, 0), &h)
			if !strings.Contains(h.Contents.Value, "(2,2):(1,2)") {
				t.Errorf("hover on the edit that panicked = %q", h.Contents.Value)
			}
		}
		d := s.diagnosticsFor(sheetURI, 2)
		if len(d.Diagnostics) != 2 || d.Diagnostics[0].Code != "syntax" || d.Diagnostics[0].Range.Start.Line != 2 {
			t.Errorf("diagnostics of the edit that panicked = %+v, want the unclosed bracket on line 2 and thr undefined", d.Diagnostics)
		}
		s.waitLogMessage("incremental parser exploded")
		s.change(sheetURI, 3, lspPos{2, 0}, lspPos{3, 0}, "")
		if d := s.diagnosticsFor(sheetURI, 3); len(d.Diagnostics) != 1 || d.Diagnostics[0].Code != "undefined-name" {
			t.Errorf("diagnostics after the bracket's line went = %+v", d.Diagnostics)
		}
		s.call("textDocument/hover", at(sheetURI, 0, 1), nil)
		if n := incremental.Load(); n < 3 {
			t.Errorf("%d incremental analyses, want the ones after the panic incremental too", n)
		}
		if code := s.shutdownAndExit(); code != 0 {
			t.Errorf("exit code %d", code)
		}
	}
}
