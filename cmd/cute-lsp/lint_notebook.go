package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/diagnostics"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/lsp"
	"github.com/cute-lsp/cute-lsp/source"
)

// Jupyter notebooks (.ipynb): the code cells are one Python program, run in
// cell order as Jupyter runs them, so a name bound in a cell is seen by the
// cells after it. Findings point into the .ipynb file itself: the line and
// column (code points) inside the JSON string where the cell's source
// writes the code, so an editor opening the file as text lands on it, and
// the message starts with "cell N: " (N counts every cell from 1, as the
// notebook shows them top to bottom) for an editor that opens it as a
// notebook.

// isNotebook reports whether lint reads path as a Jupyter notebook.
func isNotebook(path string) bool { return strings.EqualFold(filepath.Ext(path), ".ipynb") }

// lintable reports whether lint reads path: a language cute-lsp reads, or
// a notebook.
func lintable(path string) bool {
	return analysis.LanguageOf(path) != analysis.LangNone || isNotebook(path)
}

// notebookProgram reads a notebook's code cells and joins them; skip says
// why a notebook is not linted.
type notebookProgram struct {
	nb     *source.Notebook
	text   []byte
	starts []int
}

func readNotebookProgram(path string, src []byte) (*notebookProgram, *lsp.SkipError) {
	nb, err := source.ReadNotebook(src)
	if err != nil {
		reason := "not a notebook cute-lsp reads: " + err.Error()
		if ne, ok := err.(*source.NotebookError); ok && ne.Offset >= 0 {
			line, col := lineColumn(src, ne.Offset)
			reason = fmt.Sprintf("not a notebook cute-lsp reads: line %d, column %d: %s", line, col, ne.Reason)
		}
		return nil, &lsp.SkipError{Path: path, Reason: reason}
	}
	if nb.Language != "" && !strings.EqualFold(nb.Language, "python") {
		return nil, &lsp.SkipError{Path: path, Reason: fmt.Sprintf("a %s notebook (cute-lsp reads Python notebooks)", nb.Language)}
	}
	cells := make([]string, len(nb.Cells))
	for i, c := range nb.Cells {
		cells[i] = c.Source
	}
	text, starts := source.JoinCells(cells)
	return &notebookProgram{nb: nb, text: []byte(text), starts: starts}, nil
}

// lintNotebook lints a notebook's code as lintFileInto lints a Python file.
func lintNotebook(p string, src []byte, configs *configs, opts lintOptions) lintResult {
	prog, skip := readNotebookProgram(p, src)
	if skip != nil {
		return lintResult{skip: skip}
	}
	// The program is read as Python whatever the notebook is called, its
	// code once, as lintFileInto reads a Python file's.
	name := p + ".py"
	var code *analysis.Code
	if opts.codeStats {
		code = analysis.ReadCodeForLint(analysis.LangPython, prog.text)
	} else {
		code = analysis.ReadCodeForFindings(analysis.LangPython, prog.text)
	}
	findings := analysis.AnalyzeHostCode(name, prog.text, code).Findings
	for i := range findings {
		findings[i] = prog.mapFinding(findings[i])
	}
	findings = configs.of(p).Apply(findings)
	if !opts.hints {
		findings = withoutHints(findings)
	}
	r := lintResult{file: diagnostics.File{Path: p, Findings: findings}}
	if opts.codeStats {
		r.code = countsOf(name, code)
		r.code.notebooks = 1
	}
	return r
}

// mapFinding moves a finding from the joined program into the .ipynb file;
// its fixes are dropped (they edit Python text, and the file holds JSON).
func (prog *notebookProgram) mapFinding(f analysis.Finding) analysis.Finding {
	cell := prog.cellAt(int(f.Range.Pos.Offset))
	f.Range = prog.mapRange(f.Range, cell)
	for i := range f.Related {
		f.Related[i].Range = prog.mapRange(f.Related[i].Range, prog.cellAt(int(f.Related[i].Range.Pos.Offset)))
	}
	f.Fixes = nil
	if cell >= 0 {
		f.Message = fmt.Sprintf("cell %d: %s", prog.nb.Cells[cell].Index+1, f.Message)
	}
	return f
}

// cellAt is the code cell holding a byte of the joined program (the
// line break after a cell counts as the cell's), -1 when there is none.
func (prog *notebookProgram) cellAt(off int) int {
	return sort.SearchInts(prog.starts, off+1) - 1
}

// mapRange maps a range of the joined program, which starts in cell, to
// the file; an end past the cell's source is the source's end.
func (prog *notebookProgram) mapRange(r grammar.Range, cell int) grammar.Range {
	if cell < 0 {
		start := grammar.Position{Line: 1, Column: 1}
		return grammar.Range{Pos: start, End: start}
	}
	c := &prog.nb.Cells[cell]
	at := func(off int) grammar.Position {
		fo := c.FileOffset(max(0, min(off-prog.starts[cell], len(c.Source))))
		line, col := prog.nb.Position(fo)
		return grammar.Position{Offset: int32(fo), Line: int32(line), Column: int32(col)}
	}
	return grammar.Range{Pos: at(int(r.Pos.Offset)), End: at(int(max(r.End.Offset, r.Pos.Offset)))}
}

// lineColumn is the 1-based line and column (code points) of a byte offset.
func lineColumn(src []byte, off int) (line, col int) {
	off = max(0, min(off, len(src)))
	start := 0
	line = 1
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, len([]rune(string(src[start:off]))) + 1
}
