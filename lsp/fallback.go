package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Fallback is the feature set the server runs until package analysis
// provides the real one. It knows only what can be seen without a parser:
// the brackets, comments and strings of a .cute sheet and its "name = ..."
// bindings. It computes nothing about layouts. Every other kind of document
// gets no findings from it.
type Fallback struct{}

var _ Features = Fallback{}

// lexeme kinds of the fallback scanner.
const (
	lexIdent uint8 = iota
	lexNumber
	lexString
	lexComment
	lexOpen
	lexClose
)

type lexeme struct {
	start, end int32
	kind       uint8
}

func (lx lexeme) span() Span { return Span{int(lx.start), int(lx.end)} }

// binding is a "name = ..." line of a sheet.
type binding struct {
	name   Span
	line   Span   // the whole line
	detail string // the right-hand side, trimmed
}

// sheetScan is the fallback's view of a sheet, computed once per snapshot.
type sheetScan struct {
	lexemes  []lexeme
	bindings []binding
	byName   map[string]int // name -> index in bindings (the first binding wins)
	findings []Finding
}

type sheetScanKey struct{}

func scanOf(snap *Snapshot) *sheetScan {
	return snap.Memo(sheetScanKey{}, func() any { return scanSheet(snap) }).(*sheetScan)
}

// lexSheet splits a sheet into lexemes; comments are "#" or "//" to the end
// of the line, strings are double-quoted and end at the line's end when
// unterminated.
func lexSheet(text string) []lexeme {
	// Layout text runs to about 0.6 lexemes a byte; sizing for it saves the
	// copies of a growing slice.
	out := make([]lexeme, 0, len(text)*2/3)
	add := func(kind uint8, start, end int) { out = append(out, lexeme{int32(start), int32(end), kind}) }
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '#' || c == '/' && i+1 < len(text) && text[i+1] == '/':
			j := i
			for j < len(text) && text[j] != '\n' && text[j] != '\r' {
				j++
			}
			add(lexComment, i, j)
			i = j
		case c == '"':
			j := i + 1
			for j < len(text) && text[j] != '"' && text[j] != '\n' && text[j] != '\r' {
				if text[j] == '\\' && j+1 < len(text) {
					j++
				}
				j++
			}
			if j < len(text) && text[j] == '"' {
				j++
			}
			add(lexString, i, j)
			i = j
		case '0' <= c && c <= '9':
			j := i
			for j < len(text) && isWordByte(text[j]) {
				j++
			}
			add(lexNumber, i, j)
			i = j
		case isWordByte(c):
			j := i
			for j < len(text) && isWordByte(text[j]) {
				j++
			}
			add(lexIdent, i, j)
			i = j
		case c == '(' || c == '[' || c == '{' || c == '<':
			add(lexOpen, i, i+1)
			i++
		case c == ')' || c == ']' || c == '}' || c == '>':
			add(lexClose, i, i+1)
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			// Punctuation matters to no fallback feature.
			i++
		}
	}
	return out
}

// closerOf is the bracket that closes open.
func closerOf(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	}
	return '>'
}

// bindingAt reads a "name = ..." binding from a line starting at column 0.
func bindingAt(snap *Snapshot, line Span) (binding, bool) {
	text := snap.Text[line.Start:line.End]
	n := 0
	for n < len(text) && isWordByte(text[n]) {
		n++
	}
	if n == 0 || '0' <= text[0] && text[0] <= '9' {
		return binding{}, false
	}
	rest := strings.TrimLeft(text[n:], " \t")
	if !strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "==") {
		return binding{}, false
	}
	detail := strings.TrimSpace(rest[1:])
	if i := strings.Index(detail, "#"); i >= 0 {
		detail = strings.TrimSpace(detail[:i])
	}
	return binding{name: Span{line.Start, line.Start + n}, line: line, detail: detail}, true
}

func scanSheet(snap *Snapshot) *sheetScan {
	sc := &sheetScan{}
	if snap.Kind != KindSheet {
		sc.byName = map[string]int{}
		return sc
	}
	sc.byName = make(map[string]int, snap.LineCount())
	sc.bindings = make([]binding, 0, snap.LineCount())
	sc.lexemes = lexSheet(snap.Text)
	bindingLine := make([]bool, snap.LineCount())
	for i := 0; i < snap.LineCount(); i++ {
		if b, ok := bindingAt(snap, snap.LineSpan(i)); ok {
			sc.bindings = append(sc.bindings, b)
			bindingLine[i] = true
			name := snap.Text[b.name.Start:b.name.End]
			if _, dup := sc.byName[name]; !dup {
				sc.byName[name] = len(sc.bindings) - 1
			}
		}
	}
	sc.findings = bracketFindings(snap, sc.lexemes, bindingLine)
	return sc
}

// bracketFindings matches brackets. A new binding line closes whatever its
// predecessor left open (statements may span lines only inside brackets, so
// a binding at column 0 cannot be a continuation); each bracket left open
// gets a finding whose fix inserts the missing closers at the end of the
// statement's last code, and each stray or mismatched closer gets one too.
func bracketFindings(snap *Snapshot, lexemes []lexeme, bindingLine []bool) []Finding {
	var findings []Finding
	var stack []lexeme
	codeEnd := 0 // just after the last non-comment lexeme seen
	flush := func() {
		for k := len(stack) - 1; k >= 0; k-- {
			open := stack[k]
			var closers strings.Builder
			for m := len(stack) - 1; m >= k; m-- {
				closers.WriteByte(closerOf(snap.Text[int(stack[m].start)]))
			}
			want := string(closerOf(snap.Text[int(open.start)]))
			findings = append(findings, Finding{
				Span:     open.span(),
				Severity: SeverityError,
				Code:     "unbalanced-bracket",
				Message:  fmt.Sprintf("'%c' is never closed", snap.Text[int(open.start)]),
				Fixes: []Fix{{
					Title: fmt.Sprintf("Insert the missing '%s'", want),
					Edits: []Edit{{Span: Span{codeEnd, codeEnd}, NewText: closers.String()}},
				}},
			})
		}
		stack = stack[:0]
	}
	line := 0
	for _, lx := range lexemes {
		start := int(lx.start)
		if line+1 < len(snap.lineStarts) && start >= snap.lineStarts[line+1] {
			for line+1 < len(snap.lineStarts) && start >= snap.lineStarts[line+1] {
				line++
			}
			if len(stack) > 0 && bindingLine[line] {
				flush()
			}
		}
		if lx.kind == lexComment {
			continue
		}
		switch lx.kind {
		case lexOpen:
			c := snap.Text[int(lx.start)]
			// '<' and '>' are brackets only in template-like spellings
			// (Sw<3,4,3>, !cute.layout<...>); a lone comparison is not.
			if c == '<' && !(int(lx.start) > 0 && (isWordByte(snap.Text[int(lx.start)-1]) || snap.Text[int(lx.start)-1] == '.')) {
				break
			}
			stack = append(stack, lx)
		case lexClose:
			c := snap.Text[int(lx.start)]
			if c == '>' && (len(stack) == 0 || snap.Text[int(stack[len(stack)-1].start)] != '<') {
				break
			}
			if len(stack) == 0 {
				findings = append(findings, Finding{
					Span: lx.span(), Severity: SeverityError, Code: "unbalanced-bracket",
					Message: fmt.Sprintf("'%c' closes nothing", c),
					Fixes:   []Fix{{Title: fmt.Sprintf("Delete the unmatched '%c'", c), Edits: []Edit{{Span: lx.span()}}}},
				})
				break
			}
			top := stack[len(stack)-1]
			want := closerOf(snap.Text[int(top.start)])
			if c != want {
				p := snap.Position(int(top.start), UTF32)
				findings = append(findings, Finding{
					Span: lx.span(), Severity: SeverityError, Code: "unbalanced-bracket",
					Message: fmt.Sprintf("'%c' does not match the '%c' opened at %d:%d", c, snap.Text[int(top.start)], p.Line+1, p.Character+1),
					Related: []Related{{Span: top.span(), Message: "opened here"}},
					Fixes:   []Fix{{Title: fmt.Sprintf("Replace with '%c'", want), Edits: []Edit{{Span: lx.span(), NewText: string(want)}}}},
				})
			}
			stack = stack[:len(stack)-1]
		}
		codeEnd = int(lx.end)
	}
	flush()
	return findings
}

// Analyze reports unbalanced brackets in sheets.
func (Fallback) Analyze(_ context.Context, snap *Snapshot, _ Config) []Finding {
	return scanOf(snap).findings
}

// nameAt is the binding named by the identifier at off, if any.
func nameAt(snap *Snapshot, off int) (name string, word Span, b binding, ok bool) {
	sc := scanOf(snap)
	word = snap.WordAt(off)
	if word.Start == word.End {
		return "", word, binding{}, false
	}
	name = snap.Text[word.Start:word.End]
	i, ok := sc.byName[name]
	if !ok {
		return name, word, binding{}, false
	}
	return name, word, sc.bindings[i], true
}

// Hover shows the binding a name refers to.
func (Fallback) Hover(_ context.Context, snap *Snapshot, _ Config, off int) (Hover, bool) {
	name, word, b, ok := nameAt(snap, off)
	if !ok || inCommentOrString(snap, word.Start) {
		return Hover{}, false
	}
	line := snap.LineOf(b.name.Start) + 1
	return Hover{Span: word, Markdown: fmt.Sprintf("```cute\n%s = %s\n```\n`%s` is bound on line %d.", name, b.detail, name, line)}, true
}

// inCommentOrString reports whether off lies inside a comment or a string.
func inCommentOrString(snap *Snapshot, off int) bool {
	lx := scanOf(snap).lexemes
	i := sort.Search(len(lx), func(i int) bool { return int(lx[i].end) > off })
	return i < len(lx) && int(lx[i].start) <= off && (lx[i].kind == lexComment || lx[i].kind == lexString)
}

func (Fallback) CodeActions(context.Context, *Snapshot, Config, Span) []Action { return nil }

func (Fallback) InlayHints(context.Context, *Snapshot, Config, Span) []InlayHint { return nil }

// SemanticTokens marks comments, strings, numbers and bound names.
func (Fallback) SemanticTokens(_ context.Context, snap *Snapshot) []Token {
	sc := scanOf(snap)
	out := make([]Token, 0, len(sc.lexemes))
	for _, lx := range sc.lexemes {
		switch lx.kind {
		case lexComment:
			out = append(out, Token{Span: lx.span(), Type: TokenComment})
		case lexString:
			out = append(out, Token{Span: lx.span(), Type: TokenString})
		case lexNumber:
			out = append(out, Token{Span: lx.span(), Type: TokenNumber})
		case lexIdent:
			name := snap.Text[int(lx.start):int(lx.end)]
			if i, ok := sc.byName[name]; ok {
				var mod TokenModifier
				if sc.bindings[i].name == lx.span() {
					mod = ModDeclaration
				}
				out = append(out, Token{Span: lx.span(), Type: TokenVariable, Modifiers: mod})
			}
		}
	}
	return out
}

// Symbols lists the bindings.
func (Fallback) Symbols(_ context.Context, snap *Snapshot) []Symbol {
	sc := scanOf(snap)
	out := make([]Symbol, 0, len(sc.bindings))
	for _, b := range sc.bindings {
		out = append(out, Symbol{Name: snap.Text[b.name.Start:b.name.End], Detail: truncate(b.detail, 60), Kind: SymbolVariable, Span: b.line, NameSpan: b.name})
	}
	return out
}

func (Fallback) Definition(_ context.Context, snap *Snapshot, off int) []Span {
	_, word, b, ok := nameAt(snap, off)
	if !ok || inCommentOrString(snap, word.Start) {
		return nil
	}
	return []Span{b.name}
}

// References finds the identifiers spelled like the name at off, outside
// comments and strings.
func (Fallback) References(_ context.Context, snap *Snapshot, off int, includeDecl bool) []Span {
	name, word, b, ok := nameAt(snap, off)
	if !ok || inCommentOrString(snap, word.Start) {
		return nil
	}
	var out []Span
	for _, lx := range scanOf(snap).lexemes {
		if lx.kind == lexIdent && snap.Text[int(lx.start):int(lx.end)] == name && (includeDecl || lx.span() != b.name) {
			out = append(out, lx.span())
		}
	}
	return out
}

func (f Fallback) Rename(ctx context.Context, snap *Snapshot, off int, newName string) ([]Edit, error) {
	if newName == "" || '0' <= newName[0] && newName[0] <= '9' || strings.IndexFunc(newName, func(r rune) bool { return r > 0x7f || !isWordByte(byte(r)) }) >= 0 {
		return nil, fmt.Errorf("%q is not a name", newName)
	}
	name, _, _, ok := nameAt(snap, off)
	if !ok {
		return nil, fmt.Errorf("no binding to rename here")
	}
	if _, taken := scanOf(snap).byName[newName]; taken && newName != name {
		return nil, fmt.Errorf("%q is already bound", newName)
	}
	var edits []Edit
	for _, sp := range f.References(ctx, snap, off, true) {
		edits = append(edits, Edit{Span: sp, NewText: newName})
	}
	return edits, nil
}

// Completion proposes the bound names that start with the word before off.
func (Fallback) Completion(_ context.Context, snap *Snapshot, _ Config, off int) []CompletionItem {
	sc := scanOf(snap)
	word := snap.WordAt(off)
	prefix := snap.Text[word.Start:max(word.Start, min(off, word.End))]
	var out []CompletionItem
	for _, b := range sc.bindings {
		name := snap.Text[b.name.Start:b.name.End]
		if sc.bindings[sc.byName[name]].name != b.name || !strings.HasPrefix(name, prefix) || b.name.Contains(off) {
			continue
		}
		out = append(out, CompletionItem{Label: name, Detail: truncate(b.detail, 60), Kind: CompletionVariable, Replace: Span{word.Start, off}})
	}
	return out
}

func (Fallback) SignatureHelp(context.Context, *Snapshot, Config, int) (SignatureHelp, bool) {
	return SignatureHelp{}, false
}

// Format removes trailing blanks and ends the text with one line break, the
// only layout the fallback can fix without a parser.
func (Fallback) Format(_ context.Context, snap *Snapshot, _ Config) []Edit {
	if snap.Kind != KindSheet {
		return nil
	}
	var edits []Edit
	for i := 0; i < snap.LineCount(); i++ {
		sp := snap.LineSpan(i)
		line := snap.Text[sp.Start:sp.End]
		if trimmed := strings.TrimRight(line, " \t"); len(trimmed) < len(line) {
			edits = append(edits, Edit{Span: Span{sp.Start + len(trimmed), sp.End}})
		}
	}
	if len(snap.Text) > 0 && !strings.HasSuffix(snap.Text, "\n") {
		edits = append(edits, Edit{Span: Span{len(snap.Text), len(snap.Text)}, NewText: "\n"})
	}
	return edits
}
