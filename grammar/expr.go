package grammar

import (
	"strconv"
	"strings"
	"sync"
)

// readExpr reads a sheet expression from p: stages joined by "o", each a
// literal, a call, a tiler, a swizzle, a TIRx layout, an MLIR type, a
// pointer or an angle list. In a sheet the expression arrives as an Expr
// token holding its source text followed by its tokens, as the statement
// splitter scanned them (see stmtLexer.region): it is read from a slice of
// those tokens that ends where p goes on; otherwise it is read from p
// itself. errs are the errors of a statement that parsed (an overflowing
// integer, an unknown MLIR kind); err is a syntax error.
func readExpr(p *sliceSource) (n Node, errs []*Error, err error) {
	if t := p.Peek(); t.Type == tokExpr {
		p.Next()
		toks := p.toks[p.i:exprEnd(p.toks, p.i, *t)]
		p.i += len(toks)
		if err := tooLong(t.Value, t.Pos); err != nil {
			return nil, nil, err
		}
		if len(toks) == 0 { // not kept (see stmtLexer.region): scanned here
			buf := tokenBuffers.Get().(*[]token)
			defer tokenBuffers.Put(buf)
			var limitErr *Error
			toks, limitErr = scanChecked((*buf)[:0], t.Value, int(t.Pos.Offset), int(t.Pos.Line), int(t.Pos.Column))
			*buf = toks
			if limitErr != nil {
				return nil, nil, limitErr
			}
		} else {
			depth := 0
			for k := range toks {
				if err := limitOf(toks[k], &depth); err != nil {
					return nil, nil, err
				}
			}
		}
		return readTokens(p, toks)
	}
	r := &exprReader{literalParser{lex: p}}
	n, err = r.expr()
	if err != nil {
		return nil, nil, err
	}
	return n, r.errs, nil
}

// readTokens reads the expression whose tokens are toks, narrowing p to
// them while it reads (a source of its own would be an allocation: the
// readers' source escapes); past their end the expression meets what
// follows it in the statement. It is apart from readExpr, with a single
// return, so that its defers are open-coded: with readExpr's returns they
// went through the runtime's defer records, about 3% of a first parse.
func readTokens(p *sliceSource, toks []token) (n Node, errs []*Error, err error) {
	outer, outerI, outerEOF := p.toks, p.i, p.eof
	p.toks, p.i, p.eof = toks, 0, *p.Peek()
	defer func() { p.toks, p.i, p.eof = outer, outerI, outerEOF }()
	r := &exprReader{literalParser{lex: p}}
	if p.arena == nil {
		// Without an arena the nodes of the expression come from slabs of
		// their own, one allocation each for its integers, tuples and
		// elements, not one a node.
		ints, tuples, elems := countLeaves(toks)
		r.ints, r.tuples, r.elemSlabs = make([]Int, ints), make([]Tuple, tuples), make([]Node, elems)
	}
	stack := elemBuffers.Get().(*[]Node)
	r.elems = (*stack)[:0]
	defer func() {
		clear(r.elems[:cap(r.elems)])
		*stack = r.elems[:0]
		elemBuffers.Put(stack)
	}()
	n, err = r.expr()
	switch {
	case err != nil:
		n = nil
	case p.i < len(toks):
		n, err = nil, unexpected(&toks[p.i])
	default:
		errs = r.errs
	}
	return n, errs, err
}

// tokenBuffers recycles the token slices long expressions are scanned into.
var tokenBuffers = sync.Pool{New: func() any { b := make([]token, 0, 64); return &b }}

// elemBuffers recycles the stacks of tuple elements (literalParser.elems).
var elemBuffers = sync.Pool{New: func() any { b := make([]Node, 0, 16); return &b }}

// countLeaves is the number of integer tokens in toks, the Int nodes
// their reader makes (but for those of a pycute swizzle or an MLIR
// payload), and of the '(' that open a tuple rather than the arguments of
// a call, an iterator or a pointer (after a name, a ']' or a '>'): the
// Tuple nodes it makes, but for those of an MLIR payload; and the
// elements of those tuples at most (their commas, plus one each).
func countLeaves(toks []token) (ints, tuples, elems int) {
	var open [MaxDepth + 1]bool // whether each open bracket opens a tuple
	depth := 0
	for k := range toks {
		switch t := &toks[k]; t.Type {
		case tokInt, tokStatic:
			ints++
		case tokPunct:
			switch t.Value {
			case "(", "[", "{", "<":
				tuple := t.Value == "(" && (k == 0 || !(toks[k-1].Type == tokIdent || isPunctTok(&toks[k-1], "]") || isPunctTok(&toks[k-1], ">")))
				if tuple {
					tuples++
					elems++
				}
				if depth < len(open) {
					open[depth] = tuple
				}
				depth++
			case ")", "]", "}", ">":
				if depth > 0 {
					depth--
				}
			case ",":
				if depth > 0 && depth <= len(open) && open[depth-1] {
					elems++
				}
			}
		}
	}
	return ints, tuples, elems
}

// exprEnd is the index just past the tokens of the expression x, the Expr
// token before toks[from]: those that start inside its text.
func exprEnd(toks []token, from int, x token) int {
	end := int(x.Pos.Offset) + len(x.Value)
	i := from
	for i < len(toks) && toks[i].Type != tokExpr && int(toks[i].Pos.Offset) < end {
		i++
	}
	return i
}

type exprReader struct{ literalParser }

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
	// The call and its name in one allocation: they live as long.
	cn := r.newCall()
	*cn = calledName{Call{Range: tokSpan(*fun)}, Name{Range: tokSpan(*fun), Name: fun.Value}}
	c := &cn.c
	c.Fun = &cn.n
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
	// The arguments are pushed on the stack of elements, then moved to a
	// slice of their own: of their number, and in one allocation.
	mark := len(r.elems)
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
		r.elems = append(r.elems, a)
		sep := r.lex.Next()
		switch {
		case isPunctTok(sep, ","):
		case isPunctTok(sep, ")"):
			c.End = tokSpan(*sep).End
			c.Args = r.popNodes(mark)
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
func foundSpan(t token) Range {
	if t.EOF() || t.Type == tokEnd || t.Type == tokNewline {
		p := t.Pos
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
			t := token{Type: tokInt, Value: f, Pos: kw.Pos}
			t.Pos.Offset += int32(at)
			t.Pos.Column += int32(at)
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

// pointer reads a pointer's print:
//
//	pointer = Name "[" ( Word | Int ) "]" "(" { Name | Int | Word | "+" | "*" | "." } ")"
//
// stage has seen the name and the "[" after it.
func (r *exprReader) pointer() (Node, error) {
	kind := r.lex.Next()
	r.lex.Next() // "["
	bits := r.lex.Peek()
	if bits.Type != tokWord && bits.Type != tokInt {
		return nil, unexpected(bits)
	}
	r.lex.Next()
	if err := r.want("]"); err != nil {
		return nil, err
	}
	if err := r.want("("); err != nil {
		return nil, err
	}
	var addr []token
	for t := r.lex.Peek(); isAddrToken(t); t = r.lex.Peek() {
		addr = append(addr, *t)
		r.lex.Next()
	}
	close := r.lex.Peek()
	if !isPunctTok(close, ")") {
		return nil, unexpected(close)
	}
	r.lex.Next()
	return &Pointer{Range: join(tokSpan(*kind), tokSpan(*close)), Kind: kind.Value, Bits: bits.Value, Addr: joinTokens(addr)}, nil
}

// isAddrToken reports whether t may be part of a pointer's address.
func isAddrToken(t *token) bool {
	switch t.Type {
	case tokIdent, tokInt, tokWord:
		return true
	}
	return isPunctTok(t, "+") || isPunctTok(t, "*") || isPunctTok(t, ".")
}

// want takes the punctuation v, or reports the token found instead.
func (r *exprReader) want(v string) error {
	if t := r.lex.Peek(); !isPunctTok(t, v) {
		return unexpected(t)
	}
	r.lex.Next()
	return nil
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
func joinTokens(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && int(t.Pos.Offset) > int(toks[i-1].Pos.Offset)+len(toks[i-1].Value) {
			b.WriteByte(' ')
		}
		b.WriteString(t.Value)
	}
	return b.String()
}

// angle reads the seed documents' by-mode notation:
//
//	angle = "<" layout { "," layout } ">"
//
// stage has seen the "<".
func (r *exprReader) angle() (Node, error) {
	open := r.lex.Next()
	a := &AngleList{}
	for {
		if !startsLiteral(r.lex) {
			return nil, unexpected(r.lex.Peek())
		}
		m, err := r.layoutLiteral()
		if err != nil {
			return nil, err
		}
		a.Modes = append(a.Modes, m)
		sep := r.lex.Peek()
		switch {
		case isPunctTok(sep, ","):
			r.lex.Next()
		case isPunctTok(sep, ">"):
			r.lex.Next()
			a.Range = join(tokSpan(*open), tokSpan(*sep))
			return a, nil
		default:
			return nil, unexpected(sep)
		}
	}
}

// ExpectQuotedDescriptor is Error.Expected of a CuTe MLIR type written
// without the quotes around its descriptor (!cute.layout<(4,2):(1,4)>).
const ExpectQuotedDescriptor = "the descriptor in quotes"

// mlirKinds are the CuTe DSL types whose payload is a descriptor.
var mlirKinds = []string{"layout", "composed_layout", "swizzle", "tile", "coord", "shape", "stride", "int_tuple"}

// mlir reads a CuTe DSL type:
//
//	mlir = "!" Name "." Name "<" ( String | expr ) ">"
//
// stage has seen the "!".
func (r *exprReader) mlir() (Node, error) {
	bang := r.lex.Next()
	var words [2]*token // the dialect and the kind
	for i := range words {
		t := r.lex.Peek()
		if t.Type != tokIdent {
			return nil, unexpected(t)
		}
		r.lex.Next()
		words[i] = t
		sep := "."
		if i == 1 {
			sep = "<"
		}
		if err := r.want(sep); err != nil {
			return nil, err
		}
	}
	dialect, kind := words[0], words[1]
	var payload *token
	var descriptor Node
	var innerErrs []*Error
	if t := r.lex.Peek(); t.Type == tokString {
		payload = t
		r.lex.Next()
	} else {
		// The descriptor's own errors come after those of the type.
		ir := &exprReader{literalParser{lex: r.lex}}
		n, err := ir.expr()
		if err != nil {
			return nil, err
		}
		descriptor, innerErrs = n, ir.errs
	}
	close := r.lex.Peek()
	if !isPunctTok(close, ">") {
		return nil, unexpected(close)
	}
	r.lex.Next()
	m := &MLIRType{Range: join(tokSpan(*bang), tokSpan(*close)), Kind: kind.Value}
	if dialect.Value != "cute" {
		r.fail(errorAt(tokSpan(*dialect), quote(dialect.Value), "'cute'",
			"expected 'cute' after '!', found %s", quote(dialect.Value)))
	}
	known := false
	for _, k := range mlirKinds {
		known = known || k == kind.Value
	}
	if !known {
		expected := "one of " + strings.Join(mlirKinds, ", ")
		r.fail(errorAt(tokSpan(*kind), quote(kind.Value), expected,
			"unknown CuTe type !cute.%s: expected %s", kind.Value, expected))
	}
	if payload == nil {
		m.Inner = descriptor
		r.errs = append(r.errs, innerErrs...)
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
	p := *payload
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

func (r *exprReader) tirxPartOf(kw token, n Node, close token) *TirxPart {
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
func stageEnd(toks []token, i int) int {
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
