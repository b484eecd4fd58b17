package lsp

import (
	"context"
	"math"
	"path"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/cute-lsp/cute-lsp/analysis"
)

// Analyzed is the server's feature set over package analysis: sheets are
// parsed and evaluated statement by statement, host files (C++/CUDA,
// Python, MLIR) are searched for descriptors, and every answer is read off
// that analysis. Each snapshot is analyzed once (Snapshot.Memo); a per-document
// statement cache lets an edit re-evaluate only the statements it touched.
type Analyzed struct {
	mu     sync.Mutex
	caches map[string]*analysis.Cache
	// report is told of each panic recovered here (the server's
	// reportPanic; nil until a server takes this feature set).
	report func(where string, r any, stack []byte)
	// beforeIncremental, when set, runs before each incremental
	// analysis: tests inject panics there.
	beforeIncremental func(snap *Snapshot)
	// beforeRender, when set, runs as each rendering gets its turn.
	beforeRender func()
	// turns holds a token per rendering under way (see renderTurn).
	turns chan struct{}
	// resumes are the collector pauses of first analyses that ended
	// (pauseGC), each ended by the next analysis or after gcResumeAfter.
	resumes []func()
}

// NewAnalyzed makes the analysis-backed feature set.
func NewAnalyzed() *Analyzed {
	return &Analyzed{caches: map[string]*analysis.Cache{}, turns: make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))}
}

// renderTurn waits for a rendering's turn: as many run at once as there
// are processors, so a burst of hovers over large layouts (an editor sends
// one per mouse move, and cancels the ones before) renders a few at a time,
// and one cancelled while it waits never renders. ok is false when ctx
// ended first; otherwise release must be called once rendered.
func (a *Analyzed) renderTurn(ctx context.Context) (release func(), ok bool) {
	if a.turns == nil {
		return func() {}, ctx.Err() == nil
	}
	select {
	case a.turns <- struct{}{}:
	case <-ctx.Done():
		return nil, false
	}
	if ctx.Err() != nil {
		<-a.turns
		return nil, false
	}
	if a.beforeRender != nil {
		a.beforeRender()
	}
	return func() { <-a.turns }, true
}

// Closed drops what was kept for a closed document.
func (a *Analyzed) Closed(uri string) {
	a.mu.Lock()
	delete(a.caches, uri)
	a.mu.Unlock()
}

// indexDeferred lets the cache of a document finish what its latest analysis
// left for later (analysis.Cache.IndexDeferred), once that analysis's answers
// are out.
func (a *Analyzed) indexDeferred(uri string) {
	a.mu.Lock()
	c := a.caches[uri]
	a.mu.Unlock()
	if c != nil {
		c.IndexDeferred()
	}
}

func (a *Analyzed) cache(uri string) *analysis.Cache {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, ok := a.caches[uri]
	if !ok {
		c = analysis.NewCache()
		a.caches[uri] = c
	}
	return c
}

// filename is the name analysis sees: the URI's base name, with the
// extension of the snapshot's kind when the name has none it knows (an
// untitled buffer, a language chosen by the editor).
func filename(snap *Snapshot) string {
	name := path.Base(snap.URI)
	if KindOf(name, "") == snap.Kind {
		return name
	}
	switch snap.Kind {
	case KindSheet:
		return name + ".cute"
	case KindMLIR:
		return name + ".mlir"
	case KindCpp:
		return name + ".cu"
	case KindPython:
		return name + ".py"
	}
	return name
}

type sheetKey struct{}
type hostKey struct{}
type codeKey struct{}

// sheet is the analysis of a sheet snapshot; nil for other kinds, and
// when ctx ends before the analysis does (the analysis goes on for the
// next request).
func (a *Analyzed) sheet(ctx context.Context, snap *Snapshot) *analysis.Sheet {
	if snap.Kind != KindSheet {
		return nil
	}
	v, err := snap.MemoContext(ctx, sheetKey{}, func() any { return a.analyzeSheet(snap) })
	if err != nil {
		return nil
	}
	return v.(*analysis.Sheet)
}

// analyzeSheet analyzes a sheet incrementally, from what the document's
// cache kept of its previous version. A panic there (a bug in the
// incremental parser or evaluator) may leave the cache half updated: it is
// reported, the cache dropped, and the sheet analyzed again from scratch,
// so the edit that hit the bug still gets its diagnostics and the next
// ones start from a sound cache. A second panic is the analysis's own and
// is left to the caller (Snapshot.Memo keeps it for the snapshot).
func (a *Analyzed) analyzeSheet(snap *Snapshot) *analysis.Sheet {
	name := filename(snap)
	var sheet *analysis.Sheet
	r, stack := catch(func() {
		if a.beforeIncremental != nil {
			a.beforeIncremental(snap)
		}
		a.resumeGC()
		cache := a.cache(snap.URI)
		if len(snap.Text) >= pauseGCMin && cache.Fresh() {
			resume := pauseGC()
			defer a.resumeGCLater(resume)
		}
		sheet = analysis.AnalyzeSheetText(name, snap.Text, cache)
	})
	if r == nil {
		return sheet
	}
	a.recovered("the incremental analysis of "+snap.URI, r, stack)
	a.dropCache(snap.URI)
	return analysis.AnalyzeSheetText(name, snap.Text, a.cache(snap.URI))
}

// gcResumeAfter is how long the collector stays paused after a first
// analysis when no other analysis comes (resumeGCLater).
const gcResumeAfter = 2 * time.Second

// resumeGCLater ends a first analysis's collector pause at the next
// analysis, or after gcResumeAfter, whichever comes first: the collection
// that comes back marks the whole new heap, and ending the pause at once
// put it on the publishing of the analysis's diagnostics (its assists) or
// on the hovers that follow; an edit's analysis has the time to spare.
// Hovers and the like allocate little meanwhile, and the memory limit
// bounds the heap all the same.
func (a *Analyzed) resumeGCLater(resume func()) {
	once := sync.OnceFunc(resume)
	a.mu.Lock()
	a.resumes = append(a.resumes, once)
	a.mu.Unlock()
	time.AfterFunc(gcResumeAfter, once)
}

// resumeGC ends the pauses resumeGCLater keeps.
func (a *Analyzed) resumeGC() {
	a.mu.Lock()
	resumes := a.resumes
	a.resumes = nil
	a.mu.Unlock()
	for _, resume := range resumes {
		resume()
	}
}

// pauseGCMin is the smallest sheet (in bytes) whose first analysis runs
// with the collector paused (pauseGC).
const pauseGCMin = 32 << 10

// gcPause counts the analyses under way with the collector paused, and
// keeps the GC percent to restore after the last.
var gcPause struct {
	mu      sync.Mutex
	n       int
	percent int
}

// pauseGC turns the garbage collector off until resume is called, unless
// the process has no memory limit (debug.SetMemoryLimit), which then still
// bounds the heap: the collector runs when the heap reaches it. It is for
// a sheet's first analysis, which keeps most of what it allocates (at
// 50,000 lines the trees, values and caches it keeps are three quarters
// of it): the collections on the way, each marking the growing live heap,
// found little to free, and the heap at the end is no larger without
// them. Paused analyses nest: the collector comes back after the last.
func pauseGC() (resume func()) {
	gcPause.mu.Lock()
	defer gcPause.mu.Unlock()
	if gcPause.n == 0 {
		if debug.SetMemoryLimit(-1) == math.MaxInt64 {
			return func() {}
		}
		gcPause.percent = debug.SetGCPercent(-1)
	}
	gcPause.n++
	return func() {
		gcPause.mu.Lock()
		defer gcPause.mu.Unlock()
		if gcPause.n--; gcPause.n == 0 {
			debug.SetGCPercent(gcPause.percent)
		}
	}
}

// catch runs fn and returns what it panicked with, and where.
func catch(fn func()) (r any, stack []byte) {
	defer func() {
		if r = recover(); r != nil {
			stack = debug.Stack()
		}
	}()
	fn()
	return nil, nil
}

func (a *Analyzed) reportPanicsTo(report func(where string, r any, stack []byte)) {
	a.mu.Lock()
	a.report = report
	a.mu.Unlock()
}

func (a *Analyzed) recovered(where string, r any, stack []byte) {
	a.mu.Lock()
	report := a.report
	a.mu.Unlock()
	if report != nil {
		report(where, r, stack)
	}
}

// dropCache forgets what was kept of a document's earlier versions.
func (a *Analyzed) dropCache(uri string) {
	a.mu.Lock()
	delete(a.caches, uri)
	a.mu.Unlock()
}

// host is the analysis of a host-file snapshot, nil for sheets and unknown kinds.
func (a *Analyzed) host(ctx context.Context, snap *Snapshot) *analysis.Host {
	switch snap.Kind {
	case KindMLIR, KindCpp, KindPython:
	default:
		return nil
	}
	v, err := snap.MemoContext(ctx, hostKey{}, func() any {
		return analysis.AnalyzeHostCode(filename(snap), []byte(snap.Text), a.code(context.Background(), snap))
	})
	if err != nil {
		return nil
	}
	return v.(*analysis.Host)
}

// code is the CuTe code of a host-file snapshot (nil when it has none, and
// for sheets and unknown kinds): the read that host's analysis shares, memoized
// apart from it so that what needs values only (inlay hints) does not wait for
// the file's findings.
func (a *Analyzed) code(ctx context.Context, snap *Snapshot) *analysis.Code {
	switch snap.Kind {
	case KindMLIR, KindCpp, KindPython:
	default:
		return nil
	}
	v, err := snap.MemoContext(ctx, codeKey{}, func() any {
		return analysis.ReadCode(analysis.LanguageOf(filename(snap)), []byte(snap.Text))
	})
	if err != nil {
		return nil
	}
	return v.(*analysis.Code)
}
