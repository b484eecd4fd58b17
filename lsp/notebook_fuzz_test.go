package lsp

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzNotebook: a byte string is read as a program over a notebook of up
// to four Python cells, sent either by notebook sync or as cells opened
// one by one: range edits in any cell, cells moved, added and removed,
// the notebook closed and opened again, and hover, inlay hint, diagnostic
// and semantic token requests at positions of the cells. The server must
// not panic, must answer every request, and must hold each cell's text as
// the test's model does.
//
// cd lsp && go test -run '^$' -fuzz FuzzNotebook -fuzztime 60s

var notebookFuzzCells = []string{
	"import cutlass.cute as cute\ntile = cute.make_layout((4, 8), stride=(8, 1))\n",
	"tiled = cute.logical_divide(tile, (2, 4))\nx = tile  # (2,2):(1,2)\n",
	"%time y = cute.size(tiled)\n!ls\n",
	"%%bash\necho tile\n",
}

var notebookFuzzSnippets = []string{
	"", "(", ")", ",", "tile", "tiled", " = ", "\n", "é", "😀", "\"", "#", "%", "!", "%%",
	"cute.make_layout((2, 3), stride=(3, 1))", "cute.composition(tile, ", "x = tile\n", "def f():\n    ",
}

type fuzzCell struct {
	uri     string
	model   *textModel
	version int
}

func runNotebookFuzzProgram(t *testing.T, data []byte) {
	var log lockedBuffer
	s := startSession(t, Options{Log: &log})
	s.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{
		"general":   map[string]any{"positionEncodings": []string{"utf-8"}},
		"workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": true}},
	}}, nil)
	s.notify("initialized", map[string]any{})
	p := &fuzzProgram{data: data}
	synced := p.next()%2 == 0
	const nbURI = "file:///work/fuzz.ipynb"
	serial := 0
	newCell := func() *fuzzCell {
		serial++
		text := notebookFuzzCells[p.next()%len(notebookFuzzCells)]
		return &fuzzCell{uri: fmt.Sprintf("vscode-notebook-cell:/work/fuzz.ipynb#C%d", serial), model: &textModel{text: text}, version: 1}
	}
	var cells []*fuzzCell
	for range 3 {
		cells = append(cells, newCell())
	}
	item := func(c *fuzzCell) map[string]any {
		return map[string]any{"uri": c.uri, "languageId": "python", "version": c.version, "text": c.model.text}
	}
	ref := func(c *fuzzCell) map[string]any { return map[string]any{"kind": 2, "document": c.uri} }
	open := func() {
		if !synced {
			for _, c := range cells {
				s.notify("textDocument/didOpen", map[string]any{"textDocument": item(c)})
			}
			return
		}
		var refs, items []any
		for _, c := range cells {
			refs, items = append(refs, ref(c)), append(items, item(c))
		}
		s.notify("notebookDocument/didOpen", map[string]any{
			"notebookDocument":  map[string]any{"uri": nbURI, "notebookType": "jupyter-notebook", "version": 1, "cells": refs},
			"cellTextDocuments": items,
		})
	}
	closeAll := func() {
		if !synced {
			for _, c := range cells {
				s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": c.uri}})
			}
			return
		}
		var docs []any
		for _, c := range cells {
			docs = append(docs, map[string]any{"uri": c.uri})
		}
		s.notify("notebookDocument/didClose", map[string]any{"notebookDocument": map[string]any{"uri": nbURI}, "cellTextDocuments": docs})
	}
	nbChange := func(change map[string]any) {
		s.notify("notebookDocument/didChange", map[string]any{"notebookDocument": map[string]any{"uri": nbURI, "version": 2}, "change": map[string]any{"cells": change}})
	}
	open()
	s.setCountOnly(true)
	requests := 0
	for ops := 0; !p.done() && ops < 64; ops++ {
		switch op := p.next() % 12; {
		case op < 4 && len(cells) > 0:
			c := cells[p.next()%len(cells)]
			a, b := p.position(c.model), p.position(c.model)
			text := notebookFuzzSnippets[p.next()%len(notebookFuzzSnippets)]
			c.model.apply(a, b, text)
			c.version++
			changes := []any{map[string]any{"range": lspRange{a, b}, "text": text}}
			if synced {
				nbChange(map[string]any{"textContent": []any{map[string]any{"document": map[string]any{"uri": c.uri, "version": c.version}, "changes": changes}}})
			} else {
				s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri, "version": c.version}, "contentChanges": changes})
			}
		case op == 4 && len(cells) > 1 && synced:
			// Cell i moves to the end.
			i := p.next() % len(cells)
			moved := cells[i]
			cells = append(append(cells[:i:i], cells[i+1:]...), moved)
			var refs []any
			for _, c := range cells[i:] {
				refs = append(refs, ref(c))
			}
			nbChange(map[string]any{"structure": map[string]any{"array": map[string]any{"start": i, "deleteCount": len(cells) - i, "cells": refs}}})
		case op == 5 && len(cells) < 4:
			// A cell is added at the end.
			c := newCell()
			cells = append(cells, c)
			if synced {
				nbChange(map[string]any{"structure": map[string]any{
					"array":   map[string]any{"start": len(cells) - 1, "deleteCount": 0, "cells": []any{ref(c)}},
					"didOpen": []any{item(c)},
				}})
			} else {
				s.notify("textDocument/didOpen", map[string]any{"textDocument": item(c)})
			}
		case op == 6 && len(cells) > 0:
			// Cell i is removed.
			i := p.next() % len(cells)
			c := cells[i]
			cells = append(cells[:i:i], cells[i+1:]...)
			if synced {
				nbChange(map[string]any{"structure": map[string]any{
					"array":    map[string]any{"start": i, "deleteCount": 1},
					"didClose": []any{map[string]any{"uri": c.uri}},
				}})
			} else {
				s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": c.uri}})
			}
		case op == 7:
			closeAll()
			open()
		case len(cells) > 0:
			c := cells[p.next()%len(cells)]
			a, b := p.position(c.model), p.position(c.model)
			doc := map[string]any{"uri": c.uri}
			switch p.next() % 4 {
			case 0:
				s.send("textDocument/inlayHint", map[string]any{"textDocument": doc, "range": lspRange{a, b}})
			case 1:
				s.send("textDocument/diagnostic", map[string]any{"textDocument": doc})
			case 2:
				s.send("textDocument/semanticTokens/full", map[string]any{"textDocument": doc})
			default:
				s.send("textDocument/hover", at(c.uri, a.Line, a.Character))
			}
			requests++
		}
	}
	s.wait(fmt.Sprintf("answers to all %d requests", requests), func() bool { return s.answered == requests })
	// Notifications are handled in order before a later request's answer.
	s.setCountOnly(false)
	s.call("textDocument/hover", at("untitled:sync", 0, 0), nil)
	for _, c := range cells {
		if snap, _ := s.server.store.Get(c.uri); snap == nil || snap.Text != c.model.text {
			t.Errorf("the server's text of %s differs from the model's", c.uri)
		}
	}
	s.mu.Lock()
	for code, n := range s.errorCodes {
		if code != -32800 {
			t.Errorf("%d requests answered with error %d", n, code)
		}
	}
	s.mu.Unlock()
	if l := log.String(); strings.Contains(l, "panic") {
		t.Errorf("the server panicked:\n%s", panicLines(l))
	}
	closeAll()
	s.call("shutdown", nil, nil) // every notification before it is handled
	if nbs, open := s.server.notebooks.open(); nbs != 0 || open != 0 {
		t.Errorf("after the notebook closed: %d notebooks, %d cells", nbs, open)
	}
}

func FuzzNotebook(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{1})
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 7))
		program := make([]byte, 300)
		for i := range program {
			program[i] = byte(r.Uint32())
		}
		program[0] = byte(seed) // both ways of sending cells
		f.Add(program)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			return
		}
		runNotebookFuzzProgram(t, data)
	})
}
