package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentHover] = hover
}

// at resolves a document and a position to its snapshot and byte offset;
// snap is nil when the document is neither open nor on disk.
func (s *Server) at(doc protocol.TextDocumentIdentifier, pos protocol.Position) (snap *Snapshot, off int, enc Encoding, cfg Config) {
	enc, cfg, _ = s.session()
	snap = s.snapshot(string(doc.URI))
	if snap == nil {
		return nil, 0, enc, cfg
	}
	cfg = withProject(cfg, s.projectConfig(snap.URI))
	return snap, snap.Offset(fromPosition(pos), enc), enc, cfg
}

func hover(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.HoverParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	snap, off, enc, cfg := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return nil, nil
	}
	h, ok := s.features.Hover(ctx, snap, cfg, off)
	if !ok {
		return nil, nil
	}
	r := toRange(snap, enc, h.Span)
	return &protocol.Hover{
		Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Markdown + pictureLink(ctx, s, snap, cfg, off, p.TextDocument, p.Position)},
		Range:    &r,
	}, nil
}
