package lsp

import (
	"context"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"go.lsp.dev/protocol"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentInlayHint] = inlayHint
}

func inlayHint(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.InlayHintParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc, _, _ := s.session()
	snap := s.snapshot(string(p.TextDocument.URI))
	if snap == nil {
		return []protocol.InlayHint{}, nil
	}
	if cell := s.notebooks.view(s.store, snap); cell != nil {
		return cell.inlayHints(ctx, s.features, enc, fromRange(snap, enc, p.Range)), nil
	}
	return inlayHints(ctx, s.features, snap, enc, fromRange(snap, enc, p.Range)), nil
}

// inlayHints are the values of a sheet's bindings and expression
// statements, and of the CuTe code values of a host file, inside span: type
// hints after what they annotate (": (4,8):(1,4)").
func inlayHints(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding, span Span) []protocol.InlayHint {
	var hints []analysis.InlayHint
	if s := a.sheet(ctx, snap); s != nil {
		hints = s.InlayHints(span.Start, span.End)
	} else {
		hints = a.code(ctx, snap).InlayHints(span.Start, span.End)
	}
	out := make([]protocol.InlayHint, 0, len(hints))
	for _, h := range hints {
		pad := true
		out = append(out, protocol.InlayHint{
			Position:    toPosition(snap.Position(int(h.At.Offset), enc)),
			Label:       protocol.String(strings.TrimSpace(h.Label)),
			Kind:        protocol.InlayHintKindType,
			PaddingLeft: &pad,
		})
	}
	return out
}
