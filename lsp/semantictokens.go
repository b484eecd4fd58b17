package lsp

import (
	"context"
	"sort"

	"github.com/cute-lsp/cute-lsp/analysis"
	"go.lsp.dev/protocol"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentSemanticTokensFull] = semanticTokensFull
	requestHandlers[protocol.MethodTextDocumentSemanticTokensRange] = semanticTokensRange
}

// The legend the server announces: token types and modifiers, each
// numbered by its place in its list.
var (
	tokenTypeNames     = []string{"variable", "function", "keyword", "number", "string", "comment", "operator", "type", "parameter", "enumMember"}
	tokenModifierNames = []string{"declaration", "readonly", "defaultLibrary"}
)

// tokenTypeOf numbers analysis's token types in the legend; a type not
// listed is not sent.
var tokenTypeOf = map[analysis.TokenType]uint32{
	analysis.TokenVariable:   legendIndex(tokenTypeNames, "variable"),
	analysis.TokenFunction:   legendIndex(tokenTypeNames, "function"),
	analysis.TokenKeyword:    legendIndex(tokenTypeNames, "keyword"),
	analysis.TokenNumber:     legendIndex(tokenTypeNames, "number"),
	analysis.TokenComment:    legendIndex(tokenTypeNames, "comment"),
	analysis.TokenSwizzle:    legendIndex(tokenTypeNames, "type"),
	analysis.TokenEnumMember: legendIndex(tokenTypeNames, "enumMember"),
}

// modDeclaration is the legend's "declaration" modifier bit.
var modDeclaration = uint32(1) << legendIndex(tokenModifierNames, "declaration")

// legendIndex is the place of name in a legend list.
func legendIndex(names []string, name string) uint32 {
	for i, n := range names {
		if n == name {
			return uint32(i)
		}
	}
	panic("lsp: " + name + " is not in the semantic tokens legend")
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
	return semanticTokens(ctx, s.features, snap, enc, Span{0, len(snap.Text)}), nil
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
	return semanticTokens(ctx, s.features, snap, enc, fromRange(snap, enc, p.Range)), nil
}

// sheetTokens are the tokens of a sheet the legend has types for (none in
// other documents), as the analysis orders them.
func sheetTokens(ctx context.Context, a *Analyzed, snap *Snapshot) []analysis.Token {
	s := a.sheet(ctx, snap)
	if s == nil {
		return nil
	}
	toks := s.Tokens()
	out := make([]analysis.Token, 0, len(toks))
	for _, t := range toks {
		if _, ok := tokenTypeOf[t.Type]; ok {
			out = append(out, t)
		}
	}
	return out
}

// semanticTokens classifies the sheet's tokens inside within.
func semanticTokens(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding, within Span) *protocol.SemanticTokens {
	return &protocol.SemanticTokens{Data: encodeTokens(snap, enc, sheetTokens(ctx, a, snap), within)}
}

// encodeTokens writes the protocol's relative encoding (delta line, delta
// start, length, type, modifiers) of the tokens inside within. Tokens that
// are empty, cross a line break or overlap an earlier one are dropped, since
// clients reject such data.
func encodeTokens(snap *Snapshot, enc Encoding, tokens []analysis.Token, within Span) []uint32 {
	sorted := append([]analysis.Token(nil), tokens...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Range.Pos.Offset < sorted[j].Range.Pos.Offset })
	data := make([]uint32, 0, 5*len(sorted))
	prevLine, prevChar, prevEnd := 0, 0, -1
	for _, t := range sorted {
		sp := spanOf(t.Range)
		if sp.End <= sp.Start || sp.Start < prevEnd || !sp.Overlaps(within) || sp.Start < 0 || sp.End > len(snap.Text) {
			continue
		}
		start, end := snap.Position(sp.Start, enc), snap.Position(sp.End, enc)
		if start.Line != end.Line {
			continue
		}
		deltaChar := start.Character
		if start.Line == prevLine {
			deltaChar = start.Character - prevChar
		}
		var mods uint32
		if t.Declaration {
			mods |= modDeclaration
		}
		data = append(data, uint32(start.Line-prevLine), uint32(deltaChar), uint32(end.Character-start.Character), tokenTypeOf[t.Type], mods)
		prevLine, prevChar, prevEnd = start.Line, start.Character, sp.End
	}
	return data
}
