package source

// tokKind is the kind of a token of either language.
type tokKind uint8

const (
	tIdent tokKind = iota
	tNumber
	tPunct
	tNewline // Python: the end of a logical line
	tString  // a string or character literal
)

// token is one token: its kind and byte range; its text is src[start:end].
type token struct {
	// tokClass holds kind and punct in one field: a token of four fields
	// is kept in registers where a loop copies it (the compiler splits a
	// struct into its fields up to four), and the readers' loops copy
	// every token of a file.
	tokClass
	// indent is, for the first token of a Python logical line, the line's
	// indentation in columns; -1 elsewhere. An int32 beside kind and punct
	// keeps a token at 24 bytes (a traits header has 200,000 tokens).
	indent     int32
	start, end int
}

type tokClass struct {
	kind tokKind
	// punct is the byte of a one-byte punctuator, 0 for any other token:
	// the readers ask "is token k a ';'" of most tokens, and one byte's
	// compare is cheaper than the kind, the length and a load of the
	// source it stands for.
	punct byte
}

// makeToken is the token of kind at src[start:end], other than a
// punctuator (punctToken).
func makeToken(kind tokKind, start, end int, indent int32) token {
	return token{tokClass: tokClass{kind: kind}, start: start, end: end, indent: indent}
}

// punctToken is the punctuator src[i:i+n], its byte in punct when n is 1.
func punctToken(src []byte, i, n int, indent int32) token {
	t := makeToken(tPunct, i, i+n, indent)
	if n == 1 {
		t.punct = src[i]
	}
	return t
}

// byteClass holds, for each byte, the classes below: the tokenizers ask
// for each byte of every file, and one load is cheaper than the chain of
// comparisons it stands for.
var byteClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			t[c] = classIdentStart | classIdentByte
		case c >= '0' && c <= '9':
			t[c] = classIdentByte
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			t[c] = classSpace
		}
	}
	return t
}()

const (
	classIdentStart = 1 << iota // _, letters and every byte of a multi-byte character
	classIdentByte              // those and digits
	classSpace                  // blanks other than newline
)

func isIdentStart(c byte) bool { return byteClass[c]&classIdentStart != 0 }

func isIdentByte(c byte) bool { return byteClass[c]&classIdentByte != 0 }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// numberEnd is the end of a number literal starting at i: digits, letters
// (hex digits, suffixes, exponents), '.', digit separators ' (C++) and _.
func numberEnd(src []byte, i int, cpp bool) int {
	for i < len(src) {
		c := src[i]
		switch {
		case isIdentByte(c) || c == '.':
			i++
		case cpp && c == '\'' && i+1 < len(src) && isIdentByte(src[i+1]):
			i++
		case (c == '+' || c == '-') && i > 0 && (src[i-1] == 'e' || src[i-1] == 'E' || src[i-1] == 'p' || src[i-1] == 'P') && !isHexPrefixed(src, i):
			i++
		default:
			return i
		}
	}
	return i
}

// isHexPrefixed reports whether the number holding position i is hex (0x...), where 'e' is a digit.
func isHexPrefixed(src []byte, i int) bool {
	j := i
	for j > 0 && (isIdentByte(src[j-1]) || src[j-1] == '\'') {
		j--
	}
	return j+1 < len(src) && src[j] == '0' && (src[j+1] == 'x' || src[j+1] == 'X')
}

// parseIntLiteral reads a C++ or Python integer literal (decimal, hex,
// octal, binary, separators, suffixes); ok is false for floats and
// overflow.
func parseIntLiteral(text string) (int64, bool) {
	base := int64(10)
	i := 0
	if len(text) > 1 && text[0] == '0' {
		switch text[1] {
		case 'x', 'X':
			base, i = 16, 2
		case 'b', 'B':
			base, i = 2, 2
		case 'o', 'O':
			base, i = 8, 2
		default:
			base, i = 8, 1
		}
	}
	var v int64
	digits := 0
	for ; i < len(text); i++ {
		c := text[i]
		var d int64
		switch {
		case c == '\'' || c == '_':
			continue
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = int64(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = int64(c-'A') + 10
		default:
			// a suffix: u, l, ll, z, in any case and order; anything else
			// (., e, f) makes it not an integer.
			for _, s := range text[i:] {
				switch s {
				case 'u', 'U', 'l', 'L', 'z', 'Z':
				default:
					return 0, false
				}
			}
			return v, digits > 0 || base == 8
		}
		if d >= base {
			return 0, false
		}
		if v > (1<<62)/base {
			return 0, false
		}
		v = v*base + d
		digits++
	}
	return v, digits > 0 || base == 8
}

// punctLen is the length of the punctuator at src[i:]: the multi-character
// ones the parsers need, else 1. ">" is always one character, so that
// "Shape<Shape<_2>>" closes two template argument lists.
func punctLen(src []byte, i int) int {
	if i+1 < len(src) && pairStart[src[i]] {
		switch string(src[i : i+2]) {
		case "::", "->", "<<", "<=", "==", "!=", "&&", "||", "**", "//":
			return 2
		}
	}
	return 1
}

// pairStart marks the first bytes of punctLen's two-character
// punctuators: after any other byte (",", ";", ">", "(") it looks no further.
var pairStart = [256]bool{':': true, '-': true, '<': true, '=': true, '!': true, '&': true, '|': true, '*': true, '/': true}

// wordShapes is a cheap first test of a set of words: for each first
// byte, a bit for each length (63 for any longer) of a word of the set.
// Most identifiers of a file fail it, and need no map look-up.
type wordShapes [256]uint64

func shapesOf(sets ...map[string]bool) *wordShapes {
	var s wordShapes
	for _, set := range sets {
		for w := range set {
			s.add(w)
		}
	}
	return &s
}

func (s *wordShapes) add(w string) {
	if w != "" {
		s[w[0]] |= 1 << min(len(w), 63)
	}
}

// addEnd adds w to shapes of the words' last bytes (a second test: for
// each last byte, a bit for each length).
func (s *wordShapes) addEnd(w string) {
	if w != "" {
		s[w[len(w)-1]] |= 1 << min(len(w), 63)
	}
}

// mayHave reports whether w may be a word of the set (false: it is not).
func (s *wordShapes) mayHave(w string) bool {
	return w != "" && s[w[0]]&(1<<min(len(w), 63)) != 0
}

// codeNameShapes and cppTemplateShapes are the first tests of codeNames
// and cppTemplates.
var (
	codeNameShapes    = shapesOf(codeNames)
	cppTemplateShapes = shapesOf(cppTemplates)
)

// wordMemo remembers, for the words of one file asked last, whether a set
// holds them: a direct-mapped table of their places in the file, a slot
// per first byte, last byte and length. A file names the same few words
// again and again (Shape, Layout, _64, using), and comparing a word's
// bytes with the slot's is cheaper than hashing it for a map.
type wordMemo [256]struct {
	start, end int32
	in         bool
}

func memoSlot(w []byte) byte { return w[0] ^ w[len(w)-1]<<1 ^ byte(len(w))<<4 }

// lookup is whether the set holds w (a word of src), if known.
func (m *wordMemo) lookup(src, w []byte) (in, known bool) {
	e := &m[memoSlot(w)]
	if int(e.end-e.start) == len(w) && string(src[e.start:e.end]) == string(w) {
		return e.in, true
	}
	return false, false
}

// remember notes whether the set holds src[start:end] (a word).
func (m *wordMemo) remember(src []byte, start, end int, in bool) {
	m[memoSlot(src[start:end])] = struct {
		start, end int32
		in         bool
	}{int32(start), int32(end), in}
}
