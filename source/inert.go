package source

// Inline assembly is most of the bytes of CuTe's generated MMA headers
// (mma_sm90_gmma_ext.hpp: 736 asm statements in 2.8 MB) and holds nothing
// the reader reads: PTX in string literals, and operands that are plain
// names in parentheses, "+r"(d00). The tokens inside an asm statement's
// parentheses are dropped before the reader sees them when that provably
// changes nothing it finds, so that bracket matching, the
// reader's walk and the search for writes skip them.
//
// Every rule of the reader looks at a token and its neighbours: a name
// followed by "=" (a binding or an assignment), by "," or ")" after a type
// (a parameter), after a type (a write), "++"/"--" beside a name, a CuTe
// name (a root), a keyword that opens a construct (template, using,
// namespace, if constexpr, auto [...]). Inert parentheses hold none of
// these, hold no ";" (which ends the reader's parameter lists), and are
// balanced, so brackets outside pair as before. The statement starts after
// ";" or "{" (no expression the reader parses is open there) and its ")"
// is followed by ";" (an expression that reaches it ends there either way).
// The asm keyword, its qualifiers, "(" and ")" stay, so every neighbour
// outside the parentheses is the one it was. TestSkippingChangesNothing
// and FuzzSkipping check the whole File against a read that drops nothing.

// dropInert is false only in tests that compare with a read that drops nothing.
var dropInert = true

var (
	asmQualifiers = setOf("volatile", "__volatile__", "__volatile", "inline", "__inline__", "goto")
	// inertBlockers are the words that open a construct the reader reads.
	inertBlockers = setOf("namespace", "template", "using", "if", "constexpr", "auto")
)

// isAsmWord reports whether w is asm, __asm__ or __asm.
func isAsmWord(w []byte) bool {
	switch string(w) {
	case "asm", "__asm__", "__asm":
		return true
	}
	return false
}

// isPunctByte reports whether t is the one-character punctuator c.
func isPunctByte(src []byte, t token, c byte) bool {
	return t.punct == c
}

// asmStatement follows an asm statement as its tokens are appended, and
// drops the inside of its parentheses once they close inert and a ";"
// follows.
type asmStatement struct {
	base   int // where this file's tokens start
	state  asmState
	open   int // the index of the "(" (asmInside, asmClosed)
	closed int // the index of the ")" (asmClosed)
	inside inertParens
}

type asmState uint8

const (
	asmNone    asmState = iota
	asmKeyword          // after asm and any qualifiers
	asmInside           // inside the parentheses, inert so far
	asmClosed           // after the ")" of inert parentheses
)

// step takes the token just appended to toks (an asm keyword, or any
// token while a statement is followed) and returns toks, its inside
// dropped once the statement proves inert.
func (a *asmStatement) step(src []byte, toks []token) []token {
	last := len(toks) - 1
	t := toks[last]
	switch a.state {
	case asmNone:
		// The keyword only after ";" or "{" (or first).
		if last == a.base || isPunctByte(src, toks[last-1], ';') || isPunctByte(src, toks[last-1], '{') {
			a.state = asmKeyword
		}
	case asmKeyword:
		switch {
		case t.kind == tIdent && asmQualifiers[string(src[t.start:t.end])]:
		case isPunctByte(src, t, '('):
			a.state, a.open, a.inside = asmInside, last, inertParens{}
		default:
			a.state = asmNone
		}
	case asmInside:
		switch {
		case !a.inside.next(src, toks[a.open:], last-a.open):
			a.state = asmNone
		case a.inside.closed:
			a.state, a.closed = asmClosed, last
		}
	case asmClosed:
		a.state = asmNone
		if isPunctByte(src, t, ';') {
			toks[a.open+1], toks[a.open+2] = toks[a.closed], t
			return toks[:a.open+3]
		}
	}
	return toks
}

// inertParens follows the tokens inside parentheses, one at a time, and
// tells whether they are inert (see above) so far.
type inertParens struct {
	open  [64]byte // the brackets open inside, innermost last
	depth int
	// closed is set by the ")" that closes the parentheses.
	closed bool
}

// next reports whether in[j] keeps the inside inert; in[0] is the opening
// "(" and in[1:j] the tokens before in[j], all inert.
func (p *inertParens) next(src []byte, in []token, j int) bool {
	t := in[j]
	switch t.kind {
	case tPunct:
		if t.punct == 0 {
			return true // ::, ->, ==, <=, &&, ...: no rule fires on them alone
		}
		switch c := t.punct; c {
		case '(', '[', '{':
			if p.depth == len(p.open) {
				return false
			}
			p.open[p.depth] = c
			p.depth++
		case ')', ']', '}':
			if p.depth == 0 {
				p.closed = true
				return c == ')'
			}
			p.depth--
			return p.open[p.depth] == opener(c)
		case ';', '=':
			return false
		case '+', '-':
			return !isPunctByte(src, in[j-1], c) // ++x, x--
		}
	case tIdent:
		if w := src[t.start:t.end]; mayBlock(w) && (codeNames[string(w)] || inertBlockers[string(w)]) {
			return false
		}
		// A type before the name (past const, volatile, &, &&, *) would
		// make it a parameter or a declaration.
		k := j - 1
		for k > 0 && isQualifierToken(src, in[k]) {
			k--
		}
		return k == 0 || in[k].kind != tIdent && !isPunctByte(src, in[k], '>') && !isPunctByte(src, in[k], ')')
	}
	return true
}

// blockerShapes has, for each first byte, bit n set when a CuTe name or
// blocker word of n bytes starts with it (bit 31: 31 bytes or more): most
// names inside asm (d00, a0, int32_t) are ruled out without a map lookup.
var blockerShapes = func() (t [256]uint32) {
	for _, set := range []map[string]bool{codeNames, inertBlockers} {
		for w := range set {
			t[w[0]] |= 1 << min(len(w), 31)
		}
	}
	return t
}()

// mayBlock reports whether w may be a CuTe name or a blocker word.
func mayBlock(w []byte) bool { return blockerShapes[w[0]]&(1<<min(len(w), 31)) != 0 }

func opener(closer byte) byte {
	switch closer {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// isQualifierToken reports whether t is one of the tokens the reader looks
// past between a type and the name it declares: const, volatile, &, &&, *.
func isQualifierToken(src []byte, t token) bool {
	s := src[t.start:t.end]
	switch t.kind {
	case tIdent:
		return string(s) == "const" || string(s) == "volatile"
	case tPunct:
		return string(s) == "&" || string(s) == "&&" || string(s) == "*"
	}
	return false
}
