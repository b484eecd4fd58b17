//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pullCodes is the codes of a document's pulled diagnostics.
func pullCodes(t *testing.T, s *session, path string) []string {
	t.Helper()
	var report struct{ Items []struct{ Code any } }
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}}, &report)
	var codes []string
	for _, it := range report.Items {
		codes = append(codes, strings.Trim(strings.TrimSpace(toString(it.Code)), `"`))
	}
	return codes
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

// TestProjectConfigInTheServer: the workspace's .cute-lsp.json turns a code
// off and excludes a folder in the editor as in lint, and its element type
// reaches hover; an editor setting wins over it.
func TestProjectConfigInTheServer(t *testing.T) {
	ws := t.TempDir()
	files := map[string]string{
		"a.cute":         "h = (4,8):(1,5)\nb = composition((4,2):(1,4), (2,2):(1,2,3))\n",
		"gen/b.cute":     "b = composition((4,2):(1,4), (2,2):(1,2,3))\n",
		".cute-lsp.json": `{"exclude": ["gen"], "severity": {"non-compact": "off", "incongruent": "warning"}, "defaultElementType": "float"}`,
	}
	for name, text := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := startInWorkspace(t, ws)
	if got := pullCodes(t, s, filepath.Join(ws, "a.cute")); len(got) != 1 || got[0] != "incongruent" {
		t.Errorf("a.cute: codes %v, want the incongruent finding alone (non-compact off)", got)
	}
	var report struct {
		Items []struct {
			Code     any
			Severity int
		}
	}
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": fileURI(filepath.Join(ws, "a.cute"))}}, &report)
	if len(report.Items) != 1 || report.Items[0].Severity != 2 {
		t.Errorf("incongruent should be a warning (2): %+v", report.Items)
	}
	if got := pullCodes(t, s, filepath.Join(ws, "gen", "b.cute")); len(got) != 0 {
		t.Errorf("an excluded file has diagnostics: %v", got)
	}
	var h struct{ Contents struct{ Value string } }
	s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": fileURI(filepath.Join(ws, "a.cute"))}, "position": map[string]any{"line": 0, "character": 5}}, &h)
	if !strings.Contains(h.Contents.Value, "float") {
		t.Errorf("hover does not use the project's element type:\n%s", h.Contents.Value)
	}
	// VS Code sends every setting: its default (half_t) is no choice.
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cute": map[string]any{"defaultElementType": "half_t"}}})
	s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": fileURI(filepath.Join(ws, "a.cute"))}, "position": map[string]any{"line": 0, "character": 5}}, &h)
	if !strings.Contains(h.Contents.Value, "float") {
		t.Errorf("the editor's default overrode the project's element type:\n%s", h.Contents.Value)
	}
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cute": map[string]any{"defaultElementType": "bfloat16_t"}}})
	s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": fileURI(filepath.Join(ws, "a.cute"))}, "position": map[string]any{"line": 0, "character": 5}}, &h)
	if strings.Contains(h.Contents.Value, "float ") || !strings.Contains(h.Contents.Value, "bfloat16_t") {
		t.Errorf("the editor's own element type should win:\n%s", h.Contents.Value)
	}
}

// TestBrokenProjectConfigIsShown: a mistake in .cute-lsp.json applies
// nothing of it, and the user is told where it is.
func TestBrokenProjectConfigIsShown(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.cute"), []byte("h = (4,8):(1,5)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".cute-lsp.json"), []byte(`{"severity": {"non-compat": "off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startInWorkspace(t, ws)
	if got := pullCodes(t, s, filepath.Join(ws, "a.cute")); len(got) != 1 || got[0] != "non-compact" {
		t.Errorf("codes %v: a broken configuration must apply nothing", got)
	}
	s.wait("the configuration's mistake shown", func() bool {
		for _, n := range s.notes {
			if n.Method == "window/showMessage" && strings.Contains(string(n.Params), `.cute-lsp.json:1:14: severity: unknown finding code \"non-compat\"`) {
				return true
			}
		}
		return false
	})
}
