package analysis

import (
	"hash/fnv"
	"strconv"
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
}

type cacheEntry struct {
	text  string
	col   int
	deps  []uint64
	pos   grammar.Position // where the statement was when it was evaluated
	value layout.Value
	err   error
	gen   uint64
}

// NewCache makes an empty cache.
func NewCache() *Cache { return &Cache{entries: map[uint64]*cacheEntry{}} }

// statementKey hashes a statement's text, its starting column and the keys
// of the bindings it reads.
func statementKey(text string, col int, deps []uint64) uint64 {
	h := fnv.New64a()
	h.Write([]byte(text))
	h.Write([]byte{0})
	h.Write(strconv.AppendInt(nil, int64(col), 10))
	for _, d := range deps {
		h.Write(strconv.AppendUint([]byte{0}, d, 16))
	}
	return h.Sum64()
}

func (c *Cache) begin() {
	c.mu.Lock()
	c.gen++
}

// end drops the entries the analysis just finished did not use.
func (c *Cache) end() {
	for k, e := range c.entries {
		if e.gen != c.gen {
			delete(c.entries, k)
		}
	}
	c.mu.Unlock()
}

// lookup finds a statement's earlier result, moved to where the statement is now.
func (c *Cache) lookup(key uint64, text string, col int, deps []uint64, pos grammar.Position) (layout.Value, error, bool) {
	e, ok := c.entries[key]
	if !ok || e.text != text || e.col != col || !sameKeys(e.deps, deps) {
		return nil, nil, false
	}
	e.gen = c.gen
	return e.value, shiftError(e.err, pos.Offset-e.pos.Offset, pos.Line-e.pos.Line), true
}

func (c *Cache) store(key uint64, text string, col int, deps []uint64, pos grammar.Position, v layout.Value, err error) {
	c.entries[key] = &cacheEntry{text: text, col: col, deps: deps, pos: pos, value: v, err: err, gen: c.gen}
}

func sameKeys(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
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
	moved.Related = make([]Related, len(ee.Related))
	for i, r := range ee.Related {
		moved.Related[i] = Related{Range: shiftRange(r.Range, dOffset, dLine), Message: r.Message}
	}
	return &moved
}

func shiftRange(r grammar.Range, dOffset, dLine int) grammar.Range {
	r.Pos.Offset += dOffset
	r.Pos.Line += dLine
	r.End.Offset += dOffset
	r.End.Line += dLine
	return r
}
