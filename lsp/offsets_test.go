package lsp

// The marker harness (marker_test.go) and a few other tests read the
// features in byte offsets. This file gives them that view: each method
// calls the feature's function as its handler does (positions in utf-8, so
// that they map back to byte offsets exactly), and reads the protocol answer
// back into offsets. What the goldens record is thus what a client is sent.

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Severity of a finding, as LSP numbers it.
type Severity int

const (
	SeverityError Severity = 1 + iota
	SeverityWarning
	SeverityInformation
	SeverityHint
)

// Finding is a diagnostic with the quick fixes offered for it.
type Finding struct {
	Span     Span
	Severity Severity
	Code     string
	Message  string
	Related  []Related
	Fixes    []Fix
}

type Related struct {
	Span    Span
	Message string
}

type Fix struct {
	Title string
	Edits []Edit
}

type Action struct {
	Title string
	Kind  string
	Edits []Edit
}

type Edit struct {
	Span    Span
	NewText string
}

type Hover struct {
	Span     Span
	Markdown string
}

type InlayHint struct {
	Offset    int
	Label     string
	Parameter bool
}

type Token struct {
	Span      Span
	Type      int // its place in tokenTypeNames
	Modifiers uint32
}

type Symbol struct {
	Name     string
	Detail   string
	Kind     int
	Span     Span
	NameSpan Span
	Children []Symbol
}

type CompletionItem struct {
	Label   string
	Detail  string
	Doc     string
	Kind    int
	Insert  string
	Replace Span
}

type SignatureHelp struct {
	Label  string
	Doc    string
	Params []string
	Active int
}

// offsetsEncoding is the encoding the view asks in: utf-8 positions are
// byte offsets within their lines.
const offsetsEncoding = UTF8

func spanIn(snap *Snapshot, r protocol.Range) Span { return fromRange(snap, offsetsEncoding, r) }

func editsIn(snap *Snapshot, w *protocol.WorkspaceEdit) []Edit {
	if w == nil {
		return nil
	}
	return textEditsIn(snap, w.Changes[uri.URI(snap.URI)])
}

func textEditsIn(snap *Snapshot, edits []protocol.TextEdit) []Edit {
	var out []Edit
	for _, e := range edits {
		out = append(out, Edit{Span: spanIn(snap, e.Range), NewText: e.NewText})
	}
	return out
}

func markupText(c any) string {
	switch c := c.(type) {
	case *protocol.MarkupContent:
		return c.Value
	case protocol.String:
		return string(c)
	}
	return ""
}

func stringOf(v any) string {
	if s, ok := v.(protocol.String); ok {
		return string(s)
	}
	return ""
}

// Analyze is the document's diagnostics, with the quick fixes codeAction
// offers for each (the project's configuration aside).
func (a *Analyzed) Analyze(_ context.Context, snap *Snapshot, _ Config) []Finding {
	var out []Finding
	for _, f := range findingsOf(a, snap) {
		d := toDiagnostic(snap, offsetsEncoding, f)
		g := Finding{Span: spanIn(snap, d.Range), Severity: Severity(d.Severity), Code: stringOf(d.Code), Message: stringOf(d.Message)}
		for _, r := range d.RelatedInformation {
			g.Related = append(g.Related, Related{Span: spanIn(snap, r.Location.Range), Message: r.Message})
		}
		for _, fix := range quickFixes(snap, offsetsEncoding, f) {
			g.Fixes = append(g.Fixes, Fix{Title: fix.Title, Edits: editsIn(snap, fix.Edit)})
		}
		out = append(out, g)
	}
	return out
}

func (a *Analyzed) Hover(ctx context.Context, snap *Snapshot, cfg Config, off int) (Hover, bool) {
	h := hoverAt(ctx, a, snap, offsetsEncoding, cfg, off)
	if h == nil {
		return Hover{}, false
	}
	return Hover{Span: spanIn(snap, *h.Range), Markdown: markupText(h.Contents)}, true
}

func (a *Analyzed) CodeActions(ctx context.Context, snap *Snapshot, _ Config, span Span) []Action {
	var out []Action
	for _, r := range refactors(ctx, a, snap, offsetsEncoding, span.Start) {
		out = append(out, Action{Title: r.Title, Kind: string(*r.Kind), Edits: editsIn(snap, r.Edit)})
	}
	return out
}

func (a *Analyzed) InlayHints(ctx context.Context, snap *Snapshot, _ Config, span Span) []InlayHint {
	var out []InlayHint
	for _, h := range inlayHints(ctx, a, snap, offsetsEncoding, span) {
		off := snap.Offset(fromPosition(h.Position), offsetsEncoding)
		out = append(out, InlayHint{Offset: off, Label: stringOf(h.Label), Parameter: h.Kind == protocol.InlayHintKindParameter})
	}
	return out
}

// SemanticTokens decodes the whole document's semantic tokens.
func (a *Analyzed) SemanticTokens(ctx context.Context, snap *Snapshot) []Token {
	data := semanticTokens(ctx, a, snap, offsetsEncoding, Span{0, len(snap.Text)}).Data
	var out []Token
	line, char := 0, 0
	for i := 0; i+5 <= len(data); i += 5 {
		if data[i] > 0 {
			line, char = line+int(data[i]), 0
		}
		char += int(data[i+1])
		start := snap.Offset(Position{line, char}, offsetsEncoding)
		end := snap.Offset(Position{line, char + int(data[i+2])}, offsetsEncoding)
		out = append(out, Token{Span: Span{start, end}, Type: int(data[i+3]), Modifiers: data[i+4]})
	}
	return out
}

func (a *Analyzed) Symbols(ctx context.Context, snap *Snapshot) []Symbol {
	var walk func(syms []protocol.DocumentSymbol) []Symbol
	walk = func(syms []protocol.DocumentSymbol) []Symbol {
		var out []Symbol
		for _, s := range syms {
			sym := Symbol{Name: s.Name, Kind: int(s.Kind), Span: spanIn(snap, s.Range), NameSpan: spanIn(snap, s.SelectionRange), Children: walk(s.Children)}
			if s.Detail != nil {
				sym.Detail = *s.Detail
			}
			out = append(out, sym)
		}
		return out
	}
	return walk(documentSymbols(ctx, a, snap, offsetsEncoding))
}

func (a *Analyzed) locations(snap *Snapshot, locs protocol.LocationSlice) []Span {
	var out []Span
	for _, l := range locs {
		out = append(out, spanIn(snap, l.Range))
	}
	return out
}

func (a *Analyzed) Definition(ctx context.Context, snap *Snapshot, off int) []Span {
	return a.locations(snap, definitions(ctx, a, snap, offsetsEncoding, off))
}

func (a *Analyzed) References(ctx context.Context, snap *Snapshot, off int, includeDecl bool) []Span {
	return a.locations(snap, referencesTo(ctx, a, snap, offsetsEncoding, off, includeDecl))
}

func (a *Analyzed) Rename(ctx context.Context, snap *Snapshot, off int, newName string) ([]Edit, error) {
	w, err := renameEdit(ctx, a, snap, offsetsEncoding, off, newName)
	if err != nil {
		return nil, err
	}
	return editsIn(snap, w), nil
}

func (a *Analyzed) Completion(ctx context.Context, snap *Snapshot, _ Config, off int) []CompletionItem {
	var out []CompletionItem
	for _, it := range completions(ctx, a, snap, offsetsEncoding, off).Items {
		c := CompletionItem{Label: it.Label, Kind: int(it.Kind)}
		c.Detail, _ = it.Detail.Get()
		if it.Documentation != nil {
			c.Doc = markupText(it.Documentation)
		}
		if e, ok := it.TextEdit.(*protocol.TextEdit); ok {
			c.Replace = spanIn(snap, e.Range)
			if e.NewText != it.Label {
				c.Insert = e.NewText
			}
		}
		out = append(out, c)
	}
	return out
}

func (a *Analyzed) SignatureHelp(_ context.Context, snap *Snapshot, _ Config, off int) (SignatureHelp, bool) {
	sh := signatureAt(snap, off)
	if sh == nil {
		return SignatureHelp{}, false
	}
	sig := sh.Signatures[0]
	active, _ := sh.ActiveParameter.Get()
	out := SignatureHelp{Label: sig.Label, Active: int(active)}
	if sig.Documentation != nil {
		out.Doc = markupText(sig.Documentation)
	}
	for _, p := range sig.Parameters {
		out.Params = append(out.Params, stringOf(p.Label))
	}
	return out, true
}

func (a *Analyzed) Format(_ context.Context, snap *Snapshot, _ Config) []Edit {
	return textEditsIn(snap, formatEdits(snap, offsetsEncoding))
}
