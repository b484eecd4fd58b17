package source

import "bytes"

// parser reads expressions of CuTe's subset from a token slice. It never
// fails as a whole: a construct it cannot read yields nil (in an argument
// list, an Opaque node standing for the skipped text).
type parser struct {
	src       []byte
	str       string // src as a string: token texts are slices of it, not copies
	toks      []token
	cpp       bool
	templates map[string]bool // C++: names after which "<" opens template arguments
	// templateShapes is the first test of templates (C++).
	templateShapes *wordShapes
	pos            int
	depth          int
	// inTemplate > 0 while reading template arguments: ">" closes them
	// rather than comparing.
	inTemplate int
	nodes      arena
}

// arena hands out the parser's nodes and lists from chunks: a file of
// CuTe code holds thousands of small nodes, and one allocation per node was
// most of the reader's time (the nodes live as long as the File anyway).
type arena struct {
	calls  []Call
	idents []Ident
	ints   []Int
	bins   []Binary
	lists  []Node
	stack  []Node // the items of the lists being read, innermost last
	// spare, where set (lint's reader, LintReader), holds the chunks of
	// earlier reads, handed out again before any is made.
	spare *arenaChunks
}

// arenaChunks are the chunks an arena made, kept to be handed out again
// by the arenas of later reads once the File of the read that made them
// is dropped (LintReader).
type arenaChunks struct {
	calls  chunks[Call]
	idents chunks[Ident]
	ints   chunks[Int]
	bins   chunks[Binary]
	lists  chunks[Node]
}

// reset makes every chunk free to be handed out again.
func (c *arenaChunks) reset() {
	c.calls.next, c.idents.next, c.ints.next, c.bins.next, c.lists.next = 0, 0, 0, 0, 0
}

// chunks are the chunks of one kind of node; those from next on are free.
type chunks[T any] struct {
	all  [][]T
	next int
}

// newChunk is an empty chunk of capacity n: one of c's free ones (of that
// capacity), else a new one that c keeps; without c, a new one. A free
// chunk is not zeroed: the parser sets every node it is handed whole
// (*n = Ident{...}), and a list is appended to.
func newChunk[T any](c *chunks[T], n int) []T {
	if c == nil {
		return make([]T, 0, n)
	}
	if c.next < len(c.all) && cap(c.all[c.next]) == n {
		s := c.all[c.next][:0]
		c.next++
		return s
	}
	s := make([]T, 0, n)
	if c.next < len(c.all) {
		c.all[c.next] = s
	} else {
		c.all = append(c.all, s)
	}
	c.next++
	return s
}

// chunk is the number of nodes of a kind allocated at once.
const chunk = 128

func (a *arena) call() *Call {
	if len(a.calls) == cap(a.calls) {
		a.calls = newChunk(a.spareCalls(), chunk)
	}
	a.calls = a.calls[:len(a.calls)+1]
	return &a.calls[len(a.calls)-1]
}

func (a *arena) ident() *Ident {
	if len(a.idents) == cap(a.idents) {
		a.idents = newChunk(a.spareIdents(), chunk)
	}
	a.idents = a.idents[:len(a.idents)+1]
	return &a.idents[len(a.idents)-1]
}

func (a *arena) int() *Int {
	if len(a.ints) == cap(a.ints) {
		a.ints = newChunk(a.spareInts(), chunk)
	}
	a.ints = a.ints[:len(a.ints)+1]
	return &a.ints[len(a.ints)-1]
}

func (a *arena) binary() *Binary {
	if len(a.bins) == cap(a.bins) {
		a.bins = newChunk(a.spareBins(), chunk/4)
	}
	a.bins = a.bins[:len(a.bins)+1]
	return &a.bins[len(a.bins)-1]
}

// list copies items into a slice of its own (capacity = length, so that an
// append by its user never writes over a neighbour); nil when empty.
func (a *arena) list(items []Node) []Node {
	n := len(items)
	if n == 0 {
		return nil
	}
	if n > chunk/4 {
		return append([]Node(nil), items...)
	}
	if cap(a.lists)-len(a.lists) < n {
		a.lists = newChunk(a.spareLists(), 4*chunk)
	}
	at := len(a.lists)
	a.lists = append(a.lists, items...)
	return a.lists[at : at+n : at+n]
}

func (a *arena) spareCalls() *chunks[Call] {
	if a.spare == nil {
		return nil
	}
	return &a.spare.calls
}

func (a *arena) spareIdents() *chunks[Ident] {
	if a.spare == nil {
		return nil
	}
	return &a.spare.idents
}

func (a *arena) spareInts() *chunks[Int] {
	if a.spare == nil {
		return nil
	}
	return &a.spare.ints
}

func (a *arena) spareBins() *chunks[Binary] {
	if a.spare == nil {
		return nil
	}
	return &a.spare.bins
}

func (a *arena) spareLists() *chunks[Node] {
	if a.spare == nil {
		return nil
	}
	return &a.spare.lists
}

// Opaque is text the parser skipped (an argument it cannot read): it has
// no value.
type Opaque struct{ Range }

func (p *parser) text(i int) string {
	t := p.toks[i]
	return p.str[t.start:t.end]
}

func (p *parser) is(i int, s string) bool {
	if i < 0 || i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	if len(s) == 1 { // a constant at almost every call: one byte's test
		return t.punct == s[0]
	}
	return t.kind == tPunct && t.end-t.start == len(s) && p.str[t.start:t.end] == s
}

func (p *parser) isIdent(i int) bool { return i >= 0 && i < len(p.toks) && p.toks[i].kind == tIdent }

func (p *parser) at(s string) bool { return p.is(p.pos, s) }

// end is the end offset of the token before pos.
func (p *parser) end() int {
	if p.pos == 0 {
		return 0
	}
	return p.toks[p.pos-1].end
}

func (p *parser) startAt() int {
	if p.pos < len(p.toks) {
		return p.toks[p.pos].start
	}
	return len(p.src)
}

// binaryPrec is the precedence of a binary operator (0: not one here).
func (p *parser) binaryPrec() (string, int) {
	if p.pos >= len(p.toks) || p.toks[p.pos].kind != tPunct {
		if !p.cpp && p.pos < len(p.toks) && p.toks[p.pos].kind == tIdent {
			switch p.text(p.pos) {
			case "and":
				return "and", 2
			case "or":
				return "or", 1
			}
		}
		return "", 0
	}
	if t := p.toks[p.pos]; t.punct != 0 {
		// One character: a table (most expressions end at ";", "," or ">").
		c := t.punct
		prec := int(onePrec[c])
		if prec == 0 || c == '>' && p.inTemplate > 0 {
			return "", 0
		}
		return p.str[t.start:t.end], prec
	}
	op := p.text(p.pos)
	switch op {
	case "||":
		return op, 1
	case "&&":
		return op, 2
	case "==", "!=":
		return op, 3
	case "<", "<=":
		return op, 4
	case ">":
		if p.inTemplate > 0 {
			return "", 0
		}
		return op, 4
	case "<<":
		return op, 5
	case "+", "-":
		return op, 6
	case "*", "/", "%":
		return op, 7
	case "//":
		if !p.cpp {
			return op, 7
		}
	case "**":
		if !p.cpp {
			return op, 8
		}
	}
	return "", 0
}

// onePrec is binaryPrec's precedence of the one-character operators.
var onePrec = [256]int8{'<': 4, '>': 4, '+': 6, '-': 6, '*': 7, '/': 7, '%': 7}

// expr reads an expression whose operators bind tighter than minPrec.
func (p *parser) expr(minPrec int) Node {
	if p.depth >= MaxDepth {
		return nil
	}
	p.depth++
	x := p.binaryExpr(minPrec)
	p.depth--
	return x
}

// binaryExpr is expr, one level deeper (no defer on this hot path).
func (p *parser) binaryExpr(minPrec int) Node {
	x := p.unary()
	if x == nil {
		return nil
	}
	for {
		op, prec := p.binaryPrec()
		if prec == 0 || prec <= minPrec {
			return x
		}
		save := p.pos
		p.pos++
		y := p.expr(prec)
		if y == nil {
			p.pos = save
			return x
		}
		s, _ := x.Span()
		_, e := y.Span()
		b := p.nodes.binary()
		*b = Binary{Range: Range{s, e}, Op: op, X: x, Y: y}
		x = b
	}
}

func (p *parser) unary() Node {
	if p.pos >= len(p.toks) {
		return nil
	}
	t := p.toks[p.pos]
	op := ""
	switch {
	case t.kind == tPunct:
		switch s := p.text(p.pos); s {
		case "-", "+", "!", "~", "&", "*":
			op = s
		}
	case !p.cpp && t.kind == tIdent && p.text(p.pos) == "not":
		op = "not"
	}
	if op == "" {
		return p.postfix(p.primary())
	}
	p.pos++
	x := p.expr(7)
	if x == nil {
		return nil
	}
	_, e := x.Span()
	return &Unary{Range: Range{t.start, e}, Op: op, X: x}
}

func (p *parser) primary() Node {
	if p.pos >= len(p.toks) {
		return nil
	}
	t := p.toks[p.pos]
	switch t.kind {
	case tNumber:
		p.pos++
		v, ok := parseIntLiteral(p.str[t.start:t.end])
		if !ok {
			return &Opaque{Range{t.start, t.end}}
		}
		n := p.nodes.int()
		*n = Int{Range: Range{t.start, t.end}, Value: v, Static: !p.cpp}
		return n
	case tIdent:
		return p.name()
	case tString:
		p.pos++
		// Adjacent literals concatenate ("a" "b").
		for p.pos < len(p.toks) && p.toks[p.pos].kind == tString {
			p.pos++
		}
		return &String{Range{t.start, p.end()}}
	case tPunct:
		switch {
		case p.at("::") && p.cpp:
			return p.name()
		case p.at("("):
			return p.paren()
		case p.at("[") && !p.cpp:
			p.pos++
			elems, ok := p.list("]", nil)
			if !ok {
				return nil
			}
			return &Tuple{Range: Range{t.start, p.end()}, Elems: elems}
		}
	}
	return nil
}

// paren reads (x), a Python tuple, or a C++ cast "(int) x".
func (p *parser) paren() Node {
	start := p.toks[p.pos].start
	p.pos++
	if p.cpp {
		x := p.expr(0)
		if x == nil || !p.at(")") {
			return nil
		}
		p.pos++
		return x
	}
	elems, ok, comma := p.tupleList()
	if !ok {
		return nil
	}
	if len(elems) == 1 && !comma {
		return elems[0]
	}
	return &Tuple{Range: Range{start, p.end()}, Elems: elems}
}

// tupleList reads Python "a, b, c)" and says whether a comma was seen.
func (p *parser) tupleList() ([]Node, bool, bool) {
	var elems []Node
	comma := false
	for !p.at(")") {
		x := p.expr(0)
		if x == nil {
			return nil, false, false
		}
		elems = append(elems, x)
		if p.at(",") {
			comma = true
			p.pos++
			continue
		}
		if !p.at(")") {
			return nil, false, false
		}
	}
	p.pos++
	return elems, true, comma
}

// name reads a (qualified or dotted) name and what follows it: template
// arguments, a call, a braced construction.
func (p *parser) name() Node {
	start := p.toks[p.pos].start
	var full fullName
	full.start, full.end = start, start
	last := ""
	for {
		if p.cpp && p.at("::") {
			full.add(p, p.pos)
			p.pos++
		}
		if !p.isIdent(p.pos) {
			return nil
		}
		last = p.text(p.pos)
		if p.cpp && (last == "typename" || last == "template") {
			p.pos++
			continue
		}
		full.add(p, p.pos)
		p.pos++
		if p.cpp && p.at("::") && p.isIdent(p.pos+1) {
			continue
		}
		if !p.cpp && p.at(".") && p.isIdent(p.pos+1) {
			full.add(p, p.pos)
			p.pos++
			continue
		}
		break
	}
	id := p.nodes.ident()
	*id = Ident{Range: Range{start, p.end()}, Full: full.String(p), Name: last}
	return p.callOf(nil, id)
}

// fullName is a name's text without spaces and the keywords typename and
// template: a slice of the source while its tokens follow one another
// (almost always), else a copy.
type fullName struct {
	start, end int    // the slice of the source, while copied is nil
	copied     []byte // the text, once a token did not follow the last
}

func (f *fullName) add(p *parser, i int) {
	t := p.toks[i]
	if f.copied == nil && t.start == f.end {
		f.end = t.end
		return
	}
	if f.copied == nil {
		f.copied = append(make([]byte, 0, 32), p.str[f.start:f.end]...)
	}
	f.copied = append(f.copied, p.str[t.start:t.end]...)
}

func (f *fullName) String(p *parser) string {
	if f.copied != nil {
		return string(f.copied)
	}
	return p.str[f.start:f.end]
}

// callOf reads what follows a function or type name: <targs>, (args), {args}.
func (p *parser) callOf(recv Node, id *Ident) Node {
	start := id.Start
	if recv != nil {
		start, _ = recv.Span()
	}
	// c is copied to the arena only when it is a call: most names are not.
	c := Call{Recv: recv, Fun: id}
	if p.cpp && p.at("<") && p.isTemplate(id.Name) {
		p.pos++
		p.inTemplate++
		targs, ok := p.list(">", nil)
		p.inTemplate--
		if !ok {
			return nil
		}
		c.TArgs, c.HasTArgs = targs, true
		// Nested names of a template-id (Layout<...>::shape_type) are not read.
		if p.at("::") {
			return nil
		}
	}
	saved := p.inTemplate
	p.inTemplate = 0
	x := p.callArgs(&c, recv, id, start)
	p.inTemplate = saved
	return x
}

// callArgs is callOf after the template arguments: (args), {args}, or
// none; c holds what was read so far.
func (p *parser) callArgs(c *Call, recv Node, id *Ident, start int) Node {
	switch {
	case p.at("("):
		p.pos++
		args, ok := p.list(")", c)
		if !ok {
			return nil
		}
		c.Args, c.Paren = args, true
		// decltype(x){}: the value of x, constructed.
		if p.cpp && id.Name == "decltype" && p.at("{") && p.is(p.pos+1, "}") {
			p.pos += 2
		}
	case p.cpp && p.at("{") && (c.HasTArgs || recv == nil):
		p.pos++
		args, ok := p.list("}", nil)
		if !ok {
			return nil
		}
		c.Args, c.Braced = args, true
	case !c.HasTArgs && recv == nil:
		return id
	}
	if p.cpp && p.at("::") {
		return nil // decltype(x)::type, f()::member: a nested name, not read
	}
	c.Range = Range{start, p.end()}
	call := p.nodes.call()
	*call = *c
	return call
}

// isTemplate reports whether "<" after name opens template arguments (C++).
func (p *parser) isTemplate(name string) bool {
	return (p.templateShapes == nil || p.templateShapes.mayHave(name)) && p.templates[name]
}

// postfix reads member calls and attribute reads after x.
func (p *parser) postfix(x Node) Node {
	for x != nil && p.pos+1 < len(p.toks) && (p.at(".") || p.cpp && p.at("->")) && p.isIdent(p.pos+1) {
		p.pos++
		t := p.toks[p.pos]
		id := &Ident{Range: Range{t.start, t.end}, Full: p.text(p.pos), Name: p.text(p.pos)}
		p.pos++
		if p.cpp && p.isIdent(p.pos-1) && id.Name == "template" {
			continue
		}
		if p.at("(") || p.cpp && p.at("<") && p.isTemplate(id.Name) {
			x = p.callOf(x, id)
			continue
		}
		s, _ := x.Span()
		x = &Attr{Range: Range{s, id.End}, X: x, Name: id.Name}
	}
	return x
}

// list reads comma-separated items up to closer (consumed). An item it
// cannot read becomes Opaque, skipped to the next comma or closer at its
// level; ok is false when the closer is missing. Python keyword arguments
// go to call.Keywords when call is given.
func (p *parser) list(closer string, call *Call) ([]Node, bool) {
	// The items gather on the arena's stack (lists nest: an item's own
	// lists are pushed above and popped before the next item), then move
	// to a slice of their own.
	base := len(p.nodes.stack)
	items, ok := p.listItems(closer, call, base)
	clear(p.nodes.stack[base:])
	p.nodes.stack = p.nodes.stack[:base]
	return items, ok
}

// listItems is list, its items pushed on the arena's stack from base.
func (p *parser) listItems(closer string, call *Call, base int) ([]Node, bool) {
	for {
		if p.pos >= len(p.toks) {
			return nil, false
		}
		if p.at(closer) {
			p.pos++
			return p.nodes.list(p.nodes.stack[base:]), true
		}
		if call != nil && !p.cpp && p.isIdent(p.pos) && p.is(p.pos+1, "=") {
			name := p.text(p.pos)
			p.pos += 2
			v := p.expr(0)
			if v == nil {
				v = p.skipItem(closer)
			}
			call.Keywords = append(call.Keywords, Keyword{Name: name, Value: v})
		} else {
			start := p.pos
			x := p.expr(0)
			if x == nil || !p.at(",") && !p.at(closer) {
				p.pos = start
				x = p.skipItem(closer)
				if x == nil {
					return nil, false
				}
			}
			p.nodes.stack = append(p.nodes.stack, x)
		}
		if p.at(",") {
			p.pos++
			continue
		}
		if !p.at(closer) {
			return nil, false
		}
	}
}

// skipItem skips balanced tokens up to the next "," or closer at this
// level (or a ";" or unbalanced closer, which ends the list in failure: nil).
func (p *parser) skipItem(closer string) Node {
	start := p.startAt()
	depth := 0
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		if t.kind == tPunct {
			switch s := p.text(p.pos); {
			case depth == 0 && (s == "," || s == closer):
				// An empty item ("f( ,x)") is an empty range where it is.
				return &Opaque{Range{start, max(start, p.end())}}
			case s == "(" || s == "[" || s == "{":
				depth++
			case s == ")" || s == "]" || s == "}":
				if depth == 0 {
					return nil
				}
				depth--
			case s == ";" && p.cpp:
				return nil
			}
		}
		p.pos++
	}
	return nil
}

func indexOf(src []byte, w string) int { return bytes.Index(src, []byte(w)) }
