package grammar

import (
	"fmt"
	"sort"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// ParseFile parses a layout sheet. Every statement is parsed on its own: a
// statement that fails becomes a *BadStmt holding its text, and parsing goes
// on with the next one. The errors are in source order (also in File.Errors).
//
// A statement ends at the end of its line unless a bracket is open; a line
// inside open brackets that starts with "assert" or "name =" begins a new
// statement all the same, so a missing ')' costs one statement, not the file.
func ParseFile(filename string, src []byte) (*File, []*Error) {
	text := string(src)
	f := &File{Name: filename}
	toks := scan(text, 0, 1, 1)
	stmts := splitStatements(toks)
	for _, t := range toks {
		if t.Type == tokComment {
			f.Comments = append(f.Comments, &Comment{Range: tokSpan(t), Text: t.Value})
		}
	}
	for _, st := range stmts {
		s, errs := parseStatement(text, st)
		f.Statements = append(f.Statements, s)
		f.Errors = append(f.Errors, errs...)
	}
	sort.SliceStable(f.Errors, func(i, j int) bool {
		return f.Errors[i].Range.Pos.Offset < f.Errors[j].Range.Pos.Offset
	})
	return f, f.Errors
}

// ParseDescriptor parses one descriptor in any notation: a layout, an
// IntTuple, a basis descriptor, a swizzle, a composed layout, a tiler, a TIRx
// layout, an MLIR type, or a name (a tag such as LayoutLeft). It reports the
// first error. Line breaks count as spaces.
func ParseDescriptor(src string) (Node, *Error) {
	return ParseExpr(src)
}

// ParseExpr parses one sheet expression: a descriptor of any notation, a name,
// or a call of a CuTe operation such as
// composition((4,2):(1,4), (2,2):(1,2)). It reports the first error.
func ParseExpr(src string) (Node, *Error) {
	toks := scan(src, 0, 1, 1)
	node, errs := parseExprTokens(src, toks, lexer.EOFToken(endOf(toks, lexer.Position{Line: 1, Column: 1})), "end of input")
	if len(errs) > 0 {
		return node, errs[0]
	}
	return node, nil
}

// parsePayload parses the text between the quotes of an MLIR type; start is
// where that text begins in src.
func parsePayload(src, inner string, start Position) (Node, []*Error) {
	toks := scan(inner, start.Offset, start.Line, start.Column)
	end := start.advance(inner)
	return parseExprTokens(src, toks, lexer.EOFToken(lexer.Position{Offset: end.Offset, Line: end.Line, Column: end.Column}), `'"'`)
}

func endOf(toks []lexer.Token, start lexer.Position) lexer.Position {
	if len(toks) == 0 {
		return start
	}
	return tokenEnd(toks[len(toks)-1])
}

func parseExprTokens(src string, toks []lexer.Token, end lexer.Token, endName string) (Node, []*Error) {
	st := stmtTokens{toks: toks, end: end}
	first, ok := st.first()
	if !ok {
		r := Range{Pos: pos(end.Pos), End: pos(end.Pos)}
		return nil, []*Error{errorAt(r, endName, "a descriptor", "expected a descriptor, found %s", endName)}
	}
	_ = first
	if err := checkLimits(st); err != nil {
		return nil, []*Error{err}
	}
	g, err := runParser(exprParser, st)
	if err != nil {
		return nil, []*Error{syntaxError(err, st, kindExpr, endName)}
	}
	c := &converter{src: src, tokens: st.toks}
	n := c.expr(g.X)
	return n, c.errs
}

type stmtKind int

const (
	kindExpr stmtKind = iota
	kindBinding
	kindAssert
)

// stmtTokens is one statement's tokens, which may include elided Newline and
// Comment tokens, and the token that ended it (End or EOF).
type stmtTokens struct {
	toks []lexer.Token
	end  lexer.Token
}

func elided(t lexer.Token) bool { return t.Type == tokNewline || t.Type == tokComment }

// visible is the statement's tokens without the elided ones.
func (st stmtTokens) visible() []lexer.Token {
	out := make([]lexer.Token, 0, len(st.toks))
	for _, t := range st.toks {
		if !elided(t) {
			out = append(out, t)
		}
	}
	return out
}

func (st stmtTokens) first() (lexer.Token, bool) {
	for _, t := range st.toks {
		if !elided(t) {
			return t, true
		}
	}
	return lexer.Token{}, false
}

func (st stmtTokens) last() lexer.Token {
	for i := len(st.toks) - 1; i >= 0; i-- {
		if !elided(st.toks[i]) {
			return st.toks[i]
		}
	}
	return st.toks[0]
}

// splitStatements marks the Newline tokens that end a statement as End and
// returns the statements: maximal runs of tokens between End tokens that hold
// something other than comments and newlines.
func splitStatements(toks []lexer.Token) []stmtTokens {
	var stmts []stmtTokens
	start, depth, content := 0, 0, false
	finish := func(i int, end lexer.Token) {
		if content {
			stmts = append(stmts, stmtTokens{toks: toks[start:i:i], end: end})
		}
		start, depth, content = i+1, 0, false
	}
	for i := range toks {
		t := &toks[i]
		switch t.Type {
		case tokComment:
		case tokNewline:
			if depth == 0 || startsStatement(toks[i+1:]) {
				t.Type = tokEnd
				finish(i, *t)
			}
		case tokPunct:
			content = true
			switch t.Value {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
			}
		default:
			content = true
		}
	}
	finish(len(toks), lexer.EOFToken(endOf(toks, lexer.Position{Line: 1, Column: 1})))
	return stmts
}

// startsStatement reports whether the next line begins with "assert" or "name =".
func startsStatement(toks []lexer.Token) bool {
	for i, t := range toks {
		switch t.Type {
		case tokNewline, tokComment:
			continue
		case tokIdent:
			if t.Value == "assert" {
				return true
			}
			return i+1 < len(toks) && toks[i+1].Type == tokPunct && toks[i+1].Value == "="
		}
		return false
	}
	return false
}

// checkLimits rejects a statement nested deeper than MaxDepth or holding a
// token longer than MaxTokenLength, before any recursive parsing.
func checkLimits(st stmtTokens) *Error {
	depth := 0
	for _, t := range st.toks {
		if len(t.Value) > MaxTokenLength {
			return errorAt(tokSpan(t), foundText(t), fmt.Sprintf("at most %d characters", MaxTokenLength),
				"token of %d characters is longer than the limit of %d", len(t.Value), MaxTokenLength)
		}
		if t.Type != tokPunct {
			continue
		}
		switch t.Value {
		case "(", "[", "{", "<":
			depth++
			if depth > MaxDepth {
				return errorAt(tokSpan(t), quote(t.Value), fmt.Sprintf("at most %d nested brackets", MaxDepth),
					"brackets nested deeper than the limit of %d", MaxDepth)
			}
		case ")", "]", "}", ">":
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

func classify(st stmtTokens) stmtKind {
	var vis [2]lexer.Token
	n := 0
	for _, t := range st.toks {
		if !elided(t) {
			vis[n] = t
			n++
			if n == 2 {
				break
			}
		}
	}
	switch {
	case vis[0].Type == tokIdent && vis[0].Value == "assert":
		return kindAssert
	case n > 1 && vis[0].Type == tokIdent && vis[1].Type == tokPunct && vis[1].Value == "=":
		return kindBinding
	}
	return kindExpr
}

func parseStatement(src string, st stmtTokens) (Stmt, []*Error) {
	kind := classify(st)
	first, _ := st.first()
	whole := Range{Pos: pos(first.Pos), End: pos(tokenEnd(st.last()))}
	bad := func(errs []*Error) (Stmt, []*Error) {
		return &BadStmt{Range: whole, Text: src[whole.Pos.Offset:whole.End.Offset], Err: errs[0]}, errs
	}
	if err := checkLimits(st); err != nil {
		return bad([]*Error{err})
	}
	c := &converter{src: src, tokens: st.toks}
	var s Stmt
	switch kind {
	case kindAssert:
		g, err := runParser(assertParser, st)
		if err != nil {
			return bad([]*Error{syntaxError(err, st, kind, "end of line")})
		}
		a := &Assert{Range: whole, Left: c.expr(g.Left), Right: c.expr(g.Right), OpRange: tokSpan(g.Op)}
		if g.Op.Value == "is" {
			a.Op = AssertIs
		}
		s = a
	case kindBinding:
		g, err := runParser(bindingParser, st)
		if err != nil {
			return bad([]*Error{syntaxError(err, st, kind, "end of line")})
		}
		s = &Binding{Range: whole, Name: &Name{Range: tokSpan(g.Name), Name: g.Name.Value}, Value: c.expr(g.Value)}
	default:
		g, err := runParser(exprParser, st)
		if err != nil {
			return bad([]*Error{syntaxError(err, st, kind, "end of line")})
		}
		s = &ExprStmt{Range: whole, X: c.expr(g.X)}
	}
	if len(c.errs) > 0 {
		return bad(c.errs)
	}
	return s, nil
}

// runParser runs a participle parser over one statement's tokens, which end
// with an EOF token: past the end participle reports its deepest error, the
// one a user needs. A panic inside participle is turned into an error at the
// statement's first token: a parse never takes the process down.
func runParser[G any](p *participle.Parser[G], st stmtTokens) (g *G, err error) {
	defer func() {
		if r := recover(); r != nil {
			first, _ := st.first()
			g, err = nil, &participle.ParseError{Msg: fmt.Sprint("internal parser error: ", r), Pos: first.Pos}
		}
	}()
	end := st.end.Pos
	if len(st.toks) > 0 {
		end = tokenEnd(st.last())
	}
	pl, err := lexer.Upgrade(&sliceLexer{tokens: st.toks, eof: end}, tokNewline, tokComment)
	if err != nil {
		return nil, err
	}
	return p.ParseFromLexer(pl)
}
