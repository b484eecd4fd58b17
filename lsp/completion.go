package lsp

import (
	"context"

	"github.com/cute-lsp/cute-lsp/analysis"
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
	snap, off, enc, _ := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return &protocol.CompletionList{Items: []protocol.CompletionItem{}}, nil
	}
	return completions(ctx, s.features, snap, enc, off), nil
}

var completionKindOf = map[analysis.CompletionKind]protocol.CompletionItemKind{
	analysis.CompleteName:      protocol.CompletionItemKindVariable,
	analysis.CompleteOperation: protocol.CompletionItemKindFunction,
	analysis.CompleteSwizzle:   protocol.CompletionItemKindConstant,
	analysis.CompleteTag:       protocol.CompletionItemKindEnumMember,
}

// completions propose what can be typed at off in a sheet: names,
// operations, swizzles, tags. Each replaces the whole word the cursor is
// in, so that one accepted in the middle of a word does not leave its tail
// behind.
func completions(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding, off int) *protocol.CompletionList {
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	s := a.sheet(ctx, snap)
	if s == nil {
		return list
	}
	replace := toRange(snap, enc, snap.WordAt(off))
	for _, c := range s.Complete(off) {
		item := protocol.CompletionItem{Label: c.Label, Kind: completionKindOf[c.Kind]}
		if c.Detail != "" {
			item.Detail = protocol.NewOptional(c.Detail)
		}
		if c.Doc != "" {
			item.Documentation = &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: c.Doc}
		}
		insert := c.Insert
		if insert == "" {
			insert = c.Label
		}
		item.TextEdit = &protocol.TextEdit{Range: replace, NewText: insert}
		list.Items = append(list.Items, item)
	}
	return list
}

func signatureHelp(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.SignatureHelpParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	snap, off, _, _ := s.at(p.TextDocument, p.Position)
	if snap == nil {
		return nil, nil
	}
	if sh := signatureAt(snap, off); sh != nil {
		return sh, nil
	}
	return nil, nil
}

// signatureAt describes the operation whose call's arguments surround off
// in a sheet, and which parameter the cursor is in; nil when there is none.
func signatureAt(snap *Snapshot, off int) *protocol.SignatureHelp {
	if snap.Kind != KindSheet {
		return nil
	}
	sig, ok := analysis.SignatureAt([]byte(snap.Text), off)
	if !ok {
		return nil
	}
	info := protocol.SignatureInformation{Label: sig.Op.Signature}
	if sig.Op.Doc != "" {
		info.Documentation = &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: sig.Op.Doc}
	}
	for _, param := range sig.Params {
		info.Parameters = append(info.Parameters, protocol.ParameterInformation{Label: protocol.String(param)})
	}
	active := uint32(0)
	return &protocol.SignatureHelp{
		Signatures:      []protocol.SignatureInformation{info},
		ActiveSignature: &active,
		ActiveParameter: protocol.NewNullable(uint32(max(0, sig.ActiveParam))),
	}
}
