package grammar

import "unicode/utf8"

// tokenType is the kind of a token.
type tokenType int

// Token types of the descriptor lexer. The lexer never fails: a character
// that starts no token becomes an Invalid token, so the parser can report it
// at its own range and go on with the next statement.
const (
	tokEOF       tokenType = iota // the end of the input (or of what a reader is given)
	tokInt                        // 8, -4 (a '-' directly before a digit belongs to the number)
	tokStatic                     // _8, _-1: CuTe's static integer
	tokIdent                      // names and the keywords assert, is
	tokWord                       // a digit-led word: 16b, 0x7f42efc00000 (pointer prints)
	tokString                     // "..." (MLIR type payloads); an unterminated string runs to the end of the line
	tokPunct                      // ( ) [ ] { } < > , ; : @ / ? + = ! . * and _ alone
	tokEqEq                       // ==
	tokNewline                    // end of line; statements end here unless brackets are open
	tokComment                    // # ... or // ... to the end of the line
	tokInvalid                    // any other character: the catch-all that keeps lexing total
	tokPySwizzle                  // SW_3_4_3: pycute's print of Swizzle<3,4,3>
	tokEnd                        // a Newline that ends a statement (set by the statement splitter)
	tokCompose                    // "o", the composition operator: never a name
	tokExpr                       // a whole expression of a sheet statement, as source text (see stmtLexer)
)

// token is one token of the source: its type, its text and where it starts.
type token struct {
	Type  tokenType
	Value string
	Pos   Position
}

// EOF reports whether t is the end of the input.
func (t token) EOF() bool { return t.Type == tokEOF }

// eofToken is the end of the input, at p.
func eofToken(p Position) token { return token{Type: tokEOF, Pos: p} }

// tokenEnd is the position just after t.
func tokenEnd(t token) Position {
	p := t.Pos
	switch t.Type {
	case tokNewline:
		p.Offset++
		p.Line++
		p.Column = 1
		return p
	case tokExpr: // may span lines
		return p.advance(t.Value)
	}
	p.Offset += int32(len(t.Value))
	p.Column += int32(utf8.RuneCountInString(t.Value))
	return p
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isWordByte(c byte) bool {
	return isDigit(c) || isLetter(c)
}

// scanner produces the tokens of src one at a time. Positions start at the
// given offset, line and column (columns count runes, 1-based), so the payload
// of an MLIR string can be scanned in place and its errors point inside the
// quotes.
type scanner struct {
	src       string
	base      int // the file offset of src[0]
	i         int
	line, col int
}

// next returns the next token; false at the end of src.
func (s *scanner) next() (token, bool) {
	src, i := s.src, s.i
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
		i++
		s.col++
	}
	if i >= len(src) {
		s.i = i
		return token{}, false
	}
	c := src[i]
	start := i
	var typ tokenType
	switch {
	case c == '\n':
		typ = tokNewline
		i++
	case c == '#' || c == '/' && i+1 < len(src) && src[i+1] == '/':
		typ = tokComment
		for i < len(src) && src[i] != '\n' {
			i++
		}
	case isDigit(c) || c == '-' && i+1 < len(src) && isDigit(src[i+1]):
		typ = tokInt
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		if i < len(src) && isLetter(src[i]) && c != '-' {
			typ = tokWord
			for i < len(src) && isWordByte(src[i]) {
				i++
			}
		}
	case c == '_' && i+1 < len(src) && (isDigit(src[i+1]) || src[i+1] == '-' && i+2 < len(src) && isDigit(src[i+2])):
		typ = tokStatic
		i += 2
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	case isLetter(c):
		typ = tokIdent
		for i < len(src) && isWordByte(src[i]) {
			i++
		}
		switch {
		case i-start == 1 && c == '_':
			typ = tokPunct
		case i-start == 1 && c == 'o':
			typ = tokCompose
		case c == 'S' && i-start > 3 && src[start+1] == 'W':
			if i+1 < len(src) && src[i] == '-' && isDigit(src[i+1]) && isPycuteSwizzlePrefix(src[start:i]) {
				// SW_3_4_-3: pycute's print of a swizzle with a negative shift.
				i++
				for i < len(src) && isDigit(src[i]) {
					i++
				}
			}
			if isPycuteSwizzle(src[start:i]) {
				typ = tokPySwizzle
			}
		}
	case c == '"':
		typ = tokString
		i++
		for i < len(src) && src[i] != '"' && src[i] != '\n' {
			if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
				i++ // an escaped character, \" included
			}
			i++
		}
		if i < len(src) && src[i] == '"' {
			i++
		}
	case c == '=' && i+1 < len(src) && src[i+1] == '=':
		typ = tokEqEq
		i += 2
	case c < utf8.RuneSelf && isPunct(c):
		typ = tokPunct
		i++
	default:
		typ = tokInvalid
		_, size := utf8.DecodeRuneInString(src[i:])
		i += size
	}
	text := src[start:i]
	t := token{Type: typ, Value: text, Pos: Position{Offset: int32(s.base + start), Line: int32(s.line), Column: int32(s.col)}}
	switch typ {
	case tokNewline:
		s.line++
		s.col = 1
	case tokInvalid, tokString, tokComment:
		s.col += utf8.RuneCountInString(text)
	default:
		s.col += len(text)
	}
	s.i = i
	return t, true
}

// scan returns all the tokens of src (see scanner).
func scan(src string, offset, line, col int) []token {
	return scanInto(nil, src, offset, line, col)
}

// scanInto appends the tokens of src to tokens.
func scanInto(tokens []token, src string, offset, line, col int) []token {
	s := scanner{src: src, base: offset, line: line, col: col}
	for {
		t, ok := s.next()
		if !ok {
			return tokens
		}
		tokens = append(tokens, t)
	}
}

func isPunct(c byte) bool {
	switch c {
	case '(', ')', '[', ']', '{', '}', '<', '>', ',', ';', ':', '@', '/', '?', '+', '=', '!', '.', '*':
		return true
	}
	return false
}

// isPycuteSwizzlePrefix reports whether s is "SW_<digits>_<digits>_", the
// part of pycute's SW_B_M_S print before a negative shift.
func isPycuteSwizzlePrefix(s string) bool {
	if len(s) < 4 || s[:3] != "SW_" || s[len(s)-1] != '_' {
		return false
	}
	parts := 0
	digits := 0
	for i := 3; i < len(s); i++ {
		switch {
		case isDigit(s[i]):
			digits++
		case s[i] == '_' && digits > 0:
			parts++
			digits = 0
		default:
			return false
		}
	}
	return parts == 2
}

// isPycuteSwizzle reports whether s is SW_B_M_S with integer B, M, S (S may be negative).
func isPycuteSwizzle(s string) bool {
	j := len(s)
	for j > 0 && isDigit(s[j-1]) {
		j--
	}
	if j == len(s) {
		return false
	}
	if j > 0 && s[j-1] == '-' {
		j--
	}
	return isPycuteSwizzlePrefix(s[:j])
}
