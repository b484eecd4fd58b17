package lsp

import (
	"context"
	"sort"

	"go.lsp.dev/protocol"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentSemanticTokensFull] = semanticTokensFull
	requestHandlers[protocol.MethodTextDocumentSemanticTokensRange] = semanticTokensRange
}

func semanticTokensFull(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.SemanticTokensParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc, _, _ := s.session()
	snap := s.snapshot(string(p.TextDocument.URI))
	if snap == nil {
		return &protocol.SemanticTokens{Data: []uint32{}}, nil
	}
	return &protocol.SemanticTokens{Data: encodeTokens(snap, enc, s.features.SemanticTokens(ctx, snap), Span{0, len(snap.Text)})}, nil
}

func semanticTokensRange(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.SemanticTokensRangeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc, _, _ := s.session()
	snap := s.snapshot(string(p.TextDocument.URI))
	if snap == nil {
		return &protocol.SemanticTokens{Data: []uint32{}}, nil
	}
	return &protocol.SemanticTokens{Data: encodeTokens(snap, enc, s.features.SemanticTokens(ctx, snap), fromRange(snap, enc, p.Range))}, nil
}

// encodeTokens writes the protocol's relative encoding (delta line, delta
// start, length, type, modifiers) of the tokens inside within. Tokens that
// are empty, cross a line break or overlap an earlier one are dropped, since
// clients reject such data.
func encodeTokens(snap *Snapshot, enc Encoding, tokens []Token, within Span) []uint32 {
	sorted := append([]Token(nil), tokens...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Span.Start < sorted[j].Span.Start })
	data := make([]uint32, 0, 5*len(sorted))
	prevLine, prevChar, prevEnd := 0, 0, -1
	for _, t := range sorted {
		if t.Span.End <= t.Span.Start || t.Span.Start < prevEnd || !t.Span.Overlaps(within) || t.Span.Start < 0 || t.Span.End > len(snap.Text) {
			continue
		}
		start, end := snap.Position(t.Span.Start, enc), snap.Position(t.Span.End, enc)
		if start.Line != end.Line {
			continue
		}
		deltaChar := start.Character
		if start.Line == prevLine {
			deltaChar = start.Character - prevChar
		}
		data = append(data, uint32(start.Line-prevLine), uint32(deltaChar), uint32(end.Character-start.Character), uint32(t.Type), uint32(t.Modifiers))
		prevLine, prevChar, prevEnd = start.Line, start.Character, t.Span.End
	}
	return data
}
