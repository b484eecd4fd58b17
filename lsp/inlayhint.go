package lsp

import (
	"context"

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
	enc, cfg, _ := s.session()
	out := []protocol.InlayHint{}
	snap := s.snapshot(string(p.TextDocument.URI))
	if snap == nil {
		return out, nil
	}
	for _, h := range s.features.InlayHints(ctx, snap, cfg, fromRange(snap, enc, p.Range)) {
		ih := protocol.InlayHint{Position: toPosition(snap.Position(h.Offset, enc)), Label: protocol.String(h.Label)}
		pad := true
		if h.Parameter {
			ih.Kind = protocol.InlayHintKindParameter
			ih.PaddingRight = &pad
		} else {
			ih.Kind = protocol.InlayHintKindType
			ih.PaddingLeft = &pad
		}
		out = append(out, ih)
	}
	return out, nil
}
