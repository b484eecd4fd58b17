package analysis

import (
	"bytes"
	"hash/maphash"
	"math/bits"

	"github.com/cute-lsp/cute-lsp/source"
)

// Lint's findings of code need a read of the code only where
// source.MayCall(src, findingNames) says a call may be written (see
// code_skip.go). In CuTe's asm headers (arch/mma_sm90_gmma*.hpp, 7.7 MB)
// that test was a pass of its own over every byte, stopping at 60,000
// openers in the largest ("+r"(d000), "{%0, %1},"), as long as the
// descriptor scan's pass over the same bytes. callScan answers it inside
// the descriptor scan's pass (cppRegionScan): the openers of each asm
// statement the scan walks over are tested as the walk meets them
// (asmParensEndCalls), most of them at a glance (they follow a quote),
// and the stretches between those statements with source.MayCallIn, as
// before. MayCall is the disjunction of source.CalledAt over every opener
// of the text, and the statements and the stretches between them cover
// the text: the answer is MayCall's, exactly (TestCallScanIsMayCall,
// FuzzCallScanIsMayCall).

// callScan is source.MayCall(src, names), answered as the descriptor scan
// goes.
type callScan struct {
	src     []byte
	names   *source.Names
	checked int  // the openers before it are tested
	called  bool // one of them may follow a name of names
	// operands, where set, is the memo of asm statements' operand lists
	// (asmOperands) the scan consults and fills.
	operands *asmOperands
}

// newCallScan is the callScan of src for names, with operands as its
// memo of operand lists (nil: none), emptied for src.
func newCallScan(src []byte, names *source.Names, operands *asmOperands) *callScan {
	if operands != nil {
		operands.reset()
	}
	return &callScan{src: src, names: names, operands: operands}
}

// upTo tests the openers before end not tested yet.
func (c *callScan) upTo(end int) {
	if !c.called && end > c.checked {
		c.called = source.MayCallIn(c.src, c.checked, end, c.names)
	}
	c.checked = max(c.checked, end)
}

// calledAt is source.CalledAt of the opener at o.
func (c *callScan) calledAt(o int) bool { return source.CalledAt(c.src, o, c.names) }

// mayCall is source.MayCall(src, names) once the scan has passed the
// whole text.
func (c *callScan) mayCall() bool {
	c.upTo(len(c.src))
	return c.called
}

// asmStatement is asmStatementEnd of the statement at i, whose openers it
// tests on the way (those before i with upTo); where the statement is not
// passed over (ok false), nothing is tested.
func (c *callScan) asmStatement(i int) (end int, ok bool) {
	if c.called {
		return asmStatementEnd(c.src, i)
	}
	open, ok := asmOpenParen(c.src, i)
	if !ok {
		return 0, false
	}
	end, ok, called := c.asmParensEndCalls(open)
	if !ok {
		return 0, false
	}
	// Between the keyword and its '(' are words and blanks only: no opener.
	c.upTo(i)
	c.called = c.called || called
	c.checked = max(c.checked, end)
	return end, true
}

// operandSeparators are the bytes between the operands of an asm
// statement: blanks, line ends, the commas and the colons.
var operandSeparators = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, ',': true, ':': true}

// asmCallStops are asmStops, the other two openers, and the colon that
// may start an operand list (asmOperands).
var asmCallStops = [256]bool{'(': true, ')': true, '"': true, '\'': true, '/': true, '<': true, '{': true, ':': true}

// asmParensEndCalls is asmParensEnd, and whether source.CalledAt is true
// of an opener in the stretch it walks (inside literals too: MayCall
// tests every opener of the text). Where the scan has a memo of operand
// lists (asmOperands), a list it knows is taken in one look-up.
func (cs *callScan) asmParensEndCalls(j int) (end int, ok, called bool) {
	return cs.asmWalk(j, 0, cs.operands != nil)
}

// asmWalk is asmParensEndCalls from j, at depth parentheses, outside
// literals; with memo, an operand list at depth 1 is looked up in
// cs.operands.
func (cs *callScan) asmWalk(j, depth int, memo bool) (end int, ok, called bool) {
	s := cs.src
	for {
		// The bytes between stops, one table look-up each, in a loop of
		// their own (a third of the instructions of the loop around it).
		for j < len(s) && !asmCallStops[s[j]] {
			j++
		}
		if j >= len(s) {
			return 0, false, false
		}
		switch c := s[j]; c {
		case '(':
			depth++
			// j > 0: the walk starts at the statement's '(', after its keyword.
			called = called || source.MayEndName(s[j-1]) && cs.calledAt(j)
		case '<', '{':
			called = called || source.MayEndName(s[j-1]) && cs.calledAt(j)
		case ')':
			if depth--; depth == 0 {
				return j + 1, true, called
			}
		case '"', '\'':
			if c == '"' {
				if s[j-1] == 'R' { // j > 0, as above
					return 0, false, false // a raw string: its end is not a quote's
				}
				if k, ok := operandEnd(s, j); ok {
					// An operand list ("+r"(d00), "+r"(d01),\n "+r"(d02),
					// ...): the blanks, commas and colons before the
					// next operand (none of them a stop) and that operand
					// are taken here, without the switch.
					for j = k; ; j = k {
						for j < len(s) && operandSeparators[s[j]] {
							j++
						}
						if j >= len(s) || s[j] != '"' {
							break
						}
						if k, ok = operandEnd(s, j); !ok {
							break
						}
					}
					continue
				}
			}
			// Most literals of an asm statement are a few bytes with
			// neither an opener nor an escape ("+r", "l"), or a line of
			// PTX without either: a byte loop finds their end without a
			// call (faster here than eight bytes at a time, measured);
			// quotedEndCalls goes on from where it stopped (the bytes it
			// passed hold none of its stops).
			stops := &quoteStops
			if c == '\'' {
				stops = &apostropheStops
			}
			k := j + 1
			for k < len(s) && !stops[s[k]] {
				k++
			}
			if k < len(s) && s[k] == c {
				j = k
			} else {
				var in bool
				j, in = cs.quotedEndCalls(k, c)
				called = called || in
			}
			if j >= len(s) || s[j] != c {
				return 0, false, false // unterminated
			}
		case '/':
			if j+1 < len(s) && (s[j+1] == '/' || s[j+1] == '*') {
				return 0, false, false
			}
		case ':':
			if memo && depth == 1 {
				if end, in, ok := cs.operands.end(cs, j); ok {
					return end, true, called || in
				}
			}
		}
		j++
	}
}

// asmOperands is asmParensEndCalls' memo of the operand lists of a
// text's asm statements, each known by its bytes: from the start of the
// line whose first byte other than a blank is the list's ':', at depth 1,
// to the first ';' after it. CuTe's GMMA headers repeat a few hundred
// lists in thousands of statements (mma_sm90_gmma_ext.hpp: 212 in 736; the
// accumulators "+r"(d000), ... "+r"(d127) and the descriptors and scales
// of every variant of a shape), a third of their bytes: a list met again
// is passed over in one hash and one compare of its bytes, where the walk
// looks at each byte (an operand "+r"(d000) is four stops). The lists of
// one header are not those of another (over include/cute, 708 lists
// whichever way the headers are shared out), so the memo is of one text:
// a list is compared with its first occurrence there, and nothing is
// copied.
//
// The walk from such a line start closes the statement (if it does
// before the ';') as it would wherever the line is written: it reads no
// byte before the line but the line end before it, and none after the
// statement's ')' that changes what it does (operandEnd's look-ahead
// fails at the ';' or before it, and the literals' words read eight
// bytes at a time stop at their closing quote); an opener's look-back
// (source.CalledAt) stops at the ':' at the latest, and the line join it
// would see before the line (a '\\' or '\r' ending the line before) is
// ruled out. A list whose walk does not close the statement before the
// ';' (a ';' inside a literal, a comment, a raw string) is known as
// unknown and walked.
type asmOperands struct {
	seed  maphash.Seed
	lists map[uint64]operandList // by the hash of their bytes
}

// operandList is a list of src: its bytes (at its first occurrence),
// where the walk from its line start closes its statement, from that
// start (0: unknown), and whether an opener on the way may follow a name.
type operandList struct {
	at, n   int32
	closeAt int32
	called  bool
}

// reset empties m for the lists of another text, or of the same asked of
// another set of names.
func (m *asmOperands) reset() {
	if m.lists == nil {
		m.lists, m.seed = make(map[uint64]operandList), maphash.MakeSeed()
	}
	clear(m.lists)
}

// hashOperandList is the hash the memo keeps lists by (a test makes them
// all collide).
var hashOperandList = maphash.Bytes

// The lists the memo takes: shorter ones are walked at less cost than a
// hash and a compare; CuTe's are a few hundred bytes to 2 KB.
const (
	minOperandsBytes = 64
	maxOperandsBytes = 16 << 10
)

// end is the end of the statement whose operand list starts at the ':' at
// colon, at depth 1, and whether an opener of the list may follow a name;
// ok is false where the memo does not answer.
func (m *asmOperands) end(cs *callScan, colon int) (end int, called, ok bool) {
	s := cs.src
	ls := colon
	for ls > 0 && (s[ls-1] == ' ' || s[ls-1] == '\t') {
		ls--
	}
	if ls < 2 || s[ls-1] != '\n' || s[ls-2] == '\\' || s[ls-2] == '\r' {
		return 0, false, false
	}
	k := bytes.IndexByte(s[colon:min(len(s), colon+maxOperandsBytes)], ';')
	if k < 0 {
		return 0, false, false
	}
	semi := colon + k
	if semi+1-ls < minOperandsBytes {
		return 0, false, false
	}
	list := s[ls : semi+1]
	h := hashOperandList(m.seed, list)
	l, known := m.lists[h]
	switch {
	case !known:
		l = cs.operandListAt(ls, semi)
		m.lists[h] = l
	case int(l.n) != len(list) || !bytes.Equal(s[l.at:int(l.at)+len(list)], list):
		return 0, false, false // another list of the same hash: walked
	}
	if l.closeAt == 0 {
		return 0, false, false
	}
	return ls + int(l.closeAt), l.called, true
}

// operandListAt is the operandList whose line starts at ls, the first
// ';' after it at semi: the walk from ls at depth 1, without the memo.
func (cs *callScan) operandListAt(ls, semi int) operandList {
	l := operandList{at: int32(ls), n: int32(semi + 1 - ls)}
	if end, ok, called := cs.asmWalk(ls, 1, false); ok && end <= semi {
		l.closeAt, l.called = int32(end-ls), called
	}
	return l
}

// quoteStops and apostropheStops are the bytes where a literal opened by
// a quote or an apostrophe ends or where quotedEndCalls has more to do:
// its closing byte, a backslash, a line end, an opener.
var quoteStops, apostropheStops = literalStops('"'), literalStops('\'')

func literalStops(quote byte) (t [256]bool) {
	for _, c := range []byte{quote, '\\', '\n', '(', '<', '{'} {
		t[c] = true
	}
	return t
}

// Word arithmetic for the openers (quotedEndCalls).
const (
	parens = '(' * bytesOnes
	angles = '<' * bytesOnes
	braces = '{' * bytesOnes
)

// quotedEndCalls is quotedEnd, and whether source.CalledAt is true of an
// opener inside the literal (an escaped one included: the backslash
// before it makes it true).
func (cs *callScan) quotedEndCalls(i int, quote byte) (end int, called bool) {
	s := cs.src
	q := uint64(quote) * bytesOnes
	opener := func(c byte) bool { return c == '(' || c == '<' || c == '{' }
	for {
		for i+8 <= len(s) {
			x := load64(s, i)
			if m := zeroBytes(x^q) | zeroBytes(x^backslashes) | zeroBytes(x^newlines) |
				zeroBytes(x^parens) | zeroBytes(x^angles) | zeroBytes(x^braces); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(s) && s[i] != quote && s[i] != '\\' && s[i] != '\n' && !opener(s[i]) {
			i++
		}
		if i >= len(s) {
			return len(s), called
		}
		switch c := s[i]; {
		case opener(c):
			// i > 0: after the literal's opening quote.
			called = called || source.MayEndName(s[i-1]) && cs.calledAt(i)
			i++
			continue
		case c != '\\':
			return i, called
		}
		if i+1 < len(s) && opener(s[i+1]) {
			called = called || cs.calledAt(i+1)
		}
		i += 2 // the escaped byte, whatever it is
		if i >= len(s) {
			return len(s), called
		}
	}
}

// operandEnd is the offset after the operand at j, a quote, when it is
// written as most of CuTe's asm operands are: a constraint of a letter,
// maybe after '+' or '=', and a name in parentheses ("+r"(d000),
// "l"(desc_a)); ok is false otherwise, and for an apostrophe ('r"(b) is a
// literal asmParensEnd ends at an apostrophe, not at the quote). Such an
// operand holds no byte asmParensEndCalls acts on but its quotes and
// parentheses: its '(' follows a quote, where source.CalledAt is false,
// and its ')' closes that '(', inside the statement's own parentheses.
func operandEnd(s []byte, j int) (end int, ok bool) {
	// The constraint and the '(' in one bounds check: a letter, '"', '('
	// after the quote, maybe after '+' or '='.
	if j+5 > len(s) {
		return 0, false
	}
	b := s[j : j+5 : j+5]
	c := 1 // the constraint's letter
	if b[1] == '+' || b[1] == '=' {
		c = 2
	}
	if b[0] != '"' || b[c]-'a' > 'z'-'a' || b[c+1] != '"' || b[c+2] != '(' {
		return 0, false
	}
	k := j + c + 3
	for k < len(s) && identBytes[s[k]] {
		k++
	}
	if k >= len(s) || s[k] != ')' {
		return 0, false
	}
	return k + 1, true
}
