package grammar

import (
	"strconv"
	"strings"
)

// layoutLiteral reads a layout or an IntTuple literal:
//
//	layout = tuple [ ":" tuple ]
//	tuple  = "(" [ tuple { "," tuple } [ "," ] ] ")" | leaf
//	leaf   = ( Int | Static | unknown | "_" | Name [ "{" "}" ] ) [ "/" Int ] { "@" ( Int | Name ) }
//
// A name directly followed by "(", "[" or "<", and the swizzle spellings,
// start other productions (startsLiteral).
func (p *literalParser) layoutLiteral() (Node, error) {
	shape, err := p.tuple()
	if err != nil {
		return nil, err
	}
	if t := p.lex.Peek(); t.Type == tokPunct && t.Value == ":" {
		p.lex.Next()
		stride, err := p.tuple()
		if err != nil {
			return nil, err
		}
		l := p.newLayout()
		*l = Layout{Range: join(shape.Span(), stride.Span()), Shape: shape, Stride: stride}
		return l, nil
	}
	return shape, nil
}

func startsLiteral(lex *sliceSource) bool {
	t := lex.Peek()
	switch t.Type {
	case tokInt, tokStatic:
		return true
	case tokPunct:
		return t.Value == "(" || t.Value == "?" || t.Value == "_"
	case tokIdent:
		if next := lex.PeekAfter(); next.Type == tokPunct {
			switch next.Value {
			case "(", "[", "<", ".":
				return false
			}
		}
		return true
	}
	return false
}

type literalParser struct {
	lex   *sliceSource
	errs  ErrorList
	elems []Node // the elements of the tuples being read, innermost last
	// ints is where integer takes its Int nodes from while it lasts: one
	// allocation for the integers of an expression (see readExpr), not one
	// each. They make a quarter of a sheet's nodes.
	ints []Int
	// tuples is the same for the Tuple nodes of tuple, and elems for
	// their Elems.
	tuples    []Tuple
	elemSlabs []Node
}

func (p *literalParser) fail(e *Error) { p.errs = append(p.errs, e) }

// unexpectedToken is the error of a reader that met a token the grammar
// does not allow where it stands; syntaxError explains it.
type unexpectedToken struct{ tok token }

func (e *unexpectedToken) Error() string { return "unexpected " + foundText(e.tok) }

func unexpected(t *token) error { return &unexpectedToken{*t} }

func isPunctTok(t *token, v string) bool { return t.Type == tokPunct && t.Value == v }

func (p *literalParser) tuple() (Node, error) {
	open := p.lex.Peek()
	if !isPunctTok(open, "(") {
		return p.leaf()
	}
	p.lex.Next()
	t := p.newTuple()
	t.Range = tokSpan(*open)
	if close := p.lex.Peek(); isPunctTok(close, ")") {
		p.lex.Next()
		t.End = tokSpan(*close).End
		return t, nil
	}
	mark := len(p.elems)
	done := func(close *token) (Node, error) {
		p.lex.Next()
		t.End = tokSpan(*close).End
		t.Elems = p.popNodes(mark)
		return t, nil
	}
	for {
		e, err := p.tuple()
		if err != nil {
			return nil, err
		}
		p.elems = append(p.elems, e)
		sep := p.lex.Peek()
		switch {
		case isPunctTok(sep, ","):
			p.lex.Next()
			if close := p.lex.Peek(); isPunctTok(close, ")") { // pycute's 1-tuple (4,)
				return done(close)
			}
		case isPunctTok(sep, ")"):
			return done(sep)
		default:
			return nil, unexpected(sep)
		}
	}
}

func (p *literalParser) leaf() (Node, error) {
	t := p.lex.Peek()
	var base Node
	switch {
	case t.Type == tokInt || t.Type == tokStatic:
		p.lex.Next()
		base = p.integer(*t)
	case isPunctTok(t, "?"):
		p.lex.Next()
		u, err := p.unknown(*t)
		if err != nil {
			return nil, err
		}
		base = u
	case isPunctTok(t, "_"):
		p.lex.Next()
		base = &Underscore{Range: tokSpan(*t)}
	case t.Type == tokIdent:
		p.lex.Next()
		n := p.newName()
		*n = Name{Range: tokSpan(*t), Name: t.Value}
		if open := p.lex.Peek(); isPunctTok(open, "{") {
			p.lex.Next()
			close := p.lex.Peek()
			if !isPunctTok(close, "}") {
				return nil, unexpected(close)
			}
			p.lex.Next()
			n.Braced = true
			n.End = tokSpan(*close).End
		}
		base = n
	default:
		return nil, unexpected(t)
	}
	slash := p.lex.Peek()
	at := isPunctTok(slash, "@")
	if !isPunctTok(slash, "/") && !at {
		return base, nil
	}
	b := &Basis{Range: base.Span(), Count: base}
	switch base.(type) {
	case *Int, *Unknown:
	default:
		p.fail(errorAt(base.Span(), quote(nodeText(base)), "an integer or '?'",
			"a basis count must be an integer or '?', found %s", quote(nodeText(base))))
	}
	if !at {
		p.lex.Next()
		d := p.lex.Peek()
		if d.Type != tokInt && d.Type != tokStatic {
			return nil, unexpected(d)
		}
		p.lex.Next()
		before := len(p.errs)
		den := p.integer(*d)
		b.Den = den
		b.End = den.End
		if den.Value == 0 && len(p.errs) == before {
			p.fail(errorAt(den.Range, quote(den.Text), "a non-zero denominator",
				"zero denominator in basis count %s/%s", nodeText(base), den.Text))
		}
		if next := p.lex.Peek(); !isPunctTok(next, "@") {
			p.fail(errorAt(tokRange(*next, b.End), foundText(*next), "'@'",
				"expected '@' after the fractional count %s/%s, found %s", nodeText(base), den.Text, foundText(*next)))
			return b, nil
		}
	}
	for at := p.lex.Peek(); isPunctTok(at, "@"); at = p.lex.Peek() {
		p.lex.Next()
		m := p.lex.Peek()
		if m.Type != tokInt && m.Type != tokIdent {
			return nil, unexpected(m)
		}
		p.lex.Next()
		mode := &BasisMode{Range: tokSpan(*m), Text: m.Value, Index: -1}
		if m.Type == tokInt {
			v, err := strconv.ParseInt(m.Value, 10, 64)
			switch {
			case err != nil && m.Value[0] != '-':
				p.fail(errorAt(mode.Range, quote(m.Value), "a mode number", "basis mode %s overflows int64", m.Value))
			case err != nil || v < 0:
				p.fail(errorAt(mode.Range, quote(m.Value), "a mode number or an axis name",
					"a basis mode must be a non-negative integer or an axis name, found %s", m.Value))
			default:
				mode.Index = v
			}
		} else {
			mode.Axis = m.Value
		}
		b.Modes = append(b.Modes, mode)
		b.End = mode.End
	}
	return b, nil
}

// tokRange is the range of t, or an empty range at end when t is the end of input.
func tokRange(t token, end Position) Range {
	if t.EOF() || t.Type == tokEnd {
		return Range{Pos: end, End: end}
	}
	return tokSpan(t)
}

// unknown reads the rest of "?{attrs}" after the "?".
func (p *literalParser) unknown(q token) (*Unknown, error) {
	u := &Unknown{Range: tokSpan(q)}
	open := p.lex.Peek()
	if !isPunctTok(open, "{") {
		return u, nil
	}
	p.lex.Next()
	var b strings.Builder
	last := tokSpan(*open).End
	for {
		t := p.lex.Peek()
		if isPunctTok(t, "}") {
			p.lex.Next()
			u.Braced = true
			u.Attrs = b.String()
			u.End = tokSpan(*t).End
			return u, nil
		}
		switch {
		case t.Type == tokIdent, t.Type == tokInt, t.Type == tokWord, isPunctTok(t, "="), isPunctTok(t, ","):
		default:
			return nil, unexpected(t)
		}
		p.lex.Next()
		if b.Len() > 0 && t.Pos.Offset > last.Offset {
			b.WriteByte(' ')
		}
		b.WriteString(t.Value)
		last = tokSpan(*t).End
	}
}

// integer converts an Int or Static token; an overflow is an error at the
// token's own range.
func (p *literalParser) integer(t token) *Int {
	n := p.newInt()
	if err := setInt(n, t); err != nil {
		p.fail(err)
	}
	return n
}

func setInt(n *Int, t token) *Error {
	*n = Int{Range: tokSpan(t), Text: t.Value}
	digits := t.Value
	if t.Type == tokStatic {
		n.Static = true
		digits = digits[1:]
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return errorAt(n.Range, quote(t.Value), "an integer that fits in int64",
			"integer %s overflows int64", t.Value)
	}
	n.Value = v
	return nil
}

// nodeText prints a leaf for a message, as written.
func nodeText(n Node) string {
	switch n := n.(type) {
	case *Int:
		return n.Text
	case *Name:
		return n.Name
	case *Underscore:
		return "_"
	}
	return Print(n, Cute)
}
