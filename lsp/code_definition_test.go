package lsp

import (
	"encoding/json"
	"testing"
)

// TestCodeDefinitionOverTheProtocol: textDocument/definition on a name in
// a .cu file answers its binding; prepareRename answers null there, since
// names in code have a definition but no rename.
func TestCodeDefinitionOverTheProtocol(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	const uri = "file:///tmp/cute-lsp-test/defs.cu"
	s.open(uri, "#include <cute/tensor.hpp>\nauto sA = make_layout(Shape<_8,_4>{});\nauto t = logical_divide(sA, _2{});\n")
	var locs []struct {
		URI   string   `json:"uri"`
		Range lspRange `json:"range"`
	}
	s.call("textDocument/definition", at(uri, 2, 25), &locs)
	if len(locs) != 1 || locs[0].URI != uri || locs[0].Range != (lspRange{lspPos{1, 5}, lspPos{1, 7}}) {
		t.Fatalf("definition %+v, want sA on line 1", locs)
	}
	var prep json.RawMessage
	s.call("textDocument/prepareRename", at(uri, 2, 25), &prep)
	if string(prep) != "null" {
		t.Errorf("prepareRename %s, want null", prep)
	}
}
