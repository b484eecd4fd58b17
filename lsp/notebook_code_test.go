package lsp

import (
	"fmt"
	"strings"
	"testing"
)

// The cells of a notebook whose second cell calls composition on a layout
// the first binds: CuTe rejects it with the first cell's a, and takes it
// once the first cell is edited.
const (
	rejectCell1 = "import cutlass.cute as cute\na = cute.make_layout((4, 3), stride=(3, 1))\n"
	rejectCell2 = "bad = cute.composition(a, cute.make_layout(6))\nK = a  # (4,3):(1,4)\n"
)

type pulledReport struct {
	Kind     string
	ResultID string `json:"resultId"`
	Items    []wireDiagnostic
}

func (s *session) pullDiagnostics(uri, previous string) pulledReport {
	s.t.Helper()
	params := map[string]any{"textDocument": map[string]any{"uri": uri}}
	if previous != "" {
		params["previousResultId"] = previous
	}
	var r pulledReport
	s.call("textDocument/diagnostic", params, &r)
	return r
}

func codes(ds []wireDiagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return strings.Join(out, ",")
}

// TestNotebookDiagnosticsReadEarlierCells: a cell's findings come from
// the joined program: a call reading a name bound in an earlier cell is
// checked with its value (at the cell's own positions, with fixes that
// edit the cell), and an edit of the earlier cell changes them, in pulled
// reports (a new result id) and pushed ones. Checked to fail with the
// cell's own analysis (findingsContext without the cell view): no finding.
func TestNotebookDiagnosticsReadEarlierCells(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	c1 := "vscode-notebook-cell:/work/reject.ipynb#W0sZmlsZQ%3D%3D"
	c2 := "vscode-notebook-cell:/work/reject.ipynb#W1sZmlsZQ%3D%3D"
	s.openNotebookCell(c1, rejectCell1)
	s.openNotebookCell(c2, rejectCell2)

	// Pushed on opening: the cell joined its notebook before its
	// diagnostics ran.
	if pushed := s.pushedDiagnostics(c2, 1); codes(pushed) != "precondition,stale-comment" {
		t.Errorf("cell 2's first pushed diagnostics %+v, want a precondition error and a stale comment", pushed)
	}
	r := s.pullDiagnostics(c2, "")
	if codes(r.Items) != "precondition,stale-comment" {
		t.Fatalf("cell 2's findings %+v, want a precondition error and a stale comment", r.Items)
	}
	if got := r.Items[0].Range; got.Start != (lspPos{0, 6}) || got.End.Line != 0 {
		t.Errorf("the error's range %v, want on cell 2's line 0 from 6", got)
	}
	if !strings.Contains(r.Items[0].Message, "Shape Divisibility Condition") {
		t.Errorf("the error %q", r.Items[0].Message)
	}
	if got := s.pullDiagnostics(c1, ""); len(got.Items) != 0 {
		t.Errorf("cell 1's findings %+v, want none (cell 2's are not its)", got.Items)
	}
	if r2 := s.pullDiagnostics(c2, r.ResultID); r2.Kind != "unchanged" {
		t.Errorf("pulled again with nothing changed: %q, want unchanged", r2.Kind)
	}
	// The stale comment's fix edits cell 2 where the comment is.
	var fixed bool
	for _, a := range s.codeActions(c2, lspRange{lspPos{1, 0}, lspPos{1, 0}}, "quickfix") {
		for u, edits := range a.Edit.Changes {
			if u == c2 && len(edits) == 1 && edits[0].Range.Start.Line == 1 && edits[0].NewText == "(4,3):(3,1)" {
				fixed = true
			}
		}
	}
	if !fixed {
		t.Errorf("no fix of the stale comment in cell 2: %+v", s.codeActions(c2, lspRange{lspPos{1, 0}, lspPos{1, 0}}, "quickfix"))
	}

	// Cell 1's a becomes (6,4):(1,6): composition takes it, the comment is still stale.
	s.change(c1, 2, lspPos{1, 21}, lspPos{1, 42}, "(6, 4), stride=(1, 6)")
	r2 := s.pullDiagnostics(c2, r.ResultID)
	if r2.Kind != "full" || r2.ResultID == r.ResultID || codes(r2.Items) != "stale-comment" {
		t.Errorf("after cell 1's edit, cell 2's report %+v, want a full one with a new id and the stale comment alone", r2)
	}
	// Cell 2's own text did not change: it is analyzed again all the same,
	// and its latest publication holds the stale comment alone.
	s.wait("cell 2's diagnostics without the error", func() bool {
		list := s.diags[c2]
		if len(list) == 0 {
			return false
		}
		ds := list[len(list)-1].Diagnostics
		return len(ds) == 1 && ds[0].Code == "stale-comment"
	})
}

// TestNotebookDefinitionAcrossCells: go to definition on a name a cell
// reads from an earlier cell answers the earlier cell's URI and range;
// names of later cells, other notebooks and none stay unanswered; the
// references to a name are found in every cell.
func TestNotebookDefinitionAcrossCells(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	c1 := "vscode-notebook-cell:/work/defs.ipynb#W0sZmlsZQ%3D%3D"
	c2 := "vscode-notebook-cell:/work/defs.ipynb#W1sZmlsZQ%3D%3D"
	c3 := "vscode-notebook-cell:/work/defs.ipynb#W2sZmlsZQ%3D%3D"
	other := "vscode-notebook-cell:/work/other.ipynb#W0sZmlsZQ%3D%3D"
	s.openNotebookCell(c1, cell1Text)
	s.openNotebookCell(c2, cell2Text)
	s.openNotebookCell(c3, "y = tiled\nz = later\nlater = 1\n")
	s.openNotebookCell(other, cell2Text)
	type loc struct {
		URI   string   `json:"uri"`
		Range lspRange `json:"range"`
	}
	def := func(uri string, line, char int) []loc {
		var locs []loc
		s.call("textDocument/definition", at(uri, line, char), &locs)
		return locs
	}
	// References to tile, from cell 2: its binding in cell 1 and its reads in cell 2.
	var refs []loc
	s.call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": c2}, "position": lspPos{0, 29},
		"context": map[string]any{"includeDeclaration": true}}, &refs)
	wantRefs := []loc{{c1, lspRange{lspPos{1, 0}, lspPos{1, 4}}}, {c2, lspRange{lspPos{0, 28}, lspPos{0, 32}}}, {c2, lspRange{lspPos{1, 4}, lspPos{1, 8}}}}
	if fmt.Sprint(refs) != fmt.Sprint(wantRefs) {
		t.Errorf("references to tile: %+v, want %+v", refs, wantRefs)
	}
	for _, tc := range []struct {
		name       string
		uri        string
		line, char int
		want       []loc
	}{
		{"tile in cell 2, bound in cell 1", c2, 0, 29, []loc{{c1, lspRange{lspPos{1, 0}, lspPos{1, 4}}}}},
		{"tiled in cell 3, bound in cell 2", c3, 0, 5, []loc{{c2, lspRange{lspPos{0, 0}, lspPos{0, 5}}}}},
		{"tile on its own binding", c1, 1, 2, []loc{{c1, lspRange{lspPos{1, 0}, lspPos{1, 4}}}}},
		{"a name bound after its use", c3, 1, 5, nil},
		{"a name another notebook binds", other, 0, 29, nil},
		{"a module's member", c2, 0, 15, nil},
	} {
		got := def(tc.uri, tc.line, tc.char)
		if len(got) != len(tc.want) || len(got) == 1 && got[0] != tc.want[0] {
			t.Errorf("%s: definition %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestNotebookRefactorsReadEarlierCells: code actions in a cell read the
// joined program (the value of a name bound from an earlier cell, written
// as a comment in the cell); checked to fail with the cell's own analysis.
func TestNotebookRefactorsReadEarlierCells(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	c1 := "vscode-notebook-cell:/work/acts.ipynb#W0sZmlsZQ%3D%3D"
	c2 := "vscode-notebook-cell:/work/acts.ipynb#W1sZmlsZQ%3D%3D"
	s.openNotebookCell(c1, cell1Text)
	s.openNotebookCell(c2, cell2Text)
	var got []string
	for _, a := range s.codeActions(c2, lspRange{lspPos{1, 0}, lspPos{1, 0}}, "refactor") {
		for u, edits := range a.Edit.Changes {
			for _, e := range edits {
				got = append(got, fmt.Sprintf("%s %s %v %q", a.Title, u, e.Range, e.NewText))
			}
		}
	}
	want := fmt.Sprintf("Write the value of x as a comment: # %s %s {{1 8} {1 8}} %q", tileValue, c2, "  # "+tileValue)
	if len(got) != 1 || got[0] != want {
		t.Errorf("refactors on cell 2's x = tile:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	if acts := s.codeActions(c1, lspRange{lspPos{0, 0}, lspPos{0, 0}}, "refactor"); len(acts) != 0 {
		t.Errorf("refactors on cell 1's import: %+v, want none", acts)
	}
}
