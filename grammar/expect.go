package grammar

import "errors"

// syntaxError turns a reader's error into an *Error at the offending
// token: an *Error is already one; for an unexpected token, what was
// expected there is worked out from the tokens before it (the innermost
// open bracket and the previous token), which names every continuation a
// user would write rather than the one grammar branch the reader was in.
// st is the statement's own tokens (no Expr tokens).
func syntaxError(err error, st stmtTokens, kind stmtKind, endName string) *Error {
	var own *Error
	if errors.As(err, &own) {
		return own
	}
	toks := st.visible()
	at := len(toks) // the end of the statement (or the input)
	var ut *unexpectedToken
	if errors.As(err, &ut) && !ut.tok.EOF() && ut.tok.Type != tokEnd {
		for i, t := range toks {
			if t.Pos.Offset == ut.tok.Pos.Offset {
				at = i
				break
			}
		}
	}
	var r Range
	var found string
	if at < len(toks) {
		r = tokSpan(toks[at])
		found = foundText(toks[at])
	} else {
		e := tokenEnd(toks[len(toks)-1])
		r = Range{Pos: e, End: e}
		found = endName
	}
	expected := expectAfter(toks[:at], kind, endName)
	if at == 0 {
		return errorAt(r, found, expected, "expected %s, found %s", expected, found)
	}
	return errorAt(r, found, expected, "expected %s after %s, found %s", expected, prevText(toks[at-1]), found)
}

// prevText names the token before an error: values as written, punctuation quoted.
func prevText(t token) string {
	switch t.Type {
	case tokInt, tokStatic, tokIdent, tokWord, tokPySwizzle:
		if t.Type == tokIdent && (t.Value == "is" || t.Value == "assert") {
			return quote(t.Value)
		}
		v := t.Value
		if len(v) > 40 {
			v = v[:37] + "..."
		}
		return v
	}
	return foundText(t)
}

// bracket is an open bracket and what it opened.
type bracket struct {
	commas int
	open   string // ( [ { <
	what   string // tuple, call, tiler, tirx, swizzle, angle, mlir, braces, pointer-bits, pointer-addr
}

func isValueEnd(t token) bool {
	switch t.Type {
	case tokInt, tokStatic, tokWord, tokString, tokPySwizzle:
		return true
	case tokIdent:
		return t.Value != "is" && t.Value != "assert"
	case tokPunct:
		switch t.Value {
		case ")", "]", "}", ">", "?", "_":
			return true
		}
	}
	return false
}

const elementWords = "an integer, '_', '?', a name or '('"

// expectAfter says what may follow the tokens in prefix.
func expectAfter(prefix []token, kind stmtKind, endName string) string {
	if len(prefix) == 0 {
		if kind == kindExpr {
			return "a descriptor"
		}
		return "a statement"
	}
	var stack []bracket
	sawOp := false
	for i, t := range prefix {
		var before token
		if i > 0 {
			before = prefix[i-1]
		}
		if len(stack) == 0 && kind == kindAssert && i > 0 && (t.Type == tokEqEq || t.Type == tokIdent && t.Value == "is") {
			sawOp = true
		}
		if t.Type != tokPunct {
			continue
		}
		switch t.Value {
		case "(":
			what := "tuple"
			switch {
			case before.Type == tokIdent && isValueEnd(before):
				what = "call"
			case before.Type == tokPunct && before.Value == "]" && len(stack) == 0 && i >= 3:
				what = "pointer-addr"
			}
			stack = append(stack, bracket{open: "(", what: what})
		case "[":
			what := "tiler"
			if before.Type == tokIdent && (before.Value == "S" || before.Value == "R") {
				what = "tirx"
			} else if before.Type == tokIdent && isValueEnd(before) {
				what = "pointer-bits"
			}
			stack = append(stack, bracket{open: "[", what: what})
		case "{":
			stack = append(stack, bracket{open: "{", what: "braces"})
		case "<":
			what := "angle"
			if before.Type == tokIdent && (before.Value == "S" || before.Value == "Sw" || before.Value == "Swizzle") {
				what = "swizzle"
			} else if before.Type == tokIdent && i >= 3 && prefix[i-2].Value == "." {
				what = "mlir"
			}
			stack = append(stack, bracket{open: "<", what: what})
		case ")", "]", "}", ">":
			if n := len(stack); n > 0 && closerOf(stack[n-1].open) == t.Value {
				stack = stack[:n-1]
			}
		case ",":
			if n := len(stack); n > 0 {
				stack[n-1].commas++
			}
		}
	}
	prev := prefix[len(prefix)-1]
	var top bracket
	if len(stack) > 0 {
		top = stack[len(stack)-1]
	}
	if isValueEnd(prev) {
		switch top.what {
		case "tuple":
			return "',' or ')'"
		case "pointer-addr":
			return "')'"
		case "call":
			return "',' or ')'"
		case "tiler":
			return "';' or ']'"
		case "tirx", "pointer-bits":
			return "']'"
		case "braces":
			return "'}'"
		case "swizzle":
			if top.commas < 2 {
				return "','"
			}
			return "'>'"
		case "angle":
			return "',' or '>'"
		case "mlir":
			return "'>'"
		}
		if kind == kindAssert && !sawOp {
			return "'==' or 'is'"
		}
		return endName
	}
	switch prev.Value {
	case "@":
		return "a mode number or an axis name"
	case "/":
		return "a denominator"
	case ":":
		return "a stride"
	case "=", "==", "is", "assert":
		return "an expression"
	case "o":
		return "a swizzle, an offset or a layout"
	case "+":
		return "R[...] or an offset such as 5@warpid"
	case "!":
		return "'cute'"
	case ".":
		return "a CuTe type name"
	case "{":
		return "'}'"
	case ";", "[":
		if top.what == "tirx" {
			return "a layout"
		}
		if top.what == "pointer-bits" {
			return "an element width such as 16b"
		}
		if prev.Value == "[" {
			return "a tiler mode or ']'"
		}
		return "a tiler mode"
	case "<":
		switch top.what {
		case "swizzle":
			return "an integer"
		case "mlir":
			return "a quoted descriptor"
		}
		return "a layout"
	case "(":
		if top.what == "call" {
			return "an argument or ')'"
		}
		return "an integer, '_', '?', a name, '(' or ')'"
	case ",":
		switch top.what {
		case "call":
			return "an argument"
		case "swizzle":
			return "an integer"
		case "angle":
			return "a layout"
		}
		return elementWords
	}
	return "a value"
}

func closerOf(open string) string {
	switch open {
	case "(":
		return ")"
	case "[":
		return "]"
	case "{":
		return "}"
	}
	return ">"
}
