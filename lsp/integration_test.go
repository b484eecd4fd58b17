package lsp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sheetURI = "file:///tmp/cute-lsp-test/tile.cute"

// A sheet with one unclosed bracket (line 1) and bindings to hover.
const brokenSheet = "tile = (4,8):(1,4)\nthr = (tile, (2,2)\nval = thr\n"

func TestLifecycleOpenEditHoverCodeActionShutdown(t *testing.T) {
	s := startSession(t, Options{})
	res := s.initialize()
	caps := res["capabilities"].(map[string]any)
	if caps["positionEncoding"] != "utf-16" {
		t.Errorf("positionEncoding = %v, want utf-16 when the client offers nothing", caps["positionEncoding"])
	}
	for _, key := range []string{"hoverProvider", "codeActionProvider", "inlayHintProvider", "semanticTokensProvider", "documentSymbolProvider",
		"definitionProvider", "referencesProvider", "renameProvider", "completionProvider", "signatureHelpProvider", "documentFormattingProvider", "diagnosticProvider"} {
		if caps[key] == nil {
			t.Errorf("capability %s missing", key)
		}
	}

	// An unclosed call on line 1, so thr is undefined on line 2.
	s.open(sheetURI, "tile = (4,8):(1,4)\nthr = composition(tile, (2,2):(1,2)\nval = thr\n")
	d := s.diagnosticsFor(sheetURI, 1)
	if len(d.Diagnostics) != 2 || d.Diagnostics[0].Code != "syntax" || d.Diagnostics[0].Range.Start != (lspPos{1, 35}) ||
		d.Diagnostics[1].Code != "undefined-name" || d.Diagnostics[1].Range != (lspRange{lspPos{2, 6}, lspPos{2, 9}}) {
		t.Fatalf("diagnostics after open = %+v, want a syntax error at 1:35 and thr undefined at 2:6-2:9", d.Diagnostics)
	}

	var hover struct {
		Contents struct{ Kind, Value string }
		Range    lspRange
	}
	s.call("textDocument/hover", at(sheetURI, 2, 7), &hover)
	if hover.Contents.Kind != "markdown" || !strings.Contains(hover.Contents.Value, "undefined: thr") || hover.Range != (lspRange{lspPos{2, 6}, lspPos{2, 9}}) {
		t.Errorf("hover = %+v", hover)
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
		"range": lspRange{lspPos{1, 0}, lspPos{1, 0}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	if len(actions) != 1 || actions[0].Kind != "quickfix" {
		t.Fatalf("code actions = %+v, want one quick fix", actions)
	}
	edit := actions[0].Edit.Changes[sheetURI][0]
	if edit.NewText != ")" || edit.Range.Start != (lspPos{1, 35}) {
		t.Fatalf("fix edit = %+v, want ')' inserted at 1:35", edit)
	}

	// Apply the fix as an editor would: diagnostics clear at version 2.
	s.change(sheetURI, 2, edit.Range.Start, edit.Range.End, edit.NewText)
	if d := s.diagnosticsFor(sheetURI, 2); len(d.Diagnostics) != 0 {
		t.Fatalf("diagnostics after the fix = %+v, want none", d.Diagnostics)
	}
	if snap, _ := s.server.store.Get(sheetURI); snap.Line(1) != "thr = composition(tile, (2,2):(1,2))" {
		t.Fatalf("line 1 after the fix = %q", snap.Line(1))
	}

	// A whole-document change replaces the text.
	s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": sheetURI, "version": 3},
		"contentChanges": []any{map[string]any{"text": "x = ((\n"}}})
	if d := s.diagnosticsFor(sheetURI, 3); len(d.Diagnostics) != 1 || d.Diagnostics[0].Range.Start != (lspPos{0, 6}) {
		t.Fatalf("diagnostics after a full change = %+v, want the unclosed brackets at 0:6", d.Diagnostics)
	}

	if code := s.shutdownAndExit(); code != 0 {
		t.Errorf("exit code after shutdown+exit = %d, want 0", code)
	}
}

func TestExitWithoutShutdownExitsOne(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	s.notify("exit", nil)
	select {
	case code := <-s.exit:
		s.exit <- code
		if code != 1 {
			t.Errorf("exit code = %d, want 1", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit")
	}
}

func TestPositionEncodingNegotiation(t *testing.T) {
	for _, tc := range []struct {
		offered []string
		want    string
	}{
		{nil, "utf-16"},
		{[]string{"utf-16"}, "utf-16"},
		{[]string{"utf-32", "utf-16"}, "utf-16"},
		{[]string{"utf-16", "utf-8"}, "utf-8"},
		{[]string{"utf-8"}, "utf-8"},
	} {
		s := startSession(t, Options{})
		res := s.initialize(tc.offered...)
		if got := res["capabilities"].(map[string]any)["positionEncoding"]; got != tc.want {
			t.Errorf("offered %v: positionEncoding = %v, want %s", tc.offered, got, tc.want)
		}
	}
}

// Non-ASCII text before a name: hover, diagnostics and edits must count
// characters in the negotiated encoding.
func TestNonASCIIPositions(t *testing.T) {
	// "é" is 2 bytes / 1 UTF-16 unit; "😀" is 4 bytes / 2 UTF-16 units.
	line := `x = make_tiled_copy(copy_atom("SM75_U32x4_LDSM_N", "é😀"), tile, (1`
	text := "tile = (4,8):(1,4)\n# é😀\n" + line + "\n"
	str := strings.Index(line, `"é😀"`)
	tileByte := strings.Index(line, " tile,") + 1
	for _, tc := range []struct {
		enc               string
		tile, end, strEnd int
	}{
		{"utf-16", tileByte - 3, len(line) - 3, str + 5}, // é: -1, 😀: -2
		{"utf-8", tileByte, len(line), str + 8},
	} {
		s := startSession(t, Options{})
		s.initialize(tc.enc)
		s.open(sheetURI, text)
		d := s.diagnosticsFor(sheetURI, 1)
		if len(d.Diagnostics) != 1 || d.Diagnostics[0].Code != "syntax" || d.Diagnostics[0].Range.Start != (lspPos{2, tc.end}) {
			t.Errorf("%s: diagnostics = %+v, want the unclosed brackets at the line's end, 2:%d", tc.enc, d.Diagnostics, tc.end)
		}
		// An edit placed by the client's count lands where it means.
		s.change(sheetURI, 2, lspPos{2, tc.end}, lspPos{2, tc.end}, "))")
		d = s.diagnosticsFor(sheetURI, 2)
		if len(d.Diagnostics) != 1 || d.Diagnostics[0].Code != "type-mismatch" || d.Diagnostics[0].Range != (lspRange{lspPos{2, str}, lspPos{2, tc.strEnd}}) {
			t.Errorf("%s: after closing the brackets: %+v, want the element type \"é😀\" refused at 2:%d-2:%d", tc.enc, d.Diagnostics, str, tc.strEnd)
		}
		var hover struct{ Range lspRange }
		s.call("textDocument/hover", at(sheetURI, 2, tc.tile+1), &hover)
		if hover.Range != (lspRange{lspPos{2, tc.tile}, lspPos{2, tc.tile + 4}}) {
			t.Errorf("%s: hover range = %+v, want 2:%d-2:%d", tc.enc, hover.Range, tc.tile, tc.tile+4)
		}
	}
}

func TestMalformedMessagesAreAnsweredAndServerLives(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	s.open(sheetURI, brokenSheet)
	bad := []string{
		"Content-Length: 9\r\n\r\n{\"jsonrpc",                      // truncated JSON
		"Content-Length: 5\r\n\r\nhello",                           // not JSON
		"Content-Length: 2\r\n\r\n42",                              // JSON, not an object
		"Content-Length: 2\r\n\r\n[]",                              // empty batch
		"Content-Length: 24\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1}", // no method
		"Content-Type: x\r\n\r\n",                                  // no Content-Length
		"Content-Length: zz\r\n\r\n",                               // unreadable length
		"garbage line\r\nContent-Length: 2\r\n\r\n{}",              // a line without ':'
	}
	for i, b := range bad {
		s.writeRaw(b)
		s.wait("an error answer to malformed message "+string(rune('0'+i)), func() bool { return len(s.nullIDs) > i })
	}
	for i, m := range s.nullIDs {
		if m.Error == nil || m.Error.Code > -32600 || m.Error.Code < -32700 {
			t.Errorf("answer %d to a malformed message = %+v, want a parse or invalid-request error", i, m)
		}
	}
	// Still serving.
	var hover map[string]any
	s.call("textDocument/hover", at(sheetURI, 2, 7), &hover)
	if hover == nil {
		t.Fatal("no hover after malformed messages")
	}
}

func TestUnknownMethods(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	if e := s.callErr("cute/noSuchMethod", map[string]any{}); e.Code != -32601 {
		t.Errorf("unknown request: code %d, want -32601", e.Code)
	}
	s.notify("cute/noSuchNotification", map[string]any{})
	s.notify("$/setTrace", map[string]any{"value": "off"})
	s.notify("$/unknown", nil)
	// A known method with unreadable params: InvalidParams, not a dead server.
	if e := s.callErr("textDocument/hover", []int{1, 2}); e.Code != -32602 {
		t.Errorf("bad params: code %d, want -32602", e.Code)
	}
	s.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": sheetURI}}, nil)
}

func TestRequestsBeforeInitializeAndAfterShutdown(t *testing.T) {
	s := startSession(t, Options{})
	if e := s.callErr("textDocument/hover", at(sheetURI, 0, 0)); e.Code != -32002 {
		t.Errorf("before initialize: code %d, want -32002", e.Code)
	}
	s.initialize()
	if e := s.callErr("initialize", map[string]any{"capabilities": map[string]any{}}); e.Code != -32600 {
		t.Errorf("second initialize: code %d, want -32600", e.Code)
	}
	s.call("shutdown", nil, nil)
	if e := s.callErr("textDocument/hover", at(sheetURI, 0, 0)); e.Code != -32600 {
		t.Errorf("after shutdown: code %d, want -32600", e.Code)
	}
}

func TestPositionsPastTheEnd(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	s.open(sheetURI, brokenSheet)
	s.diagnosticsFor(sheetURI, 1)
	// Past the end of a line, past the last line, huge numbers: all answered.
	for _, p := range []lspPos{{0, 500}, {2, 9}, {3, 0}, {99, 0}, {1 << 30, 1 << 30}} {
		s.call("textDocument/hover", at(sheetURI, p.Line, p.Character), nil)
		s.call("textDocument/definition", at(sheetURI, p.Line, p.Character), nil)
		s.call("textDocument/completion", at(sheetURI, p.Line, p.Character), nil)
		s.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": sheetURI},
			"range": lspRange{p, lspPos{p.Line + 5, p.Character + 5}}, "context": map[string]any{"diagnostics": []any{}}}, nil)
		s.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": sheetURI}, "range": lspRange{lspPos{0, 0}, p}}, nil)
	}
	// An edit past the end of the text appends; one past a line's end lands at it.
	s.change(sheetURI, 2, lspPos{0, 999}, lspPos{0, 999}, " # end")
	s.change(sheetURI, 3, lspPos{50, 3}, lspPos{60, 0}, "z = 1\n")
	s.diagnosticsFor(sheetURI, 3)
	snap, _ := s.server.store.Get(sheetURI)
	if want := "tile = (4,8):(1,4) # end\nthr = (tile, (2,2)\nval = thr\nz = 1\n"; snap.Text != want {
		t.Fatalf("text after out-of-range edits = %q, want %q", snap.Text, want)
	}
}

func TestRequestsForUnopenedDocuments(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	missing := "file:///nonexistent/never.cute"
	doc := map[string]any{"uri": missing}
	var hover any
	s.call("textDocument/hover", at(missing, 0, 0), &hover)
	if hover != nil {
		t.Errorf("hover on an unopened, missing document = %v, want null", hover)
	}
	var syms []any
	s.call("textDocument/documentSymbol", map[string]any{"textDocument": doc}, &syms)
	if len(syms) != 0 {
		t.Errorf("symbols = %v", syms)
	}
	var report struct {
		Kind  string
		Items []any
	}
	s.call("textDocument/diagnostic", map[string]any{"textDocument": doc}, &report)
	if report.Kind != "full" || len(report.Items) != 0 {
		t.Errorf("pull diagnostics = %+v", report)
	}
	s.call("textDocument/codeAction", map[string]any{"textDocument": doc, "range": lspRange{}, "context": map[string]any{"diagnostics": []any{}}}, nil)
	s.call("textDocument/semanticTokens/full", map[string]any{"textDocument": doc}, nil)
	s.call("textDocument/formatting", map[string]any{"textDocument": doc, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}, nil)
	if e := s.callErr("textDocument/rename", map[string]any{"textDocument": doc, "position": lspPos{}, "newName": "y"}); e.Code != -32602 {
		t.Errorf("rename in a missing document: code %d", e.Code)
	}
	// Edits and closes of unopened documents are ignored.
	s.change(missing, 2, lspPos{}, lspPos{}, "x")
	s.notify("textDocument/didClose", map[string]any{"textDocument": doc})

	// An unopened document that exists on disk is read from it once it
	// lies in a workspace folder (files.go), not before.
	dir := t.TempDir()
	path := filepath.Join(dir, "disk.cute")
	if err := os.WriteFile(path, []byte(brokenSheet), 0o644); err != nil {
		t.Fatal(err)
	}
	var full struct{ Items []any }
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}}, &full)
	if len(full.Items) != 0 {
		t.Errorf("pull diagnostics of an unopened file outside any workspace folder: %d items, want 0", len(full.Items))
	}
	s.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": fileURI(dir), "name": "disk"}}, "removed": []any{}}})
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}}, &full)
	if len(full.Items) != 2 {
		t.Errorf("pull diagnostics of an unopened file on disk: %d items, want 2 (the unclosed bracket, thr undefined)", len(full.Items))
	}
}

// blockUntilCancelled is a request handler that returns only when its
// request is cancelled.
func blockUntilCancelled(ctx context.Context, _ *Server, _ []byte) (any, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestCancelNumericAndStringIDs(t *testing.T) {
	s := startSession(t, Options{})
	s.server.handleExtra("test/block", blockUntilCancelled)
	s.initialize()
	for _, id := range []string{"9001", `"req-9002"`} {
		s.sendID(id, "test/block", map[string]any{})
		// The server is not blocked meanwhile.
		s.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": sheetURI}}, nil)
		s.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(id)})
		m := s.answer(id)
		if m.Error == nil || m.Error.Code != -32800 {
			t.Errorf("cancelled request %s answered %+v, want error -32800", id, m)
		}
	}
	// Cancelling what is not in flight is harmless.
	s.notify("$/cancelRequest", map[string]any{"id": 123456})
	s.notify("$/cancelRequest", map[string]any{"id": map[string]any{}})
	s.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": sheetURI}}, nil)
}

func TestPanicInHandlerAnswersAndServerLives(t *testing.T) {
	s := startSession(t, Options{})
	s.server.handleExtra("test/panic", func(context.Context, *Server, []byte) (any, error) { panic("deliberate") })
	s.initialize()
	s.open(sheetURI, brokenSheet)
	for range 3 {
		e := s.callErr("test/panic", map[string]any{})
		if e.Code != -32603 || !strings.Contains(e.Message, "deliberate") {
			t.Errorf("panicking handler answered %+v, want InternalError naming the panic", e)
		}
	}
	s.call("textDocument/hover", at(sheetURI, 2, 7), nil)

	// A panicking feature inside a real handler, too.
	// A nil-map write in the hover feature's rendering: a real runtime panic.
	panicking := NewAnalyzed()
	panicking.beforeRender = func() {
		var m map[string]int
		m["boom"]++
	}
	s2 := startSession(t, Options{Features: panicking})
	s2.initialize()
	s2.open(sheetURI, brokenSheet)
	if e := s2.callErr("textDocument/hover", at(sheetURI, 0, 0)); e.Code != -32603 {
		t.Errorf("hover with a panicking feature: %+v", e)
	}
	s2.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": sheetURI}}, nil)
	if code := s2.shutdownAndExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// A panicking analysis: the editor is shown an internal-error diagnostic,
// requests that need the analysis answer InternalError, and the server
// goes on.
func TestPanicInAnalysis(t *testing.T) {
	s := startSession(t, Options{hooks: serverHooks{beforeAnalysis: func(*Snapshot) { panic("analysis exploded") }}})
	s.initialize()
	s.open(sheetURI, brokenSheet)
	d := s.diagnosticsFor(sheetURI, 1)
	if len(d.Diagnostics) != 1 || d.Diagnostics[0].Code != "internal-error" || !strings.Contains(d.Diagnostics[0].Message, "analysis exploded") {
		t.Fatalf("diagnostics = %+v", d.Diagnostics)
	}
	for range 2 {
		if e := s.callErr("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": sheetURI}}); e.Code != -32603 || !strings.Contains(e.Message, "analysis exploded") {
			t.Errorf("pull diagnostics = %+v", e)
		}
	}
	s.call("textDocument/hover", at(sheetURI, 2, 7), nil)
}

func TestDidChangeConfiguration(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cute": map[string]any{"tableCap": 8, "defaultElementType": "float", "arch": "sm100"}}})
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"tableCap": "many"}})
	s.wait("a warning about the bad setting", func() bool {
		for _, n := range s.notes {
			if n.Method == "window/showMessage" && strings.Contains(string(n.Params), "tableCap") {
				return true
			}
		}
		return false
	})
	_, cfg, gen := s.server.session()
	if cfg.TableCap != 8 || cfg.DefaultElementType != "float" || cfg.Arch != "sm100" || gen != 1 {
		t.Errorf("config = %+v (generation %d)", cfg, gen)
	}
}

func TestPullDiagnostics(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.cute": brokenSheet, "b.cute": "ok = (2,2):(1,2)\n", "c.txt": "(((", ".hidden/d.cute": "((("} {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := startSession(t, Options{})
	var res map[string]any
	s.call("initialize", map[string]any{"rootUri": fileURI(dir), "capabilities": map[string]any{
		"textDocument": map[string]any{"diagnostic": map[string]any{}},
		"workspace":    map[string]any{"diagnostics": map[string]any{"refreshSupport": true}},
	}}, &res)
	s.notify("initialized", map[string]any{})

	open := fileURI(filepath.Join(dir, "b.cute"))
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": open, "languageId": "cute", "version": 3, "text": "ok = (2,2\n"}})
	var full struct {
		Kind     string
		ResultID string
		Items    []struct{ Code string }
	}
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": open}}, &full)
	if full.Kind != "full" || full.ResultID == "" || len(full.Items) != 1 {
		t.Fatalf("pull = %+v", full)
	}
	var again struct{ Kind, ResultID string }
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": open}, "previousResultId": full.ResultID}, &again)
	if again.Kind != "unchanged" || again.ResultID != full.ResultID {
		t.Errorf("pull with the same result id = %+v, want unchanged", again)
	}

	// Folders added later are searched too; removed ones no longer are.
	extra := t.TempDir()
	os.WriteFile(filepath.Join(extra, "e.cute"), []byte("e = (((\n"), 0o644)
	s.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": fileURI(extra), "name": "extra"}}, "removed": []any{}}})

	var ws struct {
		Items []struct {
			URI     string
			Kind    string
			Version *int
			Items   []any
		}
	}
	s.call("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &ws)
	got := map[string]int{}
	for _, it := range ws.Items {
		got[filepath.Base(it.URI)] = len(it.Items)
		if filepath.Base(it.URI) == "b.cute" && (it.Version == nil || *it.Version != 3) {
			t.Errorf("open document reported with version %v, want 3", it.Version)
		}
	}
	if len(got) != 3 || got["a.cute"] != 2 || got["b.cute"] != 1 || got["e.cute"] != 1 {
		t.Errorf("workspace diagnostics per file = %v, want a.cute:2 b.cute:1 (open text) e.cute:1, nothing else", got)
	}
	s.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{}, "removed": []any{map[string]any{"uri": fileURI(extra), "name": "extra"}}}})
	s.call("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &ws)
	if len(ws.Items) != 2 {
		t.Errorf("after removing the folder: %d reports, want 2", len(ws.Items))
	}

	// A configuration change asks the pulling client to pull again.
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cute": map[string]any{"arch": "sm80"}}})
	s.wait("workspace/diagnostic/refresh", func() bool {
		for _, n := range s.notes {
			if n.Method == "workspace/diagnostic/refresh" {
				return true
			}
		}
		return false
	})

	// A client that pulls is not also pushed to.
	time.Sleep(50 * time.Millisecond)
	s.mu.Lock()
	pushed := len(s.diags)
	s.mu.Unlock()
	if pushed != 0 {
		t.Errorf("diagnostics were pushed to a pulling client")
	}
}

func TestOtherFeaturesEndToEnd(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	text := "tile = (4,8):(1,4)   \n# tile in a comment\nthr = tile\nval = thr"
	s.open(sheetURI, text)
	doc := map[string]any{"uri": sheetURI}

	var syms []struct{ Name string }
	s.call("textDocument/documentSymbol", map[string]any{"textDocument": doc}, &syms)
	if len(syms) != 3 || syms[0].Name != "tile" || syms[2].Name != "val" {
		t.Errorf("symbols = %+v", syms)
	}
	var defs []struct{ Range lspRange }
	s.call("textDocument/definition", at(sheetURI, 2, 7), &defs)
	if len(defs) != 1 || defs[0].Range != (lspRange{lspPos{0, 0}, lspPos{0, 4}}) {
		t.Errorf("definition = %+v", defs)
	}
	var refs []any
	s.call("textDocument/references", map[string]any{"textDocument": doc, "position": lspPos{0, 1}, "context": map[string]any{"includeDeclaration": true}}, &refs)
	if len(refs) != 2 {
		t.Errorf("references = %d, want 2 (the comment does not count)", len(refs))
	}
	s.call("textDocument/references", map[string]any{"textDocument": doc, "position": lspPos{0, 1}, "context": map[string]any{"includeDeclaration": false}}, &refs)
	if len(refs) != 1 {
		t.Errorf("references without the declaration = %d, want 1", len(refs))
	}
	s.call("textDocument/definition", at(sheetURI, 1, 4), &defs)
	if len(defs) != 0 {
		t.Errorf("definition from a comment = %+v, want none", defs)
	}
	if e := s.callErr("textDocument/rename", map[string]any{"textDocument": doc, "position": lspPos{0, 1}, "newName": "thr"}); e.Code != -32602 {
		t.Errorf("rename onto a bound name: %+v", e)
	}
	var edit struct {
		Changes map[string][]struct{ NewText string }
	}
	s.call("textDocument/rename", map[string]any{"textDocument": doc, "position": lspPos{0, 1}, "newName": "tile2"}, &edit)
	if len(edit.Changes[sheetURI]) != 2 {
		t.Errorf("rename edits = %+v", edit)
	}
	if e := s.callErr("textDocument/rename", map[string]any{"textDocument": doc, "position": lspPos{0, 1}, "newName": "2bad"}); e.Code != -32602 {
		t.Errorf("rename to a non-name: %+v", e)
	}
	var list struct{ Items []struct{ Label string } }
	s.call("textDocument/completion", at(sheetURI, 3, 8), &list)
	if len(list.Items) != 1 || list.Items[0].Label != "thr" {
		t.Errorf("completion after 'th' = %+v", list.Items)
	}
	var tokens struct{ Data []int }
	s.call("textDocument/semanticTokens/full", map[string]any{"textDocument": doc}, &tokens)
	if len(tokens.Data) == 0 || len(tokens.Data)%5 != 0 {
		t.Errorf("semantic tokens = %v", tokens.Data)
	}
	var edits []struct {
		Range   lspRange
		NewText string
	}
	s.call("textDocument/formatting", map[string]any{"textDocument": doc, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}, &edits)
	if want := "tile = (4,8):(1,4)\n# tile in a comment\nthr = tile\nval = thr\n"; len(edits) != 1 || edits[0].NewText != want || edits[0].Range != (lspRange{lspPos{0, 0}, lspPos{3, 9}}) {
		t.Errorf("formatting edits = %+v, want the whole text, its trailing blanks gone and a final newline", edits)
	}
	var sig any
	s.call("textDocument/signatureHelp", at(sheetURI, 0, 8), &sig)
}

// The real binary over its real stdio, both spellings of the command.
func TestBinaryOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := cuteLSPBinary(t)
	for _, args := range [][]string{nil, {"serve", "--stdio"}} {
		cmd := exec.Command(bin, args...)
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		c := newTestClient(t, out, in)
		var res map[string]any
		c.call("initialize", map[string]any{"capabilities": map[string]any{}}, &res)
		c.notify("initialized", map[string]any{})
		c.writeRaw("Content-Length: 3\r\n\r\n{x}")
		c.wait("parse error", func() bool { return len(c.nullIDs) == 1 })
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": sheetURI, "languageId": "cute", "version": 1, "text": brokenSheet}})
		c.diagnosticsFor(sheetURI, 1)
		c.call("shutdown", nil, nil)
		c.notify("exit", nil)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("cute-lsp %v: %v (stderr: %s)", args, err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("cute-lsp %v did not exit", args)
		}
	}
}
