package source

import "bytes"

// cppTokens tokenizes C++/CUDA source, skipping whitespace, comments,
// string and character literals (raw strings included) and preprocessor
// lines (with their continuations). An unterminated comment or literal
// runs to the end of its line (literals) or of the file (comments). The
// tokens are appended to toks. The insides of inert asm statements are
// left out (inert.go).
func cppTokens(src []byte, toks []token) []token {
	toks = reserveTokens(src, toks)
	s := cppScanner{src: src, lineStart: true}
	base := len(toks)
	for {
		t, ok := s.next()
		if !ok {
			return toks
		}
		toks = append(toks, t)
		if t.kind == tIdent && dropInert && isAsmWord(src[t.start:t.end]) &&
			(len(toks) == base+1 || isPunctByte(src, toks[len(toks)-2], ';') || isPunctByte(src, toks[len(toks)-2], '{')) {
			toks = s.asmStatement(toks)
		}
	}
}

// cppAllTokens is cppTokens with asm statements' insides.
func cppAllTokens(src []byte, toks []token) []token {
	toks = reserveTokens(src, toks)
	s := cppScanner{src: src, lineStart: true}
	for {
		t, ok := s.next()
		if !ok {
			return toks
		}
		toks = append(toks, t)
	}
}

// reserveTokens makes room in toks for the tokens of src, so that they are
// not copied as the slice grows: a token per 8 bytes, about what CuTe's
// headers hold once asm is left out (code written with _2,_2 holds more,
// and grows the slice once or twice).
func reserveTokens(src []byte, toks []token) []token {
	if want := len(src)/8 + 16; cap(toks)-len(toks) < want {
		toks = append(make([]token, 0, len(toks)+want), toks...)
	}
	return toks
}

// cppScanner reads C++ tokens one at a time.
type cppScanner struct {
	src       []byte
	i         int
	lineStart bool // only whitespace since the last newline
	inside    []token
}

// next is the next token; ok is false at the end of the source.
func (s *cppScanner) next() (t token, ok bool) {
	src := s.src
	i := s.i
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			s.lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = lineEnd(src, i)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				s.i = len(src)
				return token{}, false
			}
			i += 2 + end + 2
			continue
		case c == '#' && s.lineStart:
			i = directiveEnd(src, i)
			continue
		}
		s.lineStart = false
		switch {
		case c == '"' || c == '\'':
			j := cppQuotedEnd(src, i+1, c)
			s.i = j
			return token{kind: tString, start: i, end: j, indent: -1}, true
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && isLiteralPrefix(src[i:j]) {
				end := 0
				if src[j] == '"' && src[j-1] == 'R' {
					end = rawStringEnd(src, j)
				} else {
					end = cppQuotedEnd(src, j+1, src[j])
				}
				s.i = end
				return token{kind: tString, start: i, end: end, indent: -1}, true
			}
			s.i = j
			return token{kind: tIdent, start: i, end: j, indent: -1}, true
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := numberEnd(src, i, true)
			s.i = j
			return token{kind: tNumber, start: i, end: j, indent: -1}, true
		default:
			n := punctLen(src, i)
			if n == 2 && src[i] == '/' {
				n = 1
			}
			s.i = i + n
			return token{kind: tPunct, start: i, end: i + n, indent: -1}, true
		}
	}
	s.i = i
	return token{}, false
}

// asmStatement reads the rest of an asm statement whose keyword ends toks
// (and starts where the reader may drop its inside, see inert.go): its
// qualifiers and its parentheses, appended to toks without the tokens
// inside them when those are inert and a ";" follows.
func (s *cppScanner) asmStatement(toks []token) []token {
	var t token
	ok := false
	for {
		if t, ok = s.next(); !ok {
			return toks
		}
		toks = append(toks, t)
		if t.kind != tIdent || !asmQualifiers[string(s.src[t.start:t.end])] {
			break
		}
	}
	if !isPunctByte(s.src, t, '(') {
		return toks
	}
	// The inside, from the "(", gathers until its ")"; the scan stops
	// early, keeping what it read, at the first token that is not inert.
	in := append(s.inside[:0], t)
	defer func() { s.inside = in[:0] }()
	var p inertParens
	for !p.closed {
		if t, ok = s.next(); !ok {
			return append(toks, in[1:]...)
		}
		in = append(in, t)
		if !p.next(s.src, in, len(in)-1) {
			return append(toks, in[1:]...)
		}
	}
	// Dropped only when a ";" follows.
	saved := *s
	after, ok := s.next()
	*s = saved
	if !ok || !isPunctByte(s.src, after, ';') {
		return append(toks, in[1:]...)
	}
	return append(toks, in[len(in)-1])
}

// isLiteralPrefix reports whether p is a string or character literal's
// encoding prefix (u8, u, U, L, R and their combinations).
func isLiteralPrefix(p []byte) bool {
	switch string(p) {
	case "R", "u8", "u", "U", "L", "u8R", "uR", "UR", "LR":
		return true
	}
	return false
}

func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// directiveEnd is the end of a preprocessor line starting at i, with its
// backslash continuations and any comment in it.
func directiveEnd(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '\n':
			return i
		case '/':
			if i+1 < len(src) && src[i+1] == '*' {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return len(src)
				}
				i += 2 + end + 2
				continue
			}
		}
		i++
	}
	return len(src)
}

// cppQuotedEnd is the offset after the closing quote of a literal whose
// contents start at i; an unterminated literal ends at its line's end.
func cppQuotedEnd(src []byte, i int, quote byte) int {
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case quote:
			return i + 1
		case '\n':
			return i
		}
		i++
	}
	return len(src)
}

// rawStringEnd is the end of R"delim( ... )delim" whose quote is at q; an
// unterminated one runs to the end of the file.
func rawStringEnd(src []byte, q int) int {
	open := bytes.IndexByte(src[q+1:], '(')
	if open < 0 || open > 16 {
		return lineEnd(src, q)
	}
	delim := src[q+1 : q+1+open]
	body := q + 1 + open + 1
	closing := append(append([]byte(")"), delim...), '"')
	end := bytes.Index(src[body:], closing)
	if end < 0 {
		return len(src)
	}
	return body + end + len(closing)
}
