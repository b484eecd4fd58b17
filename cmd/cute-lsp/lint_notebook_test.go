package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
)

const layoutsNotebook = "../../source/testdata/layouts.ipynb"

// TestLintNotebook: a notebook's findings point into the .ipynb file, at
// the line and column where the JSON string writes the code, and name the
// cell.
func TestLintNotebook(t *testing.T) {
	code, stdout, _ := runCLI(t, "", "lint", layoutsNotebook)
	want := layoutsNotebook + ":32:14: error: cell 3: in mode 1, the shape 8 is an integer but the stride (2,3) is a tuple"
	if code != 1 || !strings.HasPrefix(stdout, want) || strings.Count(stdout, "\n") != 1 {
		t.Errorf("exit %d, output %q; want 1 and %q", code, stdout, want)
	}
	_, stdout, _ = runCLI(t, "", "lint", "--format", "json", layoutsNotebook)
	var findings []map[string]any
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil || len(findings) != 1 {
		t.Fatalf("json: %v, %d findings:\n%s", err, len(findings), stdout)
	}
	// (4,8):(1,(2,3)) is written inside \"...\" on line 32: it ends before the escaped quote.
	f := findings[0]
	if f["line"] != 32.0 || f["column"] != 14.0 || f["end_line"] != 32.0 || f["end_column"] != 29.0 {
		t.Errorf("finding at %v:%v-%v:%v, want 32:14-32:29", f["line"], f["column"], f["end_line"], f["end_column"])
	}
}

// TestNotebookNamesFlowAcrossCells: the cells are one program, so a name
// bound in cell 2 has its value in cell 3, as Jupyter runs them.
func TestNotebookNamesFlowAcrossCells(t *testing.T) {
	src, err := os.ReadFile(layoutsNotebook)
	if err != nil {
		t.Fatal(err)
	}
	prog, skip := readNotebookProgram(layoutsNotebook, src)
	if skip != nil {
		t.Fatal(skip)
	}
	code := analysis.ReadCode(analysis.LangPython, prog.text)
	for _, tc := range []struct{ cell, word, want string }{
		{"tile = ", "tile", "(_4,_8):(_8,_1)"},
		{"tiled = ", "tiled", "((_2,_2),(_4,_2)):((_8,_16),(_1,_4))"},
		{"size = ", "tiled", "((_2,_2),(_4,_2)):((_8,_16),(_1,_4))"}, // in the last cell
		{"size = ", "size", "_32"},
	} {
		line := strings.Index(string(prog.text), tc.cell)
		off := line + strings.Index(string(prog.text[line:]), tc.word)
		v, ok := code.At(off)
		if !ok || v.Printed != tc.want {
			t.Errorf("%s in %q: %q (ok %v), want %q", tc.word, tc.cell, v.Printed, ok, tc.want)
		}
	}
	if stats := countCode("x.py", prog.text); stats.exprs == 0 || stats.evaluated == 0 {
		t.Errorf("code stats %+v", stats)
	}
}

// TestLintNotebookCodeStats: --code-stats counts a notebook's code.
func TestLintNotebookCodeStats(t *testing.T) {
	_, _, stderr := runCLI(t, "", "lint", "--code-stats", layoutsNotebook, "../../testdata/lint/code.cu")
	if want := "code in 2 of 2 C++/Python files (1 of them notebooks): 7 expressions, 5 with a value, 4 layouts; 5 layouts written (layout types and calls of the operations that make one), 4 of them with a value"; !strings.Contains(stderr, want) {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
}

// TestLintNotebookSkipped: a notebook that cannot be read is skipped with
// the reason and where, never a panic; the other files are linted.
func TestLintNotebookSkipped(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good.py", "x = 1\n")
	write("broken.ipynb", "{\n \"cells\": [\n  {\"cell_type\": \"code\" \"source\": []}\n ]\n}\n")
	write("latin1.ipynb", "{\"cells\": [{\"cell_type\": \"code\", \"source\": \"# caf\xe9\"}]}")
	write("julia.ipynb", `{"cells": [], "metadata": {"kernelspec": {"language": "julia"}}, "nbformat": 4}`)
	write("v3.ipynb", `{"nbformat": 3, "worksheets": [{"cells": []}]}`)
	// Jupyter's checkpoint copies are not linted (their findings would come twice).
	if err := os.Mkdir(filepath.Join(dir, ".ipynb_checkpoints"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(".ipynb_checkpoints/broken-checkpoint.ipynb", "{")
	code, stdout, stderr := runCLI(t, "", "lint", dir)
	if code != 0 || stdout != "" {
		t.Errorf("exit %d, stdout %q; want 0 and nothing", code, stdout)
	}
	if strings.Contains(stderr, "checkpoint") {
		t.Errorf("a checkpoint copy was read: %s", stderr)
	}
	for name, reason := range map[string]string{
		"broken.ipynb": "not a notebook cute-lsp reads: line 3, column 24: malformed JSON: invalid character '\"' after object key:value pair",
		"latin1.ipynb": "not a notebook cute-lsp reads: line 1, column 50: not UTF-8",
		"julia.ipynb":  "a julia notebook (cute-lsp reads Python notebooks)",
		"v3.ipynb":     "not a notebook cute-lsp reads: line 1, column 14: nbformat 3: only nbformat 4 notebooks are read",
	} {
		if want := filepath.Join(dir, name) + ": skipped: " + reason; !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	_, stdout, _ = runCLI(t, "", "lint", "--format", "json", filepath.Join(dir, "broken.ipynb"), filepath.Join(dir, "good.py"))
	if !strings.Contains(stdout, `"code": "skipped"`) && !strings.Contains(stdout, `"code":"skipped"`) {
		t.Errorf("json report lacks the skipped note: %s", stdout)
	}
}
