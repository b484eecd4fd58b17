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
	return toSymbols(snap, enc, s.features.Symbols(ctx, snap)), nil
}

func toSymbols(snap *Snapshot, enc Encoding, syms []Symbol) protocol.DocumentSymbolSlice {
	out := make(protocol.DocumentSymbolSlice, 0, len(syms))
	for _, sym := range syms {
		ds := protocol.DocumentSymbol{
			Name:           sym.Name,
			Kind:           protocol.SymbolKind(sym.Kind),
			Range:          toRange(snap, enc, sym.Span),
			SelectionRange: toRange(snap, enc, sym.NameSpan),
		}
		if sym.Detail != "" {
			detail := sym.Detail
			ds.Detail = &detail
		}
		if len(sym.Children) > 0 {
			ds.Children = toSymbols(snap, enc, sym.Children)
		}
		out = append(out, ds)
	}
	return out
}
