package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentCompletion] = completion
	requestHandlers[protocol.MethodTextDocumentSignatureHelp] = signatureHelp
}

func completion(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.CompletionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	snap, off, enc, cfg := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return list, nil
	}
	for _, it := range s.features.Completion(ctx, snap, cfg, off) {
		item := protocol.CompletionItem{Label: it.Label, Kind: protocol.CompletionItemKind(it.Kind)}
		if it.Detail != "" {
			item.Detail = protocol.NewOptional(it.Detail)
		}
		if it.Doc != "" {
			item.Documentation = &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: it.Doc}
		}
		insert := it.Insert
		if insert == "" {
			insert = it.Label
		}
		item.TextEdit = &protocol.TextEdit{Range: toRange(snap, enc, it.Replace), NewText: insert}
		list.Items = append(list.Items, item)
	}
	return list, nil
}

func signatureHelp(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.SignatureHelpParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	snap, off, _, cfg := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return nil, nil
	}
	sh, ok := s.features.SignatureHelp(ctx, snap, cfg, off)
	if !ok {
		return nil, nil
	}
	info := protocol.SignatureInformation{Label: sh.Label}
	if sh.Doc != "" {
		info.Documentation = &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: sh.Doc}
	}
	for _, param := range sh.Params {
		info.Parameters = append(info.Parameters, protocol.ParameterInformation{Label: protocol.String(param)})
	}
	active := uint32(0)
	return &protocol.SignatureHelp{
		Signatures:      []protocol.SignatureInformation{info},
		ActiveSignature: &active,
		ActiveParameter: protocol.NewNullable(uint32(max(0, sh.Active))),
	}, nil
}
