package lsp

import (
	"strings"
	"testing"
)

// A bank conflict in a sheet is a warning at the call whose quick fix
// rewrites the smem binding to the advised swizzle; applying it clears
// the warning and makes the assert hold.
func TestBankConflictQuickFixEndToEnd(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	src := "sA = (8,64):(64,1)\nassert bank_conflicts(sA, ((8,4),1):((1,64),0), 32) == 0\n"
	s.open(sheetURI, src)
	d := s.diagnosticsFor(sheetURI, 1)
	var codes []string
	for _, g := range d.Diagnostics {
		codes = append(codes, g.Code)
		if g.Code == "bank-conflict" && (g.Severity != 2 || g.Range.Start != (lspPos{1, 7}) || !strings.Contains(g.Message, "8 wavefronts where 1 would do")) {
			t.Errorf("bank-conflict diagnostic %+v", g)
		}
	}
	if strings.Join(codes, " ") != "assert-failed bank-conflict" {
		t.Fatalf("diagnostics %v, want the failed assert and the conflict", codes)
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
	s.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": sheetURI},
		"range": lspRange{lspPos{1, 10}, lspPos{1, 10}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	var fix *struct {
		Range   lspRange
		NewText string
	}
	for _, a := range actions {
		if strings.HasPrefix(a.Title, "Use Sw<3,0,6> o 0 o (8,64):(64,1)") && a.Kind == "quickfix" {
			fix = &a.Edit.Changes[sheetURI][0]
		}
	}
	if fix == nil || fix.Range != (lspRange{lspPos{0, 5}, lspPos{0, 18}}) || fix.NewText != "Sw<3,0,6> o 0 o (8,64):(64,1)" {
		t.Fatalf("actions %+v, want the advised swizzle on line 0", actions)
	}
	s.change(sheetURI, 2, fix.Range.Start, fix.Range.End, fix.NewText)
	if d := s.diagnosticsFor(sheetURI, 2); len(d.Diagnostics) != 0 {
		t.Fatalf("diagnostics after the fix = %+v, want none", d.Diagnostics)
	}
	if code := s.shutdownAndExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
