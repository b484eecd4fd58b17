package lsp

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// pictureCall asks the server for the picture at (line, char) of uri.
func pictureCall(uri string, line, char int) map[string]any {
	return map[string]any{"command": PictureCommand, "arguments": []any{uri, lspPos{line, char}}}
}

// pageData is the JSON the page embeds (see picture.WriteHTML).
func pageData(t *testing.T, page string) map[string]any {
	t.Helper()
	_, data, ok := strings.Cut(page, "const D = ")
	if !ok || !strings.HasPrefix(page, "<!DOCTYPE html>") {
		t.Fatalf("not a picture page: %.200q", page)
	}
	data, _, _ = strings.Cut(data, "\n")
	var d map[string]any
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		t.Fatalf("page data: %v", err)
	}
	return d
}

// The picture command through the in-process server: a binding's layout,
// an expression inside a statement, a TiledMMA, a host descriptor, and
// each refusal with its reason.
func TestPictureCommand(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	res := s.initialize()
	caps, _ := res["capabilities"].(map[string]any)
	cmds, _ := caps["executeCommandProvider"].(map[string]any)
	if list, _ := cmds["commands"].([]any); len(list) != 1 || list[0] != PictureCommand {
		t.Fatalf("executeCommandProvider = %v, want [%s]", caps["executeCommandProvider"], PictureCommand)
	}
	const uri = "file:///tmp/cute-lsp-test/picture.cute"
	s.open(uri, strings.Join([]string{
		"A = (4,8):(1,4)",
		`mma = make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((2,2,1)))`,
		"big = (2048,1024):(1,2048)",
		"bad = nosuch(8:1)",
		"# a comment",
		"n = (2,3)",
		"s = Sw<3,4,3> o 0 o (8,64):(64,1)",
	}, "\n")+"\n")
	s.diagnosticsFor(uri, 1)

	var page string
	s.call("workspace/executeCommand", pictureCall(uri, 0, 0), &page)
	d := pageData(t, page)
	if d["kind"] != "offsets" || d["title"] != "(4,8):(1,4)" || d["rows"] != 4.0 || d["cols"] != 8.0 {
		t.Errorf("picture of A: kind %v title %v %vx%v", d["kind"], d["title"], d["rows"], d["cols"])
	}
	if off, _ := d["offsets"].([]any); len(off) != 32 || off[1] != 4.0 || off[8] != 1.0 { // cells row by row: (0,1) is 4, (1,0) is 1
		t.Errorf("offsets of A = %v", d["offsets"])
	}
	s.call("workspace/executeCommand", pictureCall(uri, 6, 20), &page) // on the layout literal inside the composition
	if d := pageData(t, page); d["title"] != "Sw<3,4,3> o 0 o (8,64):(64,1)" && !strings.Contains(d["title"].(string), "Sw<3,4,3>") {
		t.Errorf("picture at the swizzled layout: title %v", d["title"])
	}
	s.call("workspace/executeCommand", pictureCall(uri, 1, 1), &page)
	d = pageData(t, page)
	blocks, _ := d["blocks"].([]any)
	if d["kind"] != "tv" || len(blocks) != 3 {
		t.Fatalf("picture of the TiledMMA: kind %v blocks %v", d["kind"], d["blocks"])
	}
	if c, _ := blocks[2].(map[string]any); c["name"] != "C (M x N)" || c["rows"] != 32.0 || c["cols"] != 16.0 {
		t.Errorf("block C = %v", blocks[2])
	}

	for _, c := range []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"over the editor's bound", pictureCall(uri, 2, 0), "the editor shows at most 1048576"},
		{"evaluation error", pictureCall(uri, 3, 0), "does not evaluate"},
		{"comment", pictureCall(uri, 4, 3), "nothing with a value at 5:4"},
		{"a tuple", pictureCall(uri, 5, 0), "no picture of (2,3): (2,3) is not a layout"},
		{"unopened document", pictureCall("file:///tmp/cute-lsp-test/none.cute", 0, 0), "no document"},
		{"unknown command", map[string]any{"command": "cute.nosuch", "arguments": []any{}}, `unknown command "cute.nosuch"`},
		{"no arguments", map[string]any{"command": PictureCommand}, "got 0 arguments"},
		{"URI not a string", map[string]any{"command": PictureCommand, "arguments": []any{3, lspPos{0, 0}}}, "the first is not a URI string"},
		{"position not an object", map[string]any{"command": PictureCommand, "arguments": []any{uri, "0:0"}}, "the second is not a position"},
		{"negative position", map[string]any{"command": PictureCommand, "arguments": []any{uri, map[string]any{"line": -1, "character": 0}}}, "the second is not a position"},
	} {
		e := s.callErr("workspace/executeCommand", c.params)
		if e.Code != -32602 || !strings.Contains(e.Message, c.want) {
			t.Errorf("%s: error %d %q, want InvalidParams with %q", c.name, e.Code, e.Message, c.want)
		}
	}

	// A host file: the descriptor in a comment of a .cu file.
	const cu = "file:///tmp/cute-lsp-test/kernel.cu"
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": cu, "languageId": "cuda", "version": 1,
		"text": "// smem: (8,4):(4,1)\nauto L = make_layout(make_shape(Int<2>{}, Int<4>{}));\n"}})
	s.call("workspace/executeCommand", pictureCall(cu, 1, 6), &page)
	if d := pageData(t, page); d["rows"] != 2.0 || d["cols"] != 4.0 {
		t.Errorf("picture of the C++ layout: %vx%v (%v)", d["rows"], d["cols"], d["title"])
	}
}

// Hover on a layout ends with a "Show picture" command link whose
// arguments are the picture command's; a value without a picture has none.
func TestHoverPictureLink(t *testing.T) {
	const uri = "file:///tmp/cute-lsp-test/link.cute"
	const text = "A = (4,8):(8,1)\nn = 12\nbig = (2048,1024):(1,2048)\nbad = nosuch(8:1)\n"
	var hover struct{ Contents struct{ Value string } }
	// A client that does not say it runs the link gets none (Neovim,
	// Emacs and Helix would show it as raw text).
	plain := startSession(t, Options{Features: NewAnalyzed()})
	plain.initialize()
	plain.open(uri, text)
	plain.call("textDocument/hover", at(uri, 0, 0), &hover)
	if strings.Contains(hover.Contents.Value, "Show picture") {
		t.Errorf("a client without pictureLinks got the link: %q", hover.Contents.Value)
	}
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"pictureLinks": true}}, nil)
	s.notify("initialized", map[string]any{})
	s.open(uri, text)
	s.call("textDocument/hover", at(uri, 0, 0), &hover)
	m := regexp.MustCompile(`\[Show picture\]\(command:cute\.showPicture\?([^ )]+) "`).FindStringSubmatch(hover.Contents.Value)
	if m == nil {
		t.Fatalf("hover on A has no picture link: %q", hover.Contents.Value)
	}
	raw, err := url.QueryUnescape(m[1])
	if err != nil {
		t.Fatal(err)
	}
	var args []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &args); err != nil || len(args) != 2 {
		t.Fatalf("link arguments %q: %v", raw, err)
	}
	// The link's arguments, passed on as they are, give the picture.
	var page string
	s.call("workspace/executeCommand", map[string]any{"command": PictureCommand, "arguments": args}, &page)
	if d := pageData(t, page); d["title"] != "(4,8):(8,1)" {
		t.Errorf("picture through the link's arguments: %v", d["title"])
	}
	for line, what := range []string{1: "an integer", 2: "a layout over the editor's bound", 3: "an evaluation error"} {
		if what == "" {
			continue
		}
		s.call("textDocument/hover", at(uri, line, 0), &hover)
		if hover.Contents.Value == "" || strings.Contains(hover.Contents.Value, "Show picture") {
			t.Errorf("hover on %s: %q, want a hover with no picture link", what, hover.Contents.Value)
		}
	}
}
