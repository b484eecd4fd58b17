package lsp

import (
	"container/list"
	"context"
	"hash/fnv"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// costPerTextByte estimates the memory a snapshot read from disk holds per
// byte of its text once analyzed: the text, its line index, the memoized
// analysis and the per-document statement cache the features keep for its
// URI. Measured with BenchmarkWorkspaceDiagnosticsHeap (73 bytes a byte
// on the benchmarks' generated sheets, everything kept), rounded up.
const costPerTextByte = 80

// Bounds of what is kept of files read from disk.
const (
	maxDiskCost = 64 << 20 // estimated bytes of kept snapshots (LRU)
	maxStamps   = 20000    // files whose size, time and text hash are kept
)

// diskFiles keeps what the server read from disk. Snapshots (with their
// analyses) are kept least recently used first out, by estimated bytes;
// stamps (size, modification time, text hash: a few dozen bytes a file) let
// a workspace pull answer "unchanged" for a file it need not read again.
// Everything is keyed by real path, so any number of URIs naming one file
// hold one snapshot. The zero value is ready, with the default bounds.
type diskFiles struct {
	mu      sync.Mutex
	entries map[string]*list.Element // of *diskEntry
	lru     list.List                // front: most recently used
	cost    int64
	stamps  map[string]stamp

	maxCost int64      // 0: maxDiskCost
	walk    walkLimits // zero fields: defaultWalk's
}

type diskEntry struct {
	path  string
	stamp stamp
	snap  *Snapshot
	cost  int64
}

// stamp identifies one content of a file: while the size and modification
// time stay, the text (and so its hash) is taken to be the same.
type stamp struct {
	size    int64
	modTime time.Time
	hash    uint64
}

func (a stamp) sameFile(info os.FileInfo) bool {
	return a.size == info.Size() && a.modTime.Equal(info.ModTime())
}

func textHash(text string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(text))
	return h.Sum64()
}

// load returns the snapshot of the file at real path (resolved and checked
// by readablePath) under uri u: the kept one when the file has not changed
// and was read under the same URI, else read now. released are the URIs
// whose snapshots left the cache: the caller tells the features to drop
// what they keep for them.
func (d *diskFiles) load(u, real string) (snap *Snapshot, read int64, released []string, err error) {
	info, err := os.Lstat(real)
	if err != nil {
		return nil, 0, d.forget(real), err
	}
	d.mu.Lock()
	if el, ok := d.entries[real]; ok {
		e := el.Value.(*diskEntry)
		if e.snap.URI == u && e.stamp.sameFile(info) {
			d.lru.MoveToFront(el)
			d.mu.Unlock()
			return e.snap, 0, nil, nil
		}
	}
	d.mu.Unlock()
	data, info, err := readNoFollow(real, MaxFileBytes)
	if err != nil {
		return nil, 0, d.forget(real), err
	}
	snap = NewSnapshot(u, 0, KindOf(u, ""), string(data))
	st := stamp{info.Size(), info.ModTime(), textHash(snap.Text)}
	return snap, int64(len(data)), d.keep(real, st, snap), nil
}

// keep adds a snapshot read now, then drops the least recently used ones
// past the bound; the newest is kept even alone over it, so that the
// requests on one large file do not analyze it again each time.
func (d *diskFiles) keep(real string, st stamp, snap *Snapshot) (released []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.entries == nil {
		d.entries = map[string]*list.Element{}
	}
	released = d.removeLocked(real)
	d.stampLocked(real, st)
	e := &diskEntry{path: real, stamp: st, snap: snap, cost: int64(len(snap.Text)+1) * costPerTextByte}
	d.entries[real] = d.lru.PushFront(e)
	d.cost += e.cost
	limit := d.maxCost
	if limit == 0 {
		limit = maxDiskCost
	}
	for d.cost > limit && d.lru.Len() > 1 {
		old := d.lru.Back().Value.(*diskEntry)
		released = append(released, d.removeLocked(old.path)...)
	}
	return released
}

func (d *diskFiles) stampLocked(real string, st stamp) {
	if d.stamps == nil || len(d.stamps) >= maxStamps {
		// Past the bound the stamps start over: a file is then read once
		// more, nothing worse.
		d.stamps = map[string]stamp{}
	}
	d.stamps[real] = st
}

func (d *diskFiles) removeLocked(real string) []string {
	el, ok := d.entries[real]
	if !ok {
		return nil
	}
	e := el.Value.(*diskEntry)
	d.lru.Remove(el)
	delete(d.entries, real)
	d.cost -= e.cost
	return []string{e.snap.URI}
}

// forget drops what is kept of a file (deleted, changed, unreadable).
func (d *diskFiles) forget(real string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.stamps, real)
	return d.removeLocked(real)
}

// unchanged reports whether the file at real path still has the text whose
// hash was stamped, and gives that hash: a workspace pull can then answer
// "unchanged" without reading it.
func (d *diskFiles) unchanged(real string) (hash uint64, ok bool) {
	info, err := os.Lstat(real)
	if err != nil {
		return 0, false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st, ok := d.stamps[real]
	if !ok || !st.sameFile(info) {
		return 0, false
	}
	return st.hash, true
}

// usage is the estimated bytes and the number of snapshots kept.
func (d *diskFiles) usage() (cost int64, n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cost, d.lru.Len()
}

func init() {
	notificationHandlers[protocol.MethodWorkspaceDidChangeWatchedFiles] = didChangeWatchedFiles
}

// didChangeWatchedFiles drops what is kept of files a client reports
// changed or deleted (a client may send it unasked; stamps catch changes
// anyway, this frees the memory at once).
func didChangeWatchedFiles(_ context.Context, s *Server, params []byte) error {
	var p protocol.DidChangeWatchedFilesParams
	if err := decode(params, &p); err != nil {
		return err
	}
	for _, c := range p.Changes {
		path, err := fileURIPath(string(c.URI))
		if err != nil || path == "" {
			continue
		}
		released := s.disk.forget(filepath.Clean(path))
		if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
			released = append(released, s.disk.forget(real)...)
		}
		s.releaseURIs(released)
	}
	return nil
}
