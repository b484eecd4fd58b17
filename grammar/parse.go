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
	// Token streams of a few hundred tokens, statements separated by End
	// tokens; each statement is parsed from a checkpoint at its first token.
	// (A stream per statement, or one for the whole file, costs more: the
	// stream is a slice that participle grows one token at a time.)
	l := &stmtLexer{sc: scanner{src: text, line: 1, col: 1}, comments: &f.Comments}
	for !l.done() {
		pl, _ := lexer.Upgrade(l)
		parseChunk(f, text, pl)
	}
	sort.SliceStable(f.Errors, func(i, j int) bool {
		return f.Errors[i].Range.Pos.Offset < f.Errors[j].Range.Pos.Offset
	})
	return f, f.Errors
}

// chunkTokens is about how many tokens one participle token stream holds.
const chunkTokens = 200

func parseChunk(f *File, text string, pl *lexer.PeekingLexer) {
	for {
		t := pl.Peek()
		if t.EOF() {
			return
		}
		if t.Type == tokEnd {
			pl.Next()
			continue
		}
		start := pl.MakeCheckpoint()
		for t := pl.Peek(); t.Type != tokEnd && !t.EOF(); t = pl.Peek() {
			pl.Next()
		}
		stop := pl.MakeCheckpoint()
		st := stmtTokens{toks: pl.Range(start.RawCursor(), stop.RawCursor()), end: *pl.Peek()}
		pl.LoadCheckpoint(start)
		s, errs := parseStatement(text, st, pl)
		f.Statements = append(f.Statements, s)
		f.Errors = append(f.Errors, errs...)
		pl.LoadCheckpoint(stop)
	}
}

// stmtLexer is the lexer of a sheet as participle sees it: the visible tokens,
// and an End token for each line break that ends a statement. Comments are
// collected on the side; line breaks inside open brackets are dropped.
type stmtLexer struct {
	sc       scanner
	ahead    []lexer.Token // tokens scanned to look past a line break
	comments *[]*Comment
	depth    int
	content  bool           // the current statement has a token
	lastEnd  lexer.Position // the end of the last visible token
	emitted  int            // tokens in the current chunk
	cut      bool           // the chunk is complete: the next token is its EOF
	finished bool           // the scanner is exhausted
}

// done reports whether every token has been handed out.
func (l *stmtLexer) done() bool { return l.finished && !l.cut }

func (l *stmtLexer) token() (lexer.Token, bool) {
	if len(l.ahead) > 0 {
		t := l.ahead[0]
		l.ahead = l.ahead[1:]
		return t, true
	}
	return l.sc.next()
}

// Next implements lexer.Lexer.
func (l *stmtLexer) Next() (lexer.Token, error) {
	if l.cut {
		l.cut, l.emitted = false, 0
		return lexer.EOFToken(l.lastEnd), nil
	}
	for {
		t, ok := l.token()
		if !ok {
			l.finished = true
			return lexer.EOFToken(l.lastEnd), nil
		}
		switch t.Type {
		case tokComment:
			*l.comments = append(*l.comments, &Comment{Range: tokSpan(t), Text: t.Value})
			continue
		case tokNewline:
			if !l.content {
				continue
			}
			if l.depth == 0 || l.nextLineStartsStatement() {
				l.content, l.depth = false, 0
				t.Type = tokEnd
				l.cut = l.emitted >= chunkTokens
				return t, nil
			}
			continue
		case tokPunct:
			switch t.Value {
			case "(", "[", "{":
				l.depth++
			case ")", "]", "}":
				if l.depth > 0 {
					l.depth--
				}
			}
		}
		l.content = true
		l.lastEnd = tokenEnd(t)
		l.emitted++
		return t, nil
	}
}

// nextLineStartsStatement reports whether the next line that holds a token
// begins with "assert" or "name =": a line break inside open brackets ends
// the statement all the same, so a missing ')' costs one statement.
func (l *stmtLexer) nextLineStartsStatement() bool {
	i := 0
	for {
		for i+1 >= len(l.ahead) {
			t, ok := l.sc.next()
			if !ok {
				break
			}
			l.ahead = append(l.ahead, t)
		}
		if i >= len(l.ahead) {
			return false
		}
		t := l.ahead[i]
		switch t.Type {
		case tokNewline, tokComment:
			i++
			continue
		case tokIdent:
			if t.Value == "assert" {
				return true
			}
			return i+1 < len(l.ahead) && l.ahead[i+1].Type == tokPunct && l.ahead[i+1].Value == "="
		}
		return false
	}
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
	all := scan(src, 0, 1, 1)
	end := lexer.EOFToken(endOf(all, lexer.Position{Line: 1, Column: 1}))
	node, errs := parseExprTokens(visibleTokens(all), end, "end of input")
	if len(errs) > 0 {
		return node, errs[0]
	}
	return node, nil
}

// parsePayload parses the text between the quotes of an MLIR type; start is
// where that text begins in the source.
func parsePayload(inner string, start Position) (Node, []*Error) {
	toks := visibleTokens(scan(inner, start.Offset, start.Line, start.Column))
	end := start.advance(inner)
	return parseExprTokens(toks, lexer.EOFToken(lexer.Position{Offset: end.Offset, Line: end.Line, Column: end.Column}), `'"'`)
}

func endOf(toks []lexer.Token, start lexer.Position) lexer.Position {
	if len(toks) == 0 {
		return start
	}
	return tokenEnd(toks[len(toks)-1])
}

func parseExprTokens(toks []lexer.Token, end lexer.Token, endName string) (Node, []*Error) {
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
	return g.X.Node, g.X.Errs
}

type stmtKind int

const (
	kindExpr stmtKind = iota
	kindBinding
	kindAssert
)

// stmtTokens is one statement's tokens (no line breaks, no comments) and the
// token that ended it (End or EOF).
type stmtTokens struct {
	toks []lexer.Token
	end  lexer.Token
}

func elided(t lexer.Token) bool { return t.Type == tokNewline || t.Type == tokComment }

// visibleTokens drops line breaks and comments.
func visibleTokens(toks []lexer.Token) []lexer.Token {
	out := toks[:0]
	for _, t := range toks {
		if !elided(t) {
			out = append(out, t)
		}
	}
	return out
}

// visible is the statement's tokens (line breaks and comments are never kept).
func (st stmtTokens) visible() []lexer.Token { return st.toks }

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

func parseStatement(src string, st stmtTokens, pl *lexer.PeekingLexer) (Stmt, []*Error) {
	kind := classify(st)
	first, _ := st.first()
	whole := Range{Pos: pos(first.Pos), End: pos(tokenEnd(st.last()))}
	bad := func(errs []*Error) (Stmt, []*Error) {
		return &BadStmt{Range: whole, Text: src[whole.Pos.Offset:whole.End.Offset], Err: errs[0]}, errs
	}
	if err := checkLimits(st); err != nil {
		return bad([]*Error{err})
	}
	var s Stmt
	var errs []*Error
	switch kind {
	case kindAssert:
		g, err := runParserAt(assertParser, st, pl)
		if err != nil {
			return bad([]*Error{syntaxError(err, st, kind, "end of line")})
		}
		a := &Assert{Range: whole, Left: g.Left.Node, Right: g.Right.Node, OpRange: tokSpan(g.Op)}
		errs = append(g.Left.Errs, g.Right.Errs...)
		if g.Op.Value == "is" {
			a.Op = AssertIs
		}
		s = a
	case kindBinding:
		g, err := runParserAt(bindingParser, st, pl)
		if err != nil {
			return bad([]*Error{syntaxError(err, st, kind, "end of line")})
		}
		s = &Binding{Range: whole, Name: &Name{Range: tokSpan(g.Name), Name: g.Name.Value}, Value: g.Value.Node}
		errs = g.Value.Errs
	default:
		g, err := runParserAt(exprParser, st, pl)
		if err != nil {
			return bad([]*Error{syntaxError(err, st, kind, "end of line")})
		}
		s = &ExprStmt{Range: whole, X: g.X.Node}
		errs = g.X.Errs
	}
	if len(errs) > 0 {
		return bad(errs)
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
	pl, err := lexer.Upgrade(&sliceLexer{tokens: st.toks, eof: end})
	if err != nil {
		return nil, err
	}
	return p.ParseFromLexer(pl)
}

// runParserAt runs a participle parser from the lexer's position in a file's
// token stream; the statement must end at the End token after it.
func runParserAt[G any](p *participle.Parser[G], st stmtTokens, pl *lexer.PeekingLexer) (g *G, err error) {
	defer func() {
		if r := recover(); r != nil {
			first, _ := st.first()
			g, err = nil, &participle.ParseError{Msg: fmt.Sprint("internal parser error: ", r), Pos: first.Pos}
		}
	}()
	g, err = p.ParseFromLexer(pl, participle.AllowTrailing(true))
	if err != nil {
		return nil, err
	}
	if next := pl.Peek(); next.Type != tokEnd && !next.EOF() {
		return nil, &participle.UnexpectedTokenError{Unexpected: *next}
	}
	return g, nil
}
