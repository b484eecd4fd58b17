package lsp

import (
	"context"

	"github.com/cute-lsp/cute-lsp/grammar"
	"go.lsp.dev/protocol"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentFormatting] = formatting
}

func formatting(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.DocumentFormattingParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc, _, _ := s.session()
	snap := s.snapshot(string(p.TextDocument.URI))
	if snap == nil {
		return []protocol.TextEdit{}, nil
	}
	return formatEdits(snap, enc), nil
}

// formatEdits print a sheet that parses in the canonical notation, as
// `cute-lsp fmt` does, as one edit of the whole text; a sheet already in
// that form, one with syntax errors and other documents get none.
func formatEdits(snap *Snapshot, enc Encoding) []protocol.TextEdit {
	if snap.Kind != KindSheet {
		return []protocol.TextEdit{}
	}
	f, errs := grammar.ParseFile(filename(snap), []byte(snap.Text))
	if len(errs) > 0 {
		return []protocol.TextEdit{}
	}
	style, _ := grammar.ParseStyle("cute")
	out := grammar.PrintFile(f, style)
	if out == snap.Text {
		return []protocol.TextEdit{}
	}
	return []protocol.TextEdit{{Range: toRange(snap, enc, Span{0, len(snap.Text)}), NewText: out}}
}
