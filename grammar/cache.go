package grammar

import (
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/participle/v2/lexer"
)

// Cache keeps the trees of a sheet's statements between parses (see
// ParseFileCached): an editor re-parses a sheet on every keystroke, and all
// but a statement or two are as they were. Entries the latest parse did not
// use are dropped, so a cache holds about one sheet's worth. Trees handed out
// are never changed afterwards: a statement found at another place is copied
// with its positions moved, so trees of earlier parses stay valid for their
// readers. A Cache may be used by one parse at a time; it locks for the rest.
type Cache struct {
	mu      sync.Mutex
	entries map[stmtKey][]*cacheEntry
	gen     uint64
	last    *lastParse
	// used are the entries the current parse took or stored, prevUsed the
	// previous parse's: after a parse the cache holds its used entries
	// alone, so those the next parse drops are among them, and end need not
	// look at every key.
	used, prevUsed []keyedEntry
	// spare is the records of the parse before the latest, which nothing
	// reads any more: the next parse writes its records there.
	spare    []stmtRecord
	lastSeen *lastParse // last when the current parse began
	// deferMoves leaves the children of moved statements where they were
	// until the file is settled (DeferMoves).
	deferMoves bool
}

// DeferMoves makes the parses with c, from the next on, defer moving
// the trees of statements found at another place: such a statement's own
// range is in place at once, its children once File.Settle (or
// SettleStatement) has run, which a reader must call before it reads
// them. An edit near the top of a long sheet moves every statement after
// it; an analysis that knows those statements from their text alone can
// then report without waiting for the copies.
func (c *Cache) DeferMoves(on bool) {
	c.mu.Lock()
	c.deferMoves = on
	c.mu.Unlock()
}

type keyedEntry struct {
	key   stmtKey
	entry *cacheEntry
}

// lastParse is the latest parse, statement by statement: a new version
// shares a prefix and a suffix with it, whose statements are taken over
// without being scanned again.
type lastParse struct {
	src      string
	records  []stmtRecord
	comments []*Comment
	file     *File // the parse's result (Notes)
}

// stmtRecord is one statement of a parse.
type stmtRecord struct {
	key     stmtKey
	at      Position       // its first token
	entry   *cacheEntry    // its tree
	resume  lexer.Position // the start of the line after its End; Offset -1 when the file's end ended it
	lastTok lexer.Position // the end of its last token
}

// stmtKey is everything a statement's tree depends on: its text (from its
// first token to the end of its last one), the column it starts at (columns
// of its first line count from there), and where the token that ended it
// lies relative to its start (an error at the end of a statement points
// there). Offsets and lines elsewhere in the file only move the tree.
type stmtKey struct {
	text      string
	col       int
	eof       bool // ended by the end of the file rather than a line break
	endOffset int
	endLine   int
	endCol    int
}

type cacheEntry struct {
	at   Position // where the statement's first token was
	stmt Stmt
	errs []*Error
	// src is a tree of the statement with every node in place, at srcAt,
	// with its errors srcErrs: moves copy from it. It is stmt itself unless
	// moves are deferred; then stmt's children are put in place by lazy.
	src     Stmt
	srcAt   Position
	srcErrs []*Error
	lazy    *lazyStmt  // nil when stmt is in place
	gen     uint64     // the parse that last used it
	shape   *treeShape // how many nodes of each kind the tree has; set by its first move
	note    any        // what a user of the cache keeps with the statement (Notes)
	text    string     // its key's text, sharing no memory with a file's text
}

// NewCache makes an empty cache.
func NewCache() *Cache { return &Cache{entries: map[stmtKey][]*cacheEntry{}} }

func (c *Cache) begin() {
	c.mu.Lock()
	c.lastSeen = c.last
	c.gen++
	c.prevUsed, c.used = c.used, c.prevUsed[:0]
}

// end drops the entries the parse just finished did not use.
func (c *Cache) end() {
	defer c.mu.Unlock()
	if c.lastSeen != nil && c.lastSeen != c.last {
		c.spare = c.lastSeen.records
	}
	c.lastSeen = nil
	for _, ke := range c.prevUsed {
		if ke.entry.gen == c.gen {
			continue
		}
		es := c.entries[ke.key]
		i := slices.Index(es, ke.entry)
		switch {
		case i < 0:
		case len(es) == 1:
			delete(c.entries, ke.key)
		default:
			c.entries[ke.key] = slices.Delete(es, i, i+1)
		}
	}
	clear(c.prevUsed)
}

// Len is the number of statements the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, es := range c.entries {
		n += len(es)
	}
	return n
}

// spareRecords is where a parse writes its records, room for n made.
func (c *Cache) spareRecords(n int) []stmtRecord {
	s := c.spare
	c.spare = nil
	if cap(s) < n {
		return make([]stmtRecord, 0, n)
	}
	// The records of two parses ago point at entries and texts that may
	// be gone.
	clear(s[:cap(s)])
	return s[:0]
}

// Note is where a user of the cache keeps something about a statement of
// a parse (Notes), and where the statement starts.
type Note struct {
	// Place is what the user puts here stays with the statement's tree
	// while its text is unchanged, moved or not; it holds nil for a
	// statement parsed anew.
	Place *any
	At    Position // the statement's start (its Span().Pos), known without its tree
}

// Notes are the notes of the statements of f from from on: notes[k] is
// statement from+k's. f is the cache's latest parse, or the notes are nil.
// A Cache keeps notes for one user at a time. The notes are written to dst
// when it has room.
func (c *Cache) Notes(f *File, from int, dst []Note) []Note {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil || c.last.file != f || len(c.last.records) != len(f.Statements) || from > len(f.Statements) {
		return nil
	}
	n := len(f.Statements) - from
	notes := dst[:0]
	if cap(notes) < n {
		notes = make([]Note, n)
	}
	notes = notes[:n]
	// The records' entries hold the statements' trees (f is their parse):
	// no entry need be read here.
	for k := range notes {
		r := &c.last.records[from+k]
		notes[k] = Note{Place: &r.entry.note, At: r.at}
	}
	return notes
}

// lookup finds the tree of a statement with key starting at at. Among equal
// statements it prefers the one that was at the same place, then any not yet
// used by this parse, so that repeated lines each keep their own entry. On
// success key's text becomes the cache's copy: the one given is part of the
// file's text, which a record kept for later parses would keep alive.
func (c *Cache) lookup(key *stmtKey, at Position) (*cacheEntry, bool) {
	es := c.entries[*key]
	var pick *cacheEntry
	for _, e := range es {
		if e.gen == c.gen {
			continue
		}
		if e.at == at {
			pick = e
			break
		}
		if pick == nil {
			pick = e
		}
	}
	if pick == nil {
		if len(es) == 0 {
			return nil, false
		}
		pick = es[0]
	}
	e, ok := c.reuse(*key, pick, at)
	if ok {
		key.text = pick.text
	}
	return e, ok
}

// reuse takes entry e of key for a statement now at at: moved there, or,
// when an equal statement of this parse has it already, copied there as a
// new entry. It fails, changing nothing, when the tree cannot be moved (see
// place): the statement is then parsed anew, and e, unused, is dropped at
// the end of the parse.
func (c *Cache) reuse(key stmtKey, e *cacheEntry, at Position) (*cacheEntry, bool) {
	if e.gen == c.gen {
		ne := &cacheEntry{gen: c.gen, shape: e.shape, text: e.text}
		ne.src, ne.srcAt, ne.srcErrs = e.source()
		ne.stmt, ne.at, ne.errs = ne.src, ne.srcAt, ne.srcErrs
		if !c.place(ne, at) {
			return nil, false
		}
		c.entries[key] = append(c.entries[key], ne)
		c.used = append(c.used, keyedEntry{key, ne})
		return ne, true
	}
	if e.at != at && !c.place(e, at) {
		return nil, false
	}
	e.gen = c.gen
	c.used = append(c.used, keyedEntry{key, e})
	return e, true
}

// source is the tree e's moves copy from, where it is, and its errors.
func (e *cacheEntry) source() (Stmt, Position, []*Error) {
	if e.lazy != nil && e.lazy.done.Load() {
		// The latest move is in place: later ones copy from it, and the
		// older tree can go.
		e.src, e.srcAt, e.srcErrs, e.lazy = e.stmt, e.at, e.errs, nil
	}
	return e.src, e.srcAt, e.srcErrs
}

// place moves e's statement to at: at once, or, with moves deferred, its
// own range at once and the rest when the tree is settled. It reports
// false, leaving e as it was, when the tree holds a node the mover does not
// know (treeShape.unmovable): a move deferred could not fail later.
func (c *Cache) place(e *cacheEntry, at Position) bool {
	src, srcAt, srcErrs := e.source()
	if at == srcAt {
		e.at = at
		e.stmt, e.errs, e.lazy = src, srcErrs, nil
		return true
	}
	shape := e.treeShape()
	if shape.unmovable {
		return false
	}
	dOff, dLine := at.Offset-srcAt.Offset, at.Line-srcAt.Line
	if !c.deferMoves {
		stmt, errs, ok := moveStmt(src, srcErrs, dOff, dLine, shape)
		if !ok {
			return false
		}
		e.at, e.stmt, e.errs, e.lazy = at, stmt, errs, nil
		e.src, e.srcAt, e.srcErrs = e.stmt, at, e.errs
		return true
	}
	lazy := deferMove(src, dOff, dLine, shape)
	if lazy == nil { // a bad statement has no children: moved at once
		stmt, errs, ok := moveStmt(src, srcErrs, dOff, dLine, nil)
		if !ok {
			return false
		}
		e.at, e.stmt, e.errs, e.lazy = at, stmt, errs, nil
		return true
	}
	e.at, e.lazy = at, lazy
	e.stmt = e.lazy.node
	e.errs = nil
	if srcErrs != nil {
		m := mover{dOff: dOff, dLine: dLine}
		e.errs = make([]*Error, len(srcErrs))
		for i, er := range srcErrs {
			e.errs[i] = m.err(er)
		}
	}
	return true
}

func (e *cacheEntry) treeShape() *treeShape {
	if e.shape == nil {
		e.shape = shapeOf(e.src)
	}
	return e.shape
}

// treeShape counts a tree's nodes of the kinds a move allocates together:
// a moved statement takes each kind's nodes from one allocation of its own
// (a statement's nodes live and die together), not one allocation a node.
// unmovable records a node of a type the mover does not know: such a tree
// is never moved (nor its move deferred), its statement is parsed anew.
type treeShape struct {
	ints, names, tuples, layouts, calls, elems int
	unmovable                                  bool
}

func shapeOf(n Node) *treeShape {
	var s treeShape
	Inspect(n, func(n Node) bool {
		switch n := n.(type) {
		case *Int:
			s.ints++
		case *Name:
			s.names++
		case *Tuple:
			s.tuples++
			s.elems += len(n.Elems)
		case *Layout:
			s.layouts++
		case *Call:
			s.calls++
			s.elems += len(n.Template) + len(n.Args)
		case *AngleList:
			s.elems += len(n.Modes)
		case *Composed:
			s.elems += len(n.Stages)
		case *Tiler:
			s.elems += len(n.Modes)
		case *TirxLayout:
			s.elems += len(n.Offsets)
		case *Unknown, *Underscore, *String, *Basis, *BasisMode, *Swizzle, *Pointer, *TirxPart, *MLIRType,
			*Binding, *Assert, *ExprStmt, *BadStmt, *Comment:
			// Moved one by one (mover.node).
		default:
			s.unmovable = true
		}
		return true
	})
	return &s
}

// store records a statement just parsed; key.text must not share memory
// with the file's text.
func (c *Cache) store(key stmtKey, at Position, s Stmt, errs []*Error) *cacheEntry {
	e := &cacheEntry{at: at, stmt: s, errs: errs, src: s, srcAt: at, srcErrs: errs, gen: c.gen, text: key.text}
	c.entries[key] = append(c.entries[key], e)
	c.used = append(c.used, keyedEntry{key, e})
	return e
}

// editSpan is where a new version differs from the latest parse: the text
// before prefix and from the ends (len minus suffix) on is the same.
type editSpan struct {
	old            *lastParse
	prefix         int
	oldEnd, newEnd int // the end of the changed text in the old and new version
	synced         bool
}

func newEditSpan(old *lastParse, text string) *editSpan {
	n := min(len(old.src), len(text))
	// Whole blocks compare at memory speed; the byte loops then only
	// cross the block the versions differ in.
	const block = 256
	p := 0
	for p+block <= n && old.src[p:p+block] == text[p:p+block] {
		p += block
	}
	for p < n && old.src[p] == text[p] {
		p++
	}
	s := 0
	for s+block <= n-p && old.src[len(old.src)-s-block:len(old.src)-s] == text[len(text)-s-block:len(text)-s] {
		s += block
	}
	for s < n-p && old.src[len(old.src)-1-s] == text[len(text)-1-s] {
		s++
	}
	return &editSpan{old: old, prefix: p, oldEnd: len(old.src) - s, newEnd: len(text) - s}
}

// prefixStatements is how many of the old statements can be taken as they
// are: each one, and the next (which the splitter may have looked into),
// lie wholly before the edit.
func (e *editSpan) prefixStatements() int {
	n := 0
	rs := e.old.records
	for n+1 < len(rs) && rs[n+1].resume.Offset >= 0 && rs[n+1].resume.Offset <= e.prefix {
		n++
	}
	return n
}

// sync is called after each statement scanned (rec): once the scanner stands
// at a line start past the edit where an old statement ended too, the rest
// of the old statements are the same, moved; they are taken over and the
// scanner jumps past them (the file's last statement, when the end of the
// file ended it, is scanned again: where it ends depends on the statement
// before).
func (e *editSpan) sync(l *stmtLexer, c *Cache, f *File, add func(Stmt, []*Error, stmtRecord), rec stmtRecord) {
	if e.synced || rec.resume.Offset < 0 || rec.resume.Offset < e.newEnd {
		return
	}
	delta := e.newEnd - e.oldEnd
	oldAt := rec.resume.Offset - delta
	rs := e.old.records
	j := sort.Search(len(rs), func(i int) bool { return rs[i].resume.Offset >= oldAt })
	if j == len(rs) || rs[j].resume.Offset != oldAt {
		return
	}
	e.synced = true
	last := len(rs)
	if rs[last-1].resume.Offset < 0 {
		last--
	}
	if last <= j+1 {
		return
	}
	dLine := rec.resume.Line - rs[j].resume.Line
	m := &mover{dOff: delta, dLine: dLine}
	// taken is the last old statement taken over; a statement whose tree
	// cannot be moved ends the run, and the scanner goes on from there.
	taken := j
	for k := j + 1; k < last; k++ {
		r := rs[k]
		r.at = m.pos(r.at)
		entry, ok := c.reuse(r.key, r.entry, r.at)
		if !ok {
			break
		}
		r.entry = entry
		r.resume.Offset += delta
		r.resume.Line += dLine
		r.lastTok.Offset += delta
		r.lastTok.Line += dLine
		add(r.entry.stmt, r.entry.errs, r)
		taken = k
	}
	if taken == j {
		return
	}
	end := rs[taken].resume
	for _, cm := range e.old.comments {
		if cm.Pos.Offset >= end.Offset {
			break
		}
		if cm.Pos.Offset >= oldAt {
			f.Comments = append(f.Comments, m.comment(cm))
		}
	}
	r := rs[taken]
	l.resume(lexer.Position{Offset: r.resume.Offset + delta, Line: r.resume.Line + dLine}, lexer.Position{Offset: r.lastTok.Offset + delta, Line: r.lastTok.Line + dLine, Column: r.lastTok.Column})
}

// moveStmt copies a statement's tree and errors with every position moved
// by dOff bytes and dLine lines. Columns stay: the statement starts at the
// same column and its text is the same. A BadStmt's Err stays the first of
// errs, as the parser makes it. shape is the statement's (nil when not known).
// It reports false when the tree holds a node the mover does not know.
func moveStmt(s Stmt, errs []*Error, dOff, dLine int, shape *treeShape) (Stmt, []*Error, bool) {
	m := &mover{dOff: dOff, dLine: dLine}
	if shape != nil {
		m.reserve(shape)
	}
	var movedErrs []*Error
	if errs != nil {
		movedErrs = make([]*Error, len(errs))
		for i, e := range errs {
			movedErrs[i] = m.err(e)
		}
	}
	if b, ok := s.(*BadStmt); ok {
		c := *b
		c.Range = m.rng(b.Range)
		switch {
		case b.Err == nil:
		case len(errs) > 0 && b.Err == errs[0]:
			c.Err = movedErrs[0]
		default:
			c.Err = m.err(b.Err)
		}
		return &c, movedErrs, true
	}
	moved, ok := m.node(s).(Stmt)
	if !ok || m.unknown != nil {
		return nil, nil, false
	}
	return moved, movedErrs, true
}

// moveNode copies the tree under n with every position moved by dOffset
// bytes and dLine lines (columns unchanged); nil and false when the tree
// holds a node the mover does not know.
func moveNode(n Node, dOffset, dLine int) (Node, bool) {
	m := &mover{dOff: dOffset, dLine: dLine}
	m.reserve(shapeOf(n))
	moved := m.node(n)
	if m.unknown != nil {
		return nil, false
	}
	return moved, true
}

type mover struct {
	dOff, dLine int
	// unknown is the first node met of a type the mover does not know:
	// the copy is then incomplete, and its user parses the text anew.
	unknown Node
	// The nodes of the tree being copied are taken from these (reserve);
	// without a shape, integers are allocated a few at a time and the rest
	// one by one.
	ints    []Int
	names   []Name
	tuples  []Tuple
	layouts []Layout
	calls   []Call
	elems   []Node
}

// reserve allocates the nodes of a tree of shape s.
func (m *mover) reserve(s *treeShape) {
	if s.ints > 0 {
		m.ints = make([]Int, s.ints)
	}
	if s.names > 0 {
		m.names = make([]Name, s.names)
	}
	if s.tuples > 0 {
		m.tuples = make([]Tuple, s.tuples)
	}
	if s.layouts > 0 {
		m.layouts = make([]Layout, s.layouts)
	}
	if s.calls > 0 {
		m.calls = make([]Call, s.calls)
	}
	if s.elems > 0 {
		m.elems = make([]Node, s.elems)
	}
}

func (m *mover) pos(p Position) Position {
	p.Offset += m.dOff
	p.Line += m.dLine
	return p
}

func (m *mover) rng(r Range) Range { return Range{Pos: m.pos(r.Pos), End: m.pos(r.End)} }

func (m *mover) err(e *Error) *Error {
	if e == nil {
		return nil
	}
	c := *e
	c.Range = m.rng(e.Range)
	return &c
}

func (m *mover) nodes(ns []Node) []Node {
	if ns == nil {
		return nil
	}
	var out []Node
	if len(ns) > 0 && len(m.elems) >= len(ns) {
		out = m.elems[:len(ns):len(ns)]
		m.elems = m.elems[len(ns):]
	} else {
		out = make([]Node, len(ns))
	}
	for i, n := range ns {
		out[i] = m.node(n)
	}
	return out
}

func (m *mover) integer(n *Int) *Int {
	if n == nil {
		return nil
	}
	if len(m.ints) == 0 {
		m.ints = make([]Int, 4)
	}
	c := &m.ints[0]
	m.ints = m.ints[1:]
	*c = *n
	c.Range = m.rng(n.Range)
	return c
}

func (m *mover) name(n *Name) *Name {
	if n == nil {
		return nil
	}
	var c *Name
	if len(m.names) > 0 {
		c, m.names = &m.names[0], m.names[1:]
	} else {
		c = new(Name)
	}
	*c = *n
	c.Range = m.rng(n.Range)
	return c
}

func (m *mover) layout(n *Layout) *Layout {
	if n == nil {
		return nil
	}
	var c *Layout
	if len(m.layouts) > 0 {
		c, m.layouts = &m.layouts[0], m.layouts[1:]
	} else {
		c = new(Layout)
	}
	*c = Layout{Range: m.rng(n.Range), Shape: m.node(n.Shape), Stride: m.node(n.Stride)}
	return c
}

func (m *mover) tirxPart(n *TirxPart) *TirxPart {
	if n == nil {
		return nil
	}
	return &TirxPart{Range: m.rng(n.Range), Kind: n.Kind, Layout: m.layout(n.Layout)}
}

func (m *mover) node(n Node) Node {
	if n == nil {
		return nil
	}
	switch n := n.(type) {
	case *Int:
		return m.integer(n)
	case *Unknown:
		c := *n
		c.Range = m.rng(n.Range)
		return &c
	case *Underscore:
		return &Underscore{Range: m.rng(n.Range)}
	case *Name:
		return m.name(n)
	case *Basis:
		c := &Basis{Range: m.rng(n.Range), Count: m.node(n.Count), Den: m.integer(n.Den)}
		if n.Modes != nil {
			c.Modes = make([]*BasisMode, len(n.Modes))
			for i, bm := range n.Modes {
				mc := *bm
				mc.Range = m.rng(bm.Range)
				c.Modes[i] = &mc
			}
		}
		return c
	case *BasisMode:
		c := *n
		c.Range = m.rng(n.Range)
		return &c
	case *Tuple:
		var c *Tuple
		if len(m.tuples) > 0 {
			c, m.tuples = &m.tuples[0], m.tuples[1:]
		} else {
			c = new(Tuple)
		}
		*c = Tuple{Range: m.rng(n.Range), Elems: m.nodes(n.Elems)}
		return c
	case *Layout:
		return m.layout(n)
	case *AngleList:
		return &AngleList{Range: m.rng(n.Range), Modes: m.nodes(n.Modes)}
	case *Swizzle:
		c := *n
		c.Range = m.rng(n.Range)
		c.B, c.M, c.S = m.integer(n.B), m.integer(n.M), m.integer(n.S)
		return &c
	case *Pointer:
		c := *n
		c.Range = m.rng(n.Range)
		return &c
	case *Composed:
		return &Composed{Range: m.rng(n.Range), Stages: m.nodes(n.Stages)}
	case *Tiler:
		return &Tiler{Range: m.rng(n.Range), Modes: m.nodes(n.Modes)}
	case *TirxLayout:
		c := &TirxLayout{Range: m.rng(n.Range), Shard: m.tirxPart(n.Shard), Offsets: m.nodes(n.Offsets)}
		if n.Replicas != nil {
			c.Replicas = make([]*TirxPart, len(n.Replicas))
			for i, r := range n.Replicas {
				c.Replicas[i] = m.tirxPart(r)
			}
		}
		return c
	case *TirxPart:
		return m.tirxPart(n)
	case *MLIRType:
		return &MLIRType{Range: m.rng(n.Range), Kind: n.Kind, Inner: m.node(n.Inner), Payload: m.rng(n.Payload)}
	case *Call:
		var c *Call
		if len(m.calls) > 0 {
			c, m.calls = &m.calls[0], m.calls[1:]
		} else {
			c = new(Call)
		}
		*c = Call{Range: m.rng(n.Range), Fun: m.name(n.Fun), Template: m.nodes(n.Template), Args: m.nodes(n.Args)}
		return c
	case *Binding:
		return &Binding{Range: m.rng(n.Range), Name: m.name(n.Name), Value: m.node(n.Value)}
	case *Assert:
		return &Assert{Range: m.rng(n.Range), Left: m.node(n.Left), Op: n.Op, OpRange: m.rng(n.OpRange), Right: m.node(n.Right)}
	case *ExprStmt:
		return &ExprStmt{Range: m.rng(n.Range), X: m.node(n.X)}
	case *BadStmt:
		c := *n
		c.Range = m.rng(n.Range)
		c.Err = m.err(n.Err)
		return &c
	case *String:
		c := *n
		c.Range = m.rng(n.Range)
		return &c
	case *Comment:
		return m.comment(n)
	}
	if m.unknown == nil {
		m.unknown = n
	}
	return nil
}

func (m *mover) comment(n *Comment) *Comment {
	c := *n
	c.Range = m.rng(n.Range)
	return &c
}

// lazyStmt is a statement whose move is deferred (Cache.DeferMoves): node
// has its own range in place from the start and gets its children, copied
// from src with their positions moved, when settled.
type lazyStmt struct {
	once        sync.Once
	done        atomic.Bool // the children are in place
	node        Stmt
	src         Stmt
	dOff, dLine int
	shape       *treeShape
}

// deferMove is src moved by dOff bytes and dLine lines, children to come;
// nil for a statement that has none (a BadStmt).
func deferMove(src Stmt, dOff, dLine int, shape *treeShape) *lazyStmt {
	m := mover{dOff: dOff, dLine: dLine}
	l := &lazyStmt{src: src, dOff: dOff, dLine: dLine, shape: shape}
	switch s := src.(type) {
	case *Binding:
		l.node = &Binding{Range: m.rng(s.Range)}
	case *Assert:
		l.node = &Assert{Range: m.rng(s.Range), Op: s.Op, OpRange: m.rng(s.OpRange)}
	case *ExprStmt:
		l.node = &ExprStmt{Range: m.rng(s.Range)}
	default:
		return nil
	}
	return l
}

// settle copies the children. It cannot fail: a tree holding a node the
// mover does not know is never deferred (place checks its treeShape, which
// TestMoverKnowsEveryNodeType keeps in step with the mover).
func (l *lazyStmt) settle() {
	l.once.Do(func() {
		m := &mover{dOff: l.dOff, dLine: l.dLine}
		m.reserve(l.shape)
		switch n := l.node.(type) {
		case *Binding:
			s := l.src.(*Binding)
			n.Name, n.Value = m.name(s.Name), m.node(s.Value)
		case *Assert:
			s := l.src.(*Assert)
			n.Left, n.Right = m.node(s.Left), m.node(s.Right)
		case *ExprStmt:
			n.X = m.node(l.src.(*ExprStmt).X)
		}
		l.done.Store(true)
	})
}

// settling is what a parse with deferred moves left to do for its file:
// lazy[i] is statement i's move, nil where there is none.
type settling struct {
	once sync.Once
	lazy []*lazyStmt
}

// Settle puts every node of f in place: the children of the statements
// whose moves a cache deferred (Cache.DeferMoves) are copied to where the
// statements are now. A file parsed without deferred moves is settled
// already. Settle may be called from several goroutines at once.
func (f *File) Settle() {
	if f.settling == nil {
		return
	}
	f.settling.once.Do(func() {
		for _, l := range f.settling.lazy {
			if l != nil {
				l.settle()
			}
		}
	})
}

// SettleStatement puts the nodes of statement i of f in place (see Settle).
func (f *File) SettleStatement(i int) {
	if f.settling != nil && i >= 0 && i < len(f.settling.lazy) {
		if l := f.settling.lazy[i]; l != nil {
			l.settle()
		}
	}
}

// deferred notes that statement i of f is lazily moved by l.
func (f *File) deferred(i int, l *lazyStmt, n int) {
	if f.settling == nil {
		f.settling = &settling{lazy: make([]*lazyStmt, 0, n)}
	}
	for len(f.settling.lazy) < i {
		f.settling.lazy = append(f.settling.lazy, nil)
	}
	f.settling.lazy = append(f.settling.lazy, l)
}
