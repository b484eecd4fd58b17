package lsp

import (
	"sort"
	"sync"
)

// Change is one content change of textDocument/didChange: a replacement of
// the text between two positions, or of the whole text when Whole is set.
type Change struct {
	Whole      bool
	Start, End Position
	Text       string
}

// Store holds the latest snapshot of every open document. Snapshots are
// immutable, so a reader keeps a consistent view however the store moves on.
type Store struct {
	mu   sync.RWMutex
	docs map[string]*Snapshot
}

func NewStore() *Store { return &Store{docs: map[string]*Snapshot{}} }

// Open records a document as the editor opened it.
func (st *Store) Open(uri, languageID string, version int32, text string) *Snapshot {
	snap := NewSnapshot(uri, version, KindOf(uri, languageID), text)
	st.mu.Lock()
	st.docs[uri] = snap
	st.mu.Unlock()
	return snap
}

// Change applies an edit to an open document; ok is false when the document
// is not open (the edit is dropped: there is no text to apply it to).
func (st *Store) Change(uri string, version int32, changes []Change, enc Encoding) (snap *Snapshot, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	old, ok := st.docs[uri]
	if !ok {
		return nil, false
	}
	snap = old.Apply(version, changes, enc)
	st.docs[uri] = snap
	return snap, true
}

// Close forgets a document.
func (st *Store) Close(uri string) {
	st.mu.Lock()
	delete(st.docs, uri)
	st.mu.Unlock()
}

// Get returns the latest snapshot of an open document.
func (st *Store) Get(uri string) (*Snapshot, bool) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	snap, ok := st.docs[uri]
	return snap, ok
}

// All returns the latest snapshot of every open document, ordered by URI.
func (st *Store) All() []*Snapshot {
	st.mu.RLock()
	out := make([]*Snapshot, 0, len(st.docs))
	for _, s := range st.docs {
		out = append(out, s)
	}
	st.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out
}
