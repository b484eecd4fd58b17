package analysis

import (
	"sort"

	"github.com/cute-lsp/cute-lsp/grammar"
)

// TokenType classifies a piece of a sheet for highlighting.
type TokenType int

const (
	TokenKeyword    TokenType = iota // assert, is
	TokenVariable                    // a sheet name
	TokenFunction                    // a CuTe operation
	TokenNumber                      // an integer, a basis
	TokenComment                     // # ..., // ...
	TokenSwizzle                     // a swizzle
	TokenEnumMember                  // LayoutLeft, LayoutRight
)

// TokenTypeNames are the names of the token types, in TokenType order (the
// LSP legend).
var TokenTypeNames = []string{"keyword", "variable", "function", "number", "comment", "type", "enumMember"}

// Token is a classified range; Declaration marks a binding's name.
type Token struct {
	Range       grammar.Range
	Type        TokenType
	Declaration bool
}

// Tokens classifies the sheet's names, operations, numbers, swizzles,
// keywords and comments, in source order without overlaps.
func (s *Sheet) Tokens() []Token {
	var out []Token
	for _, c := range s.File.Comments {
		out = append(out, Token{Range: c.Range, Type: TokenComment})
	}
	for i, st := range s.File.Statements {
		from := len(out)
		if a, ok := st.(*grammar.Assert); ok {
			kw := a.Range
			kw.End = kw.Pos
			kw.End.Offset += int32(len("assert"))
			kw.End.Column += int32(len("assert"))
			out = append(out, Token{Range: kw, Type: TokenKeyword})
			if a.Op == grammar.AssertIs {
				out = append(out, Token{Range: a.OpRange, Type: TokenKeyword})
			}
		}
		grammar.Inspect(st, func(n grammar.Node) bool {
			switch n := n.(type) {
			case *grammar.Binding:
				out = append(out, Token{Range: n.Name.Range, Type: TokenVariable, Declaration: true})
				grammar.Inspect(n.Value, func(m grammar.Node) bool { return s.classify(i, m, &out) })
				return false
			}
			return s.classify(i, n, &out)
		})
		base := s.File.Base(i)
		for k := from; k < len(out); k++ {
			out[k].Range = base.Range(out[k].Range)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Range.Pos.Offset < out[j].Range.Pos.Offset })
	return out
}

// classify appends the tokens of node n of statement i. Whether a tag or
// a keyword is read as a sheet name is the statement's reads (refAt), not
// a map of every name of the sheet (Refs), which a long sheet would build
// and keep for its highlighting alone.
func (s *Sheet) classify(i int, n grammar.Node, out *[]Token) bool {
	switch n := n.(type) {
	case *grammar.Call:
		*out = append(*out, Token{Range: n.Fun.Range, Type: TokenFunction})
		op, isOp := lookupOp(n.Fun.Name)
		for _, a := range n.Template {
			grammar.Inspect(a, func(m grammar.Node) bool { return s.classify(i, m, out) })
		}
		for _, a := range n.Args {
			// A bare word the operation reads (ldmatrix_x4) is a constant
			// of the operation, not a sheet name, unless the sheet binds it.
			if name, ok := a.(*grammar.Name); ok && isOp && op.isKeyword(name.Name) && s.refAt(i, name) == nil {
				*out = append(*out, Token{Range: name.Range, Type: TokenEnumMember})
				continue
			}
			grammar.Inspect(a, func(m grammar.Node) bool { return s.classify(i, m, out) })
		}
		return false
	case *grammar.Name:
		if isTag(n.Name) && s.refAt(i, n) == nil {
			*out = append(*out, Token{Range: n.Range, Type: TokenEnumMember})
		} else {
			*out = append(*out, Token{Range: n.Range, Type: TokenVariable})
		}
	case *grammar.Int, *grammar.Basis:
		*out = append(*out, Token{Range: n.Span(), Type: TokenNumber})
		return false
	case *grammar.Swizzle:
		*out = append(*out, Token{Range: n.Range, Type: TokenSwizzle})
		return false
	}
	return true
}
