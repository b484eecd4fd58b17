package grammar

import "github.com/alecthomas/participle/v2/lexer"

// tokenSource is where the hand-written readers take tokens from: a
// participle PeekingLexer (inside a participle production) or a plain slice
// (an expression handed over whole, see stmtLexer).
type tokenSource interface {
	Peek() *lexer.Token
	Next() *lexer.Token
	// PeekAfter is the token after the next one.
	PeekAfter() *lexer.Token
}

type peekingSource struct{ *lexer.PeekingLexer }

func (s peekingSource) PeekAfter() *lexer.Token {
	cp := s.MakeCheckpoint()
	s.PeekingLexer.Next()
	t := s.PeekingLexer.Peek()
	s.LoadCheckpoint(cp)
	return t
}

// sliceSource reads a token slice; past its end it returns eof.
type sliceSource struct {
	toks []lexer.Token
	i    int
	eof  lexer.Token
}

func (s *sliceSource) Peek() *lexer.Token {
	if s.i < len(s.toks) {
		return &s.toks[s.i]
	}
	return &s.eof
}

func (s *sliceSource) Next() *lexer.Token {
	t := s.Peek()
	if s.i < len(s.toks) {
		s.i++
	}
	return t
}

func (s *sliceSource) PeekAfter() *lexer.Token {
	if s.i+1 < len(s.toks) {
		return &s.toks[s.i+1]
	}
	return &s.eof
}
