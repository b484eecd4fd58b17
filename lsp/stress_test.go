package lsp

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// textModel is the test's own account of the document: it applies the same
// edits the client sends, with the protocol's clamping rules, independently
// of the server's code, in UTF-8 positions over "\n"-separated lines.
type textModel struct{ text string }

func (m *textModel) offset(p lspPos) int {
	lines := strings.SplitAfter(m.text, "\n")
	if p.Line >= len(lines) {
		return len(m.text)
	}
	off := 0
	for _, l := range lines[:p.Line] {
		off += len(l)
	}
	line := strings.TrimSuffix(lines[p.Line], "\n")
	return off + min(p.Character, len(line))
}

func (m *textModel) apply(start, end lspPos, text string) {
	a, b := m.offset(start), m.offset(end)
	if b < a {
		a, b = b, a
	}
	m.text = m.text[:a] + text + m.text[b:]
}

// randomPosition is a position at a character boundary of the model's text,
// now and then past the end of its line or of the text.
func randomPosition(r *rand.Rand, m *textModel) lspPos {
	lines := strings.Split(m.text, "\n")
	switch r.IntN(20) {
	case 0:
		return lspPos{len(lines) + r.IntN(5), r.IntN(10)}
	case 1:
		l := r.IntN(len(lines))
		return lspPos{l, len(lines[l]) + 1 + r.IntN(50)}
	}
	l := r.IntN(len(lines))
	line := lines[l]
	if line == "" {
		return lspPos{l, 0}
	}
	c := r.IntN(len(line) + 1)
	for c < len(line) && !utf8.RuneStart(line[c]) {
		c++
	}
	return lspPos{l, c}
}

var stressSnippets = []string{"(", ")", "[", "]", "x", "tile", " = ", "(4,8):(1,4)", "\n", "# é😀\n", "é", "😀", "thr = (tile, (2,2))\n", ",", "", "\"s\"", "<3,4,3>"}

// TestStressRandomEditsAndRequests sends 10,000 random edits and requests at
// one document without waiting between them, then checks that every request
// was answered without error, that the server's text matches the test's
// model, and that the heap and the goroutines came back to where they were.
func TestStressRandomEditsAndRequests(t *testing.T) {
	for _, fs := range featureSets {
		t.Run(fs.name, func(t *testing.T) { stress(t, fs.make()) })
	}
}

func stress(t *testing.T, f *Analyzed) {
	ops := 10000
	if testing.Short() {
		ops = 2000
	}
	s := startSession(t, Options{Features: f})
	s.initialize("utf-8")
	model := &textModel{text: strings.Repeat("tile = (4,8):(1,4)\nthr = (tile, (2,2))\n# comment é😀\n", 20)}
	s.open(sheetURI, model.text)
	s.diagnosticsFor(sheetURI, 1)
	s.call("textDocument/hover", at(sheetURI, 0, 1), nil)

	settle := func() (heap uint64, goroutines int) {
		for range 3 {
			runtime.GC()
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc, runtime.NumGoroutine()
	}
	heapBefore, goroutinesBefore := settle()

	r := rand.New(rand.NewPCG(1, 2))
	doc := map[string]any{"uri": sheetURI}
	s.setCountOnly(true)
	requests, version := 0, 1
	for i := 0; i < ops; i++ {
		switch k := r.IntN(10); {
		case k < 4:
			// An edit; past 20 KB, edits only delete, so the text stays bounded.
			a, b := randomPosition(r, model), randomPosition(r, model)
			text := stressSnippets[r.IntN(len(stressSnippets))]
			if len(model.text) > 20000 {
				text = ""
			}
			version++
			s.change(sheetURI, version, a, b, text)
			model.apply(a, b, text)
		case k == 4 && requests > 0:
			s.notify("$/cancelRequest", map[string]any{"id": 1 + r.IntN(requests)})
		default:
			p := randomPosition(r, model)
			var method string
			var params any
			switch r.IntN(10) {
			case 0:
				method, params = "textDocument/codeAction", map[string]any{"textDocument": doc, "range": lspRange{p, randomPosition(r, model)}, "context": map[string]any{"diagnostics": []any{}}}
			case 1:
				method, params = "textDocument/completion", at(sheetURI, p.Line, p.Character)
			case 2:
				method, params = "textDocument/documentSymbol", map[string]any{"textDocument": doc}
			case 3:
				method, params = "textDocument/semanticTokens/full", map[string]any{"textDocument": doc}
			case 4:
				method, params = "textDocument/references", map[string]any{"textDocument": doc, "position": p, "context": map[string]any{"includeDeclaration": true}}
			case 5:
				method, params = "textDocument/diagnostic", map[string]any{"textDocument": doc}
			case 6:
				method, params = "textDocument/inlayHint", map[string]any{"textDocument": doc, "range": lspRange{lspPos{0, 0}, p}}
			case 7:
				method, params = "textDocument/definition", at(sheetURI, p.Line, p.Character)
			default:
				method, params = "textDocument/hover", at(sheetURI, p.Line, p.Character)
			}
			s.send(method, params)
			requests++
		}
	}
	s.wait(fmt.Sprintf("answers to all %d requests", requests), func() bool { return s.answered == requests })
	s.mu.Lock()
	for code, n := range s.errorCodes {
		if code != -32800 {
			t.Errorf("%d requests answered with error %d", n, code)
		}
	}
	s.mu.Unlock()
	s.setCountOnly(false)
	s.diagnosticsFor(sheetURI, version)

	snap, _ := s.server.store.Get(sheetURI)
	if snap.Text != model.text {
		t.Fatalf("after %d edits the server's text differs from the model:\nserver %q\nmodel  %q", version-1, truncate(snap.Text, 300), truncate(model.text, 300))
	}
	if int(snap.Version) != version {
		t.Errorf("server version %d, want %d", snap.Version, version)
	}

	// Requests run asynchronously; give the last ones time to unwind.
	var heapAfter uint64
	var goroutinesAfter int
	for range 50 {
		heapAfter, goroutinesAfter = settle()
		if goroutinesAfter <= goroutinesBefore+2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d operations (%d edits, %d requests): heap %d KB -> %d KB, goroutines %d -> %d",
		ops, version-1, requests, heapBefore>>10, heapAfter>>10, goroutinesBefore, goroutinesAfter)
	const heapBound = 8 << 20
	if heapAfter > heapBefore+heapBound {
		t.Errorf("heap grew from %d KB to %d KB, more than the %d KB bound", heapBefore>>10, heapAfter>>10, heapBound>>10)
	}
	if goroutinesAfter > goroutinesBefore+2 {
		t.Errorf("goroutines grew from %d to %d", goroutinesBefore, goroutinesAfter)
	}
}
