package grammar

import (
	"fmt"
)

// MaxExprLength is the longest expression (a descriptor, a call, the right
// side of a binding, one side of an assert) in bytes. CuTe's prints of the
// largest layouts anyone writes are a few kilobytes; past the limit the
// expression is an error at its range, refused before it is scanned, so
// that a 10 MB line costs a pass over its bytes, not a token per byte.
const MaxExprLength = 256 << 10

// tooLong is the error of an expression of text starting at start that is
// longer than MaxExprLength; nil when it is not.
func tooLong(text string, start Position) *Error {
	if len(text) <= MaxExprLength {
		return nil
	}
	r := Range{Pos: start, End: start.advance(text)}
	return errorAt(r, "an expression of "+groupThousands(len(text))+" bytes",
		fmt.Sprintf("at most %s bytes", groupThousands(MaxExprLength)),
		"expression of %s bytes is longer than the limit of %s", groupThousands(len(text)), groupThousands(MaxExprLength))
}

// scanChecked appends the visible tokens of src (no line breaks or
// comments) to tokens, checking the limits of checkLimits as it goes: it
// stops at the first bracket past MaxDepth or token past MaxTokenLength,
// so that 2 MB of '(' costs 257 tokens, not two million.
func scanChecked(tokens []token, src string, offset, line, col int) ([]token, *Error) {
	s := scanner{src: src, base: offset, line: line, col: col}
	depth := 0
	for {
		t, ok := s.next()
		if !ok {
			return tokens, nil
		}
		if elided(t) {
			continue
		}
		if err := limitOf(t, &depth); err != nil {
			return tokens, err
		}
		tokens = append(tokens, t)
	}
}

// limitOf checks one token against MaxTokenLength and, counting brackets
// in depth, MaxDepth.
func limitOf(t token, depth *int) *Error {
	if len(t.Value) > MaxTokenLength && t.Type != tokExpr {
		return errorAt(tokSpan(t), foundText(t), fmt.Sprintf("at most %d characters", MaxTokenLength),
			"token of %d characters is longer than the limit of %d", len(t.Value), MaxTokenLength)
	}
	if t.Type != tokPunct {
		return nil
	}
	switch t.Value {
	case "(", "[", "{", "<":
		*depth++
		if *depth > MaxDepth {
			return errorAt(tokSpan(t), quote(t.Value), fmt.Sprintf("at most %d nested brackets", MaxDepth),
				"brackets nested deeper than the limit of %d", MaxDepth)
		}
	case ")", "]", "}", ">":
		if *depth > 0 {
			*depth--
		}
	}
	return nil
}

// groupThousands writes n with commas between groups of three digits.
func groupThousands(n int) string {
	s := fmt.Sprint(n)
	var out []byte
	for i := range len(s) {
		if i > 0 && s[i-1] != '-' && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
