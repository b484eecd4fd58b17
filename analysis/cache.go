package analysis

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Cache remembers what sheet statements evaluated to, keyed by the
// statement's text and, recursively, by the keys of the bindings it reads:
// after an edit only the statements whose text changed, and those that read
// what they bind, are evaluated again. Entries unused by the latest analysis
// are dropped, so the cache holds about one sheet's worth. A Cache is safe
// for use by one analysis at a time per document; it locks for the rest.
type Cache struct {
	mu      sync.Mutex
	entries map[uint64]*cacheEntry
	gen     uint64
	parsed  *grammar.Cache // the statements' trees (AnalyzeSheetCached)
	seed    maphash.Seed
	// suggestions are the names offered for undefined names (boundNames).
	suggestions map[suggestKey]*suggestion
	// texts are the names each statement text reads, so that a statement
	// an edit only moved is resolved without walking its new tree.
	texts                   map[string]*stmtNames
	usedTexts, prevUsedText []*stmtNames
	// used are the keys of the entries the current analysis took or
	// stored, prevUsed the previous analysis's: after an analysis the cache
	// holds its used entries alone, so those the next one drops are among
	// them, and end need not look at every key.
	used, prevUsed []uint64
}

type suggestKey struct {
	name  string
	sum   uint64
	count int
}

type suggestion struct {
	best string
	ok   bool
	gen  uint64
}

type cacheEntry struct {
	text  string
	col   int
	deps  []uint64
	pos   grammar.Position // where the statement was when it was evaluated
	value layout.Value
	err   error
	hints []Finding
	calls []callFinding
	gen   uint64
}

// stmtNames is what a statement's text reads: its names in the order of
// eachName. The names depend on the text alone (a statement's tree is a
// function of its text), their bindings on the scope.
type stmtNames struct {
	text string
	hash uint64 // the text's hash
	uses []nameUse
	gen  uint64
}

// NewCache makes an empty cache.
func NewCache() *Cache {
	return &Cache{entries: map[uint64]*cacheEntry{}, parsed: grammar.NewCache(), suggestions: map[suggestKey]*suggestion{},
		texts: map[string]*stmtNames{}, seed: maphash.MakeSeed()}
}

// names finds the names statement st, whose text is text, reads.
func (c *Cache) names(text []byte, st grammar.Stmt) *stmtNames {
	e, ok := c.texts[string(text)]
	if !ok {
		e = &stmtNames{text: string(text), hash: maphash.Bytes(c.seed, text)}
		eachName(st, func(n *grammar.Name, unboundSkipped bool) {
			// A name's text may share memory with the whole file's.
			e.uses = append(e.uses, nameUse{strings.Clone(n.Name), unboundSkipped})
		})
		c.texts[e.text] = e
	}
	if e.gen != c.gen {
		e.gen = c.gen
		c.usedTexts = append(c.usedTexts, e)
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

func (c *Cache) begin() {
	c.mu.Lock()
	c.gen++
	c.prevUsed, c.used = c.used, c.prevUsed[:0]
	c.prevUsedText, c.usedTexts = c.usedTexts, c.prevUsedText[:0]
}

// end drops the entries the analysis just finished did not use.
func (c *Cache) end() {
	for _, k := range c.prevUsed {
		if e, ok := c.entries[k]; ok && e.gen != c.gen {
			delete(c.entries, k)
		}
	}
	for _, e := range c.prevUsedText {
		if e.gen != c.gen {
			delete(c.texts, e.text)
		}
	}
	clear(c.prevUsedText)
	for k, s := range c.suggestions {
		if s.gen != c.gen {
			delete(c.suggestions, k)
		}
	}
	c.mu.Unlock()
}

// lookup finds a statement's earlier result, moved to where the statement is now.
func (c *Cache) lookup(key uint64, text []byte, col int, deps []uint64, pos grammar.Position) (stmtResult, bool) {
	e, ok := c.entries[key]
	if !ok || e.text != string(text) || e.col != col || !slices.Equal(e.deps, deps) {
		return stmtResult{}, false
	}
	e.gen = c.gen
	c.used = append(c.used, key)
	dOff, dLine := pos.Offset-e.pos.Offset, pos.Line-e.pos.Line
	r := stmtResult{value: e.value, err: shiftError(e.err, dOff, dLine), hints: e.hints, calls: e.calls}
	if dOff != 0 || dLine != 0 {
		r.hints = make([]Finding, len(e.hints))
		for i, h := range e.hints {
			r.hints[i] = shiftFinding(h, dOff, dLine)
		}
		// A call's fix on another statement's binding is resolved after
		// lookup (callFinding.resolve); only its own ranges move here.
		r.calls = make([]callFinding, len(e.calls))
		for i, c := range e.calls {
			c.Finding = shiftFinding(c.Finding, dOff, dLine)
			r.calls[i] = c
		}
	}
	return r, true
}

func (c *Cache) store(key uint64, text string, col int, deps []uint64, pos grammar.Position, r stmtResult) {
	c.entries[key] = &cacheEntry{text: text, col: col, deps: deps, pos: pos, value: r.value, err: r.err, hints: r.hints, calls: r.calls, gen: c.gen}
	c.used = append(c.used, key)
}

// shiftError moves the ranges of an evaluation error by whole lines (the
// statement's text and starting column are unchanged, so columns stay).
func shiftError(err error, dOffset, dLine int) error {
	ee, ok := err.(*EvalError)
	if !ok || (dOffset == 0 && dLine == 0) {
		return err
	}
	moved := *ee
	moved.Range = shiftRange(ee.Range, dOffset, dLine)
	moved.Related = shiftRelated(ee.Related, dOffset, dLine)
	moved.Fixes = shiftFixes(ee.Fixes, dOffset, dLine)
	return &moved
}

func shiftFinding(f Finding, dOffset, dLine int) Finding {
	f.Range = shiftRange(f.Range, dOffset, dLine)
	f.Related = shiftRelated(f.Related, dOffset, dLine)
	f.Fixes = shiftFixes(f.Fixes, dOffset, dLine)
	return f
}

func shiftRelated(rs []Related, dOffset, dLine int) []Related {
	out := make([]Related, len(rs))
	for i, r := range rs {
		out[i] = Related{Range: shiftRange(r.Range, dOffset, dLine), Message: r.Message}
	}
	return out
}

func shiftFixes(fs []Fix, dOffset, dLine int) []Fix {
	out := make([]Fix, len(fs))
	for i, f := range fs {
		edits := make([]Edit, len(f.Edits))
		for j, e := range f.Edits {
			edits[j] = Edit{Range: shiftRange(e.Range, dOffset, dLine), NewText: e.NewText}
		}
		out[i] = Fix{Title: f.Title, Edits: edits}
	}
	return out
}

func shiftRange(r grammar.Range, dOffset, dLine int) grammar.Range {
	r.Pos.Offset += dOffset
	r.Pos.Line += dLine
	r.End.Offset += dOffset
	r.End.Line += dLine
	return r
}
