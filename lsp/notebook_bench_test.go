package lsp

import (
	"fmt"
	"testing"
	"time"
)

// generatedNotebookCells are n cells in the style of the CuTe DSL's
// tutorials (cute_layout_algebra.ipynb has 50 cells): imports, then cells
// that each bind layouts from the first cell's and define a @cute.jit
// function that prints them.
func generatedNotebookCells(n int) []string {
	cells := []string{"import cutlass\nimport cutlass.cute as cute\nL0 = cute.make_layout((4, 8), stride=(8, 1))\n"}
	for i := 1; i < n; i++ {
		cells = append(cells, fmt.Sprintf(`L%[1]d = cute.logical_divide(L0, (2, 4 + %[2]d %% 2))
S%[1]d = cute.make_layout((8, 64), stride=(64, 1))
Z%[1]d = cute.zipped_divide(S%[1]d, (4, 8))

@cute.jit
def example_%[1]d():
    """Prints the layouts of cell %[1]d."""
    layout = cute.make_layout((2, (1, 6)), stride=(1, (6, 2)))
    result = cute.coalesce(layout)
    print(">>> Original:", layout, L%[1]d)
    print(">>> Coalesced:", result)

example_%[1]d()
`, i, i-1))
	}
	return cells
}

// BenchmarkNotebookHoverAfterEdit: an edit in the first cell of a 50-cell
// notebook (notebook sync, as VS Code sends it), then a hover in the last
// cell on the name the first cell binds: the notebook is joined and read
// again, and the name evaluated there.
func BenchmarkNotebookHoverAfterEdit(b *testing.B) {
	s := startSession(b, Options{})
	s.initialize("utf-8")
	cells := generatedNotebookCells(50)
	const nbURI = "file:///tmp/cute-lsp-test/tour.ipynb"
	var refs, docs []any
	uri := func(i int) string { return fmt.Sprintf("vscode-notebook-cell:/tmp/cute-lsp-test/tour.ipynb#C%d", i) }
	for i, text := range cells {
		refs = append(refs, map[string]any{"kind": 2, "document": uri(i)})
		docs = append(docs, map[string]any{"uri": uri(i), "languageId": "python", "version": 1, "text": text})
	}
	s.notify("notebookDocument/didOpen", map[string]any{
		"notebookDocument":  map[string]any{"uri": nbURI, "notebookType": "jupyter-notebook", "version": 1, "cells": refs},
		"cellTextDocuments": docs,
	})
	last := uri(len(cells) - 1)
	var h *hoverAnswer
	s.call("textDocument/hover", at(last, 0, 27), &h) // L0 in "L49 = cute.logical_divide(L0, (2, 4 + 48 % 2))"
	if h == nil {
		b.Fatal("no hover on a name bound in the first cell")
	}
	lat := make([]time.Duration, 0, b.N)
	cpu0 := processCPU()
	version := 1
	for b.Loop() {
		version++
		start := time.Now()
		s.notify("notebookDocument/didChange", map[string]any{
			"notebookDocument": map[string]any{"uri": nbURI, "version": version},
			"change": map[string]any{"cells": map[string]any{"textContent": []any{map[string]any{
				"document": map[string]any{"uri": uri(0), "version": version},
				"changes":  []any{map[string]any{"range": lspRange{lspPos{0, 0}, lspPos{0, 0}}, "text": ""}},
			}}}},
		})
		s.call("textDocument/hover", at(last, 0, 27), nil)
		lat = append(lat, time.Since(start))
	}
	reportLatency(b, lat, cpu0, processCPU)
}
