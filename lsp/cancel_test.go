package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// sendCancelled sends n hovers and cancels each, and checks every one is
// answered RequestCancelled.
func (s *session) sendCancelled(n int, params any) {
	s.t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf(`"cancelled-%d"`, i)
		s.sendID(ids[i], "textDocument/hover", params)
	}
	for _, id := range ids {
		s.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(id)})
	}
	for _, id := range ids {
		if m := s.answer(id); m.Error == nil || m.Error.Code != -32800 {
			s.t.Errorf("cancelled hover %s answered %s (error %+v), want -32800", id, truncate(string(m.Result), 80), m.Error)
		}
	}
}

// Hovers cancelled while the analysis they wait for runs stop waiting and
// never render. Before, each went on to render once the analysis was done
// (40 cancelled hovers of a large layout cost seconds of CPU).
func TestCancelledHoversWaitingForTheAnalysisNeverRender(t *testing.T) {
	a := NewAnalyzed()
	release := make(chan struct{})
	a.beforeIncremental = func(snap *Snapshot) {
		if snap.Version == 2 {
			<-release
		}
	}
	var renders atomic.Int32
	a.beforeRender = func() { renders.Add(1) }
	s := startSession(t, Options{Features: a})
	s.initialize()
	s.open(sheetURI, "big = (64,64,64):(1,64,4096)\n")
	s.diagnosticsFor(sheetURI, 1)
	s.change(sheetURI, 2, lspPos{0, 0}, lspPos{0, 0}, "x = 1\n")
	s.sendCancelled(40, at(sheetURI, 1, 1))
	close(release)
	s.diagnosticsFor(sheetURI, 2)
	s.call("textDocument/hover", at(sheetURI, 1, 1), nil)
	time.Sleep(50 * time.Millisecond) // a late rendering would show here
	if n := renders.Load(); n != 1 {
		t.Errorf("%d renderings, want the last hover's alone", n)
	}
}

// Renderings take turns, and a hover cancelled while it waits for its turn
// never renders.
func TestCancelledHoversWaitingForATurnNeverRender(t *testing.T) {
	a := NewAnalyzed()
	hold := make(chan struct{})
	var renders atomic.Int32
	a.beforeRender = func() {
		if renders.Add(1) <= int32(cap(a.turns)) {
			<-hold
		}
	}
	s := startSession(t, Options{Features: a})
	s.initialize()
	s.open(sheetURI, "big = (64,64):(64,1)\n")
	s.diagnosticsFor(sheetURI, 1)
	busy := make([]string, cap(a.turns))
	for i := range busy {
		busy[i] = fmt.Sprint(9000 + i)
		s.sendID(busy[i], "textDocument/hover", at(sheetURI, 0, 1))
	}
	poll(t, "every turn taken", func() bool { return renders.Load() == int32(cap(a.turns)) })
	s.sendCancelled(20, at(sheetURI, 0, 1))
	close(hold)
	for _, id := range busy {
		if m := s.answer(id); m.Error != nil {
			t.Errorf("hover %s: %+v", id, m.Error)
		}
	}
	s.call("textDocument/hover", at(sheetURI, 0, 1), nil)
	time.Sleep(50 * time.Millisecond)
	if n, want := renders.Load(), int32(cap(a.turns)+1); n != want {
		t.Errorf("%d renderings, want %d (the cancelled ones none)", n, want)
	}
}

// A cancelled workspace diagnostic stops between files: of fifty sheets on
// disk, the one under analysis when it was cancelled is the last analyzed.
// Before, it went on through every file after answering.
func TestCancelledWorkspaceDiagnosticStopsBetweenFiles(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%02d.cute", i)), []byte("a = (2,2):(1,2)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Each analysis is counted and held until released.
	var started atomic.Int32
	release := make(chan struct{})
	s := startSession(t, Options{hooks: serverHooks{beforeAnalysis: func(*Snapshot) {
		started.Add(1)
		<-release
	}}})
	s.call("initialize", map[string]any{"rootUri": fileURI(dir), "capabilities": map[string]any{}}, nil)
	s.notify("initialized", map[string]any{})
	s.sendID(`"ws"`, "workspace/diagnostic", map[string]any{"previousResultIds": []any{}})
	poll(t, "the first analysis", func() bool { return started.Load() == 1 })
	s.notify("$/cancelRequest", map[string]any{"id": "ws"})
	if m := s.answer(`"ws"`); m.Error == nil || m.Error.Code != -32800 {
		t.Errorf("cancelled workspace diagnostic answered %+v", m)
	}
	close(release)
	time.Sleep(100 * time.Millisecond)
	if n := started.Load(); n != 1 {
		t.Errorf("%d sheets analyzed after the cancellation, want 1", n)
	}
}

// poll waits for cond, which no message from the server signals.
func poll(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
