package grammar

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The fast path of a first parse: most lines of a large sheet are a
// binding of a layout literal or of a call of literals and names on one
// line, "L7 = composition((16,8):(8,1), (2,4):(1,2))". fastBinding reads
// such a line from the bytes, without tokens, straight into the nodes the
// statement splitter and parseStatement would make of it (the same tree,
// the same positions). Anything else, or anything unusual in such a line
// (a comment, a line break in brackets, a character outside the subset,
// an integer near the limits of int64, a long line), it leaves to them:
// the line is read again from its start, as if fastBinding had not looked.
//
// The subset (ws is ' ', '\t' or '\r', allowed between any two tokens):
//
//	line  = ( Ident "=" expr | "assert" expr ( "==" | "is" ) expr ) [ comment ] "\n"
//	expr  = Ident "(" [ expr { "," expr } ] ")" | layout
//	layout = tuple [ ":" tuple ]
//	tuple = "(" tuple { "," tuple } [ "," ] ")" | Int | Static | Ident

// fastMaxLine is the longest line fastBinding reads; fastMaxDepth the
// deepest brackets. Both lie far inside the parser's limits (MaxDepth,
// MaxTokenLength, MaxExprLength), which so never apply to what it reads.
const (
	fastMaxLine  = 1024
	fastMaxDepth = 32
)

// fastReader reads one line of the subset; ok false when it leaves the
// line to the parser.
type fastReader struct {
	src   string
	i     int   // the next byte
	start int   // the offset of the statement's first byte
	end   int   // the offset past which it does not read
	col0  int32 // the column of start
	depth int
	a     *arena
	elems []Node // the elements of the tuples and calls being read
}

// pos is the statement-relative position of the byte at offset o of the
// line (all ASCII: a byte is a column).
func (r *fastReader) pos(o int) Position {
	d := int32(o - r.start)
	return Position{Offset: d, Line: 1, Column: r.col0 + d}
}

func (r *fastReader) span(from, to int) Range { return Range{Pos: r.pos(from), End: r.pos(to)} }

// peek skips spaces and is the next byte (0 at the end of what it reads).
func (r *fastReader) peek() byte {
	for r.i < r.end {
		switch c := r.src[r.i]; c {
		case ' ', '\t', '\r':
			r.i++
		default:
			return c
		}
	}
	return 0
}

// word is the end of the identifier or digits from i on.
func (r *fastReader) word(i int) int {
	for i < r.end && isWordByte(r.src[i]) {
		i++
	}
	return i
}

// ident reads an identifier at r.i that the scanner reads as one too
// (not "_", "o", a pycute swizzle or a static integer) and is no keyword.
func (r *fastReader) ident() (from, to int, ok bool) {
	from = r.i
	c := r.src[from]
	if !isLetter(c) || c == '_' && from+1 < r.end && (isDigit(r.src[from+1]) || r.src[from+1] == '-') {
		return 0, 0, false
	}
	to = r.word(from + 1)
	switch s := r.src[from:to]; {
	case s == "_", s == "o", s == "assert", s == "is", c == 'S' && len(s) > 3 && s[1] == 'W':
		return 0, 0, false
	}
	r.i = to
	return from, to, true
}

// expr reads an expression; h is its hash when it is a literal the lines
// share (see literals), else 0.
func (r *fastReader) expr() (n Node, h uint64, ok bool) {
	c := r.peek()
	if !isLetter(c) || c == '_' {
		return r.literal()
	}
	at := r.i
	from, to, ok := r.ident()
	if !ok {
		return nil, 0, false
	}
	switch r.peek() {
	case '(':
		if isIteratorName(r.src[from:to]) {
			return nil, 0, false
		}
		n, ok := r.call(from, to)
		return n, 0, ok
	case '<', '[':
		return nil, 0, false
	}
	r.i = at
	return r.literal()
}

func (r *fastReader) call(from, to int) (Node, bool) {
	r.i++ // "("
	// The nodes' fields are set one by one, the pointers last: the
	// blocks are zeroed, and while the collector marks, a whole-struct
	// store pays a write barrier for every word of the struct.
	c := r.a.callNodes.one()
	c.Range = r.span(from, to)
	c.Fun = r.funName(from, to)
	if r.peek() == ')' {
		r.i++
		c.End = r.pos(r.i)
		return c, true
	}
	if r.depth++; r.depth > fastMaxDepth {
		return nil, false
	}
	mark := len(r.elems)
	// The arguments, when all are shared literals, are a list the lines
	// share too (literals.lists).
	h := uint64(literalSeed)
	for {
		if r.peek() == '"' {
			return nil, false
		}
		a, ha, ok := r.expr()
		if !ok {
			return nil, false
		}
		r.elems = append(r.elems, a)
		if h != 0 && ha != 0 {
			h = literalMix(h, ha)
		} else {
			h = 0
		}
		switch r.peek() {
		case ',':
			r.i++
		case ')':
			r.i++
			r.depth--
			c.End = r.pos(r.i)
			if h == 0 {
				c.Args = r.pop(mark)
				return c, true
			}
			slot := r.a.lits.slot(h, len(r.src))
			if args := r.a.lits.lists[slot]; slices.Equal(args, r.elems[mark:]) {
				r.elems = r.elems[:mark]
				c.Args = args
				return c, true
			}
			c.Args = r.pop(mark)
			r.a.lits.putList(slot, c.Args)
			return c, true
		default:
			return nil, false
		}
	}
}

// pop moves the nodes pushed since mark to a slice of their own.
func (r *fastReader) pop(mark int) []Node {
	s := r.a.nodes.take(len(r.elems) - mark)
	copy(s, r.elems[mark:])
	r.elems = r.elems[:mark] // (the nodes above are the file's: no need to clear them)
	return s
}

// literal reads a layout or an IntTuple; h is its hash when it is a
// literal the lines share (see literals), 0 when it holds a name.
func (r *fastReader) literal() (n Node, h uint64, ok bool) {
	shape, hShape, ok := r.tuple()
	if !ok {
		return nil, 0, false
	}
	if r.peek() != ':' {
		return shape, hShape, true
	}
	r.i++
	stride, hStride, ok := r.tuple()
	if !ok {
		return nil, 0, false
	}
	slot := -1
	if hShape != 0 && hStride != 0 {
		h = literalMix(literalMix(hShape, 'L'), hStride)
		slot = r.a.lits.slot(h, len(r.src))
		if l, ok := r.a.lits.slots[slot].(*Layout); ok && l.Shape == shape && l.Stride == stride {
			return l, h, true
		}
	}
	l := r.a.layouts.one()
	l.Range = join(shape.Span(), stride.Span())
	l.Shape, l.Stride = shape, stride
	if slot >= 0 {
		r.a.lits.put(slot, l)
	}
	return l, h, true
}

// tuple reads an IntTuple; h is its hash when it is a literal the lines
// share (see literals), 0 when it holds a name.
func (r *fastReader) tuple() (n Node, h uint64, ok bool) {
	if r.peek() != '(' {
		return r.leaf()
	}
	open := r.i
	r.i++
	if r.depth++; r.depth > fastMaxDepth || r.peek() == ')' {
		return nil, 0, false
	}
	mark := len(r.elems)
	h = literalMix(literalSeed, uint64(open-r.start)|uint64(uint32(r.col0))<<32)
	for {
		e, he, ok := r.tuple()
		if !ok {
			return nil, 0, false
		}
		r.elems = append(r.elems, e)
		if h != 0 && he != 0 {
			h = literalMix(h, he)
		} else {
			h = 0
		}
		switch r.peek() {
		case ',':
			r.i++
			if r.peek() != ')' { // else pycute's 1-tuple (4,)
				continue
			}
			fallthrough
		case ')':
			r.i++
			r.depth--
			rng := r.span(open, r.i)
			slot := -1
			if h != 0 {
				h = literalMix(h, uint64(r.i-open))
				slot = r.a.lits.slot(h, len(r.src))
				if t, ok := r.a.lits.slots[slot].(*Tuple); ok && t.Range == rng && slices.Equal(t.Elems, r.elems[mark:]) {
					r.elems = r.elems[:mark]
					return t, h, true
				}
			}
			t := r.a.tuples.one()
			t.Range = rng
			t.Elems = r.pop(mark)
			if slot >= 0 {
				r.a.lits.put(slot, t)
			}
			return t, h, true
		default:
			return nil, 0, false
		}
	}
}

func (r *fastReader) leaf() (n Node, h uint64, ok bool) {
	c := r.peek()
	from := r.i
	switch {
	case isDigit(c) || c == '-' || c == '_' && from+1 < r.end && isDigit(r.src[from+1]):
		// An Int or Static token: digits after an optional '_' or '-'
		// (not both: "_-1" is left to the parser), and no word byte
		// after them (16b is a Word).
		digits := from
		static := c == '_'
		if c == '_' || c == '-' {
			digits++
		}
		to := digits
		for to < r.end && isDigit(r.src[to]) {
			to++
		}
		if to == digits || to-digits > 18 || to < r.end && isWordByte(r.src[to]) {
			return nil, 0, false
		}
		var v int64
		for _, d := range []byte(r.src[digits:to]) {
			v = 10*v + int64(d-'0')
		}
		if c == '-' {
			v = -v
		}
		r.i = to
		rng, text := r.span(from, to), r.src[from:to]
		// The range and the text are the node: the text's value, mark
		// and length, and where it lies, pick the slot.
		h = literalMix(literalSeed, uint64(from-r.start)|uint64(uint32(r.col0))<<32)
		h = literalMix(literalMix(h, uint64(v)), uint64(to-from)<<1|uint64(c&1))
		slot := r.a.lits.slot(h, len(r.src))
		if x, ok := r.a.lits.slots[slot].(*Int); ok && x.Range == rng && x.Text == text {
			n = x
			break
		}
		x := r.a.ints.one()
		x.Range, x.Value, x.Static = rng, v, static
		x.Text = text
		r.a.lits.put(slot, x)
		n = x
	case isLetter(c):
		_, to, ok := r.ident()
		if !ok {
			return nil, 0, false
		}
		x := r.a.names.one()
		x.Range = r.span(from, to)
		x.Name = r.src[from:to]
		n = x
	default:
		return nil, 0, false
	}
	switch r.peek() {
	case '/', '@', '{':
		return nil, 0, false // a basis, a braced name, or a comment
	}
	return n, h, true
}

// fastBinding reads the next statement with a fastReader when it is a
// line of the subset: it returns its tree (positions relative to it),
// the position of its first token, its End token (the line break) and
// the end of its last token, all placed in the file, and moves the
// scanner past the line. When it is not, the scanner is at the
// statement's first token, past the blank and comment lines before it
// (their comments collected, as the parser would), where the parser
// reads it from.
func (l *stmtLexer) fastBinding(a *arena) (s Stmt, first Position, end token, lastEnd Position, ok bool) {
	src := l.src
	i, line, col := l.sc.i, l.sc.line, l.sc.col
	// Blank and comment lines and the spaces before the statement, as
	// statement and token skip them.
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			col++
			continue
		case c == '\n':
			i++
			line++
			col = 1
			continue
		case isCommentStart(src, i):
			c, j := commentAt(src, i, line, col)
			*l.comments = append(*l.comments, c)
			i, col = j, int(c.End.Column)
			continue
		}
		break
	}
	l.sc.i, l.sc.line, l.sc.col = i, line, col
	if i >= len(src) || !isLetter(src[i]) {
		return nil, Position{}, token{}, Position{}, false
	}
	r := fastReader{src: src, i: i, start: i, end: min(len(src), i+fastMaxLine), col0: int32(col), a: a, elems: a.stack[:0]}
	m := a.mark()
	defer func() {
		if !ok {
			a.lits.rollback()
			a.reset(m)
		} else {
			a.lits.commit()
		}
	}()
	s, ok = r.statement()
	clear(r.elems) // what a line left to the parser had pushed
	a.stack = r.elems[:0]
	if !ok {
		return nil, Position{}, token{}, Position{}, false
	}
	// The line ends here, or after a comment.
	c := r.peek()
	at := r.i
	nl := at
	var comment *Comment
	if at < r.end && isCommentStart(src, at) {
		k := strings.IndexByte(src[at:], '\n')
		if k < 0 {
			return nil, Position{}, token{}, Position{}, false
		}
		nl = at + k
	} else if c != '\n' {
		return nil, Position{}, token{}, Position{}, false
	}
	for k := i; k < at; k++ { // no byte outside ASCII: columns are bytes
		if src[k] >= 0x80 {
			return nil, Position{}, token{}, Position{}, false
		}
	}
	endCol := r.pos(nl).Column
	if nl > at {
		comment, _ = commentAt(src, at, line, int(r.pos(at).Column))
		endCol = comment.End.Column
		*l.comments = append(*l.comments, comment)
	}
	first = Position{Offset: int32(i), Line: int32(line), Column: int32(col)}
	end = token{Type: tokEnd, Value: "\n", Pos: Position{Offset: int32(nl), Line: int32(line), Column: endCol}}
	rel := s.Span().End
	lastEnd = Position{Offset: first.Offset + rel.Offset, Line: int32(line), Column: rel.Column}
	l.sc.i, l.sc.line, l.sc.col = nl+1, line+1, 1
	return s, first, end, lastEnd, true
}

// statement reads "name = expr" or "assert expr (== | is) expr" up to
// the end of the line or a comment, which it does not take.
func (r *fastReader) statement() (Stmt, bool) {
	from := r.i
	if to := r.word(from); r.src[from:to] == "assert" {
		r.i = to
		left, _, ok := r.expr()
		if !ok {
			return nil, false
		}
		var op int
		var kind AssertOp
		switch c := r.peek(); {
		case c == '=' && r.i+1 < r.end && r.src[r.i+1] == '=':
			op = r.i
			r.i += 2
		case c == 'i' && r.word(r.i) == r.i+2 && r.src[r.i:r.i+2] == "is":
			op = r.i
			r.i += 2
			kind = AssertIs
		default:
			return nil, false
		}
		right, _, ok := r.expr()
		if !ok {
			return nil, false
		}
		// A statement's root is allocated on its own (see newBinding).
		return &Assert{Range: Range{Pos: r.pos(from), End: right.Span().End}, Left: left, Op: kind, OpRange: r.span(op, op+2), Right: right}, true
	}
	_, to, ok := r.ident()
	if !ok || r.peek() != '=' || r.i+1 < r.end && r.src[r.i+1] == '=' {
		return nil, false
	}
	r.i++
	value, _, ok := r.expr()
	if !ok {
		return nil, false
	}
	bn := newBinding()
	bn.b.Range = Range{Pos: r.pos(from), End: value.Span().End}
	bn.n.Range = r.span(from, to)
	bn.n.Name = r.src[from:to]
	bn.b.Name, bn.b.Value = &bn.n, value
	return &bn.b, true
}

// isCommentStart reports whether a comment starts at src[i]: '#' or "//".
func isCommentStart(src string, i int) bool {
	return i < len(src) && (src[i] == '#' || src[i] == '/' && i+1 < len(src) && src[i+1] == '/')
}

// commentAt is the comment that starts at src[i], on line line in column
// col, as the scanner and stmtLexer.token make it, and the offset past it.
func commentAt(src string, i, line, col int) (*Comment, int) {
	j := strings.IndexByte(src[i:], '\n')
	if j < 0 {
		j = len(src)
	} else {
		j += i
	}
	text := src[i:j]
	pos := Position{Offset: int32(i), Line: int32(line), Column: int32(col)}
	end := Position{Offset: int32(j), Line: int32(line), Column: int32(col + utf8.RuneCountInString(text))}
	// Its own text, as token's (a cache keeps comments).
	return &Comment{Range: Range{Pos: pos, End: end}, Text: strings.Clone(text)}, j
}

// funName is the Name node of the operation a call at from..to calls,
// shared by the calls of the same name at the same place (see literals):
// the analysis reads an operation's name by its text, never as a use of
// a sheet name (analysis.eachName skips it), so no two calls need two.
func (r *fastReader) funName(from, to int) *Name {
	rng, text := r.span(from, to), r.src[from:to]
	h := literalMix(literalSeed, uint64(from-r.start)|uint64(uint32(r.col0))<<32)
	for i := 0; i < len(text); i += 8 {
		var w uint64
		for k := i; k < min(i+8, len(text)); k++ {
			w = w<<8 | uint64(text[k])
		}
		h = literalMix(h, w)
	}
	slot := r.a.lits.slot(h, len(r.src))
	if n, ok := r.a.lits.slots[slot].(*Name); ok && n.Range == rng && n.Name == text {
		return n
	}
	n := r.a.names.one()
	n.Range = rng
	n.Name = text
	r.a.lits.put(slot, n)
	return n
}
