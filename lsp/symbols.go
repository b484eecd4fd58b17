package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentDocumentSymbol] = documentSymbol
}

func documentSymbol(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.DocumentSymbolParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc, _, _ := s.session()
	snap := s.snapshot(string(p.TextDocument.URI))
	if snap == nil {
		return protocol.DocumentSymbolSlice{}, nil
	}
	return documentSymbols(ctx, s.features, snap, enc), nil
}

// documentSymbols outline a sheet: its bindings in order, each with what
// its value is (none in other documents).
func documentSymbols(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding) protocol.DocumentSymbolSlice {
	s := a.sheet(ctx, snap)
	if s == nil {
		return protocol.DocumentSymbolSlice{}
	}
	outline := s.Outline()
	out := make(protocol.DocumentSymbolSlice, 0, len(outline))
	for _, o := range outline {
		ds := protocol.DocumentSymbol{
			Name:           o.Name,
			Kind:           protocol.SymbolKindVariable,
			Range:          toRange(snap, enc, spanOf(o.Range)),
			SelectionRange: toRange(snap, enc, spanOf(o.Select)),
		}
		detail := o.Detail
		if o.Kind != "" && o.Kind != "error" {
			detail = o.Kind + " " + detail
		}
		if detail = truncate(detail, 80); detail != "" {
			ds.Detail = &detail
		}
		out = append(out, ds)
	}
	return out
}
