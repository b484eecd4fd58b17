package lsp

import (
	"context"
	"fmt"
	"path"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	render "github.com/cute-lsp/cute-lsp/hover"
)

// Analyzed is the server's feature set over package analysis: sheets are
// parsed and evaluated statement by statement, host files (C++/CUDA,
// Python, MLIR) are searched for descriptors, and every answer is read off
// that analysis. Each snapshot is analyzed once (Snapshot.Memo); a per-document
// statement cache lets an edit re-evaluate only the statements it touched.
type Analyzed struct {
	mu     sync.Mutex
	caches map[string]*analysis.Cache
	// report is told of each panic recovered here (the server's
	// reportPanic; nil until a server takes this feature set).
	report func(where string, r any, stack []byte)
	// beforeIncremental and beforeSettle, when set, run before each
	// incremental analysis and each settling: tests inject panics there.
	beforeIncremental func(snap *Snapshot)
	beforeSettle      func(snap *Snapshot)
	// beforeRender, when set, runs as each rendering gets its turn.
	beforeRender func()
	// turns holds a token per rendering under way (see renderTurn).
	turns chan struct{}
}

var _ Features = (*Analyzed)(nil)

// NewAnalyzed makes the analysis-backed feature set.
func NewAnalyzed() *Analyzed {
	return &Analyzed{caches: map[string]*analysis.Cache{}, turns: make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))}
}

// renderTurn waits for a rendering's turn: as many run at once as there
// are processors, so a burst of hovers over large layouts (an editor sends
// one per mouse move, and cancels the ones before) renders a few at a time,
// and one cancelled while it waits never renders. ok is false when ctx
// ended first; otherwise release must be called once rendered.
func (a *Analyzed) renderTurn(ctx context.Context) (release func(), ok bool) {
	if a.turns == nil {
		return func() {}, ctx.Err() == nil
	}
	select {
	case a.turns <- struct{}{}:
	case <-ctx.Done():
		return nil, false
	}
	if ctx.Err() != nil {
		<-a.turns
		return nil, false
	}
	if a.beforeRender != nil {
		a.beforeRender()
	}
	return func() { <-a.turns }, true
}

// Closed drops what was kept for a closed document.
func (a *Analyzed) Closed(uri string) {
	a.mu.Lock()
	delete(a.caches, uri)
	a.mu.Unlock()
}

func (a *Analyzed) cache(uri string) *analysis.Cache {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, ok := a.caches[uri]
	if !ok {
		c = analysis.NewCache()
		// The findings of an edit are out before the trees of the
		// statements it moved are copied (Published settles them).
		c.DeferMoves(true)
		a.caches[uri] = c
	}
	return c
}

// filename is the name analysis sees: the URI's base name, with the
// extension of the snapshot's kind when the name has none it knows (an
// untitled buffer, a language chosen by the editor).
func filename(snap *Snapshot) string {
	name := path.Base(snap.URI)
	if KindOf(name, "") == snap.Kind {
		return name
	}
	switch snap.Kind {
	case KindSheet:
		return name + ".cute"
	case KindMLIR:
		return name + ".mlir"
	case KindCpp:
		return name + ".cu"
	case KindPython:
		return name + ".py"
	}
	return name
}

type sheetKey struct{}
type hostKey struct{}

// sheetSlot is the memoized analysis of one sheet snapshot. Settling it
// may replace it: a settling that panicked leaves trees half moved, and
// those are thrown away for an analysis from scratch.
type sheetSlot struct {
	sheet   atomic.Pointer[analysis.Sheet]
	mu      sync.Mutex // held while settling
	settled bool
}

// sheet is the analysis of a sheet snapshot, its trees settled; nil for
// other kinds.
func (a *Analyzed) sheet(ctx context.Context, snap *Snapshot) *analysis.Sheet {
	slot := a.slot(ctx, snap)
	if slot == nil {
		return nil
	}
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if !slot.settled {
		if r, stack := catch(func() {
			if a.beforeSettle != nil {
				a.beforeSettle(snap)
			}
			slot.sheet.Load().Settle()
		}); r != nil {
			a.recovered("settling the analysis of "+snap.URI, r, stack)
			a.dropCache(snap.URI)
			slot.sheet.Store(analysis.AnalyzeSheetCached(filename(snap), []byte(snap.Text), nil))
		}
		slot.settled = true
	}
	return slot.sheet.Load()
}

// findingsOnly is the analysis of a sheet snapshot, nil for other kinds;
// its trees may not be settled yet (read its Findings alone).
func (a *Analyzed) findingsOnly(ctx context.Context, snap *Snapshot) *analysis.Sheet {
	slot := a.slot(ctx, snap)
	if slot == nil {
		return nil
	}
	// Findings do not wait for a settling under way.
	return slot.sheet.Load()
}

// slot is nil for other kinds, and when ctx ends before the analysis
// does (the analysis goes on for the next request).
func (a *Analyzed) slot(ctx context.Context, snap *Snapshot) *sheetSlot {
	if snap.Kind != KindSheet {
		return nil
	}
	v, err := snap.MemoContext(ctx, sheetKey{}, func() any {
		slot := &sheetSlot{}
		slot.sheet.Store(a.analyzeSheet(snap))
		return slot
	})
	if err != nil {
		return nil
	}
	return v.(*sheetSlot)
}

// analyzeSheet analyzes a sheet incrementally, from what the document's
// cache kept of its previous version. A panic there (a bug in the
// incremental parser or evaluator) may leave the cache half updated: it is
// reported, the cache dropped, and the sheet analyzed again from scratch,
// so the edit that hit the bug still gets its diagnostics and the next
// ones start from a sound cache. A second panic is the analysis's own and
// is left to the caller (Snapshot.Memo keeps it for the snapshot).
func (a *Analyzed) analyzeSheet(snap *Snapshot) *analysis.Sheet {
	name, src := filename(snap), []byte(snap.Text)
	var sheet *analysis.Sheet
	r, stack := catch(func() {
		if a.beforeIncremental != nil {
			a.beforeIncremental(snap)
		}
		sheet = analysis.AnalyzeSheetCached(name, src, a.cache(snap.URI))
	})
	if r == nil {
		return sheet
	}
	a.recovered("the incremental analysis of "+snap.URI, r, stack)
	a.dropCache(snap.URI)
	return analysis.AnalyzeSheetCached(name, src, a.cache(snap.URI))
}

// catch runs fn and returns what it panicked with, and where.
func catch(fn func()) (r any, stack []byte) {
	defer func() {
		if r = recover(); r != nil {
			stack = debug.Stack()
		}
	}()
	fn()
	return nil, nil
}

func (a *Analyzed) reportPanicsTo(report func(where string, r any, stack []byte)) {
	a.mu.Lock()
	a.report = report
	a.mu.Unlock()
}

func (a *Analyzed) recovered(where string, r any, stack []byte) {
	a.mu.Lock()
	report := a.report
	a.mu.Unlock()
	if report != nil {
		report(where, r, stack)
	}
}

// dropCache forgets what was kept of a document's earlier versions.
func (a *Analyzed) dropCache(uri string) {
	a.mu.Lock()
	delete(a.caches, uri)
	a.mu.Unlock()
}

// Published settles the trees of a sheet whose diagnostics are out.
func (a *Analyzed) Published(snap *Snapshot) { a.sheet(context.Background(), snap) }

// host is the analysis of a host-file snapshot, nil for sheets and unknown kinds.
func (a *Analyzed) host(ctx context.Context, snap *Snapshot) *analysis.Host {
	switch snap.Kind {
	case KindMLIR, KindCpp, KindPython:
	default:
		return nil
	}
	v, err := snap.MemoContext(ctx, hostKey{}, func() any {
		return analysis.AnalyzeHost(filename(snap), []byte(snap.Text))
	})
	if err != nil {
		return nil
	}
	return v.(*analysis.Host)
}

func spanOf(r grammar.Range) Span { return Span{r.Pos.Offset, r.End.Offset} }

func editsOf(in []analysis.Edit) []Edit {
	out := make([]Edit, 0, len(in))
	for _, e := range in {
		out = append(out, Edit{Span: spanOf(e.Range), NewText: e.NewText})
	}
	return out
}

func findingsOf(in []analysis.Finding) []Finding {
	out := make([]Finding, 0, len(in))
	for _, f := range in {
		g := Finding{Span: spanOf(f.Range), Severity: Severity(f.Severity), Code: f.Code, Message: f.Message}
		for _, r := range f.Related {
			g.Related = append(g.Related, Related{Span: spanOf(r.Range), Message: r.Message})
		}
		for _, fix := range f.Fixes {
			g.Fixes = append(g.Fixes, Fix{Title: fix.Title, Edits: editsOf(fix.Edits)})
		}
		out = append(out, g)
	}
	return out
}

func (a *Analyzed) Analyze(ctx context.Context, snap *Snapshot, _ Config) []Finding {
	if s := a.findingsOnly(ctx, snap); s != nil {
		return findingsOf(s.Findings)
	}
	if h := a.host(ctx, snap); h != nil {
		return findingsOf(h.Findings)
	}
	return nil
}

func hoverOptions(cfg Config) render.Options {
	opts := render.DefaultOptions
	if cfg.TableCap > 0 {
		opts.Limits.MaxRows, opts.Limits.MaxCols = cfg.TableCap, cfg.TableCap
	}
	if e, ok := render.ElementNamed(cfg.DefaultElementType); ok {
		opts.Element = e
	}
	if cfg.Arch != "" {
		opts.Arch = cfg.Arch
	}
	return opts
}

// Hover renders the value at off: in a sheet, what the innermost name,
// call or literal there evaluates to; in a host file, the descriptor there.
//
// A cancelled hover stops before it renders (tables of large layouts are
// the costly part), and renderings take turns (see renderTurn).
func (a *Analyzed) Hover(ctx context.Context, snap *Snapshot, cfg Config, off int) (Hover, bool) {
	if s := a.sheet(ctx, snap); s != nil {
		release, ok := a.renderTurn(ctx)
		if !ok {
			return Hover{}, false
		}
		defer release()
		if h, ok := assertHover(s, off); ok {
			return h, true
		}
		t, ok := s.TargetAt(off)
		if !ok {
			return Hover{}, false
		}
		return Hover{Span: spanOf(t.Node.Span()), Markdown: render.Target(t, hoverOptions(cfg))}, true
	}
	if h := a.host(ctx, snap); h != nil {
		release, ok := a.renderTurn(ctx)
		if !ok {
			return Hover{}, false
		}
		defer release()
		for _, d := range h.Descriptors {
			sp := spanOf(d.Range)
			if !sp.Contains(off) {
				continue
			}
			if d.Err != nil {
				return Hover{Span: sp, Markdown: "**error:** " + d.Err.Error()}, true
			}
			if d.Value == nil {
				return Hover{}, false
			}
			return Hover{Span: sp, Markdown: render.Descriptor(d.Node, d.Value, hoverOptions(cfg))}, true
		}
		if cv, ok := h.Code().At(off); ok {
			return Hover{Span: Span{cv.Start, cv.End}, Markdown: render.Code(cv, hoverOptions(cfg))}, true
		}
	}
	return Hover{}, false
}

// assertHover tells, on an assert's keyword or relation, whether it holds
// and what its two sides are.
func assertHover(s *analysis.Sheet, off int) (Hover, bool) {
	i := s.StatementAt(off)
	if i < 0 {
		return Hover{}, false
	}
	as, ok := s.File.Statements[i].(*grammar.Assert)
	if !ok {
		return Hover{}, false
	}
	keyword := Span{as.Pos.Offset, as.Pos.Offset + len("assert")}
	relation := spanOf(as.OpRange)
	if !keyword.Contains(off) && !relation.Contains(off) {
		return Hover{}, false
	}
	env := s.EnvAt(i)
	side := func(n grammar.Node) string {
		v, err := analysis.Eval(n, env)
		if err != nil {
			return "(error)"
		}
		return "`" + analysis.Show(v, analysis.ShowHoverBytes) + "`"
	}
	verdict := "holds"
	if err := s.Results[i].Err; err != nil {
		verdict = "fails: " + strings.TrimPrefix(analysis.CapMessage(err.Error()), "assert failed: ")
	}
	meaning := "the same function (equal size and offsets)"
	if as.Op == grammar.AssertIs {
		meaning = "the same representation (shape and stride trees)"
	}
	md := fmt.Sprintf("**assert** %s\n\nleft: %s\n\nright: %s\n\n`%s` asks for %s\n", verdict, side(as.Left), side(as.Right), as.Op, meaning)
	return Hover{Span: spanOf(as.Range), Markdown: md}, true
}

// CodeActions are the sheet's rewrites of the value at the span's start
// (in C++/Python code, the code's: analysis.Code.Refactors).
func (a *Analyzed) CodeActions(ctx context.Context, snap *Snapshot, _ Config, span Span) []Action {
	var refactors []analysis.Refactor
	if s := a.sheet(ctx, snap); s != nil {
		refactors = s.Refactors(span.Start)
	} else if h := a.host(ctx, snap); h != nil {
		refactors = h.Code().Refactors(span.Start)
	}
	var out []Action
	for _, r := range refactors {
		out = append(out, Action{Title: r.Title, Kind: r.Kind, Edits: editsOf(r.Edits)})
	}
	return out
}

func (a *Analyzed) InlayHints(ctx context.Context, snap *Snapshot, _ Config, span Span) []InlayHint {
	var hints []analysis.InlayHint
	if s := a.sheet(ctx, snap); s != nil {
		hints = s.InlayHints(span.Start, span.End)
	} else if h := a.host(ctx, snap); h != nil {
		hints = h.Code().InlayHints(span.Start, span.End)
	}
	var out []InlayHint
	for _, h := range hints {
		out = append(out, InlayHint{Offset: h.At.Offset, Label: strings.TrimSpace(h.Label)})
	}
	return out
}

// tokenTypeOf maps analysis's token types onto the server's legend.
var tokenTypeOf = map[analysis.TokenType]TokenType{
	analysis.TokenKeyword:    TokenKeyword,
	analysis.TokenVariable:   TokenVariable,
	analysis.TokenFunction:   TokenFunction,
	analysis.TokenNumber:     TokenNumber,
	analysis.TokenComment:    TokenComment,
	analysis.TokenSwizzle:    TokenTypeName,
	analysis.TokenEnumMember: TokenEnumMember,
}

func (a *Analyzed) SemanticTokens(ctx context.Context, snap *Snapshot) []Token {
	s := a.sheet(ctx, snap)
	if s == nil {
		return nil
	}
	toks := s.Tokens()
	out := make([]Token, 0, len(toks))
	for _, t := range toks {
		tt, ok := tokenTypeOf[t.Type]
		if !ok {
			continue
		}
		var mod TokenModifier
		if t.Declaration {
			mod = ModDeclaration
		}
		out = append(out, Token{Span: spanOf(t.Range), Type: tt, Modifiers: mod})
	}
	return out
}

func (a *Analyzed) Symbols(ctx context.Context, snap *Snapshot) []Symbol {
	s := a.sheet(ctx, snap)
	if s == nil {
		return nil
	}
	outline := s.Outline()
	out := make([]Symbol, 0, len(outline))
	for _, o := range outline {
		detail := o.Detail
		if o.Kind != "" && o.Kind != "error" {
			detail = o.Kind + " " + detail
		}
		out = append(out, Symbol{Name: o.Name, Detail: truncate(detail, 80), Kind: SymbolVariable, Span: spanOf(o.Range), NameSpan: spanOf(o.Select)})
	}
	return out
}

func (a *Analyzed) Definition(ctx context.Context, snap *Snapshot, off int) []Span {
	s := a.sheet(ctx, snap)
	if s == nil {
		return codeDefinition(a.host(ctx, snap), off)
	}
	sym := s.SymbolAt(off)
	if sym == nil || sym.Def == nil {
		return nil
	}
	return []Span{spanOf(sym.Def.Name.Range)}
}

// codeDefinition is the definition of a name in the code of a C++/CUDA or
// Python file (h nil for other kinds).
func codeDefinition(h *analysis.Host, off int) []Span {
	if h == nil {
		return nil
	}
	r, ok := h.Code().Definition(off)
	if !ok {
		return nil
	}
	return []Span{{Start: r.Start, End: r.End}}
}

func (a *Analyzed) References(ctx context.Context, snap *Snapshot, off int, includeDecl bool) []Span {
	s := a.sheet(ctx, snap)
	if s == nil {
		return nil
	}
	sym := s.SymbolAt(off)
	if sym == nil || sym.Def == nil {
		return nil
	}
	var out []Span
	for _, r := range s.References(sym, includeDecl) {
		out = append(out, spanOf(r))
	}
	return out
}

func (a *Analyzed) Rename(ctx context.Context, snap *Snapshot, off int, newName string) ([]Edit, error) {
	s := a.sheet(ctx, snap)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errNoSheet
	}
	edits, err := s.Rename(off, newName)
	if err != nil {
		return nil, err
	}
	return editsOf(edits), nil
}

var completionKindOf = map[analysis.CompletionKind]CompletionKind{
	analysis.CompleteName:      CompletionVariable,
	analysis.CompleteOperation: CompletionFunction,
	analysis.CompleteSwizzle:   CompletionConstant,
	analysis.CompleteTag:       CompletionEnumMember,
}

func (a *Analyzed) Completion(ctx context.Context, snap *Snapshot, _ Config, off int) []CompletionItem {
	s := a.sheet(ctx, snap)
	if s == nil {
		return nil
	}
	// The proposal replaces the whole word the cursor is in, so that one
	// accepted in the middle of a word does not leave its tail behind.
	replace := snap.WordAt(off)
	var out []CompletionItem
	for _, c := range s.Complete(off) {
		out = append(out, CompletionItem{Label: c.Label, Detail: c.Detail, Doc: c.Doc, Kind: completionKindOf[c.Kind], Insert: c.Insert, Replace: replace})
	}
	return out
}

func (a *Analyzed) SignatureHelp(ctx context.Context, snap *Snapshot, _ Config, off int) (SignatureHelp, bool) {
	if snap.Kind != KindSheet {
		return SignatureHelp{}, false
	}
	sig, ok := analysis.SignatureAt([]byte(snap.Text), off)
	if !ok {
		return SignatureHelp{}, false
	}
	return SignatureHelp{Label: sig.Op.Signature, Doc: sig.Op.Doc, Params: sig.Params, Active: sig.ActiveParam}, true
}

// Format prints a sheet that parses in the canonical notation, as
// `cute-lsp fmt` does; a sheet with syntax errors is left alone.
func (a *Analyzed) Format(ctx context.Context, snap *Snapshot, _ Config) []Edit {
	if snap.Kind != KindSheet {
		return nil
	}
	f, errs := grammar.ParseFile(filename(snap), []byte(snap.Text))
	if len(errs) > 0 {
		return nil
	}
	style, _ := grammar.ParseStyle("cute")
	out := grammar.PrintFile(f, style)
	if out == snap.Text {
		return nil
	}
	return []Edit{{Span: Span{0, len(snap.Text)}, NewText: out}}
}

type analyzedError string

func (e analyzedError) Error() string { return string(e) }

const errNoSheet = analyzedError("names can be renamed in .cute sheets only")
