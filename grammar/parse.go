package grammar

import (
	"errors"
	"runtime"
	"slices"
	"strings"
)

// ParseFile parses a layout sheet. Every statement is parsed on its own: a
// statement that fails becomes a *BadStmt holding its text, and parsing goes
// on with the next one. The errors are in source order (also in File.Errors).
//
// A statement ends at the end of its line unless a bracket is open; a line
// inside open brackets that starts with "assert" or "name =" begins a new
// statement all the same, so a missing ')' costs one statement, not the file.
func ParseFile(filename string, src []byte) (*File, []*Error) {
	return ParseFileCached(filename, src, nil)
}

// firstParseRoom bounds the statements a first parse makes room for at
// once, so a file of empty lines costs no more than its text; a longer
// sheet's slices grow by projectedMore.
const firstParseRoom = 1 << 16

// projectedMore is the room to add to the full slices of a parse that has
// have statements in the first done bytes of a text of total bytes: the
// statements of the rest of the text projected from those before, and a
// sixteenth more. Grown by append (a quarter at a time), the slices of a
// first parse of 200,000 lines were copied five times on the way from
// firstParseRoom, 30 megabytes made and left behind while the collector
// is paused (lsp's pauseGC), for 8 kept.
func projectedMore(have, done, total int) int {
	more := have/16 + 16
	if done > 0 && total > done {
		more += int(int64(have) * int64(total-done) / int64(done))
	}
	return more
}

// ParseFileCached is ParseFile reusing, from cache (nil for none), the tree
// of every statement whose text and starting column are unchanged since the
// cache was last used, as it is (its positions are relative to it: only its
// Base is new). The text before and after an edit is not even scanned
// again; the statements not found go to the parser. The result is the one
// ParseFile gives, trees, bases and errors included.
func ParseFileCached(filename string, src []byte, cache *Cache) (*File, []*Error) {
	return ParseTextCached(filename, string(src), cache)
}

// ParseTextCached is ParseFileCached of a text held as a string, which it
// does not copy (a string does not change): a caller that keeps the text
// as a string (an editor's document) keeps one copy of it, not two, for
// the trees of a first parse share its memory.
func ParseTextCached(filename string, text string, cache *Cache) (*File, []*Error) {
	f := &File{Name: filename}
	fresh := false // the cache holds no tree of an earlier parse
	if cache != nil {
		cache.begin()
		defer cache.end()
		fresh = cache.count == 0
	}
	l := &stmtLexer{sc: scanner{src: text, line: 1, col: 1}, src: text, comments: &f.Comments}
	if strings.HasPrefix(text, "\ufeff") { // a byte order mark is no column
		l.sc.i = len("\ufeff")
	}
	var (
		errs []stmtErrors // the errors of the statements that have any
		recs []stmtRecord // each statement's record, for the next parse (with a cache)
	)
	// add appends a statement whose tree is s, with errors e (both relative
	// to the statement, see Position), placed by b.
	add := func(s Stmt, e []*Error, b Base, r stmtRecord) {
		if len(e) > 0 {
			errs = append(errs, stmtErrors{len(f.Statements), e})
		}
		if len(f.Statements) == cap(f.Statements) {
			more := projectedMore(len(f.Statements), b.Offset, len(text))
			f.Statements, f.bases = slices.Grow(f.Statements, more), slices.Grow(f.bases, more)
			if cache != nil {
				recs = slices.Grow(recs, more)
			}
		}
		f.Statements = append(f.Statements, s)
		f.bases = append(f.bases, fileBase{Offset: int32(b.Offset), Line: int32(b.Line)})
		if cache != nil {
			recs = append(recs, r)
		}
	}
	var edit *editSpan
	if cache == nil || cache.last == nil {
		// A first parse makes room for a statement a line (up to
		// firstParseRoom), rather than growing and copying its slices
		// while it goes: at 50,000 lines that copying was a tenth of the parse.
		n := min(strings.Count(text, "\n")+1, firstParseRoom)
		f.Statements, f.bases = make([]Stmt, 0, n), make([]fileBase, 0, n)
		if cache != nil {
			recs = cache.spareRecords(n) // its buckets are made when indexed (Cache.index)
		}
	}
	// A first parse of a large sheet scans it here and parses its
	// statements on every core: a statement's tree depends on its own
	// tokens alone.
	var batch *parseBatch
	firstParse := cache == nil || cache.last == nil
	if edit == nil && firstParse && runtime.GOMAXPROCS(0) >= parallelParseProcs && cap(f.Statements) >= parallelParseMin {
		batch = &parseBatch{}
	}
	// A first parse takes the nodes of the lines it reads on the fast
	// path, or parses here, from an arena (those of a batch are parsed on
	// other goroutines, each with nodes of its own), and its statements'
	// texts are pieces of text rather than copies
	// each: what it keeps is one version's text and nodes at most, however
	// long its trees live. A later parse's trees have all their own, so
	// that edits keep no older version (see arena).
	var a *arena
	if firstParse {
		a = &arena{}
	}
	if cache != nil && cache.last != nil {
		n := len(cache.last.records) + 8
		f.Statements, f.bases, recs = make([]Stmt, 0, n), make([]fileBase, 0, n), cache.spareRecords(n)
		f.Comments = make([]*Comment, 0, len(cache.last.comments)+8)
		edit = newEditSpan(cache.last, text)
		// The statements before the edit are as they were.
		// A statement whose tree the cache cannot take (Cache.reuse) ends
		// them: it and the rest are scanned again.
		n = edit.prefixStatements()
		for i, r := range edit.old.records[:n] {
			b := edit.old.file.bases[i].base()
			e, ok := cache.reuse(r.entry, b.Offset)
			if !ok {
				n = i
				break
			}
			r.entry = e
			add(r.entry.stmt, cache.errors(r.entry), b, r)
		}
		if n > 0 {
			r := edit.old.records[n-1]
			l.resume(r.resume, edit.old.file.StatementRange(n-1).End)
			for _, c := range edit.old.comments {
				if c.Pos.Offset >= r.resume.Offset {
					break
				}
				f.Comments = append(f.Comments, c)
			}
		}
	}
	for {
		// A line of the fast path's subset (fastBinding) is read from its
		// bytes; the others are split into tokens (stmtLexer.statement).
		var (
			q       []token
			first   token // its first token (only Pos is read)
			end     token // the token that ended it
			lastEnd Position
			tree    Stmt // the fast path's tree
		)
		if a != nil && fastPath && l.head == len(l.ahead) {
			tree, first.Pos, end, lastEnd, _ = l.fastBinding(a)
		}
		if tree == nil {
			if !l.statement() {
				break
			}
			q = l.queue
			first, end = q[0], q[len(q)-1]
			lastEnd = tokenEnd(lastOfShell(q[:len(q)-1]))
		}
		l.lastEnd = lastEnd
		if end.EOF() {
			l.lastEnd = end.Pos
		}
		own := text[first.Pos.Offset:lastEnd.Offset]
		base := Base{Offset: int(first.Pos.Offset), Line: int(first.Pos.Line) - 1}
		var rec stmtRecord
		var key stmtKey
		if cache != nil {
			rec.resume = linePos{Offset: -1}
			if !end.EOF() {
				rec.resume = linePos{Offset: end.Pos.Offset + 1, Line: end.Pos.Line + 1}
			}
			key = stmtKey{text: own, col: first.Pos.Column,
				endOffset: keyEnd(end.Pos.Offset-first.Pos.Offset, end.EOF()), endLine: end.Pos.Line - first.Pos.Line, endCol: end.Pos.Column}
			// A tree is taken once per parse (Cache.reuse): a cache that
			// held no tree when this parse began finds none to take.
			var e *cacheEntry
			ok := false
			if !fresh {
				e, ok = cache.lookup(key, int(first.Pos.Offset))
			}
			if ok {
				rec.entry = e
				add(e.stmt, cache.errors(e), base, rec)
				if edit != nil {
					edit.sync(l, cache, f, add, rec)
				}
				continue
			}
		}
		// A tree of a later parse keeps its own copy of the statement's
		// text, not the file's: a tree kept by a cache holds on to no
		// old version. It is parsed where its positions are: on line 1 at
		// offset 0, in its own column (see Position).
		if tree != nil {
			if cache != nil {
				rec.entry = cache.store(key, int(first.Pos.Offset), tree, nil, a)
			}
			add(tree, nil, base, rec)
			continue
		}
		shared := a != nil
		if !shared {
			own = strings.Clone(own)
		}
		key.text = own
		for k := range q {
			t := &q[k]
			if k < len(q)-1 && !shared {
				from := t.Pos.Offset - first.Pos.Offset
				t.Value = own[from : int(from)+len(t.Value)]
			}
			t.Pos.Offset -= first.Pos.Offset
			t.Pos.Line -= first.Pos.Line - 1
		}
		if batch != nil {
			// Parsed later, beside the others (parseBatch).
			batch.add(len(f.Statements), own, q, key)
			add(nil, nil, base, rec)
			continue
		}
		var m arenaMark
		if a != nil {
			m = a.mark()
		}
		stmt, e := parseStatement(own, stmtTokens{toks: q[:len(q)-1], end: q[len(q)-1]}, a)
		if _, bad := stmt.(*BadStmt); bad && a != nil {
			a.reset(m) // a BadStmt keeps none of the nodes made on the way
		}
		if cache != nil {
			rec.entry = cache.store(key, int(first.Pos.Offset), stmt, e, a)
		}
		add(stmt, e, base, rec)
		if edit != nil {
			edit.sync(l, cache, f, add, rec)
		}
	}
	if batch != nil {
		errs = batch.finish(f, cache, recs, errs)
	}
	if len(f.Statements) == 0 {
		f.Statements, f.bases = nil, nil // as a file without statements always had
	}
	for _, e := range errs {
		for _, er := range e.errs {
			f.Errors = append(f.Errors, f.bases[e.stmt].base().Error(er))
		}
	}
	ErrorList(f.Errors).Sort()
	if cache != nil {
		cache.last = &lastParse{src: text, records: recs, comments: f.Comments, file: f}
	}
	return f, f.Errors
}

// fastPath turns the fast path of a first parse (fastBinding) on; the
// tests turn it off to compare.
var fastPath = true

// stmtErrors are the errors of statement stmt, relative to it.
type stmtErrors struct {
	stmt int
	errs []*Error
}

// stmtLexer splits a sheet into statements. Each statement becomes its
// shell, with every expression handed over as one Expr token holding the
// expression's source text, then an End token:
//
//	A = (4,8):(1,4)      Ident "=" Expr End
//	assert X == Y        "assert" Expr "==" Expr End
//	composition(A, B)    Expr End
//
// parseStatement reads the shells, readExpr each expression. Comments
// are collected on the side; line breaks inside open brackets are skipped.
type stmtLexer struct {
	sc       scanner
	src      string
	ahead    []token // tokens scanned but not yet used, from ahead[head]
	head     int
	queue    []token // the current statement's shell tokens, its End (or EOF) last
	comments *[]*Comment
	lastEnd  Position // the end of the last token of the statements read
}

// token returns the next token that is not a comment, collecting comments.
func (l *stmtLexer) token() (token, bool) {
	for {
		var t token
		if l.head < len(l.ahead) {
			t = l.ahead[l.head]
			l.head++
			if l.head == len(l.ahead) {
				l.head, l.ahead = 0, l.ahead[:0]
			}
		} else {
			var ok bool
			if t, ok = l.sc.next(); !ok {
				return t, false
			}
		}
		if t.Type == tokComment {
			// A comment's text is its own: a cache keeps comments for
			// later parses, and a piece of the file's text keeps it all.
			*l.comments = append(*l.comments, &Comment{Range: tokSpan(t), Text: strings.Clone(t.Value)})
			continue
		}
		return t, true
	}
}

// peekToken is the next token that token would return, without taking it.
func (l *stmtLexer) peekToken() (token, bool) {
	for i := l.head; ; i++ {
		if i == len(l.ahead) {
			t, ok := l.sc.next()
			if !ok {
				return t, false
			}
			l.ahead = append(l.ahead, t)
		}
		if l.ahead[i].Type != tokComment {
			return l.ahead[i], true
		}
	}
}

// resume sets the lexer at the start of a line (just past a statement's
// End), lastEnd being the end of the last token before it.
func (l *stmtLexer) resume(at linePos, lastEnd Position) {
	l.sc.i, l.sc.line, l.sc.col = int(at.Offset), int(at.Line), 1
	l.ahead, l.head, l.queue = l.ahead[:0], 0, l.queue[:0]
	l.lastEnd = lastEnd
}

// statement reads the next statement into the queue; false at the end.
func (l *stmtLexer) statement() bool {
	l.queue = l.queue[:0]
	var first token
	for {
		t, ok := l.token()
		if !ok {
			return false
		}
		if t.Type != tokNewline {
			first = t
			break
		}
	}
	switch {
	case first.Type == tokIdent && first.Value == "assert":
		l.queue = append(l.queue, first)
		end, op := l.region(nil, true)
		if op.Type == tokEqEq || op.Type == tokIdent {
			l.queue = append(l.queue, op)
			end, _ = l.region(nil, false)
		}
		l.queue = append(l.queue, end)
	case first.Type == tokIdent:
		if next, ok := l.peekToken(); ok && next.Type == tokPunct && next.Value == "=" {
			l.token()
			l.queue = append(l.queue, first, next)
			end, _ := l.region(nil, false)
			l.queue = append(l.queue, end)
			return true
		}
		fallthrough
	default:
		end, _ := l.region(&first, false)
		l.queue = append(l.queue, end)
	}
	return true
}

// region reads an expression up to the end of the statement (or, with
// stopAtOp, up to "==" or "is" outside brackets) and queues it as one Expr
// token followed by the expression's own tokens (see readExpr): the
// expression is scanned once, here. It returns the token that ended the
// statement (End, or EOF) and the operator it stopped at.
//
// The tokens kept are bounded: none past the first token over
// MaxTokenLength or bracket past MaxDepth (where readExpr stops), and none
// of an expression of more than maxKeptTokens tokens or longer than
// MaxExprLength: readExpr scans such an expression's text again if it
// reads it at all, so that the queue of a huge one holds a few kilobytes,
// not a token per byte of it.
func (l *stmtLexer) region(first *token, stopAtOp bool) (end, op token) {
	var start, last token
	n, depth := 0, 0
	marker := len(l.queue) // where the Expr token goes
	keep := true           // the tokens read so far are kept
	limitDepth := 0        // the brackets open, as limitOf counts them
	take := func(t token) {
		if n == 0 {
			start = t
			l.queue = append(l.queue, token{Type: tokExpr, Pos: t.Pos})
		}
		last = t
		n++
		if keep {
			switch {
			case len(l.queue)-marker > maxKeptTokens || int(t.Pos.Offset-start.Pos.Offset)+len(t.Value) > MaxExprLength:
				keep = false
				l.queue = l.queue[:marker+1] // readExpr scans it again
			case limitOf(t, &limitDepth) != nil:
				keep = false
				l.queue = append(l.queue, t)
			default:
				l.queue = append(l.queue, t)
			}
		}
		if t.Type == tokPunct {
			switch t.Value {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
			}
		}
	}
	if first != nil {
		take(*first)
	}
	for {
		t, ok := l.token()
		if !ok {
			end = eofToken(l.lastEnd)
			if n > 0 {
				end = eofToken(tokenEnd(last))
			}
			break
		}
		if t.Type == tokNewline {
			if depth == 0 || l.nextLineStartsStatement() {
				t.Type = tokEnd
				end = t
				break
			}
			continue
		}
		if stopAtOp && depth == 0 && (t.Type == tokEqEq || t.Type == tokIdent && t.Value == "is") {
			op = t
			break
		}
		take(t)
	}
	if n > 0 {
		lastEnd := tokenEnd(last)
		l.queue[marker].Value = l.src[start.Pos.Offset:lastEnd.Offset]
	}
	return end, op
}

// maxKeptTokens is the most tokens of an expression the statement
// splitter keeps for readExpr (stmtLexer.region).
const maxKeptTokens = 4096

// nextLineStartsStatement reports whether the next line that holds a token
// begins with "assert" or "name =": a line break inside open brackets ends
// the statement all the same, so a missing ')' costs one statement.
func (l *stmtLexer) nextLineStartsStatement() bool {
	i := l.head
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
	return ParseExprAt(src, Position{Offset: 0, Line: 1, Column: 1})
}

// ParseExprAt is ParseExpr for text that begins at start in a larger source
// (a comment or a string literal of a host file): the positions in the AST
// and in the error are those of the larger source.
func ParseExprAt(src string, start Position) (Node, *Error) {
	if err := tooLong(src, start); err != nil {
		return nil, err
	}
	toks, err := scanChecked(nil, src, int(start.Offset), int(start.Line), int(start.Column))
	if err != nil {
		return nil, err
	}
	e := start.advance(src)
	end := eofToken(e)
	node, errs := parseExprTokens(toks, end, "end of input")
	if len(errs) > 0 {
		return node, errs[0]
	}
	return node, nil
}

// parsePayload parses the text between the quotes of an MLIR type; start is
// where that text begins in the source.
func parsePayload(inner string, start Position) (Node, []*Error) {
	toks := visibleTokens(scan(inner, int(start.Offset), int(start.Line), int(start.Column)))
	e := start.advance(inner)
	end := eofToken(e)
	st := stmtTokens{toks: toks, end: end}
	const endName = `'"'`
	if len(toks) == 0 {
		r := Range{Pos: e, End: e}
		return nil, []*Error{errorAt(r, endName, "a descriptor", "expected a descriptor, found %s", endName)}
	}
	if err := checkLimits(st); err != nil {
		return nil, []*Error{err}
	}
	// Read directly: the payload is an expression and nothing else.
	src := &sliceSource{toks: toks, eof: end}
	r := &exprReader{literalParser{lex: src}}
	n, err := r.expr()
	if err == nil && src.i < len(toks) {
		err = unexpected(&toks[src.i])
	}
	if err != nil {
		return nil, []*Error{syntaxError(err, st, kindExpr, endName)}
	}
	return n, r.errs
}

// parseExprTokens reads toks, the tokens of a whole expression, and nothing
// after it; end is the token after them.
func parseExprTokens(toks []token, end token, endName string) (Node, []*Error) {
	st := stmtTokens{toks: toks, end: end}
	if _, ok := st.first(); !ok {
		r := Range{Pos: end.Pos, End: end.Pos}
		return nil, []*Error{errorAt(r, endName, "a descriptor", "expected a descriptor, found %s", endName)}
	}
	if err := checkLimits(st); err != nil {
		return nil, []*Error{err}
	}
	var n Node
	var errs []*Error
	err := guarded(st, func() error {
		// Past the expression the reader meets the end of its last token.
		src := &sliceSource{toks: toks, eof: eofToken(tokenEnd(st.last()))}
		var err error
		n, errs, err = readExpr(src)
		if err == nil && src.i < len(toks) {
			err = unexpected(&toks[src.i])
		}
		return err
	})
	if err != nil {
		return nil, []*Error{syntaxError(err, st, kindExpr, endName)}
	}
	return n, errs
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
	toks []token
	end  token
}

func elided(t token) bool { return t.Type == tokNewline || t.Type == tokComment }

// visibleTokens drops line breaks and comments.
func visibleTokens(toks []token) []token {
	out := toks[:0]
	for _, t := range toks {
		if !elided(t) {
			out = append(out, t)
		}
	}
	return out
}

// visible is the statement's tokens (line breaks and comments are never kept).
func (st stmtTokens) visible() []token { return st.toks }

func (st stmtTokens) first() (token, bool) {
	for _, t := range st.toks {
		if !elided(t) {
			return t, true
		}
	}
	return token{}, false
}

func (st stmtTokens) last() token {
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
		if err := limitOf(t, &depth); err != nil {
			return err
		}
	}
	return nil
}

// lastOfShell is the last token of a statement's shell toks (its End
// left out): an expression's Expr token rather than the tokens after it,
// of which only the first few are kept past a limit.
func lastOfShell(toks []token) token {
	var last token
	for i := 0; i < len(toks); i++ {
		last = toks[i]
		if last.Type == tokExpr {
			i = exprEnd(toks, i+1, last) - 1
		}
	}
	return last
}

// checkShellLimits is checkLimits for a statement's shell: the tokens of
// its expressions are checked as each is read (readExpr), so that an
// error in one expression is reported before a limit passed in the next.
func checkShellLimits(st stmtTokens) *Error {
	depth := 0
	for i := 0; i < len(st.toks); i++ {
		t := st.toks[i]
		if err := limitOf(t, &depth); err != nil {
			return err
		}
		if t.Type == tokExpr {
			i = exprEnd(st.toks, i+1, t) - 1
		}
	}
	return nil
}

func classify(st stmtTokens) stmtKind {
	var vis [2]token
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

// parseStatement parses one statement; src is the statement's text, st
// its shell (see stmtLexer), positioned relative to it (offset 0 is its
// start).
//
// Its nodes come from a (nil: each its own allocation, see arena).
func parseStatement(src string, st stmtTokens, a *arena) (Stmt, []*Error) {
	kind := classify(st)
	first, _ := st.first()
	whole := Range{Pos: first.Pos, End: tokenEnd(lastOfShell(st.toks))}
	bad := func(errs []*Error) (Stmt, []*Error) {
		return &BadStmt{Range: whole, Text: src[whole.Pos.Offset:whole.End.Offset], Err: errs[0]}, errs
	}
	// explain is the error to report; the statement is scanned again only
	// for a syntax error (a limit's error is already placed: the statement
	// it refused may be megabytes long).
	explain := func(err error) *Error {
		var own *Error
		if errors.As(err, &own) {
			return own
		}
		text := src[whole.Pos.Offset:whole.End.Offset]
		fine := stmtTokens{toks: visibleTokens(scan(text, int(whole.Pos.Offset), int(whole.Pos.Line), int(whole.Pos.Column))), end: st.end}
		return syntaxError(err, fine, kind, "end of line")
	}
	if err := checkShellLimits(st); err != nil {
		return bad([]*Error{err})
	}
	var s Stmt
	var errs []*Error
	err := guarded(st, func() error {
		var p *sliceSource
		if a != nil {
			p = &a.source
			*p = sliceSource{toks: st.toks, eof: st.end, arena: a}
		} else {
			p = &sliceSource{toks: st.toks, eof: st.end}
		}
		switch kind {
		case kindAssert:
			p.Next() // "assert"
			left, leftErrs, err := readExpr(p)
			if err != nil {
				return err
			}
			op := p.Peek()
			if op.Type != tokEqEq && !(op.Type == tokIdent && op.Value == "is") {
				return unexpected(op)
			}
			p.Next()
			right, rightErrs, err := readExpr(p)
			if err != nil {
				return err
			}
			a := &Assert{Range: whole, Left: left, Right: right, OpRange: tokSpan(*op)}
			if op.Value == "is" {
				a.Op = AssertIs
			}
			s, errs = a, append(leftErrs, rightErrs...)
		case kindBinding:
			name := p.Next()
			p.Next() // "="
			value, valueErrs, err := readExpr(p)
			if err != nil {
				return err
			}
			// The binding and its name in one allocation: they live as long.
			bn := newBinding()
			*bn = boundName{Binding{Range: whole, Value: value}, Name{Range: tokSpan(*name), Name: name.Value}}
			bn.b.Name = &bn.n
			s, errs = &bn.b, valueErrs
		default:
			x, xErrs, err := readExpr(p)
			if err != nil {
				return err
			}
			s, errs = &ExprStmt{Range: whole, X: x}, xErrs
		}
		if p.i < len(p.toks) {
			return unexpected(p.Peek())
		}
		return nil
	})
	if err != nil {
		return bad([]*Error{explain(err)})
	}
	if len(errs) > 0 {
		return bad(errs)
	}
	return s, nil
}

// guarded runs read, a reader of the statement st, turning a panic into an
// error at the statement's first token: a parse never takes the process
// down.
func guarded(st stmtTokens, read func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			first, _ := st.first()
			if first.Type == tokExpr { // the expression's own first token
				sc := scanner{src: first.Value, base: int(first.Pos.Offset), line: int(first.Pos.Line), col: int(first.Pos.Column)}
				first, _ = sc.next()
			}
			err = errorAt(tokSpan(first), foundText(first), "", "internal parser error: %v", r)
		}
	}()
	return read()
}
