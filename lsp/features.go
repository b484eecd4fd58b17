package lsp

import "context"

// Features is everything the server knows about the language. Each method is
// a pure function of one snapshot (plus the configuration and, where the
// request has one, a byte offset or span): it reads nothing else and keeps no
// state, so the server may call it from any goroutine, cache its answers per
// snapshot, and drop them when a newer snapshot arrives. Offsets and spans are
// byte offsets into Snapshot.Text; the server converts them to and from the
// client's position encoding.
//
// ctx is cancelled when the client cancels the request or the snapshot is
// superseded; a long computation should check it and return early (what it
// returns then is discarded).
type Features interface {
	// Analyze runs every check and returns the findings, in any order. The
	// server publishes them as diagnostics and offers their fixes as quick
	// fixes.
	Analyze(ctx context.Context, snap *Snapshot, cfg Config) []Finding
	// Hover describes what is at off; ok is false when nothing is.
	Hover(ctx context.Context, snap *Snapshot, cfg Config, off int) (h Hover, ok bool)
	// CodeActions returns the refactorings available on span, beyond the
	// quick fixes that come with findings (the server adds those itself).
	CodeActions(ctx context.Context, snap *Snapshot, cfg Config, span Span) []Action
	// InlayHints returns the hints inside span.
	InlayHints(ctx context.Context, snap *Snapshot, cfg Config, span Span) []InlayHint
	// SemanticTokens classifies the document's tokens, ordered by offset and
	// not overlapping.
	SemanticTokens(ctx context.Context, snap *Snapshot) []Token
	// Symbols outlines the document.
	Symbols(ctx context.Context, snap *Snapshot) []Symbol
	// Definition returns where the name at off is defined (in this document).
	Definition(ctx context.Context, snap *Snapshot, off int) []Span
	// References returns every use of the name at off, its definition
	// included when includeDecl is set.
	References(ctx context.Context, snap *Snapshot, off int, includeDecl bool) []Span
	// Rename returns the edits that rename the name at off to newName, or an
	// error saying why it cannot be renamed.
	Rename(ctx context.Context, snap *Snapshot, off int, newName string) ([]Edit, error)
	// Completion proposes what can be typed at off.
	Completion(ctx context.Context, snap *Snapshot, cfg Config, off int) []CompletionItem
	// SignatureHelp describes the call whose arguments surround off.
	SignatureHelp(ctx context.Context, snap *Snapshot, cfg Config, off int) (SignatureHelp, bool)
	// Format returns the edits that bring the document to its canonical form
	// (none when it is already there, or when it cannot be parsed).
	Format(ctx context.Context, snap *Snapshot, cfg Config) []Edit
}

// DocumentCloser is implemented by a Features that keeps something per
// document (a cache across versions); the server tells it when the editor
// closes one.
type DocumentCloser interface {
	Closed(uri string)
}

// Severity of a finding, as LSP numbers it.
type Severity int

const (
	SeverityError Severity = 1 + iota
	SeverityWarning
	SeverityInformation
	SeverityHint
)

// Finding is one problem found in a snapshot.
type Finding struct {
	Span     Span
	Severity Severity
	// Code names the check (e.g. "unbalanced-bracket"); stable across versions.
	Code    string
	Message string
	// Related points at other places that explain the finding.
	Related []Related
	// Fixes are the edits that resolve the finding, best first.
	Fixes []Fix
}

// Related is a secondary location of a finding.
type Related struct {
	Span    Span
	Message string
}

// Fix is a quick fix: a titled set of edits to the same document.
type Fix struct {
	Title string
	Edits []Edit
}

// Action is a code action that is not tied to a finding.
type Action struct {
	Title string
	// Kind is an LSP code action kind: "refactor.rewrite", "source", ...
	Kind  string
	Edits []Edit
}

// Edit replaces Span with NewText.
type Edit struct {
	Span    Span
	NewText string
}

// Hover is markdown about a span.
type Hover struct {
	Span     Span
	Markdown string
}

// InlayHint is a label shown at an offset.
type InlayHint struct {
	Offset int
	Label  string
	// Type hints follow what they annotate (": (4,8):(1,4)"); parameter hints
	// precede it.
	Parameter bool
}

// TokenType is a semantic token type; the server's legend lists them in this
// order.
type TokenType int

const (
	TokenVariable TokenType = iota
	TokenFunction
	TokenKeyword
	TokenNumber
	TokenString
	TokenComment
	TokenOperator
	TokenTypeName
	TokenParameter
	TokenEnumMember
)

var tokenTypeNames = []string{"variable", "function", "keyword", "number", "string", "comment", "operator", "type", "parameter", "enumMember"}

// TokenModifier is a bit set of semantic token modifiers, in legend order.
type TokenModifier uint32

const (
	ModDeclaration TokenModifier = 1 << iota
	ModReadonly
	ModDefaultLibrary
)

var tokenModifierNames = []string{"declaration", "readonly", "defaultLibrary"}

// Token is one classified token. A token must not span lines.
type Token struct {
	Span      Span
	Type      TokenType
	Modifiers TokenModifier
}

// SymbolKind is an LSP symbol kind number (13 Variable, 12 Function, ...).
type SymbolKind int

const (
	SymbolFunction SymbolKind = 12
	SymbolVariable SymbolKind = 13
	SymbolConstant SymbolKind = 14
)

// Symbol is one entry of a document outline.
type Symbol struct {
	Name     string
	Detail   string
	Kind     SymbolKind
	Span     Span // the whole definition
	NameSpan Span // the name alone
	Children []Symbol
}

// CompletionKind is an LSP completion item kind number.
type CompletionKind int

const (
	CompletionFunction   CompletionKind = 3
	CompletionVariable   CompletionKind = 6
	CompletionKeyword    CompletionKind = 14
	CompletionSnippet    CompletionKind = 15
	CompletionEnumMember CompletionKind = 20
	CompletionConstant   CompletionKind = 21
)

// CompletionItem is one proposal. Replace is the span the insertion replaces
// (usually the partial word before the cursor).
type CompletionItem struct {
	Label   string
	Detail  string
	Doc     string
	Kind    CompletionKind
	Insert  string
	Replace Span
}

// SignatureHelp describes one call signature and which parameter the cursor is in.
type SignatureHelp struct {
	Label  string
	Doc    string
	Params []string
	Active int
}
