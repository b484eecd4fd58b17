package lsp

import (
	"context"

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
	enc, cfg, _ := s.session()
	snap := s.snapshot(string(p.TextDocument.URI))
	if snap == nil {
		return []protocol.TextEdit{}, nil
	}
	return toTextEdits(snap, enc, s.features.Format(ctx, snap, cfg)), nil
}
