package grammar

import (
	"hash/maphash"
	"math/bits"
	"sort"
	"sync"
)

// Cache keeps the trees of a sheet's statements between parses (see
// ParseFileCached): an editor re-parses a sheet on every keystroke, and all
// but a statement or two are as they were. Entries the latest parse did not
// use are dropped, so a cache holds about one sheet's worth. A statement's
// tree holds positions relative to the statement (see Position), so a
// statement found at another place is taken as it is: only its Base in the
// new File differs. Trees handed out are never changed afterwards. A Cache
// may be used by one parse at a time; it locks for the rest.
type Cache struct {
	mu sync.Mutex
	// buckets are the statements' entries by the hash of their key (its
	// low bits: the length is a power of two), chained through next in the
	// order stored; count is how many there are. 8 bytes a bucket, one or
	// two buckets an entry: a map of hashes to entries took 24 an entry.
	buckets []*cacheEntry
	count   int
	// errs are the errors of the entries that have any, few of them: a
	// field of every entry would cost each 8 bytes.
	errs map[*cacheEntry][]*Error
	seed maphash.Seed
	gen  uint32
	last *lastParse
	// spare is the records of the parse before the latest, which nothing
	// reads any more: the next parse writes its records there.
	spare    []stmtRecord
	lastSeen *lastParse // last when the current parse began
	// filling is set while a parse stores into an empty cache, and
	// unindexed after it: that parse could find nothing in the buckets, so
	// its entries wait in its records (last.records) and go into the
	// buckets when a later parse begins, or at IndexDeferred. At 200,000 lines
	// the buckets outgrow the processor's caches, and putting each entry
	// in its bucket as it was parsed was a miss a statement in the editor's
	// first parse.
	filling, unindexed bool
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

// stmtRecord is one statement of a parse, beside its Base in the parse's
// File, which with its tree says where it starts and ends (16 bytes: a
// cache keeps the records of two parses).
type stmtRecord struct {
	entry  *cacheEntry // its tree
	resume linePos     // the start of the line after its End; Offset -1 when the file's end ended it
}

// linePos is the start of a line: an offset and the line's number (int32,
// as Position's are).
type linePos struct{ Offset, Line int32 }

// stmtKey is everything a statement's tree depends on: its text (from its
// first token to the end of its last one), the column it starts at (columns
// of its first line count from there), and where the token that ended it
// lies relative to its start (an error at the end of a statement points
// there). Offsets and lines elsewhere in the file only change its Base.
//
// The numbers are int32, as Position's are: a key is 32 bytes.
type stmtKey struct {
	text      string
	col       int32
	endOffset int32 // ^offset when the end of the file ended it rather than a line break (keyEnd)
	endLine   int32
	endCol    int32
}

// keyEnd is a key's endOffset: the offset of the token that ended the
// statement, relative to it, complemented when the end of the file ended
// it (a bool field would make a key 40 bytes).
func keyEnd(offset int32, eof bool) int32 {
	if eof {
		return ^offset
	}
	return offset
}

// cacheEntry is a statement's tree, kept in 80 bytes (a cache holds one
// per statement of the sheet); its errors, if any, are in Cache.errs.
type cacheEntry struct {
	key  stmtKey // its text shares no memory with a file's text (but a first parse's, see store)
	next *cacheEntry
	stmt Stmt
	note any    // what a user of the cache keeps with the statement (Notes)
	at   int32  // the offset of the statement's first token when last used (saturated)
	gen  uint32 // the parse that last used it
}

// errors are the errors of e's statement, relative to it.
func (c *Cache) errors(e *cacheEntry) []*Error {
	if len(c.errs) == 0 {
		return nil
	}
	return c.errs[e]
}

// NewCache makes an empty cache.
func NewCache() *Cache {
	return &Cache{buckets: make([]*cacheEntry, minBuckets), seed: maphash.MakeSeed()}
}

// minBuckets is the buckets of an empty cache.
const minBuckets = 8

// bucket is the bucket of entries of hash h.
func (c *Cache) bucket(h uint64) *(*cacheEntry) { return &c.buckets[h&uint64(len(c.buckets)-1)] }

// grow doubles the buckets. The entries of bucket i go to buckets i and
// i+len in the order they were in, so that lookup prefers among equal
// statements the same entries as before.
func (c *Cache) grow() {
	old := c.buckets
	c.buckets = make([]*cacheEntry, 2*len(old))
	for i, e := range old {
		lo, hi := &c.buckets[i], &c.buckets[i+len(old)]
		for e != nil {
			next := e.next
			e.next = nil
			if c.hash(&e.key)&uint64(len(old)) == 0 {
				*lo, lo = e, &e.next
			} else {
				*hi, hi = e, &e.next
			}
			e = next
		}
	}
}

// hash is the hash of a statement's key.
func (c *Cache) hash(k *stmtKey) uint64 {
	// The numbers are mixed into the text's hash (a multiply and a
	// rotation each): a statement's numbers mostly follow from its text,
	// and hashing them as bytes through a maphash.Hash was a tenth of
	// storing a statement.
	h := maphash.String(c.seed, k.text)
	for _, v := range [...]uint64{uint64(uint32(k.col)) | uint64(uint32(k.endCol))<<32, uint64(uint32(k.endOffset)) | uint64(uint32(k.endLine))<<32} {
		h = bits.RotateLeft64((h^v)*0x9e3779b97f4a7c15, 29)
	}
	return h
}

// offset32 is an offset as an entry keeps it: only equality matters, and a
// sheet is far smaller than 2 GiB.
func offset32(off int) int32 { return int32(min(off, 1<<31-1)) }

func (c *Cache) begin() {
	c.mu.Lock()
	c.index()
	c.lastSeen = c.last
	c.gen++
	c.filling = c.count == 0
}

// index puts the entries of a parse that filled an empty cache (filling)
// in their buckets, in the order that parse stored them.
func (c *Cache) index() {
	if !c.unindexed {
		return
	}
	c.unindexed = false
	recs := c.last.records
	c.count = 0 // counted as stored; counted again as put in buckets
	c.makeRoom(len(recs))
	for _, r := range recs {
		if e := r.entry; e != nil {
			c.insert(e)
		}
	}
}

// IndexDeferred does now what the next parse would otherwise do first (index), so
// that a language server can do it once its answers are out, while the
// editor asks for nothing. It does nothing while a parse is under way.
func (c *Cache) IndexDeferred() {
	if !c.mu.TryLock() {
		return
	}
	defer c.mu.Unlock()
	c.index()
}

// makeRoom makes an empty cache's buckets at the size of n statements,
// which a first parse is about to store, rather than growing them (and
// rehashing) step by step.
func (c *Cache) makeRoom(n int) {
	if c.count == 0 && len(c.buckets) < n {
		size := len(c.buckets)
		for size < n {
			size *= 2
		}
		c.buckets = make([]*cacheEntry, size)
	}
}

// end drops the entries the parse just finished did not use. After a parse
// the cache holds the entries of its records alone (those it took or
// stored), so those the next parse drops are among the records of the
// parse before it, and end need not look at every key.
func (c *Cache) end() {
	defer c.mu.Unlock()
	prev := c.lastSeen
	c.lastSeen = nil
	filled := c.filling
	c.filling = false
	if prev == c.last {
		// The parse did not finish (a panic goes through): which entries
		// it stored is known nowhere, so the cache starts over.
		c.buckets, c.count, c.errs, c.last, c.spare = make([]*cacheEntry, minBuckets), 0, nil, nil, nil
		return
	}
	c.unindexed = filled
	if prev == nil {
		return
	}
	c.spare = prev.records
	for _, r := range prev.records {
		ke := r.entry
		if ke == nil || ke.gen == c.gen {
			continue
		}
		if len(c.errs) > 0 {
			delete(c.errs, ke)
		}
		for p := c.bucket(c.hash(&ke.key)); *p != nil; p = &(*p).next {
			if *p == ke {
				*p = ke.next
				ke.next = nil
				c.count--
				break
			}
		}
	}
}

// Len is the number of statements the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.index()
	n := 0
	for _, e := range c.buckets {
		for ; e != nil; e = e.next {
			n++
		}
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
	// Text is the statement's text as the cache keeps it, from its first
	// token to the end of its last (its tree's strings share its memory):
	// a user keeping the text too need not copy it.
	Text string
}

// Notes are the notes of the statements of f from from on: notes[k] is
// statement from+k's. f is the cache's latest parse, or the notes are nil.
// A Cache keeps notes for one user at a time. The notes are written to dst
// when it has room.
func (c *Cache) Notes(f *File, from int, dst []Note) []Note {
	list, ok := c.NoteList(f, from)
	if !ok {
		return nil
	}
	notes := dst[:0]
	if cap(notes) < list.Len() {
		notes = make([]Note, list.Len())
	}
	notes = notes[:list.Len()]
	for k := range notes {
		notes[k] = list.At(k)
	}
	return notes
}

// NoteList is Notes without the list: the notes of the statements of a
// parse from a statement on, each made when asked for (At). A user that
// reads each note once, in order, needs no list of them (40 bytes a
// statement, made by every analysis of a long sheet and left behind).
type NoteList struct {
	records []stmtRecord
	bases   []fileBase
}

// NoteList is the notes of the statements of f from from on (see Notes);
// ok is false when f is not the cache's latest parse. The list is valid
// until the cache's next parse.
func (c *Cache) NoteList(f *File, from int) (list NoteList, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil || c.last.file != f || len(c.last.records) != len(f.Statements) || from > len(f.Statements) {
		return NoteList{}, false
	}
	return NoteList{records: c.last.records[from:], bases: f.bases[from:]}, true
}

// Len is how many notes the list has.
func (l NoteList) Len() int { return len(l.records) }

// At is the k-th note of the list. The records' entries hold the
// statements' trees (the list's parse is theirs): no tree is read here.
func (l NoteList) At(k int) Note {
	r := &l.records[k]
	b := l.bases[k]
	return Note{Place: &r.entry.note, At: Position{Offset: b.Offset, Line: b.Line + 1, Column: r.entry.key.col}, Text: r.entry.key.text}
}

// lookup finds the tree of a statement with key starting at at. Among equal
// statements it prefers the one that was at the same place, then any not yet
// used by this parse, so that repeated lines each keep their own entry.
func (c *Cache) lookup(key stmtKey, at int) (*cacheEntry, bool) {
	var pick *cacheEntry
	for e := *c.bucket(c.hash(&key)); e != nil; e = e.next {
		if e.gen == c.gen || e.key != key {
			continue
		}
		if e.at == offset32(at) {
			pick = e
			break
		}
		if pick == nil {
			pick = e
		}
	}
	if pick == nil {
		return nil, false
	}
	return c.reuse(pick, at)
}

// reuse takes entry e of key for a statement now at at. A tree is taken
// once per parse: when an equal statement of this parse has it already,
// reuse fails and the statement is parsed anew (and stored as an entry of
// its own), so that the statements of one File share no node (but the
// literals of a first parse's fast path: see literals).
func (c *Cache) reuse(e *cacheEntry, at int) (*cacheEntry, bool) {
	if e.gen == c.gen {
		return nil, false
	}
	e.gen, e.at = c.gen, offset32(at)
	return e, true
}

// store records a statement just parsed; key.text shares no memory with
// the file's text but in a first parse (whose text, a string, does not
// change: see ParseTextCached), whose entries come from the arena a.
func (c *Cache) store(key stmtKey, at int, s Stmt, errs []*Error, a *arena) *cacheEntry {
	var e *cacheEntry
	if a != nil {
		e = a.entries.one()
	} else {
		e = &cacheEntry{}
	}
	*e = cacheEntry{key: key, stmt: s, at: offset32(at), gen: c.gen}
	if len(errs) > 0 {
		if c.errs == nil {
			c.errs = map[*cacheEntry][]*Error{}
		}
		c.errs[e] = errs
	}
	if c.filling {
		c.count++ // put in its bucket later (index)
		return e
	}
	c.insert(e)
	return e
}

// insert puts e in its bucket, at the end of its chain, so that lookup
// prefers the entries that were there before.
func (c *Cache) insert(e *cacheEntry) {
	if c.count >= len(c.buckets) {
		c.grow()
	}
	p := c.bucket(c.hash(&e.key))
	for *p != nil {
		p = &(*p).next
	}
	*p = e
	c.count++
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
	for n+1 < len(rs) && rs[n+1].resume.Offset >= 0 && int(rs[n+1].resume.Offset) <= e.prefix {
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
func (e *editSpan) sync(l *stmtLexer, c *Cache, f *File, add func(Stmt, []*Error, Base, stmtRecord), rec stmtRecord) {
	if e.synced || rec.resume.Offset < 0 || int(rec.resume.Offset) < e.newEnd {
		return
	}
	delta := e.newEnd - e.oldEnd
	oldAt := int32(int(rec.resume.Offset) - delta)
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
	dLine := int(rec.resume.Line - rs[j].resume.Line)
	// taken is the last old statement taken over; a statement whose tree
	// this parse has taken already ends the run, and the scanner goes on
	// from there.
	taken := j
	for k := j + 1; k < last; k++ {
		r := rs[k]
		b := e.old.file.bases[k].base()
		b.Offset += delta
		b.Line += dLine
		entry, ok := c.reuse(r.entry, b.Offset)
		if !ok {
			break
		}
		r.entry = entry
		r.resume.Offset += int32(delta)
		r.resume.Line += int32(dLine)
		add(r.entry.stmt, c.errors(r.entry), b, r)
		taken = k
	}
	if taken == j {
		return
	}
	// The comments among them are placed in the file: they are moved,
	// each copied on its own (in one block, a comment a later parse takes
	// over would keep the block, the comments after it of this version,
	// alive: TestCacheKeepsNoOldComments).
	end := rs[taken].resume
	cs := e.old.comments
	from := sort.Search(len(cs), func(i int) bool { return cs[i].Pos.Offset >= oldAt })
	for _, cm := range cs[from:] {
		if cm.Pos.Offset >= end.Offset {
			break
		}
		f.Comments = append(f.Comments, moveComment(cm, delta, dLine))
	}
	r := rs[taken]
	lastEnd := e.old.file.StatementRange(taken).End // the end of its last token
	lastEnd.Offset += int32(delta)
	lastEnd.Line += int32(dLine)
	l.resume(linePos{Offset: r.resume.Offset + int32(delta), Line: r.resume.Line + int32(dLine)}, lastEnd)
}

// moveComment is a copy of c moved by dOff bytes and dLine lines: comments
// are placed in their file (a comment is not part of a statement's tree).
func moveComment(c *Comment, dOff, dLine int) *Comment {
	m := *c
	m.Pos.Offset += int32(dOff)
	m.Pos.Line += int32(dLine)
	m.End.Offset += int32(dOff)
	m.End.Line += int32(dLine)
	return &m
}
