package analysis

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/internal/editdist"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Cache remembers what sheet statements evaluated to, keyed by the
// statement's text and, recursively, by the keys of the bindings it reads:
// after an edit only the statements whose text changed, and those that read
// what they bind, are evaluated again; the statements before the first one
// that differs from the latest analysis's are taken over from it as a whole.
// Entries unused by the latest analysis are dropped once they outnumber the
// sheet's statements, so the cache holds about two sheets' worth. A Cache
// is safe for use by one analysis at a time per document; it locks for the
// rest.
type Cache struct {
	mu      sync.Mutex
	entries map[uint64]*cacheEntry
	// gen counts the analyses (in 32 bits, as the entries keep it: a
	// document would need four billion of them to wrap it).
	gen    uint32
	parsed *grammar.Cache // the statements' trees (AnalyzeSheetCached)
	seed   maphash.Seed
	// universe are the names bound in the analyses since it was last
	// cleared (with their letterMask), epoch counts the clearings, and
	// near has, for each undefined name of the latest analysis, the names
	// of universe close enough to suggest (boundNames.closest): a
	// suggestion is the first of those bound before the undefined name,
	// found without comparing it with every name bound. The universe is
	// kept from the first undefined name on (universeOn): a sheet that
	// reads none, as most do, has no use for it, and a long one's map of
	// every name was 35 bytes a binding and a look-up in a large map each.
	universe   map[string]uint64
	universeOn bool
	epoch      uint64
	near       map[string]*nearNames
	// last is the latest analysis, and lastEpoch the universe's epoch
	// during it (takePrefix).
	last      *Sheet
	lastEpoch uint64
	used      atomic.Bool // an analysis has finished with the cache (Fresh)
	// statements is how many the current analysis has; entries not used
	// by an analysis are dropped once the map holds more than twice that
	// (sweep), and swept is the analysis that last did: an entry last used
	// before it may be gone from the map (the statements taken over by
	// takePrefix are not marked used).
	statements int
	swept      uint32
	slack      int // how many more than twice the statements the maps may hold
	// filling is set while an analysis fills an empty cache (a first
	// analysis): only a statement of the same text, column and reads as
	// one before it could be found, and it evaluates to the same result,
	// while each look-up of a map of one entry a statement misses the
	// processor's caches at 200,000 lines.
	filling bool
	// unindexed are the entries a first analysis stored, in the order of
	// its statements, not yet in entries: a later analysis finds them
	// through the statements' notes (stmtNote.result), and entries is
	// needed only for a statement whose note has not the result it needs
	// (lookup), which a first analysis never has. Put in entries (index)
	// by the first look-up after it, by the end of the analysis after it,
	// or by IndexDeferred, inserting one a statement in a map of 200,000 was a
	// tenth of opening a sheet of that many lines (a miss of the
	// processor's caches each).
	unindexed []*cacheEntry
}

// nearNames are the names of the universe within a suggestion's reach of
// an undefined name, by distance then in byte order.
type nearNames struct {
	list []nearName
	gen  uint32
}

type nearName struct {
	name string
	dist int
}

// nearOf is the universe's names near name (see Cache.near); scope holds
// the names bound so far in the analysis under way.
func (c *Cache) nearOf(name string, scope scopeEnv) []nearName {
	if !c.universeOn {
		// The universe starts with the names bound so far: each name
		// bound from here on joins it as it is bound (seeBound), and the
		// names of the statements an analysis takes over from the one
		// before (takePrefix) are among them.
		c.universeOn = true
		c.universe = make(map[string]uint64, max(len(scope), c.statements))
		for u := range scope {
			c.universe[u] = letterMask(u)
		}
	}
	if n, ok := c.near[name]; ok {
		n.gen = c.gen
		return n.list
	}
	n := &nearNames{gen: c.gen}
	reach, mask := len(name)/2, letterMask(name)
	for u, m := range c.universe {
		if d, ok := within(name, mask, u, m, reach); ok {
			n.list = append(n.list, nearName{u, d})
		}
	}
	slices.SortFunc(n.list, compareNear)
	c.near[strings.Clone(name)] = n
	return n.list
}

func compareNear(a, b nearName) int {
	if a.dist != b.dist {
		return a.dist - b.dist
	}
	return strings.Compare(a.name, b.name)
}

// within is the edit distance of name and u when it is at most reach;
// masks are their letterMasks.
func within(name string, nameMask uint64, u string, uMask uint64, reach int) (int, bool) {
	if diff := len(u) - len(name); diff > reach || -diff > reach {
		return 0, false
	}
	if bits.OnesCount64(nameMask&^uMask) > reach || bits.OnesCount64(uMask&^nameMask) > reach {
		return 0, false
	}
	d := editdist.Within(name, u, reach)
	return d, d <= reach
}

// seeBound adds the name statement names binds to the universe, once it is
// kept.
func (c *Cache) seeBound(names *stmtNote) {
	if !c.universeOn || names.epoch == uint32(c.epoch) {
		return
	}
	names.epoch = uint32(c.epoch)
	u := names.bound
	// One look-up rather than two: a name's mask is a function of it, so
	// writing it again changes nothing, and the map grows by one for a
	// name new to it.
	had := len(c.universe)
	m := letterMask(u)
	if c.universe[u] = m; len(c.universe) == had {
		return
	}
	for name, n := range c.near {
		if d, ok := within(name, letterMask(name), u, m, len(name)/2); ok {
			i, _ := slices.BinarySearchFunc(n.list, nearName{u, d}, compareNear)
			n.list = slices.Insert(n.list, i, nearName{u, d})
		}
	}
}

// trimUniverse clears the universe when most of it is names no longer
// bound (the sheet's analysis just finished bound count names), so that
// it does not grow with every name typed.
func (c *Cache) trimUniverse(count int) {
	if len(c.universe) <= 2*count+256 {
		return
	}
	clear(c.universe)
	clear(c.near)
	c.epoch++
}

// cacheEntry is a statement's result, its ranges relative to the
// statement (as its tree's are, see grammar.Position). A cache holds one
// per statement of the sheet: what most statements lack (an error, hints,
// call findings) is kept apart, in more. It is 80 bytes (a size class of
// the allocator; 96 with the column and gen in 64 bits).
type cacheEntry struct {
	key   uint64
	text  string
	col   int32
	gen   uint32
	deps  []uint64
	value layout.Value
	more  *resultRanges // nil when the result has no ranges
}

// resultRanges is the part of a result with ranges, relative to the
// statement. It is kept that way alone: the analysis places the ranges in
// the file as it takes the result (AnalyzeFile), in the findings it keeps,
// rather than the cache keeping a second copy, placed.
type resultRanges struct {
	err     error
	hints   []Finding
	hintsAt grammar.Position
	calls   []callFinding
}

// result is e's result, relative to its statement.
func (e *cacheEntry) result() stmtResult {
	if e.more == nil {
		return stmtResult{value: e.value}
	}
	return stmtResult{value: e.value, err: e.more.err, hints: e.more.hints, hintsAt: e.more.hintsAt, calls: e.more.calls}
}

// NewCache makes an empty cache.
func NewCache() *Cache {
	return &Cache{entries: map[uint64]*cacheEntry{}, parsed: grammar.NewCache(), universe: map[string]uint64{},
		near: map[string]*nearNames{}, seed: maphash.MakeSeed()}
}

// Fresh reports whether no analysis has gone through c yet: the next one
// is a first analysis, which evaluates every statement.
// It does not wait for an analysis under way.
func (c *Cache) Fresh() bool { return !c.used.Load() }

// stmtNote is what the cache keeps with a statement's tree in the parse
// cache (grammar.Cache.Notes), so that a statement an edit did not change
// finds its names and result without walking its tree or a look-up by its
// text: the names its text reads, in the order of eachName (they depend on
// the text alone, a statement's tree being a function of its text; their
// bindings on the scope), and its latest result. A tree parsed anew, or
// one with no place for a note, gets a new one: finding its names is a
// walk of its tree.
type stmtNote struct {
	// uses are the names its text reads (usesOf): the first of them and
	// their count, rather than a slice (16 bytes more a statement, and
	// most statements read one name or none).
	uses  *nameUse
	nuses uint32
	// epoch is the universe's epoch (its low 32 bits) bound was put in
	// (Cache.seeBound).
	epoch  uint32
	bound  string      // the name a binding binds
	result *cacheEntry // its latest result, nil before its first
	// first is room for the statement's first result (Cache.store), unused
	// while its gen is 0: a first analysis makes a note and a result for
	// every statement, in one allocation (128 bytes, a size class of the
	// allocator, as the two are apart) rather than two. Its text is the
	// statement's from the start (text), used or not: every result of the
	// statement holds that text, and the note keeps no other copy of its
	// string header. (Its hash is not kept either: a key is made of it
	// only for a statement whose latest result does not do, and hashing a
	// line is a few nanoseconds.)
	first cacheEntry
}

// text is the statement's text.
func (n *stmtNote) text() string { return n.first.text }

// usesOf is the names the statement's text reads, in the order of eachName.
func (n *stmtNote) usesOf() []nameUse { return unsafe.Slice(n.uses, n.nuses) }

// note is the note of statement i of f, a sheet with text src, held by
// the parse cache (nil when it holds none): the one kept with its tree
// where there is one, else a new one; at is where the statement starts.
func (c *Cache) note(held *grammar.Note, f *grammar.File, i int, src []byte) (*stmtNote, grammar.Position) {
	var place *any
	var kept string
	if held != nil {
		place, kept = held.Place, held.Text
	}
	if place != nil {
		if n, ok := (*place).(*stmtNote); ok {
			return n, held.At
		}
	}
	span := f.StatementRange(i)
	n := c.newNote(src[span.Pos.Offset:span.End.Offset], kept, f.Statements[i])
	if place != nil {
		*place = n
	}
	return n, span.Pos
}

// newNote is the note of statement st, whose text is text. kept is the
// text as the parse cache keeps it with st's tree ("" if unknown): when it
// is text, it is kept here too rather than a copy, and so are the names,
// which share its memory.
func (c *Cache) newNote(text []byte, kept string, st grammar.Stmt) *stmtNote {
	own := kept == string(text)
	e := &stmtNote{epoch: uint32(c.epoch - 1)}
	e.first.text = kept
	if !own {
		e.first.text = string(text)
	}
	// Otherwise a name's text may share memory with the whole file's.
	clone := func(s string) string {
		if own {
			return s
		}
		return strings.Clone(s)
	}
	if b, ok := st.(*grammar.Binding); ok {
		e.bound = clone(b.Name.Name)
	}
	var uses []nameUse
	eachName(st, func(n *grammar.Name, unboundSkipped bool) {
		uses = append(uses, nameUse{clone(n.Name), unboundSkipped})
	})
	if len(uses) > 0 {
		e.uses, e.nuses = &uses[0], uint32(len(uses))
	}
	return e
}

// statementKey hashes a statement's text (by its hash), its starting column
// and the keys of the bindings it reads.
func (c *Cache) statementKey(textHash uint64, col int, deps []uint64) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], textHash)
	h.Write(buf[:])
	binary.LittleEndian.PutUint64(buf[:], uint64(col))
	h.Write(buf[:])
	for _, d := range deps {
		binary.LittleEndian.PutUint64(buf[:], d)
		h.Write(buf[:])
	}
	return h.Sum64()
}

// begin starts an analysis of a sheet of n statements.
func (c *Cache) begin(n int) {
	c.mu.Lock()
	c.gen++
	if c.gen == 0 {
		c.gen = 1 // an entry of gen 0 is one not yet used (stmtNote.first)
	}
	c.statements = n
	// A first analysis fills the empty maps with about one entry per
	// statement: made at that size, they are not grown (and rehashed)
	// step by step on the way.
	c.filling = len(c.entries) == 0 && c.unindexed == nil
	if c.filling {
		c.unindexed = make([]*cacheEntry, 0, n)
	}
}

// finish records s, the analysis just done, for the next one to take its
// statements from; count names are bound in it.
func (c *Cache) finish(s *Sheet, count int) {
	c.last, c.lastEpoch = s, c.epoch
	c.used.Store(true)
	c.trimUniverse(count)
}

// end drops the entries the analysis just finished did not use, once they
// outnumber the statements.
func (c *Cache) end() {
	defer c.mu.Unlock()
	if !c.filling {
		c.index()
	}
	limit := 2*c.statements + c.slack
	if len(c.entries) <= limit && len(c.near) <= limit {
		return
	}
	for k, e := range c.entries {
		if e.gen != c.gen {
			delete(c.entries, k)
		}
	}
	for k, n := range c.near {
		if n.gen != c.gen {
			delete(c.near, k)
		}
	}
	c.swept = c.gen
}

// lookup finds the earlier result of a statement of text text, starting at
// column col, reading the bindings of keys deps.
func (c *Cache) lookup(key uint64, text string, col int, deps []uint64) (*cacheEntry, bool) {
	if c.filling {
		return nil, false
	}
	c.index()
	e, ok := c.entries[key]
	if !ok || e.text != text || int(e.col) != col || !slices.Equal(e.deps, deps) {
		return nil, false
	}
	return e, true
}

// index puts the entries a first analysis stored (unindexed) in entries,
// where none of the same key was put since (both are the result of the
// same text, column and reads).
func (c *Cache) index() {
	if c.unindexed == nil {
		return
	}
	if len(c.entries) == 0 {
		// Made at the size it is filled to, rather than grown.
		c.entries = make(map[uint64]*cacheEntry, len(c.unindexed))
	}
	for _, e := range c.unindexed {
		if _, ok := c.entries[e.key]; !ok {
			c.entries[e.key] = e
		}
	}
	c.unindexed = nil
}

// IndexDeferred does now what the cache would otherwise do during the next
// analysis and can do ahead of it: the language server calls it once a
// first analysis's diagnostics are out, while the editor asks for nothing.
// It does nothing while an analysis is under way.
func (c *Cache) IndexDeferred() {
	if !c.mu.TryLock() {
		return
	}
	defer c.mu.Unlock()
	c.index()
	c.parsed.IndexDeferred()
}

// take is the result of e, relative to its statement, marked used.
func (c *Cache) take(e *cacheEntry) stmtResult {
	if e.gen < c.swept {
		c.entries[e.key] = e // it may have been dropped
	}
	e.gen = c.gen
	return e.result()
}

// store records the result r, relative to its statement, of the statement
// note is of, in the room the note has for it when it is unused.
func (c *Cache) store(note *stmtNote, key uint64, text string, col int, deps []uint64, r stmtResult) *cacheEntry {
	e := &note.first // its text is text already
	if e.gen != 0 {
		e = new(cacheEntry)
	}
	*e = cacheEntry{key: key, text: text, col: int32(col), deps: deps, value: r.value, gen: c.gen}
	if r.hasRanges() {
		e.more = &resultRanges{err: r.err, hints: r.hints, hintsAt: r.hintsAt, calls: r.calls}
	}
	if c.filling {
		c.unindexed = append(c.unindexed, e)
		return e
	}
	c.entries[key] = e
	return e
}

// hasRanges reports whether r has ranges to place: an error, hints or the
// findings of calls.
func (r stmtResult) hasRanges() bool {
	return r.err != nil || len(r.hints) > 0 || len(r.calls) > 0
}

// appendPlaced appends to found the hints of a statement, their ranges
// relative to at in the statement, placed in the file by base.
// A hint's ranges are on one line when at is not zero (bindingHints), so
// its columns move as its offsets do.
func appendPlaced(found []Finding, hints []Finding, at grammar.Position, base grammar.Base) []Finding {
	if at == (grammar.Position{}) && base == (grammar.Base{}) {
		return append(found, hints...)
	}
	d := grammar.Position{Offset: at.Offset + int32(base.Offset), Line: at.Line + int32(base.Line), Column: at.Column}
	for _, h := range hints {
		found = append(found, moveFinding(h, d))
	}
	return found
}

// placeError places the ranges of an evaluation error (err itself for the
// zero base).
func placeError(err error, base grammar.Base) error {
	if err == nil || base == (grammar.Base{}) {
		return err
	}
	switch e := err.(type) {
	case *EvalError:
		placed := *e
		placed.Range = base.Range(e.Range)
		placed.Related = placeRelated(e.Related, base)
		placed.Fixes = placeFixes(e.Fixes, base)
		return &placed
	case *grammar.Error:
		return base.Error(e)
	}
	return err
}

// placeFinding places the ranges of a finding (f itself for the zero base).
func placeFinding(f Finding, base grammar.Base) Finding {
	if base == (grammar.Base{}) {
		return f
	}
	f.Range = base.Range(f.Range)
	f.Related = placeRelated(f.Related, base)
	f.Fixes = placeFixes(f.Fixes, base)
	return f
}

func placeRelated(rs []Related, base grammar.Base) []Related {
	if rs == nil {
		return nil
	}
	out := make([]Related, len(rs))
	for i, r := range rs {
		out[i] = Related{Range: base.Range(r.Range), Message: r.Message}
	}
	return out
}

func placeFixes(fs []Fix, base grammar.Base) []Fix {
	if fs == nil {
		return nil
	}
	out := make([]Fix, len(fs))
	for i, f := range fs {
		edits := make([]Edit, len(f.Edits))
		for j, e := range f.Edits {
			edits[j] = Edit{Range: base.Range(e.Range), NewText: e.NewText}
		}
		out[i] = Fix{Title: f.Title, Edits: edits}
	}
	return out
}
