package grammar

// arena hands out the nodes of a first parse (a parse without a cache, or
// the first through a new one) from blocks, a few allocations for a sheet
// rather than several a statement: at 5,000 lines the allocations and the
// collector's work they made were most of a first parse. A block lives as
// long as any node in it, which bounds what a first parse keeps to the
// size of one parse: the trees a cache keeps from later parses (of a
// statement or two each) are allocated on their own, as a nil arena does,
// so that a run of edits keeps no block of nodes it no longer uses.
type arena struct {
	ints    slab[Int]
	tuples  slab[Tuple]
	nodes   slab[Node]
	layouts slab[Layout]
	names   slab[Name]
	calls   slab[calledName]
	// callNodes are the calls of the fast path, whose names are shared
	// (literals.name).
	callNodes slab[Call]
	entries   slab[cacheEntry]
	// source is the statement's token source while it is read
	// (parseStatement): one for the parse, not one a statement.
	source sliceSource
	// stack is the stack of elements of fastReader, kept for the next line.
	stack []Node
	// lits are the literal subtrees the fast path's lines share.
	lits literals
}

// arenaMark is where the slabs of the fast path's nodes stood.
type arenaMark struct {
	ints      slabMark[Int]
	tuples    slabMark[Tuple]
	nodes     slabMark[Node]
	layouts   slabMark[Layout]
	names     slabMark[Name]
	calls     slabMark[calledName]
	callNodes slabMark[Call]
}

func (a *arena) mark() arenaMark {
	return arenaMark{a.ints.mark(), a.tuples.mark(), a.nodes.mark(), a.layouts.mark(), a.names.mark(), a.calls.mark(), a.callNodes.mark()}
}

// reset takes back the nodes made since m (by a line the fast path left
// to the parser): they would stay alive, unused, as long as their block.
func (a *arena) reset(m arenaMark) {
	a.ints.reset(m.ints)
	a.tuples.reset(m.tuples)
	a.nodes.reset(m.nodes)
	a.layouts.reset(m.layouts)
	a.names.reset(m.names)
	a.calls.reset(m.calls)
	a.callNodes.reset(m.callNodes)
}

// boundName is a binding and its name, allocated together: they live as long.
type boundName struct {
	b Binding
	n Name
}

// calledName is a call and its name, allocated together.
type calledName struct {
	c Call
	n Name
}

// slabMax is the most elements of a block of the arena; the first blocks
// are smaller, so that a small sheet's parse makes small blocks.
const slabMax = 1024

// slab is the free part of the latest block of a kind of node.
type slab[T any] struct {
	free   []T
	size   int // the length of the latest block
	blocks int // the blocks made
}

// slabMark is where a slab stood (slab.mark).
type slabMark[T any] struct {
	free   []T
	blocks int
}

func (s *slab[T]) mark() slabMark[T] { return slabMark[T]{s.free, s.blocks} }

// reset hands out again, zeroed, the elements handed out since m, when
// they came from the same block (after a new block, the rest of the old
// one stays unused).
func (s *slab[T]) reset(m slabMark[T]) {
	if m.blocks != s.blocks {
		return
	}
	clear(m.free[:len(m.free)-len(s.free)])
	s.free = m.free
}

// take is n elements of the block, a new block when it lacks them.
func (s *slab[T]) take(n int) []T {
	if n > len(s.free) {
		if n > slabMax/4 {
			return make([]T, n)
		}
		s.size = min(max(2*s.size, 16), slabMax)
		s.free = make([]T, max(s.size, n))
		s.blocks++
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

func (s *slab[T]) one() *T { return &s.take(1)[0] }

// newInt is an Int node: from the expression's slab (readTokens), else
// the arena's, else its own.
func (p *literalParser) newInt() *Int {
	switch {
	case len(p.ints) > 0:
		n := &p.ints[0]
		p.ints = p.ints[1:]
		return n
	case p.lex.arena != nil:
		return p.lex.arena.ints.one()
	}
	return &Int{}
}

func (p *literalParser) newTuple() *Tuple {
	switch {
	case len(p.tuples) > 0:
		t := &p.tuples[0]
		p.tuples = p.tuples[1:]
		return t
	case p.lex.arena != nil:
		return p.lex.arena.tuples.one()
	}
	return &Tuple{}
}

// newNodes is a slice of n nodes (a tuple's elements, a call's arguments).
func (p *literalParser) newNodes(n int) []Node {
	switch {
	case n <= len(p.elemSlabs):
		s := p.elemSlabs[:n:n]
		p.elemSlabs = p.elemSlabs[n:]
		return s
	case p.lex.arena != nil:
		return p.lex.arena.nodes.take(n)
	}
	return make([]Node, n)
}

// popNodes moves the nodes pushed on the stack of elements since mark
// to a slice of their own.
func (p *literalParser) popNodes(mark int) []Node {
	s := p.newNodes(len(p.elems) - mark)
	copy(s, p.elems[mark:])
	clear(p.elems[mark:])
	p.elems = p.elems[:mark]
	return s
}

func (p *literalParser) newLayout() *Layout {
	if a := p.lex.arena; a != nil {
		return a.layouts.one()
	}
	return &Layout{}
}

func (p *literalParser) newName() *Name {
	if a := p.lex.arena; a != nil {
		return a.names.one()
	}
	return &Name{}
}

func (p *literalParser) newCall() *calledName {
	if a := p.lex.arena; a != nil {
		return a.calls.one()
	}
	return &calledName{}
}

// newBinding is a binding's node, allocated on its own, in a first parse
// too: a statement's tree is freed with its root once no version uses
// it (analysis's TestTakenOverBindingsKeepNoOldTrees watches the root
// with a finalizer), whatever the blocks of its nodes hold.
func newBinding() *boundName { return &boundName{} }
