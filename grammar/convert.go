package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// converter turns participle's concrete syntax into the AST. It reports
// what the context-free grammar cannot check, each at its own token.
type converter struct {
	src    string        // the whole text the token positions point into
	tokens []lexer.Token // the statement's tokens (to name the token after a node)
	errs   []*Error
}

func pos(p lexer.Position) Position {
	return Position{Offset: p.Offset, Line: p.Line, Column: p.Column}
}

func tokSpan(t lexer.Token) Range {
	return Range{Pos: pos(t.Pos), End: pos(tokenEnd(t))}
}

func join(a, b Range) Range { return Range{Pos: a.Pos, End: b.End} }

func (c *converter) fail(e *Error) { c.errs = append(c.errs, e) }

// after returns the token that follows the span s in the statement, or an
// end token when s ends the statement.
func (c *converter) after(s Range) lexer.Token {
	for _, t := range c.tokens {
		if !elided(t) && t.Pos.Offset >= s.End.Offset {
			return t
		}
	}
	end := lexer.Position{Offset: s.End.Offset, Line: s.End.Line, Column: s.End.Column}
	return lexer.EOFToken(end)
}

func (c *converter) expr(g *gExpr) Node {
	if len(g.Stages) == 1 {
		return c.stage(g.Stages[0])
	}
	stages := make([]Node, len(g.Stages))
	for i, s := range g.Stages {
		stages[i] = c.stage(s)
	}
	return &Composed{Range: join(stages[0].Span(), stages[len(stages)-1].Span()), Stages: stages}
}

func (c *converter) stage(g *gStage) Node {
	switch {
	case g.Tirx != nil:
		return c.tirx(g.Tirx)
	case g.Swizzle != nil:
		return c.swizzle(g.Swizzle)
	case g.Pointer != nil:
		return c.pointer(g.Pointer)
	case g.MLIR != nil:
		return c.mlir(g.MLIR)
	case g.Tiler != nil:
		return c.tiler(g.Tiler)
	case g.Angle != nil:
		a := &AngleList{Range: join(tokSpan(g.Angle.Open), tokSpan(g.Angle.Close))}
		for _, m := range g.Angle.Modes {
			a.Modes = append(a.Modes, c.layout(m))
		}
		return a
	case g.Call != nil:
		call := &Call{
			Range: join(tokSpan(g.Call.Fun), tokSpan(g.Call.Close)),
			Fun:   &Name{Range: tokSpan(g.Call.Fun), Name: g.Call.Fun.Value},
		}
		for _, a := range g.Call.Args {
			call.Args = append(call.Args, c.expr(a))
		}
		return call
	default:
		return c.layout(g.Layout)
	}
}

func (c *converter) layout(g *gLayout) Node {
	c.errs = append(c.errs, g.Errs...)
	return g.Node
}

// integer converts an Int or Static token, reporting an overflow.
func (c *converter) integer(t lexer.Token) *Int {
	n, err := intOf(t)
	if err != nil {
		c.fail(err)
	}
	return n
}

func (c *converter) swizzle(g *gSwizzle) *Swizzle {
	s := &Swizzle{}
	if g.Py != nil {
		s.Spelling = SpellPycute
		s.Range = tokSpan(*g.Py)
		// SW_B_M_S: the three numbers at their own columns inside the token.
		text := g.Py.Value
		fields := strings.SplitN(text[3:], "_", 3)
		at := 3
		var params [3]*Int
		for i, f := range fields {
			t := lexer.Token{Type: tokInt, Value: f, Pos: g.Py.Pos}
			t.Pos.Offset += at
			t.Pos.Column += at
			params[i] = c.integer(t)
			at += len(f) + 1
		}
		s.B, s.M, s.S = params[0], params[1], params[2]
	} else {
		switch g.Kw.Value {
		case "Swizzle", "swizzle":
			s.Spelling = SpellSwizzle
		case "S":
			s.Spelling = SpellS
		default:
			s.Spelling = SpellSw
		}
		s.Range = join(tokSpan(g.Kw), tokSpan(g.Close))
		s.B, s.M, s.S = c.integer(g.B), c.integer(g.M), c.integer(g.S)
	}
	if g.Braces != nil {
		s.Braced = true
		s.Range.End = tokSpan(*g.Braces).End
	}
	return s
}

func (c *converter) pointer(g *gPointer) *Pointer {
	open, close := tokSpan(g.Open), tokSpan(g.Close)
	return &Pointer{
		Range: join(tokSpan(g.Kind), close),
		Kind:  g.Kind.Value,
		Bits:  g.Bits.Value,
		Addr:  strings.TrimSpace(c.src[open.End.Offset:close.Pos.Offset]),
	}
}

// mlirKinds are the CuTe DSL types whose payload is a descriptor.
var mlirKinds = []string{"layout", "composed_layout", "swizzle", "tile", "coord", "shape", "stride", "int_tuple"}

func (c *converter) mlir(g *gMLIR) Node {
	m := &MLIRType{Range: join(tokSpan(g.Bang), tokSpan(g.Close)), Kind: g.Kind.Value}
	if g.Dialect.Value != "cute" {
		c.fail(errorAt(tokSpan(g.Dialect), quote(g.Dialect.Value), "'cute'",
			"expected 'cute' after '!', found %s", quote(g.Dialect.Value)))
	}
	known := false
	for _, k := range mlirKinds {
		known = known || k == g.Kind.Value
	}
	if !known {
		expected := "one of " + strings.Join(mlirKinds, ", ")
		c.fail(errorAt(tokSpan(g.Kind), quote(g.Kind.Value), expected,
			"unknown CuTe type !cute.%s: expected %s", g.Kind.Value, expected))
	}
	if g.Inner != nil {
		m.Inner = c.expr(g.Inner)
		m.Payload = m.Inner.Span()
		return m
	}
	p := *g.Payload
	ps := tokSpan(p)
	if len(p.Value) < 2 || !strings.HasSuffix(p.Value, `"`) {
		c.fail(errorAt(Range{Pos: ps.End, End: ps.End}, "end of line", `'"'`,
			"unterminated string: expected '\"', found end of line"))
		return m
	}
	inner := p.Value[1 : len(p.Value)-1]
	start := ps.Pos.advance(`"`)
	m.Payload = Range{Pos: start, End: start.advance(inner)}
	node, errs := parsePayload(c.src, inner, start)
	c.errs = append(c.errs, errs...)
	m.Inner = node
	if len(errs) == 0 {
		// The DSL prints descriptors only: no calls, no nested types, no TIRx.
		Inspect(node, func(n Node) bool {
			what := ""
			switch n.(type) {
			case *Call:
				what = "a call"
			case *MLIRType:
				what = "an MLIR type"
			case *TirxLayout:
				what = "a TIRx layout"
			default:
				return true
			}
			text := tokenText(n, c.src)
			c.fail(errorAt(n.Span(), quote(text), "a descriptor",
				"%s cannot appear inside !cute.%s<\"...\">, found %s", what, m.Kind, quote(text)))
			return false
		})
	}
	return m
}

func (c *converter) tiler(g *gTiler) *Tiler {
	t := &Tiler{Range: join(tokSpan(g.Open), tokSpan(g.Close))}
	if len(g.Modes) > 0 {
		t.Modes = make([]Node, len(g.Modes))
		for i, m := range g.Modes {
			t.Modes[i] = c.expr(m)
		}
	}
	return t
}

func (c *converter) tirxPart(kw lexer.Token, g *gLayout, close lexer.Token) *TirxPart {
	p := &TirxPart{Range: join(tokSpan(kw), tokSpan(close)), Kind: kw.Value}
	n := c.layout(g)
	if l, ok := n.(*Layout); ok {
		p.Layout = l
	} else {
		next := c.after(n.Span())
		c.fail(errorAt(tokRange(next, n.Span().End), foundText(next), "':'",
			"expected ':' and strides after the %s[...] shape %s, found %s", kw.Value, tokenText(n, c.src), foundText(next)))
		p.Layout = &Layout{Range: n.Span(), Shape: n}
	}
	return p
}

func (c *converter) tirx(g *gTirx) *TirxLayout {
	t := &TirxLayout{Shard: c.tirxPart(g.Kw, g.Shard, g.Close)}
	t.Range = t.Shard.Range
	for _, term := range g.Terms {
		if term.Kw != nil {
			r := c.tirxPart(*term.Kw, term.Layout, term.Close)
			t.Replicas = append(t.Replicas, r)
			t.Range.End = r.End
			continue
		}
		off := c.layout(term.Offset)
		switch off.(type) {
		case *Basis, *Int:
		default:
			c.fail(errorAt(off.Span(), quote(tokenText(off, c.src)), "an offset such as 5@warpid",
				"a TIRx offset must be an integer or a basis such as 5@warpid, found %s", quote(tokenText(off, c.src))))
		}
		t.Offsets = append(t.Offsets, off)
		t.Range.End = off.Span().End
	}
	return t
}

// tokenText is the source text of n.
func tokenText(n Node, src string) string {
	s := n.Span()
	if s.Pos.Offset < 0 || s.End.Offset > len(src) || s.Pos.Offset > s.End.Offset {
		return ""
	}
	return src[s.Pos.Offset:s.End.Offset]
}

func quote(s string) string { return "'" + s + "'" }

// foundText names a token for a message: quoted text, or "end of input".
func foundText(t lexer.Token) string {
	switch {
	case t.EOF():
		return "end of input"
	case t.Type == tokNewline || t.Type == tokEnd:
		return "end of line"
	}
	v := t.Value
	if len(v) > 40 {
		v = v[:37] + "..."
	}
	return quote(v)
}
