package source

import (
	"bytes"
	"strings"
)

// pyTokens tokenizes Python source: comments and string literals are
// skipped, a newline outside brackets ends a logical line (tNewline), and
// the first token of each logical line carries its indentation.
func pyTokens(src []byte) []token {
	toks := make([]token, 0, len(src)/4)
	depth := 0
	lineFirst, col := true, 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			if depth == 0 && !lineFirst {
				toks = append(toks, makeToken(tNewline, i, i, -1))
			}
			if depth == 0 {
				lineFirst, col = true, 0
			}
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			if lineFirst {
				if c == '\t' {
					col = (col/8 + 1) * 8
				} else {
					col++
				}
			}
			i++
			continue
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
			continue
		case c == '#':
			i = lineEnd(src, i)
			continue
		case c == '"' || c == '\'':
			j := pyStringEnd(src, i)
			indent := -1
			if lineFirst && depth == 0 {
				indent = col
			}
			toks = append(toks, makeToken(tString, i, j, int32(indent)))
			lineFirst = false
			i = j
			continue
		}
		indent := -1
		if lineFirst && depth == 0 {
			indent = col
		}
		lineFirst = false
		switch {
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && j-i <= 2 && isPyPrefix(src[i:j]) {
				end := pyStringEnd(src, j)
				toks = append(toks, makeToken(tString, i, end, int32(indent)))
				i = end
				continue
			}
			toks = append(toks, makeToken(tIdent, i, j, int32(indent)))
			i = j
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := numberEnd(src, i, false)
			toks = append(toks, makeToken(tNumber, i, j, int32(indent)))
			i = j
		default:
			n := punctLen(src, i)
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
			toks = append(toks, punctToken(src, i, n, int32(indent)))
			i += n
		}
	}
	if !lineFirst {
		toks = append(toks, makeToken(tNewline, len(src), len(src), -1))
	}
	return toks
}

func isPyPrefix(p []byte) bool {
	for _, c := range bytes.ToLower(p) {
		switch c {
		case 'r', 'b', 'f', 'u':
		default:
			return false
		}
	}
	return true
}

// pyStringEnd is the offset after the string literal whose quote is at q
// (triple-quoted ones included); an unterminated one-line string ends at
// its line's end, a triple-quoted one at the file's end.
func pyStringEnd(src []byte, q int) int {
	quote := src[q]
	if q+2 < len(src) && src[q+1] == quote && src[q+2] == quote {
		triple := []byte{quote, quote, quote}
		for i := q + 3; i < len(src); {
			if src[i] == '\\' {
				i += 2
				continue
			}
			if bytes.HasPrefix(src[i:], triple) {
				return i + 3
			}
			i++
		}
		return len(src)
	}
	return cppQuotedEnd(src, q+1, quote)
}

// ReadPython reads the CuTe DSL code of a Python file: assignments, def
// parameters (run-time values), and calls of CuTe's layout functions.
func ReadPython(src []byte) *File {
	toks := pyTokens(src)
	p := parser{src: src, str: string(src), toks: toks}
	f := File{Modules: map[string]bool{"cute": true, "cutlass.cute": true, "cutlass": true}}
	// lines are the token indices where logical lines start, with their indents.
	type line struct{ at, indent int }
	var lines []line
	for i, t := range toks {
		if t.indent >= 0 {
			lines = append(lines, line{i, int(t.indent)})
		}
	}
	// blockEnd is the end offset of the block holding line k: up to the next
	// line indented less.
	// ends[k] is the end offset of the block holding line k: up to the next
	// line indented less (one backward pass with a stack of open lines).
	ends := make([]int, len(lines))
	var open []int
	for m := range lines {
		for len(open) > 0 && lines[m].indent < lines[open[len(open)-1]].indent {
			ends[open[len(open)-1]] = toks[lines[m].at].start
			open = open[:len(open)-1]
		}
		open = append(open, m)
	}
	for _, k := range open {
		ends[k] = len(src)
	}
	blockEnd := func(k int) int { return ends[k] }
	for k, ln := range lines {
		i := ln.at
		lineStop := len(toks)
		if k+1 < len(lines) {
			lineStop = lines[k+1].at
		}
		switch {
		case p.isIdent(i) && (p.text(i) == "import" || p.text(i) == "from"):
			pyImport(&p, i, lineStop, f.Modules)
			continue
		case p.isIdent(i) && p.text(i) == "def" && p.isIdent(i+1) && p.is(i+2, "("):
			// Parameters are run-time values in the function's body.
			bodyEnd := len(src)
			if k+1 < len(lines) {
				bodyEnd = blockEnd(k + 1)
			}
			pyParams(&p, i+3, lineStop, bodyEnd, &f)
			continue
		case p.isIdent(i) && (p.is(i+1, "=") || p.is(i+1, ":")):
			valueAt := i + 2
			if p.is(i+1, ":") {
				// name: annotation = value
				valueAt = -1
				for j := i + 2; j < lineStop; j++ {
					if p.is(j, "=") {
						valueAt = j + 1
						break
					}
				}
				if valueAt < 0 {
					continue
				}
			}
			p.pos = valueAt
			v := p.expr(0)
			if v == nil {
				break
			}
			_, e := v.Span()
			f.Bindings = append(f.Bindings, Binding{Name: p.text(i), NameAt: Range{toks[i].start, toks[i].end}, Value: v, Visible: Range{e, blockEnd(k)}})
			f.Roots = append(f.Roots, v)
			continue
		}
		// Any other line: the CuTe calls in it.
		for j := i; j < lineStop; {
			if toks[j].kind == tIdent && !p.is(j-1, ".") && codeNames[lastDotted(&p, j)] {
				p.pos = j
				if x := p.expr(0); x != nil {
					f.Roots = append(f.Roots, x)
					if p.pos > j {
						j = p.pos
						continue
					}
				}
			}
			j++
		}
	}
	f.Writes = pyWrites(&p, &f)
	return &f
}

// pyImport records the names an import line gives CuTe's module:
// "import cutlass.cute as cute", "from cutlass import cute as ct".
func pyImport(p *parser, i, stop int, modules map[string]bool) {
	from := p.text(i) == "from"
	module := ""
	for j := i + 1; j < stop; j++ {
		if !p.isIdent(j) {
			continue
		}
		switch w := p.text(j); w {
		case "import":
			continue
		case "as":
			if j+1 < stop && p.isIdent(j+1) && strings.HasSuffix(module, "cute") {
				modules[p.text(j+1)] = true
			}
			j++
			continue
		default:
			// a dotted module name, or (after from ... import) one imported name
			name := w
			for j+2 < stop && p.is(j+1, ".") && p.isIdent(j+2) {
				name += "." + p.text(j+2)
				j += 2
			}
			if from && module != "" && !strings.HasSuffix(module, "cute") {
				name = module + "." + name
			}
			if from && module == "" {
				module = name
				continue
			}
			module = name
			if strings.HasSuffix(name, "cute") {
				modules[name] = true
				if k := strings.LastIndexByte(name, '.'); k >= 0 {
					modules[name[k+1:]] = true
				}
			}
		}
	}
}

// pyIntegral are the annotations of integer parameters.
var pyIntegral = setOf("int", "Int32", "Int64", "Uint32", "Uint64", "Int16", "Int8", "Uint8", "Uint16")

// lastDotted is the last name of the dotted name starting at i.
func lastDotted(p *parser, i int) string {
	for p.is(i+1, ".") && p.isIdent(i+2) {
		i += 2
	}
	return p.text(i)
}

// pyParams binds the parameters of a def (from token i to the line's end)
// as unknown run-time values visible up to bodyEnd.
func pyParams(p *parser, i, stop, bodyEnd int, f *File) {
	depth := 0
	expectName := true
	for j := i; j < stop; j++ {
		t := p.toks[j]
		switch {
		case t.kind == tPunct:
			switch p.text(j) {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
				if depth < 0 {
					return
				}
			case ",":
				if depth == 0 {
					expectName = true
				}
			}
		case t.kind == tIdent && depth == 0 && expectName:
			expectName = false
			if name := p.text(j); name != "self" && name != "cls" {
				// Only a parameter annotated as an integer is an unknown
				// integer; any other shadows outer names and has no value.
				integer := p.is(j+1, ":") && j+2 < stop && pyIntegral[lastDotted(p, j+2)]
				f.Bindings = append(f.Bindings, Binding{Name: name, NameAt: Range{t.start, t.end}, Unknown: integer, Visible: Range{t.end, bodyEnd}})
			}
		}
	}
}
