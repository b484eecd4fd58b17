package analysis

import "github.com/cute-lsp/cute-lsp/grammar"

// Severity orders findings from the most to the least serious.
type Severity int

const (
	SeverityError Severity = iota + 1
	SeverityWarning
	SeverityInfo
	SeverityHint
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	}
	return "hint"
}

// Finding is one thing the analysis has to say about a range of the source.
// It is protocol-free: the LSP glue and the command line render it.
type Finding struct {
	Range    grammar.Range
	Severity Severity
	Code     string // stable, documented in codes.go
	Message  string
	Related  []Related
	Fixes    []Fix
}

// Fix is an edit that resolves a finding (or refactors without changing the
// layout's function); Title is what an editor shows.
type Fix struct {
	Title string
	Edits []Edit
}

// Edit replaces the text of Range with NewText.
type Edit struct {
	Range   grammar.Range
	NewText string
}
