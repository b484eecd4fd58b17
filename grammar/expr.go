package grammar

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// gExpr is a sheet expression, read by hand: stages joined by "o", each a
// literal, a call, a tiler, a swizzle or a TIRx layout (read here) or an
// MLIR type, a pointer or an angle list (handed to their participle parsers).
type gExpr struct {
	Node Node
	Errs []*Error
}

// Parse implements participle.Parseable. In a sheet the expression arrives
// as one Expr token holding its source text (see stmtLexer), which is
// scanned here and read from a plain slice: participle never copies the
// tokens of expressions. Elsewhere the expression is read from participle's
// lexer.
func (g *gExpr) Parse(lex *lexer.PeekingLexer) error {
	if t := lex.Peek(); t.Type == tokExpr {
		lex.Next()
		if err := tooLong(t.Value, pos(t.Pos)); err != nil {
			return err
		}
		buf := tokenBuffers.Get().(*[]lexer.Token)
		defer tokenBuffers.Put(buf)
		toks, limitErr := scanChecked((*buf)[:0], t.Value, t.Pos.Offset, t.Pos.Line, t.Pos.Column)
		*buf = toks
		if limitErr != nil {
			return limitErr
		}
		// Past its end the expression meets what follows it in the statement.
		src := &sliceSource{toks: toks, eof: *lex.Peek()}
		r := &exprReader{literalParser{lex: src}}
		n, err := r.expr()
		if err != nil {
			return err
		}
		if src.i < len(toks) {
			return unexpected(&toks[src.i])
		}
		g.Node, g.Errs = n, r.errs
		return nil
	}
	r := &exprReader{literalParser{lex: peekingSource{lex}}}
	n, err := r.expr()
	if err != nil {
		return err
	}
	g.Node, g.Errs = n, r.errs
	return nil
}

type exprReader struct{ literalParser }

// tokenBuffers recycles the token slices expressions are scanned into.
var tokenBuffers = sync.Pool{New: func() any { b := make([]lexer.Token, 0, 64); return &b }}

func (r *exprReader) expr() (Node, error) {
	first, err := r.stage()
	if err != nil {
		return nil, err
	}
	if r.lex.Peek().Type != tokCompose && !r.gluedPointerFollows(first) {
		return first, nil
	}
	c := &Composed{Range: first.Span(), Stages: []Node{first}}
	for {
		if last := c.Stages[len(c.Stages)-1]; r.gluedPointerFollows(last) {
			p, err := r.pointer()
			if err != nil {
				return nil, err
			}
			ptr := p.(*Pointer)
			ptr.Kind, ptr.Swizzled = ptr.Kind[1:], true
			c.Stages = append(c.Stages, ptr)
		}
		c.End = c.Stages[len(c.Stages)-1].Span().End
		if r.lex.Peek().Type != tokCompose {
			return c, nil
		}
		r.lex.Next()
		s, err := r.stage()
		if err != nil {
			return nil, err
		}
		c.Stages = append(c.Stages, s)
	}
}

// gluedPointerFollows reports whether a swizzled pointer's print goes on
// right after the stage n: "Sw<3,4,3>_smem_ptr[16b](...)", the "_" and the
// pointer's kind scanned as one word that touches the swizzle's ">".
func (r *exprReader) gluedPointerFollows(n Node) bool {
	sw, ok := n.(*Swizzle)
	if !ok || sw.Braced || sw.Spelling == SpellPycute {
		return false
	}
	t := r.lex.Peek()
	return t.Type == tokIdent && len(t.Value) > 1 && t.Value[0] == '_' && t.Pos.Offset == sw.End.Offset &&
		isPunctTok(r.lex.PeekAfter(), "[")
}

func (r *exprReader) stage() (Node, error) {
	t := r.lex.Peek()
	switch t.Type {
	case tokInt, tokStatic:
		return r.literal()
	case tokPySwizzle:
		return r.swizzle()
	case tokPunct:
		switch t.Value {
		case "(", "?", "_":
			return r.literal()
		case "[":
			return r.tiler()
		case "!":
			return r.mlir()
		case "<":
			return r.angle()
		}
	case tokIdent:
		next := r.lex.PeekAfter()
		if next.Type != tokPunct {
			return r.literal()
		}
		switch next.Value {
		case "(":
			if isIteratorName(t.Value) {
				return r.iterator()
			}
			return r.call()
		case "<":
			switch t.Value {
			case "Swizzle", "swizzle", "Sw", "S":
				return r.swizzle()
			}
			return r.call() // CuTe's template spelling: select<1,3>(L)
		case "[":
			if t.Value == "S" || t.Value == "R" {
				return r.tirx()
			}
			return r.pointer()
		}
		return r.literal()
	}
	return nil, unexpected(t)
}

func (r *exprReader) literal() (Node, error) {
	return r.layoutLiteral()
}

// call reads a call:
//
//	call = Name [ "<" targ { "," targ } ">" ] "(" [ arg { "," arg } ] ")"
//	targ = int | Name
//
// stage has seen the name and the "(" or "<" after it.
func (r *exprReader) call() (Node, error) {
	fun := r.lex.Next()
	c := &Call{Range: tokSpan(*fun), Fun: &Name{Range: tokSpan(*fun), Name: fun.Value}}
	if isPunctTok(r.lex.Peek(), "<") {
		r.lex.Next()
		if err := r.templateArgs(c); err != nil {
			return nil, err
		}
	}
	if open := r.lex.Peek(); !isPunctTok(open, "(") {
		return nil, errorAt(foundSpan(*open), foundText(*open), "'('",
			"expected '(' and the arguments after %s<...>, found %s", fun.Value, foundText(*open))
	}
	r.lex.Next() // "("
	if close := r.lex.Peek(); isPunctTok(close, ")") {
		r.lex.Next()
		c.End = tokSpan(*close).End
		return c, nil
	}
	for {
		var a Node
		var err error
		if r.lex.Peek().Type == tokString {
			a, err = r.stringLit() // names of atoms: only arguments are strings
		} else {
			a, err = r.expr()
		}
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, a)
		sep := r.lex.Next()
		switch {
		case isPunctTok(sep, ","):
		case isPunctTok(sep, ")"):
			c.End = tokSpan(*sep).End
			return c, nil
		default:
			return nil, unexpected(sep)
		}
	}
}

// templateArgs reads the template arguments of a call up to its ">":
// integers, or names of integers bound in the sheet.
func (r *exprReader) templateArgs(c *Call) error {
	for {
		t := r.lex.Peek()
		switch t.Type {
		case tokInt, tokStatic:
			r.lex.Next()
			c.Template = append(c.Template, r.integer(*t))
		case tokIdent:
			r.lex.Next()
			c.Template = append(c.Template, &Name{Range: tokSpan(*t), Name: t.Value})
		default:
			return errorAt(foundSpan(*t), foundText(*t), "an integer",
				"a template argument of %s is an integer such as 1 (or a name bound to one), found %s", c.Fun.Name, foundText(*t))
		}
		sep := r.lex.Next()
		switch {
		case isPunctTok(sep, ","):
		case isPunctTok(sep, ">"):
			return nil
		default:
			return errorAt(foundSpan(*sep), foundText(*sep), "',' or '>'",
				"expected ',' or '>' in the template arguments of %s, found %s", c.Fun.Name, foundText(*sep))
		}
	}
}

// foundSpan is where an error about the token t points: the token, or
// the empty range where the input or the line ends.
func foundSpan(t lexer.Token) Range {
	if t.EOF() || t.Type == tokEnd || t.Type == tokNewline {
		p := pos(t.Pos)
		return Range{Pos: p, End: p}
	}
	return tokSpan(t)
}

func (r *exprReader) tiler() (Node, error) {
	open := r.lex.Next()
	t := &Tiler{Range: tokSpan(*open)}
	if close := r.lex.Peek(); isPunctTok(close, "]") {
		r.lex.Next()
		t.End = tokSpan(*close).End
		return t, nil
	}
	for {
		m, err := r.expr()
		if err != nil {
			return nil, err
		}
		t.Modes = append(t.Modes, m)
		sep := r.lex.Next()
		switch {
		case isPunctTok(sep, ";"):
		case isPunctTok(sep, "]"):
			t.End = tokSpan(*sep).End
			return t, nil
		default:
			return nil, unexpected(sep)
		}
	}
}

// sub runs a participle parser from the current token; it stops where its
// production ends.
func sub[G any](r *exprReader, p *participle.Parser[G]) (*G, error) {
	switch src := r.lex.(type) {
	case *sliceSource:
		// participle copies what it is given: give it this stage only.
		end := stageEnd(src.toks, src.i)
		eof := src.eof.Pos
		if end < len(src.toks) {
			eof = src.toks[end].Pos
		}
		pl, err := lexer.Upgrade(&sliceLexer{tokens: src.toks[src.i:end], eof: eof})
		if err != nil {
			return nil, err
		}
		g, err := p.ParseFromLexer(pl, participle.AllowTrailing(true))
		src.i += pl.Cursor()
		// Running out of the stage's tokens means meeting the token after it.
		var perr participle.Error
		if err != nil && end < len(src.toks) && errors.As(err, &perr) && perr.Position().Offset == eof.Offset {
			return nil, unexpected(&src.toks[end])
		}
		return g, err
	case peekingSource:
		return p.ParseFromLexer(src.PeekingLexer, participle.AllowTrailing(true))
	}
	panic("grammar: unknown token source")
}

// swizzle reads a swizzle:
//
//	swizzle = ( ( "Swizzle" | "swizzle" | "Sw" | "S" ) "<" int "," int "," int ">" | SW_B_M_S ) [ "{" "}" ]
//
// stage has seen the keyword and the "<" (or the SW_B_M_S token).
func (r *exprReader) swizzle() (Node, error) {
	kw := r.lex.Next()
	s := &Swizzle{}
	if kw.Type == tokPySwizzle {
		s.Spelling = SpellPycute
		s.Range = tokSpan(*kw)
		// SW_B_M_S: the three numbers at their own columns inside the token.
		fields := strings.SplitN(kw.Value[3:], "_", 3)
		at := 3
		var params [3]*Int
		for i, f := range fields {
			t := lexer.Token{Type: tokInt, Value: f, Pos: kw.Pos}
			t.Pos.Offset += at
			t.Pos.Column += at
			params[i] = r.integer(t)
			at += len(f) + 1
		}
		s.B, s.M, s.S = params[0], params[1], params[2]
	} else {
		switch kw.Value {
		case "Swizzle", "swizzle":
			s.Spelling = SpellSwizzle
		case "S":
			s.Spelling = SpellS
		default:
			s.Spelling = SpellSw
		}
		first := *kw
		r.lex.Next() // "<"
		var params [3]*Int
		for i := range params {
			t := r.lex.Peek()
			if t.Type != tokInt && t.Type != tokStatic {
				return nil, unexpected(t)
			}
			r.lex.Next()
			params[i] = r.integer(*t)
			want := ","
			if i == 2 {
				want = ">"
			}
			sep := r.lex.Peek()
			if !isPunctTok(sep, want) {
				return nil, unexpected(sep)
			}
			r.lex.Next()
			if i == 2 {
				s.Range = join(tokSpan(first), tokSpan(*sep))
			}
		}
		s.B, s.M, s.S = params[0], params[1], params[2]
	}
	if open := r.lex.Peek(); isPunctTok(open, "{") {
		r.lex.Next()
		close := r.lex.Peek()
		if !isPunctTok(close, "}") {
			return nil, unexpected(close)
		}
		r.lex.Next()
		s.Braced = true
		s.End = tokSpan(*close).End
	}
	return s, nil
}

func (r *exprReader) pointer() (Node, error) {
	g, err := sub(r, pointerParser)
	if err != nil {
		return nil, err
	}
	return &Pointer{
		Range: join(tokSpan(g.Kind), tokSpan(g.Close)),
		Kind:  g.Kind.Value,
		Bits:  g.Bits.Value,
		Addr:  joinTokens(g.Addr),
	}, nil
}

// isIteratorName reports whether name is one of the coordinate iterators
// CuTe prints before " o " in a tensor's print: ArithTuple(_0,0) (an
// identity tensor's origin) and counting_iter(5). They are never operations.
func isIteratorName(name string) bool {
	return name == "ArithTuple" || name == "counting_iter"
}

// iterator reads ArithTuple(_0,0) or counting_iter(5): the name and a tuple
// of integers, kept as the pointer's Addr.
func (r *exprReader) iterator() (Node, error) {
	name := r.lex.Next()
	origin, err := r.literal()
	if err != nil {
		return nil, err
	}
	t, ok := origin.(*Tuple)
	if !ok || len(t.Elems) == 0 || hasNames(t) {
		text := nodeText(origin)
		return nil, errorAt(origin.Span(), quote(text), "a coordinate such as (_0,0)",
			"%s takes a coordinate of integers such as (_0,0), found %s", name.Value, quote(text))
	}
	text := Print(t, Cute)
	return &Pointer{Range: join(tokSpan(*name), t.Range), Kind: name.Value, Addr: text[1 : len(text)-1]}, nil
}

// joinTokens is the text of consecutive tokens, one space where the source had space.
func joinTokens(toks []gAddrToken) string {
	var b strings.Builder
	for i, a := range toks {
		t := a.Tok
		if i > 0 && t.Pos.Offset > toks[i-1].Tok.Pos.Offset+len(toks[i-1].Tok.Value) {
			b.WriteByte(' ')
		}
		b.WriteString(t.Value)
	}
	return b.String()
}

func (r *exprReader) angle() (Node, error) {
	g, err := sub(r, angleParser)
	if err != nil {
		return nil, err
	}
	a := &AngleList{Range: join(tokSpan(g.Open), tokSpan(g.Close))}
	for _, m := range g.Modes {
		a.Modes = append(a.Modes, r.take(m))
	}
	return a, nil
}

// take adopts a literal parsed inside a participle production.
func (r *exprReader) take(g *gLayout) Node {
	r.errs = append(r.errs, g.Errs...)
	return g.Node
}

// ExpectQuotedDescriptor is Error.Expected of a CuTe MLIR type written
// without the quotes around its descriptor (!cute.layout<(4,2):(1,4)>).
const ExpectQuotedDescriptor = "the descriptor in quotes"

// mlirKinds are the CuTe DSL types whose payload is a descriptor.
var mlirKinds = []string{"layout", "composed_layout", "swizzle", "tile", "coord", "shape", "stride", "int_tuple"}

func (r *exprReader) mlir() (Node, error) {
	g, err := sub(r, mlirParser)
	if err != nil {
		return nil, err
	}
	m := &MLIRType{Range: join(tokSpan(g.Bang), tokSpan(g.Close)), Kind: g.Kind.Value}
	if g.Dialect.Value != "cute" {
		r.fail(errorAt(tokSpan(g.Dialect), quote(g.Dialect.Value), "'cute'",
			"expected 'cute' after '!', found %s", quote(g.Dialect.Value)))
	}
	known := false
	for _, k := range mlirKinds {
		known = known || k == g.Kind.Value
	}
	if !known {
		expected := "one of " + strings.Join(mlirKinds, ", ")
		r.fail(errorAt(tokSpan(g.Kind), quote(g.Kind.Value), expected,
			"unknown CuTe type !cute.%s: expected %s", g.Kind.Value, expected))
	}
	if g.Inner != nil {
		m.Inner = g.Inner.Node
		r.errs = append(r.errs, g.Inner.Errs...)
		m.Payload = m.Inner.Span()
		switch m.Inner.(type) {
		case *Layout, *Composed, *Swizzle:
			// MLIR reads a CuTe type's descriptor from a string: the DSL
			// prints !cute.layout<"(4,2):(1,4)">. (The seed documents'
			// by-mode <<8:1, 4:8>> and bare integers such as
			// !cute.coord<2> are read as they are written.)
			r.fail(errorAt(m.Payload, quote(nodeText(m.Inner)), ExpectQuotedDescriptor,
				"MLIR reads the descriptor of !cute.%s from a string: write %s, as the CuTe DSL prints it", m.Kind, Print(m, MLIR)))
		}
		return m, nil
	}
	p := *g.Payload
	ps := tokSpan(p)
	if len(p.Value) < 2 || !strings.HasSuffix(p.Value, `"`) {
		r.fail(errorAt(Range{Pos: ps.End, End: ps.End}, "end of line", `'"'`,
			"unterminated string: expected '\"', found end of line"))
		return m, nil
	}
	inner := p.Value[1 : len(p.Value)-1]
	start := ps.Pos.advance(`"`)
	m.Payload = Range{Pos: start, End: start.advance(inner)}
	node, errs := parsePayload(inner, start)
	r.errs = append(r.errs, errs...)
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
			text := Print(n, Cute)
			r.fail(errorAt(n.Span(), quote(text), "a descriptor",
				"%s cannot appear inside !cute.%s<\"...\">, found %s", what, m.Kind, quote(text)))
			return false
		})
	}
	return m, nil
}

func (r *exprReader) tirxPartOf(kw lexer.Token, n Node, close lexer.Token) *TirxPart {
	p := &TirxPart{Range: join(tokSpan(kw), tokSpan(close)), Kind: kw.Value}
	if l, ok := n.(*Layout); ok {
		p.Layout = l
	} else {
		r.fail(errorAt(tokSpan(close), foundText(close), "':'",
			"expected ':' and strides after the %s[...] shape %s, found %s", kw.Value, nodeText(n), foundText(close)))
		p.Layout = &Layout{Range: n.Span(), Shape: n}
	}
	return p
}

// tirx reads a TIRx layout:
//
//	tirx = ( "S" | "R" ) "[" layout "]" { "+" ( "R" "[" layout "]" | leaf ) }
//
// stage has seen the keyword and the "[". A term after "+" that starts with
// R is a replica; the literal it holds, and an offset, are read as literals.
func (r *exprReader) tirx() (Node, error) {
	part := func() (*TirxPart, error) {
		kw := *r.lex.Next()
		r.lex.Next() // "["
		if !startsLiteral(r.lex) {
			return nil, unexpected(r.lex.Peek())
		}
		n, err := r.layoutLiteral()
		if err != nil {
			return nil, err
		}
		close := r.lex.Peek()
		if !isPunctTok(close, "]") {
			return nil, unexpected(close)
		}
		r.lex.Next()
		return r.tirxPartOf(kw, n, *close), nil
	}
	first, err := part()
	if err != nil {
		return nil, err
	}
	t := &TirxLayout{Range: first.Range}
	if first.Kind == "S" {
		t.Shard = first
	} else {
		t.Replicas = append(t.Replicas, first)
	}
	for isPunctTok(r.lex.Peek(), "+") {
		r.lex.Next()
		if next := r.lex.Peek(); next.Value == "R" && next.Type == tokIdent {
			if open := r.lex.PeekAfter(); !isPunctTok(open, "[") {
				return nil, unexpected(open)
			}
			rep, err := part()
			if err != nil {
				return nil, err
			}
			t.Replicas = append(t.Replicas, rep)
			t.End = rep.End
			continue
		}
		if !startsLiteral(r.lex) {
			return nil, unexpected(r.lex.Peek())
		}
		off, err := r.layoutLiteral()
		if err != nil {
			return nil, err
		}
		switch off.(type) {
		case *Basis, *Int:
		default:
			text := nodeText(off)
			r.fail(errorAt(off.Span(), quote(text), "an offset such as 5@warpid",
				"a TIRx offset must be an integer or a basis such as 5@warpid, found %s", quote(text)))
		}
		t.Offsets = append(t.Offsets, off)
		t.End = off.Span().End
	}
	return t, nil
}

// stageEnd is the index just past the stage that starts at toks[i]: the
// first "o", ",", ";" or unmatched closing bracket outside brackets. A ">"
// closes only a "<" (a pointer's address may hold a stray one).
func stageEnd(toks []lexer.Token, i int) int {
	var open []byte
	for ; i < len(toks); i++ {
		t := &toks[i]
		switch t.Type {
		case tokCompose:
			if len(open) == 0 {
				return i
			}
		case tokPunct:
			switch v := t.Value; v {
			case "(", "[", "{", "<":
				open = append(open, v[0])
			case ")", "]", "}", ">":
				want := opener(v[0])
				switch {
				case len(open) > 0 && open[len(open)-1] == want:
					open = open[:len(open)-1]
				case v == ">":
				case len(open) == 0:
					return i
				}
			case ",", ";":
				if len(open) == 0 {
					return i
				}
			}
		}
	}
	return i
}

func opener(closer byte) byte {
	switch closer {
	case ')':
		return '('
	case ']':
		return '['
	case '}':
		return '{'
	}
	return '<'
}

// stringLit reads a quoted string; an unterminated one is an error at its start.
func (r *exprReader) stringLit() (Node, error) {
	t := r.lex.Next()
	text := t.Value
	if len(text) < 2 || text[len(text)-1] != '"' {
		return nil, errorAt(tokSpan(*t), text, `'"'`, "unterminated string %s: expected a closing '\"'", text)
	}
	v, err := strconv.Unquote(text)
	if err != nil {
		return nil, errorAt(tokSpan(*t), text, "a string", "malformed string %s: %v", text, err)
	}
	return &String{Range: tokSpan(*t), Value: v}, nil
}
