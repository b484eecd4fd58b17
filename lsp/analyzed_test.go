package lsp

import (
	"strings"
	"testing"
)

// The analysis-backed server, end to end over the pipe: findings with
// their quick fixes, hover with values, refactors, names, completion,
// signature help, tokens, inlay hints, formatting, and host files.
func TestAnalyzedEndToEnd(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	const uri = "file:///tmp/cute-lsp-test/analyzed.cute"
	text := "tile = (4,8):(1,4)\nthr = composition(tile, (2,2):(1,2)\nval = thr\n"
	s.open(uri, text)
	d := s.diagnosticsFor(uri, 1)
	syntax := -1
	for i := range d.Diagnostics {
		if d.Diagnostics[i].Code == "syntax" {
			syntax = i
		}
	}
	if syntax < 0 || d.Diagnostics[syntax].Severity != 1 || d.Diagnostics[syntax].Range.Start.Line != 1 {
		t.Fatalf("diagnostics = %+v, want a syntax error on line 1", d.Diagnostics)
	}

	var actions []struct {
		Title string
		Kind  string
		Edit  struct {
			Changes map[string][]struct {
				Range   lspRange
				NewText string
			}
		}
	}
	s.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": lspRange{lspPos{1, 0}, lspPos{1, 0}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	if len(actions) == 0 || actions[0].Title != "Insert ')'" || actions[0].Kind != "quickfix" {
		t.Fatalf("code actions = %+v, want the analyzer's \"Insert ')'\" first", actions)
	}
	e := actions[0].Edit.Changes[uri][0]
	s.change(uri, 2, e.Range.Start, e.Range.End, e.NewText)
	d = s.diagnosticsFor(uri, 2)
	for _, diag := range d.Diagnostics {
		if diag.Severity == 1 {
			t.Errorf("error left after the fix: %+v", diag)
		}
	}

	var hover struct{ Contents struct{ Value string } }
	s.call("textDocument/hover", at(uri, 0, 1), &hover)
	if !strings.Contains(hover.Contents.Value, "(4,8):(1,4)") {
		t.Errorf("hover on tile = %q", hover.Contents.Value)
	}
	s.call("textDocument/hover", at(uri, 1, 8), &hover)
	if !strings.Contains(hover.Contents.Value, "composition") {
		t.Errorf("hover on the call = %q", hover.Contents.Value)
	}

	var refactors []struct{ Title, Kind string }
	s.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": lspRange{lspPos{1, 8}, lspPos{1, 8}}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}}, &refactors)
	if len(refactors) == 0 || !strings.HasPrefix(refactors[0].Kind, "refactor") {
		t.Errorf("refactors on the call = %+v", refactors)
	}

	var defs []struct{ Range lspRange }
	s.call("textDocument/definition", at(uri, 2, 7), &defs)
	if len(defs) != 1 || defs[0].Range.Start != (lspPos{1, 0}) {
		t.Errorf("definition of thr = %+v", defs)
	}
	var edit struct {
		Changes map[string][]struct{ NewText string }
	}
	s.call("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{0, 1}, "newName": "t0"}, &edit)
	if len(edit.Changes[uri]) != 2 {
		t.Errorf("rename tile = %+v", edit)
	}
	if e := s.callErr("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{0, 1}, "newName": "thr"}); e.Code != -32602 {
		t.Errorf("rename onto a bound name: %+v", e)
	}

	var list struct{ Items []struct{ Label string } }
	s.call("textDocument/completion", at(uri, 1, 10), &list)
	found := false
	for _, it := range list.Items {
		found = found || it.Label == "composition"
	}
	if !found {
		t.Errorf("completion after 'comp' lacks composition: %+v", list.Items)
	}
	var sig struct {
		Signatures      []struct{ Label string }
		ActiveParameter int
	}
	s.call("textDocument/signatureHelp", at(uri, 1, 24), &sig)
	if len(sig.Signatures) != 1 || !strings.HasPrefix(sig.Signatures[0].Label, "composition(") || sig.ActiveParameter != 1 {
		t.Errorf("signature help = %+v", sig)
	}
	var tokens struct{ Data []int }
	s.call("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, &tokens)
	if len(tokens.Data) == 0 || len(tokens.Data)%5 != 0 {
		t.Errorf("tokens = %v", tokens.Data)
	}
	var hints []struct{ Label string }
	s.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": lspRange{lspPos{0, 0}, lspPos{9, 0}}}, &hints)
	if len(hints) == 0 {
		t.Errorf("no inlay hints for the computed bindings")
	}
	var syms []struct{ Name, Detail string }
	s.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	if len(syms) != 3 || syms[0].Name != "tile" || !strings.Contains(syms[0].Detail, "(4,8):(1,4)") {
		t.Errorf("symbols = %+v", syms)
	}

	// Formatting rewrites a sheet that parses into the canonical notation.
	const ugly = "file:///tmp/cute-lsp-test/ugly.cute"
	s.open(ugly, "a = (4, 8) : (1, 4)\n")
	var edits []struct{ NewText string }
	s.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": ugly}, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}, &edits)
	if len(edits) != 1 || edits[0].NewText != "a = (4,8):(1,4)\n" {
		t.Errorf("formatting = %+v", edits)
	}

	// A CUDA file: descriptors in comments are checked and hovered.
	const cu = "file:///tmp/cute-lsp-test/kernel.cu"
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": cu, "languageId": "cuda", "version": 1,
		"text": "// tile: (4,8):(1,4)\n// bad: (4,8):(1,4,5)\n__global__ void k() {}\n"}})
	d = s.diagnosticsFor(cu, 1)
	if len(d.Diagnostics) != 1 || d.Diagnostics[0].Range.Start.Line != 1 {
		t.Errorf("host diagnostics = %+v", d.Diagnostics)
	}
	s.call("textDocument/hover", at(cu, 0, 12), &hover)
	if !strings.Contains(hover.Contents.Value, "(4,8):(1,4)") {
		t.Errorf("host hover = %q", hover.Contents.Value)
	}

	s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if code := s.shutdownAndExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
