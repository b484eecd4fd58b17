package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentCodeAction] = codeAction
}

// codeAction offers the fixes of every finding that touches the requested
// range (taken from the server's own analysis of the snapshot, not from the
// diagnostics the client echoes back, which may be stale), then the
// refactorings Features proposes for the range.
func codeAction(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.CodeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc, cfg, _ := s.session()
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
		kind := protocol.CodeActionKindQuickFix
		findings, err := s.findingsContext(ctx, snap)
		if err != nil {
			return nil, err
		}
		for _, f := range findings {
			if !f.Span.Overlaps(lines) {
				continue
			}
			diag := toDiagnostic(snap, enc, f)
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
		}
	}
	for _, a := range s.features.CodeActions(ctx, snap, cfg, span) {
		if !wants(only, a.Kind) {
			continue
		}
		kind := protocol.CodeActionKind(a.Kind)
		out = append(out, &protocol.CodeAction{Title: a.Title, Kind: &kind, Edit: workspaceEdit(snap, enc, a.Edits)})
	}
	return out, nil
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

func toTextEdits(snap *Snapshot, enc Encoding, edits []Edit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, protocol.TextEdit{Range: toRange(snap, enc, e.Span), NewText: e.NewText})
	}
	return out
}

func workspaceEdit(snap *Snapshot, enc Encoding, edits []Edit) *protocol.WorkspaceEdit {
	return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{uri.URI(snap.URI): toTextEdits(snap, enc, edits)}}
}
