package lsp

// What a client sees on the wire: each test reads the server's answers as
// JSON, the way an editor decodes them, on the real feature set.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// analyzedSession is an initialized session on the server cute-lsp serve runs.
func analyzedSession(t *testing.T) *session {
	t.Helper()
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	return s
}

// wireDiagnostic is a diagnostic as the client decodes it, related
// information included.
type wireDiagnostic struct {
	Range              lspRange
	Severity           int
	Code               string
	Message            string
	RelatedInformation []struct {
		Location struct {
			URI   string
			Range lspRange
		}
		Message string
	}
}

// wireAction is a code action as the client decodes it.
type wireAction struct {
	Title       string
	Kind        string
	IsPreferred *bool
	Diagnostics []wireDiagnostic
	Edit        struct {
		Changes map[string][]struct {
			Range   lspRange
			NewText string
		}
	}
}

func (s *session) codeActions(uri string, r lspRange, only ...string) []wireAction {
	s.t.Helper()
	ctx := map[string]any{"diagnostics": []any{}}
	if len(only) > 0 {
		ctx["only"] = only
	}
	var out []wireAction
	s.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": r, "context": ctx}, &out)
	return out
}

// pushedDiagnostics is the latest publishDiagnostics of uri at version,
// decoded in full.
func (s *session) pushedDiagnostics(uri string, version int) []wireDiagnostic {
	s.t.Helper()
	s.diagnosticsFor(uri, version)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.notes) - 1; i >= 0; i-- {
		m := s.notes[i]
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string
			Version     *int
			Diagnostics []wireDiagnostic
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			s.t.Fatalf("publishDiagnostics %s: %v", m.Params, err)
		}
		if p.URI == uri && p.Version != nil && *p.Version == version {
			return p.Diagnostics
		}
	}
	s.t.Fatalf("no publishDiagnostics for %s v%d", uri, version)
	return nil
}

// A sheet with fixable findings on lines 0 and 2 and none on line 1, and
// values to refactor on lines 1 and 4.
const twoFixableLines = "typo = mma_atom(\"SM80_16x8x16_F32F16F16F32_NT\")\n" +
	"a = (4,8):(1,4)\n" +
	"ldsm = copy_atom(\"SM75_U32x4_LDSM_X\")\n" +
	"use = (typo, a, ldsm)\n" +
	"c = coalesce(a)\n"

// (a) Quick fixes are offered for the findings on the requested lines
// alone. Checked to fail when codeAction offers every finding's fixes.
func TestCodeActionsFollowTheRequestedRange(t *testing.T) {
	s := analyzedSession(t)
	s.open(sheetURI, twoFixableLines)
	s.diagnosticsFor(sheetURI, 1)
	lines := func(actions []wireAction) string {
		var out []string
		for _, a := range actions {
			for _, d := range a.Diagnostics {
				out = append(out, fmt.Sprintf("%s diag@%d", a.Kind, d.Range.Start.Line))
			}
			for _, e := range a.Edit.Changes[sheetURI] {
				out = append(out, fmt.Sprintf("%s edit@%d", a.Kind, e.Range.Start.Line))
			}
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		r    lspRange
		want string
	}{
		// A cursor: the fixes of its line.
		{lspRange{lspPos{0, 20}, lspPos{0, 20}}, strings.Repeat("quickfix diag@0 quickfix edit@0 ", 3)},
		{lspRange{lspPos{1, 3}, lspPos{1, 3}}, ""},
		{lspRange{lspPos{2, 0}, lspPos{2, 0}}, strings.Repeat("quickfix diag@2 quickfix edit@2 ", 3)},
		// A selection: the fixes of every line it touches.
		{lspRange{lspPos{1, 5}, lspPos{2, 2}}, strings.Repeat("quickfix diag@2 quickfix edit@2 ", 3)},
		{lspRange{lspPos{0, 0}, lspPos{3, 0}}, strings.Repeat("quickfix diag@0 quickfix edit@0 ", 3) + strings.Repeat("quickfix diag@2 quickfix edit@2 ", 3)},
	} {
		got := lines(s.codeActions(sheetURI, tc.r, "quickfix"))
		if got != strings.TrimSpace(tc.want) {
			t.Errorf("quick fixes for %+v: %q, want %q", tc.r, got, strings.TrimSpace(tc.want))
		}
	}
	// Refactorings rewrite the value at the range's start, on its line.
	for _, line := range []int{1, 4} {
		actions := s.codeActions(sheetURI, lspRange{lspPos{line, 5}, lspPos{line, 5}}, "refactor")
		if len(actions) == 0 {
			t.Errorf("no refactoring of line %d", line)
		}
		for _, a := range actions {
			for _, e := range a.Edit.Changes[sheetURI] {
				if e.Range.Start.Line != line || e.Range.End.Line != line {
					t.Errorf("refactoring %q asked on line %d edits %+v", a.Title, line, e.Range)
				}
			}
		}
	}
}

// (c) Of a finding's fixes, the best (the analysis lists it first) is the
// one marked isPreferred, which editors apply with one key. Checked to fail
// when the last fix is marked instead.
func TestPreferredFixIsTheBest(t *testing.T) {
	s := analyzedSession(t)
	s.open(sheetURI, twoFixableLines)
	s.diagnosticsFor(sheetURI, 1)
	actions := s.codeActions(sheetURI, lspRange{lspPos{0, 20}, lspPos{0, 20}})
	var got []string
	for _, a := range actions {
		if a.Kind != "quickfix" {
			continue
		}
		preferred := a.IsPreferred != nil && *a.IsPreferred
		got = append(got, fmt.Sprintf("%s preferred=%v", a.Title, preferred))
	}
	want := []string{
		`Change to "SM80_16x8x16_F32F16F16F32_TN" preferred=true`,
		`Change to "SM80_16x8x8_F32F16F16F32_TN" preferred=false`,
		`Change to "SM80_16x8x16_F32BF16BF16F32_TN" preferred=false`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("quick fixes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// (b) A diagnostic's related locations reach the client: in pushed and
// pulled diagnostics and in the diagnostics a quick fix names. Checked to
// fail when the conversion drops relatedInformation.
func TestDiagnosticRelatedInformation(t *testing.T) {
	s := analyzedSession(t)
	text := "tile = (4,8):(1,4)\nx = (4,2):(1,(2,3))\n"
	s.open(sheetURI, text)
	want := []string{
		"1:4-1:9 shape (4,2)",
		"1:10-1:19 stride (1,(2,3))",
	}
	related := func(where string, ds []wireDiagnostic) {
		t.Helper()
		for _, d := range ds {
			if d.Code != "incongruent" {
				continue
			}
			var got []string
			for _, r := range d.RelatedInformation {
				if r.Location.URI != sheetURI {
					t.Errorf("%s: related location in %q, want %q", where, r.Location.URI, sheetURI)
				}
				rg := r.Location.Range
				got = append(got, fmt.Sprintf("%d:%d-%d:%d %s", rg.Start.Line, rg.Start.Character, rg.End.Line, rg.End.Character, r.Message))
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%s: related information %q, want %q", where, got, want)
			}
			return
		}
		t.Errorf("%s: no incongruent diagnostic in %+v", where, ds)
	}
	related("pushed", s.pushedDiagnostics(sheetURI, 1))
	var pulled struct{ Items []wireDiagnostic }
	s.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": sheetURI}}, &pulled)
	related("pulled", pulled.Items)
	var ws struct {
		Items []struct {
			URI   string
			Items []wireDiagnostic
		}
	}
	s.call("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &ws)
	if len(ws.Items) != 1 || ws.Items[0].URI != sheetURI {
		t.Fatalf("workspace diagnostics = %+v", ws)
	}
	related("workspace", ws.Items[0].Items)
}

// semanticTokens decodes a semantic-tokens answer as a client does: each
// token's line and start are relative to the one before it.
type wireToken struct {
	Line, Char, Len int
	Type            string
	Modifiers       []string
}

func decodeTokens(t *testing.T, data []uint32) []wireToken {
	t.Helper()
	if len(data)%5 != 0 {
		t.Fatalf("token data of %d numbers, not a multiple of 5", len(data))
	}
	var out []wireToken
	line, char := 0, 0
	for i := 0; i < len(data); i += 5 {
		if data[i] > 0 {
			line, char = line+int(data[i]), 0
		}
		char += int(data[i+1])
		tok := wireToken{Line: line, Char: char, Len: int(data[i+2]), Type: tokenTypeNames[data[i+3]]}
		for b, name := range tokenModifierNames {
			if data[i+4]&(1<<b) != 0 {
				tok.Modifiers = append(tok.Modifiers, name)
			}
		}
		out = append(out, tok)
	}
	return out
}

// tokenTexts renders decoded tokens as the text they cover in lines
// (encoded in UTF-16, as the session negotiated).
func tokenTexts(lines []string, toks []wireToken) string {
	var b strings.Builder
	for _, tok := range toks {
		text := "?"
		if tok.Line < len(lines) {
			u := utf16Units(lines[tok.Line])
			if tok.Char+tok.Len <= len(u) {
				text = string(runesOfUTF16(u[tok.Char : tok.Char+tok.Len]))
			}
		}
		fmt.Fprintf(&b, "%d:%d %q %s", tok.Line, tok.Char, text, tok.Type)
		for _, m := range tok.Modifiers {
			b.WriteString(" " + m)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func utf16Units(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
		} else {
			out = append(out, uint16(r))
		}
	}
	return out
}

func runesOfUTF16(u []uint16) []rune {
	var out []rune
	for i := 0; i < len(u); i++ {
		if 0xd800 <= u[i] && u[i] < 0xdc00 && i+1 < len(u) {
			out = append(out, 0x10000+(rune(u[i])-0xd800)<<10+rune(u[i+1])-0xdc00)
			i++
		} else {
			out = append(out, rune(u[i]))
		}
	}
	return out
}

// (e) Semantic tokens are written relative to the token before (line
// deltas, and start deltas on the same line), in the negotiated encoding:
// decoded as a client decodes them they cover exactly the sheet's tokens.
// Checked to fail when the starts are written absolute.
func TestSemanticTokensDecodeToTheSheetsTokens(t *testing.T) {
	s := analyzedSession(t)
	text := "tile = (4,8):(1,4)  # ü 😀\nthr = composition(tile, 2:1)\n\nsw = Sw<3,4,3>\n"
	s.open(sheetURI, text)
	s.diagnosticsFor(sheetURI, 1)
	lines := strings.Split(text, "\n")
	var full struct{ Data []uint32 }
	s.call("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": sheetURI}}, &full)
	want := `0:0 "tile" variable declaration
0:8 "4" number
0:10 "8" number
0:14 "1" number
0:16 "4" number
0:20 "# ü 😀" comment
1:0 "thr" variable declaration
1:6 "composition" function
1:18 "tile" variable
1:24 "2" number
1:26 "1" number
3:0 "sw" variable declaration
3:5 "Sw<3,4,3>" type
`
	if got := tokenTexts(lines, decodeTokens(t, full.Data)); got != want {
		t.Errorf("semanticTokens/full decodes to\n%s\nwant\n%s", got, want)
	}
	// A range answer starts from the document's start too.
	var part struct{ Data []uint32 }
	s.call("textDocument/semanticTokens/range", map[string]any{"textDocument": map[string]any{"uri": sheetURI},
		"range": lspRange{lspPos{1, 6}, lspPos{3, 3}}}, &part)
	wantPart := `1:6 "composition" function
1:18 "tile" variable
1:24 "2" number
1:26 "1" number
3:0 "sw" variable declaration
`
	if got := tokenTexts(lines, decodeTokens(t, part.Data)); got != wantPart {
		t.Errorf("semanticTokens/range decodes to\n%s\nwant\n%s", got, wantPart)
	}
}

// A quick fix for an unclosed bracket, applied as the client receives it,
// closes it: the preferred fix of each finding is applied until none is
// left, and the text is the one intended. (These were the fallback's
// bracket cases; the analysis reports them as syntax errors.)
func TestQuickFixesCloseBrackets(t *testing.T) {
	s := analyzedSession(t)
	for i, tc := range []struct{ text, fixed string }{
		{"a = ((4,8),(2,2)", "a = ((4,8),(2,2))"},
		{"a = (4,8 # note\nb = 1\n", "a = (4,8) # note\nb = 1\n"},
		{"a = [(4,8\nb = 1\n", "a = [(4,8)]\nb = 1\n"},
		{"a = ((4,8),\n     (2,2))\n", "a = ((4,8),\n     (2,2))\n"},
	} {
		u := fmt.Sprintf("file:///tmp/cute-lsp-test/brackets%d.cute", i)
		s.open(u, tc.text)
		text, version := tc.text, 1
		for round := 0; ; round++ {
			ds := s.pushedDiagnostics(u, version)
			snap, _ := s.server.store.Get(u) // the version is in: its diagnostics are
			text = snap.Text
			if len(ds) == 0 {
				break
			}
			if round == 3 {
				t.Errorf("%q: findings left after 3 fixes: %+v (text %q)", tc.text, ds, text)
				break
			}
			var fix *wireAction
			actions := s.codeActions(u, ds[0].Range, "quickfix")
			for k := range actions {
				if actions[k].IsPreferred != nil && *actions[k].IsPreferred {
					fix = &actions[k]
					break
				}
			}
			if fix == nil {
				t.Errorf("%q: no preferred fix for %+v (text %q)", tc.text, ds[0], text)
				break
			}
			version++
			edits := fix.Edit.Changes[u]
			// Applied from the last, as an editor applies a list of edits.
			for k := len(edits) - 1; k >= 0; k-- {
				e := edits[k]
				s.change(u, version, e.Range.Start, e.Range.End, e.NewText)
			}
		}
		if text != tc.fixed {
			t.Errorf("%q: fixed to %q, want %q", tc.text, text, tc.fixed)
		}
	}
}

// Host files get no diagnostics from unbalanced code: only descriptors are
// read there, and CuTe code never yields a diagnostic.
func TestHostFilesIgnoreBrackets(t *testing.T) {
	s := analyzedSession(t)
	for _, u := range []string{"file:///tmp/cute-lsp-test/k.cu", "file:///tmp/cute-lsp-test/k.py", "file:///tmp/cute-lsp-test/k.mlir"} {
		s.open(u, "x = ((((\n")
		if ds := s.pushedDiagnostics(u, 1); len(ds) != 0 {
			t.Errorf("%s: %+v", u, ds)
		}
	}
}

// Every token the analysis classifies in the marker sheets reaches the
// client: the encoding drops only tokens a client would reject (empty,
// overlapping, spanning lines), and the analysis yields none of those. The
// marker goldens' @tokens read the tokens the client decodes.
func TestSemanticTokensDropNone(t *testing.T) {
	entries, err := os.ReadDir(markerDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if KindOf(e.Name(), "") != KindSheet {
			continue
		}
		src, err := os.ReadFile(filepath.Join(markerDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		a := NewAnalyzed()
		snap := NewSnapshot("file:///markers/"+e.Name(), 1, KindSheet, string(src))
		want := sheetTokens(context.Background(), a, snap)
		got := a.SemanticTokens(context.Background(), snap)
		if len(got) != len(want) {
			t.Errorf("%s: %d tokens sent of the %d classified", e.Name(), len(got), len(want))
			continue
		}
		for i := range want {
			if sp := spanOf(want[i].Range); got[i].Span != sp {
				t.Errorf("%s: token %d sent at %v, classified at %v", e.Name(), i, got[i].Span, sp)
				break
			}
		}
		n++
	}
	if n == 0 {
		t.Fatalf("no sheets in %s", markerDir)
	}
}
