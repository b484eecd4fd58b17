package lsp

import (
	"strings"
	"testing"
)

// The cells of the notebooks below: cell 2 reads tile, which cell 1 binds.
const (
	cell1Text = "import cutlass.cute as cute\ntile = cute.make_layout((4, 8), stride=(8, 1))\n"
	cell2Text = "tiled = cute.logical_divide(tile, (2, 4))\nx = tile\n"
)

type hoverAnswer struct {
	Contents struct{ Kind, Value string }
	Range    *lspRange
}

// hoverText is the hover's markdown at a position, "" when there is none.
func (s *session) hoverText(uri string, line, char int) (string, *lspRange) {
	s.t.Helper()
	var h *hoverAnswer
	s.call("textDocument/hover", at(uri, line, char), &h)
	if h == nil {
		return "", nil
	}
	return h.Contents.Value, h.Range
}

type inlayAnswer struct {
	Position lspPos
	Label    string
}

func (s *session) inlayHints(uri string) []inlayAnswer {
	s.t.Helper()
	var hints []inlayAnswer
	s.call("textDocument/inlayHint", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        lspRange{lspPos{0, 0}, lspPos{100, 0}},
	}, &hints)
	return hints
}

func (s *session) openNotebookCell(uri, text string) {
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "python", "version": 1, "text": text}})
}

// initializeForNotebooks runs the handshake as VS Code does for
// notebooks: a client that refreshes inlay hints when asked.
func (s *session) initializeForNotebooks() map[string]any {
	s.t.Helper()
	var res map[string]any
	s.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{
		"workspace":        map[string]any{"inlayHint": map[string]any{"refreshSupport": true}},
		"notebookDocument": map[string]any{"synchronization": map[string]any{}},
	}}, &res)
	s.notify("initialized", map[string]any{})
	return res
}

const (
	tileValue  = "(_4,_8):(_8,_1)"
	tiledValue = "((_2,_2),(_4,_2)):((_8,_16),(_1,_4))"
)

// TestNotebookSync: with notebook document sync, a cell sees the names of
// the cells before it (hover and inlay hints), in the notebook's order; an
// edit in cell 1 changes what cell 2 shows; moving cell 2 above cell 1
// leaves its names unbound; closing the notebook frees its cells.
func TestNotebookSync(t *testing.T) {
	s := startSession(t, Options{})
	res := s.initializeForNotebooks()
	caps := res["capabilities"].(map[string]any)
	sync, _ := caps["notebookDocumentSync"].(map[string]any)
	if got := mustJSON(sync); !strings.Contains(got, `"notebook":"jupyter-notebook"`) || !strings.Contains(got, `"language":"python"`) {
		t.Fatalf("notebookDocumentSync = %s", got)
	}

	const nbURI = "file:///work/tour.ipynb"
	md := "vscode-notebook-cell:/work/tour.ipynb#W0sZmlsZQ%3D%3D"
	c1 := "vscode-notebook-cell:/work/tour.ipynb#W1sZmlsZQ%3D%3D"
	c2 := "vscode-notebook-cell:/work/tour.ipynb#W2sZmlsZQ%3D%3D"
	cell := func(kind int, uri string) map[string]any { return map[string]any{"kind": kind, "document": uri} }
	doc := func(uri, lang, text string) map[string]any {
		return map[string]any{"uri": uri, "languageId": lang, "version": 1, "text": text}
	}
	s.notify("notebookDocument/didOpen", map[string]any{
		"notebookDocument":  map[string]any{"uri": nbURI, "notebookType": "jupyter-notebook", "version": 1, "cells": []any{cell(1, md), cell(2, c1), cell(2, c2)}},
		"cellTextDocuments": []any{doc(md, "markdown", "# tile = 3\n"), doc(c1, "python", cell1Text), doc(c2, "python", cell2Text)},
	})

	if md, r := s.hoverText(c2, 0, 29); !strings.Contains(md, tileValue) || r == nil || *r != (lspRange{lspPos{0, 28}, lspPos{0, 32}}) {
		t.Errorf("hover on tile in cell 2 = %q at %v, want %s at 0:28-0:32", md, r, tileValue)
	}
	if md, _ := s.hoverText(c2, 1, 5); !strings.Contains(md, tileValue) {
		t.Errorf("hover on x = tile in cell 2 = %q, want %s", md, tileValue)
	}
	if md, _ := s.hoverText(c1, 1, 1); !strings.Contains(md, tileValue) {
		t.Errorf("hover on tile in cell 1 = %q, want %s", md, tileValue)
	}
	hints := s.inlayHints(c2)
	if len(hints) != 2 || hints[0].Position.Line != 0 || !strings.Contains(hints[0].Label, tiledValue) || hints[1].Position.Line != 1 {
		t.Errorf("inlay hints of cell 2 = %+v, want %s on line 0 and tile's value on line 1", hints, tiledValue)
	}
	if hints := s.inlayHints(c1); len(hints) != 1 || hints[0].Position.Line != 1 {
		t.Errorf("inlay hints of cell 1 = %+v, want one, on its line 1 (none of cell 2's)", hints)
	}
	// The picture of tile, from cell 2.
	var page string
	s.call("workspace/executeCommand", map[string]any{"command": PictureCommand, "arguments": []any{c2, lspPos{0, 29}}}, &page)
	if !strings.Contains(page, "<html") {
		t.Errorf("the picture of tile in cell 2 is not a page: %.200q", page)
	}

	// Cell 1's stride becomes (1, 4): cell 2 sees the new tile.
	s.notify("notebookDocument/didChange", map[string]any{
		"notebookDocument": map[string]any{"uri": nbURI, "version": 2},
		"change": map[string]any{"cells": map[string]any{"textContent": []any{map[string]any{
			"document": map[string]any{"uri": c1, "version": 2},
			"changes":  []any{map[string]any{"range": lspRange{lspPos{1, 40}, lspPos{1, 44}}, "text": "1, 4"}},
		}}}},
	})
	if md, _ := s.hoverText(c2, 0, 29); !strings.Contains(md, "(_4,_8):(_1,_4)") {
		t.Errorf("after the edit of cell 1, hover on tile in cell 2 = %q, want (_4,_8):(_1,_4)", md)
	}
	s.wait("workspace/inlayHint/refresh", func() bool {
		for _, n := range s.notes {
			if n.Method == "workspace/inlayHint/refresh" {
				return true
			}
		}
		return false
	})

	// Cell 2 moves above cell 1: tile is not bound yet there.
	s.notify("notebookDocument/didChange", map[string]any{
		"notebookDocument": map[string]any{"uri": nbURI, "version": 3},
		"change": map[string]any{"cells": map[string]any{"structure": map[string]any{
			"array": map[string]any{"start": 1, "deleteCount": 2, "cells": []any{cell(2, c2), cell(2, c1)}},
		}}},
	})
	if md, _ := s.hoverText(c2, 0, 29); md != "" {
		t.Errorf("cell 2 above cell 1: hover on tile = %q, want none", md)
	}

	s.notify("notebookDocument/didClose", map[string]any{
		"notebookDocument":  map[string]any{"uri": nbURI},
		"cellTextDocuments": []any{map[string]any{"uri": md}, map[string]any{"uri": c1}, map[string]any{"uri": c2}},
	})
	if md, _ := s.hoverText(c2, 0, 29); md != "" {
		t.Errorf("after the notebook closed, hover on its cell = %q, want none", md)
	}
	if nbs, cells := s.server.notebooks.open(); nbs != 0 || cells != 0 || len(s.server.store.All()) != 0 {
		t.Errorf("after the notebook closed: %d notebooks, %d cells, %d documents open; want none", nbs, cells, len(s.server.store.All()))
	}
}

// TestNotebookCellsOpenedOneByOne: a client without notebook sync opens
// each cell as a document of its own; cells of one notebook path are one
// program in the order they were opened.
func TestNotebookCellsOpenedOneByOne(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	c1 := "vscode-notebook-cell:/work/tour.ipynb#W0sZmlsZQ%3D%3D"
	c2 := "vscode-notebook-cell:/work/tour.ipynb#W1sZmlsZQ%3D%3D"
	other := "vscode-notebook-cell:/work/other.ipynb#W0sZmlsZQ%3D%3D"
	s.openNotebookCell(c1, cell1Text)
	s.openNotebookCell(c2, cell2Text)
	s.openNotebookCell(other, cell2Text)

	if md, _ := s.hoverText(c2, 0, 29); !strings.Contains(md, tileValue) {
		t.Errorf("hover on tile in cell 2 = %q, want %s", md, tileValue)
	}
	if md, _ := s.hoverText(other, 0, 29); md != "" {
		t.Errorf("hover on tile in another notebook's cell = %q, want none", md)
	}
	if hints := s.inlayHints(c2); len(hints) != 2 || !strings.Contains(hints[0].Label, tiledValue) {
		t.Errorf("inlay hints of cell 2 = %+v", hints)
	}

	// Cell 1's stride becomes (1, 4): cell 2 sees the new tile.
	s.change(c1, 2, lspPos{1, 40}, lspPos{1, 44}, "1, 4")
	if md, _ := s.hoverText(c2, 0, 29); !strings.Contains(md, "(_4,_8):(_1,_4)") {
		t.Errorf("after the edit of cell 1, hover on tile in cell 2 = %q, want (_4,_8):(_1,_4)", md)
	}

	for _, u := range []string{c1, c2, other} {
		s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
	}
	if md, _ := s.hoverText(c2, 0, 29); md != "" {
		t.Errorf("after the cells closed, hover = %q, want none (a cell is never read from disk)", md)
	}
	if nbs, cells := s.server.notebooks.open(); nbs != 0 || cells != 0 {
		t.Errorf("after the cells closed: %d notebooks, %d cells; want none", nbs, cells)
	}
}

// TestNotebookCellURIsNotFiles: a cell's URI is no file: the server reads
// no disk for it, and a file: URI with a fragment is still refused.
func TestNotebookCellURIsNotFiles(t *testing.T) {
	dir := t.TempDir()
	s := startSession(t, Options{})
	s.call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(dir), "capabilities": map[string]any{}}, nil)
	s.notify("initialized", map[string]any{})
	if md, _ := s.hoverText("vscode-notebook-cell:"+dir+"/nb.ipynb#W0", 0, 0); md != "" {
		t.Errorf("hover on an unopened cell = %q, want none", md)
	}
	if err := s.callErr("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": fileURI(dir) + "/nb.py#W0"}}); err == nil {
		t.Errorf("a file: URI with a fragment was accepted")
	}
}
