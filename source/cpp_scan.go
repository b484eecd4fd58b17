package source

import "bytes"

// cppTokens tokenizes C++/CUDA source, skipping whitespace, comments,
// string and character literals (raw strings included) and preprocessor
// lines (with their continuations). An unterminated comment or literal
// runs to the end of its line (literals) or of the file (comments). The
// tokens are appended to toks. The insides of inert asm statements are
// left out (inert.go).
func cppTokens(src []byte, toks []token) []token { return cppTokenize(src, toks, dropInert, nil) }

// cppTokensFor is cppTokens, for lint when lint is not nil: the insides of
// parameter lists it may drop are dropped too, and noted in lint.
func cppTokensFor(src []byte, toks []token, lint *paramDrops) []token {
	return cppTokenize(src, toks, dropInert, lint)
}

// cppAllTokens is cppTokens with asm statements' insides.
func cppAllTokens(src []byte, toks []token) []token { return cppTokenize(src, toks, false, nil) }

func cppTokenize(src []byte, toks []token, dropAsm bool, params *paramDrops) []token {
	toks = reserveTokens(src, toks)
	asm := asmStatement{base: len(toks)}
	if params != nil {
		params.start(src, len(toks))
	}
	lineStart := true // only whitespace since the last newline
	for i := 0; i < len(src); {
		if params == nil && asm.state == asmNone {
			// Names, numbers, punctuators and blanks in a loop of their own
			// (cppScanPlain); the other tokens one at a time below.
			if toks, i, lineStart = cppScanPlain(src, toks, i, lineStart, dropAsm); i == len(src) {
				break
			}
		}
		c := src[i]
		var t token
		switch lexClass[c] {
		case lexBlank:
			// A run of blanks and newlines (indentation) in one loop.
			for {
				if c == '\n' {
					lineStart = true
				}
				if i++; i == len(src) {
					break
				}
				if c = src[i]; lexClass[c] != lexBlank {
					break
				}
			}
			continue
		case lexIdent:
			j := i + 1
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			t = makeToken(tIdent, i, j, -1)
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && isLiteralPrefix(src[i:j]) {
				if src[j] == '"' && src[j-1] == 'R' {
					t.end = rawStringEnd(src, j)
				} else {
					t.end = cppQuotedEnd(src, j+1, src[j])
				}
				t.kind = tString
			}
		case lexDigit:
			t = makeToken(tNumber, i, numberEnd(src, i, true), -1)
		case lexQuote:
			t = makeToken(tString, i, cppQuotedEnd(src, i+1, c), -1)
		case lexSlash:
			if i+1 < len(src) && src[i+1] == '/' {
				i = lineEnd(src, i)
				continue
			}
			if i+1 < len(src) && src[i+1] == '*' {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					i = len(src)
					continue
				}
				i += 2 + end + 2
				continue
			}
			t = punctToken(src, i, 1, -1) // "/" ("//" opened a comment)
		case lexHash:
			if lineStart {
				i = directiveEnd(src, i)
				continue
			}
			t = punctToken(src, i, punctLen(src, i), -1)
		case lexDot:
			if i+1 < len(src) && isDigit(src[i+1]) {
				t = makeToken(tNumber, i, numberEnd(src, i, true), -1)
			} else {
				t = punctToken(src, i, punctLen(src, i), -1)
			}
		default:
			t = punctToken(src, i, punctLen(src, i), -1)
		}
		lineStart = false
		toks = append(toks, t)
		i = t.end
		if dropAsm && (asm.state != asmNone || t.kind == tIdent && isAsmWord(src[t.start:t.end])) {
			n := len(toks)
			if toks = asm.step(src, toks); len(toks) < n && params != nil {
				params.asmDropped(len(toks))
			}
		}
		if params != nil && (params.state != paramsNone || params.clean > 0 || opensOrCloses[t.punct]) {
			toks = params.step(toks)
		}
	}
	return toks
}

// cppScanPlain appends to toks the tokens of src from i that the
// tokenizer's loop makes alone: names (but an asm keyword's length, first
// and last bytes, and one before a quote: a literal's prefix), numbers
// (but one going on with a separator or an exponent's sign), punctuators
// but "/", "#" and a "." before a digit (a number); it skips blanks. It
// returns at any other byte, or where toks has no room left, with the
// index there: its loop makes no call, so that the compiler keeps its
// values in registers (a call on any path of cppTokenize's loop spills
// them at every token; so do more live values: the marks runMarks finds,
// made here, cost the loop more than runMarks' pass), and the tokens are
// written in place.
func cppScanPlain(src []byte, toks []token, i int, lineStart bool, dropAsm bool) ([]token, int, bool) {
	n, room := len(toks), cap(toks)
	toks = toks[:room]
	for i < len(src) && n < room {
		c := src[i]
		switch lexClass[c] {
		case lexBlank:
			// A run of blanks and newlines (indentation) in one loop.
			for {
				if c == '\n' {
					lineStart = true
				}
				if i++; i == len(src) {
					break
				}
				if c = src[i]; lexClass[c] != lexBlank {
					break
				}
			}
			continue
		case lexIdent:
			j := i + 1
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') {
				return toks[:n], i, lineStart // perhaps a literal's prefix
			}
			if dropAsm && (c == 'a' || c == '_') && (j-i == len("asm") || j-i == len("__asm") || j-i == len("__asm__")) &&
				(src[j-1] == 'm' || src[j-1] == '_') {
				return toks[:n], i, lineStart // perhaps an asm keyword (_64 is none)
			}
			toks[n] = token{tokClass: tokClass{kind: tIdent}, start: i, end: j, indent: -1}
			n++
			i = j
		case lexDigit:
			// numberEnd's digits, letters and dots.
			j := i + 1
			for j < len(src) && (isIdentByte(src[j]) || src[j] == '.') {
				j++
			}
			if j < len(src) && (src[j] == '\'' || src[j] == '+' || src[j] == '-') {
				return toks[:n], i, lineStart // perhaps a separator, an exponent's sign
			}
			toks[n] = token{tokClass: tokClass{kind: tNumber}, start: i, end: j, indent: -1}
			n++
			i = j
		case lexPunct:
			l, p := 1, c // punctLen and punctToken
			if i+1 < len(src) && pairStart[c] {
				switch string(src[i : i+2]) {
				case "::", "->", "<<", "<=", "==", "!=", "&&", "||", "**", "//":
					l, p = 2, 0
				}
			}
			toks[n] = token{tokClass: tokClass{kind: tPunct, punct: p}, start: i, end: i + l, indent: -1}
			n++
			i += l
		case lexDot:
			// A member's ".", of one byte (punctLen); ".5" is a number.
			if i+1 < len(src) && isDigit(src[i+1]) {
				return toks[:n], i, lineStart
			}
			toks[n] = token{tokClass: tokClass{kind: tPunct, punct: '.'}, start: i, end: i + 1, indent: -1}
			n++
			i++
		default:
			return toks[:n], i, lineStart
		}
		lineStart = false
	}
	return toks[:n], i, lineStart
}

// lexClass is what the tokenizer does at a byte where a token may start:
// one load and a jump table instead of a chain of comparisons.
var lexClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch b := byte(c); {
		case b == '\n' || byteClass[b]&classSpace != 0:
			t[c] = lexBlank
		case isIdentStart(b):
			t[c] = lexIdent
		case isDigit(b):
			t[c] = lexDigit
		case b == '"' || b == '\'':
			t[c] = lexQuote
		case b == '/':
			t[c] = lexSlash
		case b == '#':
			t[c] = lexHash
		case b == '.':
			t[c] = lexDot
		}
	}
	return t
}()

const (
	lexPunct = iota // any other byte: a punctuator
	lexBlank        // blanks and newline
	lexIdent
	lexDigit
	lexQuote
	lexSlash // a comment or "/"
	lexHash  // a directive at a line's start, else "#"
	lexDot   // a number (.5) or "."
)

// opensOrCloses marks the punctuators lint's parameter drops follow
// outside a function: "(" may open a parameter list, braces count depth.
var opensOrCloses = [256]bool{'(': true, '{': true, '}': true}

// reserveTokens makes room in toks for the tokens of src, so that they are
// not copied as the slice grows: a token per 5 bytes, about what the
// files lint reads the code of hold once asm is left out (over the 84 of
// include/cute + examples/cute, 6.5 bytes a token; 5.2 to 6.5 in the
// largest, mma_sm90.hpp and the traits headers of sm90 and sm100, which
// a token per 8 bytes made grow, copied, once each). Code written with
// _2,_2 holds more, and grows the slice once or twice.
func reserveTokens(src []byte, toks []token) []token {
	if want := len(src)/5 + 16; cap(toks)-len(toks) < want {
		toks = append(make([]token, 0, len(toks)+want), toks...)
	}
	return toks
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
//
// It looks at the bytes that change where the line ends ('\\', which
// skips the byte after it: a line join; '/', perhaps a comment's start;
// '\n'), each found by bytes.IndexByte within the line (CuTe's headers
// have long macros and #if lines: a switch over every byte of them was a
// tenth of reading arch/mma_sm90.hpp). nl, join and slash are the next of
// each at or after i, found again once i passes them: every byte is
// searched once per kind.
func directiveEnd(src []byte, i int) int {
	nl, join, slash := -1, -1, -1
	for i < len(src) {
		if nl < i {
			nl = nextByte(src, i, len(src), '\n')
			join, slash = -1, -1 // they were looked for up to the old line's end
		}
		if join < i {
			join = nextByte(src, i, nl, '\\')
		}
		if slash < i {
			slash = nextByte(src, i, nl, '/')
		}
		switch {
		case join < slash && join < nl:
			i = join + 2
		case slash < nl:
			if i = slash; i+1 < len(src) && src[i+1] == '*' {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return len(src)
				}
				i += 2 + end + 2
				continue
			}
			i++
		default:
			return nl
		}
	}
	return len(src)
}

// nextByte is the index of the first c in src[from:to], to where there
// is none.
func nextByte(src []byte, from, to int, c byte) int {
	if k := bytes.IndexByte(src[from:to], c); k >= 0 {
		return from + k
	}
	return to
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
