package analysis

import (
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
}

// newCallScan is the callScan of src for names.
func newCallScan(src []byte, names *source.Names) *callScan {
	return &callScan{src: src, names: names}
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

// asmCallStops are asmStops and the other two openers.
var asmCallStops = [256]bool{'(': true, ')': true, '"': true, '\'': true, '/': true, '<': true, '{': true}

// asmParensEndCalls is asmParensEnd, and whether source.CalledAt is true
// of an opener in the stretch it walks (inside literals too: MayCall
// tests every opener of the text).
func (cs *callScan) asmParensEndCalls(j int) (end int, ok, called bool) {
	s := cs.src
	depth := 0
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
		}
		j++
	}
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
