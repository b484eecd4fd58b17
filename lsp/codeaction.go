package lsp

import (
	"context"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentCodeAction] = codeAction
}

// codeAction offers the fixes of every finding that touches the requested
// lines (taken from the server's own analysis of the snapshot, not from the
// diagnostics the client echoes back, which may be stale), then the sheet's
// refactorings of the value at the range's start.
func codeAction(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.CodeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc, _, _ := s.session()
	out := []protocol.CommandOrCodeAction{}
	snap := s.snapshot(string(p.TextDocument.URI))
	if snap == nil {
		return out, nil
	}
	span := fromRange(snap, enc, p.Range)
	// Editors ask with the cursor's position; a fix anywhere on its line is
	// what the user is after.
	lines := Span{snap.LineSpan(snap.LineOf(span.Start)).Start, snap.LineSpan(snap.LineOf(span.End)).End}
	only := p.Context.Only
	if wants(only, string(protocol.CodeActionKindQuickFix)) {
		findings, err := s.findingsContext(ctx, snap)
		if err != nil {
			return nil, err
		}
		for _, f := range findings {
			if !spanOf(f.Range).Overlaps(lines) {
				continue
			}
			for _, a := range quickFixes(snap, enc, f) {
				out = append(out, a)
			}
		}
	}
	actions := refactors
	if cell := s.notebooks.view(s.store, snap); cell != nil {
		actions = cell.refactors // notebook.go: the joined program's
	}
	for _, a := range actions(ctx, s.features, snap, enc, span.Start) {
		if wants(only, string(*a.Kind)) {
			out = append(out, a)
		}
	}
	return out, nil
}

// quickFixes are a finding's fixes as quick-fix actions naming its
// diagnostic; the first, the analysis's best, is the preferred one.
func quickFixes(snap *Snapshot, enc Encoding, f analysis.Finding) []*protocol.CodeAction {
	if len(f.Fixes) == 0 {
		return nil
	}
	kind := protocol.CodeActionKindQuickFix
	diag := toDiagnostic(snap, enc, f)
	out := make([]*protocol.CodeAction, 0, len(f.Fixes))
	for i, fix := range f.Fixes {
		preferred := i == 0
		out = append(out, &protocol.CodeAction{
			Title:       fix.Title,
			Kind:        &kind,
			Diagnostics: []protocol.Diagnostic{diag},
			IsPreferred: &preferred,
			Edit:        workspaceEdit(snap, enc, fix.Edits),
		})
	}
	return out
}

// refactors are a sheet's rewrites of the value at off, or in C++/Python
// code the code's (analysis.Code.Refactors); none in other documents.
func refactors(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding, off int) []*protocol.CodeAction {
	var rs []analysis.Refactor
	if s := a.sheet(ctx, snap); s != nil {
		rs = s.Refactors(off)
	} else if h := a.host(ctx, snap); h != nil {
		rs = h.Code().Refactors(off)
	}
	return refactorActions(snap, enc, rs)
}

// refactorActions are refactors as code actions editing snap.
func refactorActions(snap *Snapshot, enc Encoding, rs []analysis.Refactor) []*protocol.CodeAction {
	var out []*protocol.CodeAction
	for _, r := range rs {
		kind := protocol.CodeActionKind(r.Kind)
		out = append(out, &protocol.CodeAction{Title: r.Title, Kind: &kind, Edit: workspaceEdit(snap, enc, r.Edits)})
	}
	return out
}

// wants reports whether an action of kind passes the client's "only"
// filter: a listed kind admits itself and its sub-kinds.
func wants(only []protocol.CodeActionKind, kind string) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == string(o) || strings.HasPrefix(kind, string(o)+".") {
			return true
		}
	}
	return false
}

func toTextEdits(snap *Snapshot, enc Encoding, edits []analysis.Edit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, protocol.TextEdit{Range: toRange(snap, enc, spanOf(e.Range)), NewText: e.NewText})
	}
	return out
}

func workspaceEdit(snap *Snapshot, enc Encoding, edits []analysis.Edit) *protocol.WorkspaceEdit {
	return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{uri.URI(snap.URI): toTextEdits(snap, enc, edits)}}
}
