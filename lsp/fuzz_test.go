package lsp

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// The LSP-level fuzzer: a byte string is read as a program of operations
// (range edits, several to a didChange, whole-text edits, requests of every
// kind at positions of the current text, cancellations, settings changes,
// requests with params that do not fit, close and reopen) sent to an
// in-process server without waiting, over sheets that hold atoms, strings,
// deep and large values. The server must not panic (not even a recovered
// panic: each is a bug), must answer every request with a result, a
// cancellation or a well-formed InvalidParams, and must hold the text the
// test's own model of the edits holds.
//
// cd lsp && go test -run '^$' -fuzz FuzzServer -fuzztime 5m
//
// CUTE_FUZZ_KNOWN=text lets a run go on past panics naming text (a bug
// found and being fixed elsewhere).

// fuzzSheets are the documents the programs start from.
var fuzzSheets = []string{
	"mma = mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\")\ntv = (32,4):(4,1)\nc = mma\n",
	"tile = (4,8):(1,4)\nthr = (tile, (2,2))\ns = \"a string é😀\"\nval = thr\n",
	"deep = ((((((((1,2),3),4),5),6),7),8),9):((((((((1,2),4),8),16),32),64),128),256)\nd2 = deep\n",
	"big = (1024,1024,64):(1,1024,1048576)\nsw = Sw<3,4,3> o (8,64):(64,1)\nc = composition(big, (8,8):(1,8))\nassert size(big) == 67108864\n",
	"# comment é😀\nx = (2,2):(1,2)\nassert x == (2,2):(1,2)\nmma = mma_atom(\"SM90_64x128x16_F32F16F16_SS\")\n",
}

// fuzzSnippets are what range edits insert (no "\r": the model splits on
// "\n" alone).
var fuzzSnippets = []string{
	"", "(", ")", ",", ":", "x", "tile", " = ", "\n", "é", "😀", "\"", "\"s\"", "(4,8):(1,4)",
	"mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\")", "mma_atom(\"", "((((((((", "))))))))",
	"(1024,1024,64):(1,1024,1048576)", "Sw<3,4,3> o ", "composition(", "assert ", " == ", "#",
	"thr = (tile, (2,2))\n", "logical_divide(", "zipped_product(", "1e9", "-1", "_",
}

// fuzzProgram reads operations from bytes; past the end it reads zeros.
type fuzzProgram struct {
	data []byte
	pos  int
}

func (p *fuzzProgram) next() int {
	if p.pos >= len(p.data) {
		return 0
	}
	p.pos++
	return int(p.data[p.pos-1])
}

func (p *fuzzProgram) done() bool { return p.pos >= len(p.data) }

// position is a position at a character boundary of the model's text,
// now and then past a line's end or the text's.
func (p *fuzzProgram) position(m *textModel) lspPos {
	lines := strings.Split(m.text, "\n")
	l := p.next() % (len(lines) + 1)
	c := p.next()
	if l >= len(lines) {
		return lspPos{l, c % 8}
	}
	line := lines[l]
	if c > len(line) {
		return lspPos{l, c}
	}
	for c < len(line) && !utf8.RuneStart(line[c]) {
		c++
	}
	return lspPos{l, c}
}

// fuzzOutcome is what a run leaves to check.
type fuzzOutcome struct {
	text     string // the model's
	version  int
	requests int
}

// runFuzzProgram plays a program against a fresh server and checks the
// answers, and returns how many panics the server recovered: with
// knownPanic set, a panic naming it is no failure.
func runFuzzProgram(t testing.TB, data []byte, f *Analyzed, knownPanic string) int {
	var log lockedBuffer
	s := startSession(t, Options{Features: f, Log: &log})
	s.initialize("utf-8")
	p := &fuzzProgram{data: data}
	model := &textModel{text: fuzzSheets[p.next()%len(fuzzSheets)]}
	s.open(sheetURI, model.text)
	s.setCountOnly(true)
	version, requests := 1, 0
	doc := map[string]any{"uri": sheetURI}
	for ops := 0; !p.done() && ops < 64; ops++ {
		switch op := p.next() % 16; {
		case op < 5:
			// Up to four range edits in one didChange.
			var changes []any
			for range 1 + p.next()%4 {
				a, b := p.position(model), p.position(model)
				text := fuzzSnippets[p.next()%len(fuzzSnippets)]
				if len(model.text) > 64<<10 {
					text = ""
				}
				changes = append(changes, map[string]any{"range": lspRange{a, b}, "text": text})
				model.apply(a, b, text)
			}
			version++
			s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": sheetURI, "version": version}, "contentChanges": changes})
		case op == 5:
			// A whole-text edit: another sheet, or this one doubled.
			text := fuzzSheets[p.next()%len(fuzzSheets)]
			if p.next()%2 == 0 && len(model.text) < 32<<10 {
				text = model.text + model.text
			}
			model.text = text
			version++
			s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": sheetURI, "version": version}, "contentChanges": []any{map[string]any{"text": text}}})
		case op == 6 && requests > 0:
			s.notify("$/cancelRequest", map[string]any{"id": requests - p.next()%min(requests, 8)})
		case op == 7:
			settings := []map[string]any{
				{"tableCap": p.next() % 80},
				{"cute": map[string]any{"defaultElementType": []string{"half_t", "float", "tfloat32_t", "nonsense"}[p.next()%4]}},
				{"arch": []string{"sm80", "sm90", "sm100", ""}[p.next()%4]},
				{"tableCap": "many"},
				{"diagnosticsDelayMs": p.next()},
			}
			s.notify("workspace/didChangeConfiguration", map[string]any{"settings": settings[p.next()%len(settings)]})
		case op == 8:
			// Params that do not fit: InvalidParams.
			s.send("textDocument/hover", map[string]any{"textDocument": doc, "position": "here"})
			requests++
		case op == 9 && p.next()%4 == 0:
			s.notify("textDocument/didClose", map[string]any{"textDocument": doc})
			version++
			s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": sheetURI, "languageId": "cute", "version": version, "text": model.text}})
		default:
			a, b := p.position(model), p.position(model)
			var method string
			var params any
			switch p.next() % 14 {
			case 0:
				method, params = "textDocument/codeAction", map[string]any{"textDocument": doc, "range": lspRange{a, b}, "context": map[string]any{"diagnostics": []any{}}}
			case 1:
				method, params = "textDocument/completion", at(sheetURI, a.Line, a.Character)
			case 2:
				method, params = "textDocument/documentSymbol", map[string]any{"textDocument": doc}
			case 3:
				method, params = "textDocument/semanticTokens/full", map[string]any{"textDocument": doc}
			case 4:
				method, params = "textDocument/semanticTokens/range", map[string]any{"textDocument": doc, "range": lspRange{a, b}}
			case 5:
				method, params = "textDocument/references", map[string]any{"textDocument": doc, "position": a, "context": map[string]any{"includeDeclaration": true}}
			case 6:
				method, params = "textDocument/diagnostic", map[string]any{"textDocument": doc}
			case 7:
				method, params = "textDocument/inlayHint", map[string]any{"textDocument": doc, "range": lspRange{a, b}}
			case 8:
				method, params = "textDocument/definition", at(sheetURI, a.Line, a.Character)
			case 9:
				method, params = "textDocument/rename", map[string]any{"textDocument": doc, "position": a, "newName": []string{"renamed", "1bad", ""}[p.next()%3]}
			case 10:
				method, params = "textDocument/formatting", map[string]any{"textDocument": doc, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}
			case 11:
				method, params = "textDocument/signatureHelp", at(sheetURI, a.Line, a.Character)
			case 12:
				method, params = "textDocument/prepareRename", at(sheetURI, a.Line, a.Character)
			default:
				method, params = "textDocument/hover", at(sheetURI, a.Line, a.Character)
			}
			s.send(method, params)
			requests++
		}
	}
	s.wait(fmt.Sprintf("answers to all %d requests", requests), func() bool { return s.answered == requests })
	// The last version's diagnostics, read whole (a no-op edit after the
	// counting stops), are a fresh analysis's.
	s.setCountOnly(false)
	version++
	s.change(sheetURI, version, lspPos{0, 0}, lspPos{0, 0}, "")
	got := s.diagnosticsFor(sheetURI, version)
	_, cfg, _ := s.server.session()
	if want := NewAnalyzed().Analyze(context.Background(), NewSnapshot(sheetURI, 1, KindSheet, model.text), cfg); len(got.Diagnostics) != len(want) {
		t.Errorf("the last version has %d diagnostics, a fresh analysis %d", len(got.Diagnostics), len(want))
	}
	s.mu.Lock()
	for code, n := range s.errorCodes {
		switch {
		case code == -32800:
		case code == -32602:
			// Rename's refusals are InvalidParams too.
		default:
			t.Errorf("%d requests answered with error %d", n, code)
		}
	}
	s.mu.Unlock()
	if snap, _ := s.server.store.Get(sheetURI); snap == nil || snap.Text != model.text {
		t.Errorf("the server's text differs from the model's")
	}
	if l := log.String(); strings.Contains(l, "panic") && !onlyKnownPanics(l, knownPanic) {
		t.Errorf("the server panicked:\n%s", panicLines(l))
	}
	return strings.Count(log.String(), "cute-lsp: panic in")
}

// onlyKnownPanics reports whether every panic in a server log names known
// (never when known is empty).
func onlyKnownPanics(log, known string) bool {
	if known == "" {
		return false
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "cute-lsp: panic in") && !strings.Contains(line, known) {
			return false
		}
	}
	return true
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func FuzzServer(f *testing.F) {
	f.Add([]byte{0})
	for i := range fuzzSheets {
		f.Add([]byte{byte(i), 0, 1, 2, 3, 4, 15, 1, 1, 0, 13, 15, 2, 3, 0, 6, 0, 7, 0, 1, 8, 5, 1, 1})
	}
	// Longer programs, so that go test plays a few hundred operations.
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 99))
		program := make([]byte, 400)
		for i := range program {
			program[i] = byte(r.Uint32())
		}
		f.Add(program)
	}
	f.Add([]byte("\x03\x00\x03\x00\x05\x00\x10\x07\x0f\x00\x00\x00\x00\x0d\x06\x01\x0f\x01\x02\x03\x04\x0c\x00\x09\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			return
		}
		runFuzzProgram(t, data, NewAnalyzed(), os.Getenv("CUTE_FUZZ_KNOWN"))
	})
}

// The first finding of FuzzServer (19 s into its first run): the
// incremental parser's "grammar: MoveNode: unknown node type", raised now
// in the incremental analysis, now in a settling, depending on how the
// diagnostics and the requests interleave. Until grammar/cache.go is
// fixed, the program is played a hundred times here and the server must
// survive each panic it meets: every request answered, the text right,
// and the last diagnostics those of a fresh analysis.
func TestFuzzFindingMoveNodeIsSurvived(t *testing.T) {
	program := []byte("\x04\x00\x01\xe8\x03\x04\x0f\x01\x01\x00\r\x0f\x01\x03\x00\x06\x00\a\x00\x01\xe8\xe8\x02\xe8")
	panics := 0
	for range 100 {
		panics += runFuzzProgram(t, program, NewAnalyzed(), "MoveNode: unknown node type")
	}
	t.Logf("%d panics recovered in 100 plays", panics)
}

// panicLines is the part of a server log from its first panic on, cut to
// a readable length.
func panicLines(log string) string {
	i := strings.Index(log, "panic")
	i = strings.LastIndex(log[:i], "\n") + 1
	return truncate(log[i:], 3000)
}
