package analysis

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"maps"
	"runtime"
	"slices"
	"sort"
	"sync"
	"unsafe"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/internal/editdist"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Sheet is the analysis of one layout sheet (.cute file): every statement
// evaluated in order, the names it binds, and the findings.
type Sheet struct {
	File     *grammar.File
	Src      []byte
	Results  []Result           // one per statement, in order
	Symbols  []*Symbol          // every binding, in order
	Names    map[string]*Symbol // the last binding of each name
	Findings []Finding
	Reused   int // statements whose results came from the cache

	// reads are the bindings the names of the statements read, statement
	// by statement in the order of eachName (nil where a name is unbound):
	// statement i's are reads[readStart[i]:readStart[i+1]]. The names' nodes
	// are found from them on demand (Ref, Refs, Uses): an analysis after an
	// edit resolves names without walking the trees.
	reads     []*Symbol
	readStart []int32
	refsOnce  sync.Once
	refs      map[*grammar.Name]*Symbol
	// useCount is how many names read each symbol (by Symbol.index): the
	// symbols of the statements before an edit are shared with the
	// analysis before it, and counted by each.
	useCount []int32
	// found are the findings in the order the statements made them
	// (Findings is them sorted): statement i's are found[foundStart[i]:
	// foundStart[i+1]].
	found      []Finding
	foundStart []int32

	depKeys []uint64   // scratch: the keys of a statement's dependencies
	deps    []*Symbol  // scratch: a statement's dependencies
	names   []nameUse  // scratch: the names a statement reads
	sites   []CallSite // scratch: the calls of a statement (evalStmt)
}

// Result is what one statement evaluated to: Results[i] is statement
// File.Statements[i]'s (the statement is not kept here again: 16 bytes a
// statement).
type Result struct {
	Value layout.Value // the binding's or expression's value; nil on failure or for asserts
	Err   error        // the statement's failure, if any
}

// Symbol is one binding of a sheet name: where it is bound and where it is read.
// Def's positions are relative to its statement (File.Range(Stmt, ...)
// places them).
type Symbol struct {
	Name  string
	Def   *grammar.Binding
	Stmt  int // the binding's statement index
	Line  int // the line the binding starts on
	Value layout.Value
	Err   error
	key   uint64 // the cache key of its statement: dependents include it in theirs
	index int    // its index in Sheet.Symbols
	// earlier is the binding of the same name this one replaces (nil for
	// the first): EnvAt walks these instead of rebuilding a scope.
	earlier *Symbol
}

// scopeEnv resolves names to the bindings evaluated so far.
type scopeEnv map[string]*Symbol

func (e scopeEnv) Lookup(name string) (layout.Value, bool, error) {
	s, ok := e[name]
	if !ok {
		return nil, false, nil
	}
	return s.Value, true, s.Err
}

// AnalyzeSheet parses and evaluates a sheet.
func AnalyzeSheet(filename string, src []byte) *Sheet {
	return AnalyzeSheetCached(filename, src, nil)
}

// AnalyzeSheetCached is AnalyzeSheet reusing the results in cache (nil for
// none) of statements that have not changed since it was last used.
func AnalyzeSheetCached(filename string, src []byte, cache *Cache) *Sheet {
	if cache == nil {
		f, _ := grammar.ParseFile(filename, src)
		return AnalyzeFile(f, src, nil)
	}
	f, _ := grammar.ParseFileCached(filename, src, cache.parsed)
	return AnalyzeFile(f, src, cache)
}

// AnalyzeSheetText is AnalyzeSheetCached of a text held as a string (an
// editor's document), read in place: the trees of a first parse keep
// pieces of text itself (grammar.ParseTextCached) and the sheet's Src is
// text's own memory, so an open sheet costs one copy of its text, not
// three, and an edit copies none.
func AnalyzeSheetText(filename, text string, cache *Cache) *Sheet {
	src := textBytes(text)
	if cache == nil {
		f, _ := grammar.ParseTextCached(filename, text, nil)
		return AnalyzeFile(f, src, nil)
	}
	f, _ := grammar.ParseTextCached(filename, text, cache.parsed)
	return AnalyzeFile(f, src, cache)
}

// textBytes is text as a byte slice sharing its memory. The analysis of a
// sheet reads its source and never writes it (nor appends to it: the
// slice's capacity is its length).
func textBytes(text string) []byte {
	return unsafe.Slice(unsafe.StringData(text), len(text))
}

// AnalyzeFile evaluates a parsed sheet; src is the text it was parsed from.
func AnalyzeFile(f *grammar.File, src []byte, cache *Cache) *Sheet {
	n := len(f.Statements)
	s := &Sheet{File: f, Src: src,
		Results: make([]Result, 0, n), Symbols: make([]*Symbol, 0, n), useCount: make([]int32, 0, n),
		reads: make([]*Symbol, 0, n/2+16), readStart: make([]int32, 0, n+1), foundStart: make([]int32, 0, n+1)}
	bound := &boundNames{cache: cache}
	// notes[i-from] is where the cache keeps what it knows of statement i
	// with the statement's tree.
	var notes *grammar.NoteList
	from := 0
	if cache != nil {
		cache.begin(n)
		defer cache.end()
		if prev := cache.last; prev != nil {
			// An edit finds about as many as the analysis before it:
			// room for them, rather than growing the list from the prefix's.
			s.found = make([]Finding, 0, len(prev.found)+len(prev.found)/8+8)
		}
		from = s.takePrefix(cache, bound)
		if list, ok := cache.parsed.NoteList(f, from); ok {
			notes = &list
		}
	}
	if s.Names == nil {
		s.Names = make(map[string]*Symbol, n)
	}
	// The names bound so far are the scope of the next statement: the map
	// of the last binding of each name, filled in as the analysis goes.
	scope := scopeEnv(s.Names)
	bound.scope = scope
	// A first analysis of a large sheet evaluates its statements on every
	// core, as the bindings they read allow (evalParallel), while the loop
	// below takes their results in order.
	var pre *parallelEval
	if from == 0 && (cache == nil || cache.last == nil) && n >= parallelEvalMin && runtime.GOMAXPROCS(0) >= parallelEvalProcs {
		pre = evalParallel(f, src)
	}
	bindings := 0
	for _, st := range f.Statements[from:] {
		if _, ok := st.(*grammar.Binding); ok {
			bindings++
		}
	}
	if cache == nil {
		bound.names, bound.masks = make([]string, 0, bindings), make([]uint64, 0, bindings)
	}
	// held are the parse's notes of the statements from the latest
	// multiple of touchAhead on (see readNotes).
	var held [touchAhead]grammar.Note
	for i := from; i < n; i++ {
		st := f.Statements[i]
		if (i-from)%touchAhead == 0 {
			if n >= touchAheadMin {
				touchNames(scope, f.Statements[i:min(n, i+touchAhead)])
			}
			if notes != nil {
				readNotes(held[:min(n-i, touchAhead)], notes, i-from)
			}
		}
		s.readStart = append(s.readStart, int32(len(s.reads)))
		s.foundStart = append(s.foundStart, int32(len(s.found)))
		_, bad := st.(*grammar.BadStmt)
		base := f.Base(i)
		var note *stmtNote
		var at grammar.Position
		if cache != nil && !bad {
			var h *grammar.Note
			if notes != nil {
				h = &held[(i-from)%touchAhead]
			}
			note, at = cache.note(h, f, i, src)
		}
		deps := s.resolveUses(st, note, scope)
		var r Result
		var key uint64
		var kept bool // the statement's tree kept its latest result
		if !bad {
			var res stmtResult
			var hit bool
			var p *stmtResult
			if pre != nil {
				p = pre.result(i)
			}
			key, res, hit, kept = s.evalStatement(st, note, at, scope, deps, cache, p, i)
			if hit {
				s.Reused++
			}
			// The result's ranges are relative to the statement: placed
			// here, in the file, as it is now (the cache keeps them
			// relative, so that a statement that moved is not evaluated
			// again).
			r.Value, r.Err = res.value, placeError(res.err, base)
			s.found = reserve(s.found, len(res.hints)+len(res.calls), i, n)
			s.found = appendPlaced(s.found, res.hints, res.hintsAt, base)
			for _, c := range res.calls {
				c.Finding = placeFinding(c.Finding, base)
				s.found = append(s.found, s.resolveCall(c, scope))
			}
		}
		switch st := st.(type) {
		case *grammar.BadStmt:
			s.found = append(s.found, syntaxFinding(base.Error(st.Err)))
		case *grammar.Binding:
			var name string
			if note != nil {
				name = note.bound // the same, without reading the tree
			} else {
				name = st.Name.Name
			}
			prev := scope[name]
			if prev != nil {
				s.found = append(s.found, s.rebindingFindings(prev, s.useCount[prev.index], i, st, deps)...)
			}
			// Each symbol is an allocation of its own: a later analysis
			// shares some of them (takePrefix, keptSymbol), and one
			// allocation for all would keep the rest, and the trees they
			// point at, alive.
			line := base.Line + int(st.Range.Pos.Line)
			sym := s.keptSymbol(cache, kept, st, i, line, key, r.Err, prev)
			if sym == nil {
				sym = &Symbol{Name: name, Def: st, Stmt: i, Line: line, Value: r.Value, Err: r.Err, key: key, index: len(s.Symbols), earlier: prev}
			}
			if prev == nil {
				bound.add(sym.Name)
			}
			if cache != nil {
				cache.seeBound(note)
			}
			s.Symbols = append(s.Symbols, sym)
			s.useCount = append(s.useCount, 0)
			scope[sym.Name] = sym
		}
		if r.Err != nil {
			if f, ok := evalFinding(r.Err, base.Range(st.Span()), src, bound); ok {
				s.found = append(s.found, f)
			}
		}
		s.Results = append(s.Results, r)
	}
	s.readStart = append(s.readStart, int32(len(s.reads)))
	s.foundStart = append(s.foundStart, int32(len(s.found)))
	if cache != nil {
		cache.finish(s, bound.count)
	}
	// The findings come in the order of the statements, mostly in order
	// of place already (a rebinding's finding points back): then they are
	// shared with found, which nothing changes, rather than copied and
	// sorted.
	if slices.IsSortedFunc(s.found, byOffset) {
		s.Findings = Unsuppressed(src, s.found[:len(s.found):len(s.found)])
		return s
	}
	s.Findings = Unsuppressed(src, slices.Clone(s.found))
	slices.SortStableFunc(s.Findings, byOffset)
	return s
}

// touchAhead is how many statements' bound names touchNames looks up at
// a time, and touchAheadMin the fewest statements a sheet has for it: the
// scope of fewer names (under half a megabyte) stays in the caches of a
// core, and the look-ups ahead would be work for nothing.
const (
	touchAhead    = 64
	touchAheadMin = 16384
)

// touchNames looks up in scope the names stmts bind, ahead of the look-ups
// to come, and forgets the answers. The scope of a long sheet (a map of a
// name a binding) is larger than the processor's caches, and the look-up
// of each name bound, for the binding it replaces, waited for memory
// between the evaluations of two statements: 195 ns a line at 200,000
// lines, 20 at 5,000 (BenchmarkPeerOpenPerLine/analysis, in a profile).
// Looked up a run of statements at a time, with nothing else between, the
// waits overlap (80 ns a line at 200,000), and the names' places in the
// map are in the caches for the look-up and the store of each binding.
func touchNames(scope scopeEnv, stmts []grammar.Stmt) {
	for _, st := range stmts {
		if b, ok := st.(*grammar.Binding); ok {
			_ = scope[b.Name.Name]
		}
	}
}

// readNotes reads into dst the notes of notes from the k-th on. Each is
// read from the statement's entry in the parse cache, which a long sheet's
// parse has long left behind in memory when the analysis comes to it: read
// a run at a time, with nothing else between, the waits for memory overlap
// (as touchNames's do), where one at a time, as each statement came, they
// were 120 ns a line at 200,000 lines, and 15 so (profiles of 16 runs of
// BenchmarkPeerOpenPerLine/analysis: NoteList.At 0.38 s, then 0.05 s).
func readNotes(dst []grammar.Note, notes *grammar.NoteList, k int) {
	for j := range dst {
		dst[j] = notes.At(k + j)
	}
}

// byOffset orders findings by where they start.
func byOffset(a, b Finding) int { return int(a.Range.Pos.Offset - b.Range.Pos.Offset) }

// takePrefix takes over from the cache's latest analysis the statements it
// shares with s at the start of the sheet, the same trees over the same
// text: the analysis of each depends on the statements before it alone, so
// their results, bindings, reads and findings are the same. It returns how
// many it took, sets up the scope (s.Names) after them, and counts in bound
// the names they bind.
func (s *Sheet) takePrefix(cache *Cache, bound *boundNames) int {
	prev := cache.last
	if prev == nil || cache.lastEpoch != cache.epoch {
		// The universe of names no longer has all of prev's (trimUniverse).
		return 0
	}
	// A statement's tree is the same wherever it is (its positions are
	// relative to it): the prefix ends at the first one that changed or
	// moved.
	old, cur := prev.File.Statements, s.File.Statements
	p := 0
	for p < len(old) && p < len(cur) && old[p] == cur[p] && prev.File.Base(p) == s.File.Base(p) {
		p++
	}
	if p == 0 {
		return 0
	}
	if end := int(s.File.StatementRange(p - 1).End.Offset); end > len(s.Src) || end > len(prev.Src) || !bytes.Equal(s.Src[:end], prev.Src[:end]) {
		return 0
	}
	q := sort.Search(len(prev.Symbols), func(k int) bool { return prev.Symbols[k].Stmt >= p })
	s.Results = append(s.Results, prev.Results[:p]...)
	s.Symbols = append(s.Symbols, prev.Symbols[:q]...)
	s.reads = append(s.reads, prev.reads[:prev.readStart[p]]...)
	s.readStart = append(s.readStart, prev.readStart[:p]...)
	s.found = append(s.found, prev.found[:prev.foundStart[p]]...)
	s.foundStart = append(s.foundStart, prev.foundStart[:p]...)
	s.useCount = s.useCount[:q]
	for _, r := range s.reads {
		if r != nil {
			s.useCount[r.index]++
		}
	}
	for _, sym := range s.Symbols {
		if sym.earlier == nil {
			bound.count++
		}
	}
	for _, st := range cur[:p] {
		if _, bad := st.(*grammar.BadStmt); !bad {
			s.Reused++
		}
	}
	// The scope after the prefix: the prefix's bindings in order, or, when
	// fewer come after the prefix, prev's scope with those undone, latest
	// first.
	if q <= len(prev.Symbols)-q {
		s.Names = make(map[string]*Symbol, len(cur))
		for _, sym := range s.Symbols {
			s.Names[sym.Name] = sym
		}
		return p
	}
	s.Names = maps.Clone(prev.Names)
	for k := len(prev.Symbols) - 1; k >= q; k-- {
		sym := prev.Symbols[k]
		if sym.earlier != nil {
			s.Names[sym.Name] = sym.earlier
		} else {
			delete(s.Names, sym.Name)
		}
	}
	return p
}

// resolveUses links each name a statement reads to the binding in scope
// before the statement runs (a binding's right-hand side sees the earlier
// binding of its own name), appending them to s.reads. note is the
// statement's from the cache, nil to walk its tree.
// The slice returned is valid until the next call.
func (s *Sheet) resolveUses(st grammar.Stmt, note *stmtNote, scope scopeEnv) (deps []*Symbol) {
	var uses []nameUse
	if note != nil {
		uses = note.usesOf()
	} else {
		uses = s.names[:0]
		eachName(st, func(n *grammar.Name, unboundSkipped bool) {
			uses = append(uses, nameUse{n.Name, unboundSkipped})
		})
		s.names = uses
	}
	deps = s.deps[:0]
	s.reads = reserve(s.reads, len(uses), len(s.readStart)-1, len(s.File.Statements))
	for _, u := range uses {
		sym := scope[u.name]
		s.reads = append(s.reads, sym)
		if sym != nil {
			s.useCount[sym.index]++
			deps = append(deps, sym)
		}
	}
	s.deps = deps
	return deps
}

// evalStatement evaluates a statement, or takes its result from cache when
// neither its text nor the bindings it reads changed. key is the statement's
// cache key (the key of the symbol it binds); kept reports that the result
// is the one its tree had last (stmtNote.result).
// note is what cache knows of the statement (nil without a cache), at
// where the statement starts. The result's ranges are relative to the
// statement (AnalyzeFile places them). pre is the statement's result
// evaluated already (evalParallel), nil when it is not.
// i is the statement's index.
func (s *Sheet) evalStatement(st grammar.Stmt, note *stmtNote, at grammar.Position, scope scopeEnv, deps []*Symbol, cache *Cache, pre *stmtResult, i int) (key uint64, r stmtResult, hit, kept bool) {
	if cache != nil {
		depKeys := s.depKeys[:0]
		for _, d := range deps {
			depKeys = append(depKeys, d.key)
		}
		s.depKeys = depKeys
		// The result this tree had last, if what it reads is the same;
		// else the result of any statement of the same text reading the
		// same.
		if e := note.result; e != nil && e.col == at.Column && slices.Equal(e.deps, depKeys) {
			return e.key, cache.take(e), true, true
		}
		key = cache.statementKey(maphash.String(cache.seed, note.text()), int(at.Column), depKeys)
		if e, ok := cache.lookup(key, note.text(), int(at.Column), depKeys); ok {
			note.result = e
			return key, cache.take(e), true, false
		}
		defer func() {
			note.result = cache.store(note, key, note.text(), int(at.Column), append([]uint64(nil), depKeys...), r)
		}()
	}
	if pre != nil {
		r = *pre
	} else {
		r = evalStmt(st, statementText(s.File, s.Src, i), scope, &s.sites)
	}
	return key, r, false, false
}

// keptSymbol is the latest analysis's symbol for binding st, statement i
// starting on line line, when this analysis would make the same one: the
// same tree at the same place (an edit that kept the line count moves the
// statements after it by offsets alone), which kept its latest result (so
// the value that symbol holds: the analysis that made it left it as the
// tree's result), with the same key, no error (an error is placed anew)
// and the same binding of the name before it. nil otherwise. An edit then
// makes new symbols only where something changed.
func (s *Sheet) keptSymbol(cache *Cache, kept bool, st *grammar.Binding, i, line int, key uint64, err error, earlier *Symbol) *Symbol {
	if !kept || err != nil || cache == nil || cache.last == nil {
		return nil
	}
	k := len(s.Symbols)
	if k >= len(cache.last.Symbols) {
		return nil
	}
	old := cache.last.Symbols[k]
	if old.Def != st || old.Stmt != i || old.Line != line || old.key != key || old.Err != nil || old.earlier != earlier || old.index != k {
		return nil
	}
	return old
}

// reserve is list, the items of a sheet's statements before i of n, with
// room for more items, and, when it is about full, for the items of the
// statements from i on, projected from those before: grown by append, a
// slice of a long sheet's items is reallocated dozens of times on the way
// (by a quarter at a time), and a first analysis runs with the collector
// paused (lsp's pauseGC), so every array left behind adds to the process's
// peak.
func reserve[T any](list []T, more, i, n int) []T {
	if cap(list)-len(list) >= more {
		return list
	}
	have := len(list)
	want := have + more + 16
	if i >= 64 {
		want = max(want, have+have*(n-i)/i+have/16+16)
	}
	return slices.Grow(list, want-have)
}

// resolveCall is the finding of a call with its fix on the binding
// elsewhere in the sheet (callFinding.resolve), that fix's range placed
// at the binding's statement (the rest of the finding is placed already).
func (s *Sheet) resolveCall(c callFinding, scope scopeEnv) Finding {
	out := c.resolve(scope)
	if c.rebind == "" || len(out.Fixes) == len(c.Fixes) {
		return out
	}
	// resolve appended the fix, in slices of its own, as the last one.
	if sym := scope[c.rebind]; sym != nil {
		fix := &out.Fixes[len(out.Fixes)-1]
		for k := range fix.Edits {
			fix.Edits[k].Range = s.File.Range(sym.Stmt, fix.Edits[k].Range)
		}
	}
	return out
}

// evalStmt evaluates statement st (not a *grammar.BadStmt) in scope, its
// result's ranges relative to it: a function of its tree and of the
// bindings of the names it reads (eachName) alone. text is the statement's
// text (statementText; nil when not known), which its tree was parsed from.
// scratch (nil for none) is where the calls are collected, empty and
// cleared again on return: the caller's, reused from statement to
// statement, rather than a list of each statement's own.
func evalStmt(st grammar.Stmt, text []byte, scope scopeEnv, scratch *[]CallSite) (r stmtResult) {
	if scratch == nil {
		scratch = new([]CallSite)
	}
	sites := scratch
	switch st := st.(type) {
	case *grammar.Binding:
		r.value, r.err = evalSites(st.Value, scope, sites, text)
		r.hints, r.hintsAt = bindingHints(st, text)
	case *grammar.ExprStmt:
		r.value, r.err = evalSites(st.X, scope, sites, text)
	case *grammar.Assert:
		r.err = checkAssert(st, scope, sites, text)
	}
	r.calls = callFindings(*sites, scope)
	// The checks keep nothing of the sites (callFindings): cleared, the
	// scratch holds no values or trees of this statement.
	clear(*sites)
	*sites = (*sites)[:0]
	return r
}

// statementText is the text of statement i of f, a sheet of text src; nil
// when src is not the text f was parsed from.
func statementText(f *grammar.File, src []byte, i int) []byte {
	span := f.StatementRange(i)
	if span.Pos.Offset < 0 || int(span.End.Offset) > len(src) || span.Pos.Offset > span.End.Offset {
		return nil
	}
	return src[span.Pos.Offset:span.End.Offset]
}

// bindingHints is hintFindings(b) for binding b of text text (nil when not
// known), its ranges relative to at (moveFindings(hints, at) is
// hintFindings(b)). A literal is hinted on its own: its hints are a
// function of its text, wherever it is. So the hints of a binding whose
// value is a layout literal on one line come from literalHints, computed
// once per text, shared by every statement that writes it, and relative to
// where the literal is: a generated sheet writes the same few literals on
// thousands of lines.
func bindingHints(b *grammar.Binding, text []byte) (hints []Finding, at grammar.Position) {
	lit, ok := b.Value.(*grammar.Layout)
	if !ok {
		return hintFindings(b), grammar.Position{}
	}
	pos, end := lit.Range.Pos, lit.Range.End
	if pos.Line != end.Line || pos.Offset < 0 || int(end.Offset) > len(text) || pos.Offset > end.Offset {
		return hintFindings(b), grammar.Position{}
	}
	key := text[pos.Offset:end.Offset]
	literalHints.mu.Lock()
	rel, ok := literalHints.m[string(key)]
	literalHints.mu.Unlock()
	if !ok {
		rel = moveFindings(hintFindings(b), grammar.Position{Offset: -pos.Offset, Line: -pos.Line, Column: -pos.Column})
		literalHints.mu.Lock()
		if len(literalHints.m) >= literalHintsMax {
			clear(literalHints.m)
		}
		literalHints.m[string(key)] = rel
		literalHints.mu.Unlock()
	}
	if len(rel) == 0 {
		return nil, grammar.Position{}
	}
	return rel, pos
}

// literalHints are the hints of layout literals by their text, their
// ranges relative to the literal's start (Offset, Line and Column 0), at
// most literalHintsMax of them: the analyses of every sheet share them.
var literalHints = struct {
	mu sync.Mutex
	m  map[string][]Finding
}{m: map[string][]Finding{}}

const literalHintsMax = 4096

// moveFindings is fs with every range moved by d (moveFinding), in slices
// of its own; nil when fs is empty.
func moveFindings(fs []Finding, d grammar.Position) []Finding {
	if len(fs) == 0 {
		return nil
	}
	out := make([]Finding, len(fs))
	for i, f := range fs {
		out[i] = moveFinding(f, d)
	}
	return out
}

// moveFinding is f with every range moved by d (added to each position's
// Offset, Line and Column), in slices of its own. The ranges are on one
// line, or d moves no column.
func moveFinding(f Finding, d grammar.Position) Finding {
	move := func(r grammar.Range) grammar.Range {
		return grammar.Range{
			Pos: grammar.Position{Offset: r.Pos.Offset + d.Offset, Line: r.Pos.Line + d.Line, Column: r.Pos.Column + d.Column},
			End: grammar.Position{Offset: r.End.Offset + d.Offset, Line: r.End.Line + d.Line, Column: r.End.Column + d.Column},
		}
	}
	f.Range = move(f.Range)
	if f.Related != nil {
		rs := make([]Related, len(f.Related))
		for k, r := range f.Related {
			rs[k] = Related{Range: move(r.Range), Message: r.Message}
		}
		f.Related = rs
	}
	if f.Fixes != nil {
		// One array for the edits of all the fixes.
		count := 0
		for _, fix := range f.Fixes {
			count += len(fix.Edits)
		}
		fixes, edits := make([]Fix, len(f.Fixes)), make([]Edit, count)
		for k, fix := range f.Fixes {
			own := edits[:len(fix.Edits):len(fix.Edits)]
			edits = edits[len(fix.Edits):]
			for j, e := range fix.Edits {
				own[j] = Edit{Range: move(e.Range), NewText: e.NewText}
			}
			fixes[k] = Fix{Title: fix.Title, Edits: own}
		}
		f.Fixes = fixes
	}
	return f
}

// stmtResult is what evaluating a statement yields (and the cache keeps).
type stmtResult struct {
	value layout.Value
	err   error
	hints []Finding // relative to hintsAt, a position in the statement
	// hintsAt is where the hints' ranges start from in the statement
	// (bindingHints): zero but for hints shared by the literals of the
	// same text.
	hintsAt grammar.Position
	calls   []callFinding // what the calls' checks found
}

// nameUse is a name a statement reads; unboundSkipped marks a layout tag
// or a bare word its operation reads, which is no sheet name unless the
// sheet binds it.
type nameUse struct {
	name           string
	unboundSkipped bool
}

// eachName calls visit on each name statement st reads, in a fixed order
// (grammar.Inspect's): not the name a binding binds, not an operation's
// name. The order is the order of Sheet.reads.
func eachName(st grammar.Stmt, visit func(n *grammar.Name, unboundSkipped bool)) {
	var root grammar.Node = st
	if b, ok := st.(*grammar.Binding); ok {
		root = b.Value
	}
	walkNames(root, visit)
}

func walkNames(n grammar.Node, visit func(*grammar.Name, bool)) {
	switch n := n.(type) {
	case nil, *grammar.Int, *grammar.Unknown, *grammar.Underscore, *grammar.Swizzle, *grammar.Pointer, *grammar.BasisMode, *grammar.BadStmt:
	case *grammar.Name:
		visit(n, isTag(n.Name))
	case *grammar.Call:
		// The operation's name is not a sheet name, nor are the bare
		// words it reads.
		op, isOp := lookupOp(n.Fun.Name)
		walkAllNames(n.Template, visit) // select<N>(L): N is a sheet name
		for _, a := range n.Args {
			if name, ok := a.(*grammar.Name); ok {
				visit(name, isTag(name.Name) || (isOp && op.isKeyword(name.Name)))
				continue
			}
			walkNames(a, visit)
		}
	case *grammar.Tuple:
		walkAllNames(n.Elems, visit)
	case *grammar.Layout:
		walkNames(n.Shape, visit)
		walkNames(n.Stride, visit)
	case *grammar.Composed:
		walkAllNames(n.Stages, visit)
	case *grammar.Tiler:
		walkAllNames(n.Modes, visit)
	case *grammar.AngleList:
		walkAllNames(n.Modes, visit)
	case *grammar.MLIRType:
		walkNames(n.Inner, visit)
	case *grammar.Assert:
		walkNames(n.Left, visit)
		walkNames(n.Right, visit)
	case *grammar.ExprStmt:
		walkNames(n.X, visit)
	default:
		grammar.Inspect(n, func(c grammar.Node) bool {
			if c == n {
				return true
			}
			walkNames(c, visit)
			return false
		})
	}
}

func walkAllNames(ns []grammar.Node, visit func(*grammar.Name, bool)) {
	for _, n := range ns {
		walkNames(n, visit)
	}
}

// Ref is the binding a use of a name reads; nil when the name is unbound,
// is not read as a sheet name (a layout tag, an operation's keyword), or is
// not a name of the sheet's statements.
func (s *Sheet) Ref(n *grammar.Name) *Symbol { return s.Refs()[n] }

// refAt is Ref for a name of statement i.
func (s *Sheet) refAt(i int, n *grammar.Name) *Symbol {
	if i < 0 || i >= len(s.File.Statements) {
		return nil
	}
	k := s.readStart[i]
	var sym *Symbol
	eachName(s.File.Statements[i], func(m *grammar.Name, _ bool) {
		if m == n {
			sym = s.reads[k]
		}
		k++
	})
	return sym
}

// Refs maps each use of a sheet name to the binding it reads (nil when it
// is unbound); the layout tags and operations' keywords the sheet does not
// bind are not among them. It is built on the first call.
func (s *Sheet) Refs() map[*grammar.Name]*Symbol {
	s.refsOnce.Do(func() {
		refs := make(map[*grammar.Name]*Symbol, len(s.reads))
		for i, st := range s.File.Statements {
			k := s.readStart[i]
			eachName(st, func(n *grammar.Name, unboundSkipped bool) {
				if sym := s.reads[k]; sym != nil || !unboundSkipped {
					refs[n] = sym
				}
				k++
			})
		}
		s.refs = refs
	})
	return s.refs
}

// Uses are the names that read sym, in order.
func (s *Sheet) Uses(sym *Symbol) []*grammar.Name {
	var out []*grammar.Name
	s.eachUse(sym, func(_ int, n *grammar.Name) { out = append(out, n) })
	return out
}

// eachUse calls visit with each name that reads sym, in order, and the
// index of its statement.
func (s *Sheet) eachUse(sym *Symbol, visit func(stmt int, n *grammar.Name)) {
	if sym.index >= len(s.Symbols) || s.Symbols[sym.index] != sym || s.useCount[sym.index] == 0 {
		return
	}
	count := int(s.useCount[sym.index])
	for i := sym.Stmt + 1; i < len(s.File.Statements) && count > 0; i++ {
		lo, hi := s.readStart[i], s.readStart[i+1]
		reads := false
		for _, r := range s.reads[lo:hi] {
			reads = reads || r == sym
		}
		if !reads {
			continue
		}
		k := lo
		eachName(s.File.Statements[i], func(n *grammar.Name, _ bool) {
			if s.reads[k] == sym {
				visit(i, n)
				count--
			}
			k++
		})
	}
}

// rebindingFindings judges binding a name again. A sheet is a notebook:
// a binding nobody reads is a result to look at, and "A = coalesce(A)" is an
// update; but a value overwritten before anything read it is lost work, and
// a rebinding that ignores the old value changes what later lines read. A
// name starting with _ is scratch, rebound at will.
// prevUses is how many names read prev so far; st is statement i.
func (s *Sheet) rebindingFindings(prev *Symbol, prevUses int32, i int, st *grammar.Binding, deps []*Symbol) []Finding {
	name := st.Name.Name
	if name[0] == '_' {
		return nil // a scratch name: rebinding it is what it is for
	}
	f := s.File
	prevName, stName := f.Range(prev.Stmt, prev.Def.Name.Range), f.Range(i, st.Name.Range)
	if prevUses == 0 {
		return []Finding{{Range: prevName, Severity: SeverityWarning, Code: CodeUnused,
			Message: fmt.Sprintf("the value bound to %s here is never used: %s is bound again on line %d before anything reads it", name, name, f.Position(i, st.Range.Pos).Line),
			Related: []Related{{stName, "the next binding of " + name}}}}
	}
	for _, d := range deps {
		if d == prev {
			return nil
		}
	}
	return []Finding{{Range: stName, Severity: SeverityHint, Code: CodeRedefined,
		Message: fmt.Sprintf("%s is bound again: from here on %s is this value, not the one bound on line %d", name, name, prev.Line),
		Related: []Related{{prevName, "earlier binding of " + name}}}}
}

// checkAssert evaluates both sides and checks the relation.
// text is the assert's text from its start on (nil when not known).
func checkAssert(a *grammar.Assert, env Env, sites *[]CallSite, text []byte) error {
	left, err := evalSites(a.Left, env, sites, text)
	if err != nil {
		return err
	}
	right, err := evalSites(a.Right, env, sites, text)
	if err != nil {
		return err
	}
	var msg string
	switch a.Op {
	case grammar.AssertIs:
		if !SameRepresentation(left, right) {
			msg = fmt.Sprintf("assert failed: %v is not %v", shown{left}, shown{right})
		}
	default:
		same, why, err := SameFunction(left, right)
		if err != nil {
			return &EvalError{Range: a.Range, Code: CodeAlgebra, Message: "cannot compare: " + err.Error(), Err: err}
		}
		if !same {
			msg = fmt.Sprintf("assert failed: %v != %v: %s", shown{left}, shown{right}, why)
		}
	}
	if msg == "" {
		return nil
	}
	e := &EvalError{Range: a.Range, Code: CodeAssertFailed, Message: msg,
		Related: []Related{{a.Left.Span(), fmt.Sprintf("left side: %v", shown{left})}, {a.Right.Span(), fmt.Sprintf("right side: %v", shown{right})}}}
	if text, ok := editText(left, false); ok {
		e.Fixes = []Fix{{Title: "Update the expected value to " + Show(left, ShowDetailBytes), Edits: []Edit{{a.Right.Span(), text}}}}
	}
	return e
}

func syntaxFinding(e *grammar.Error) Finding {
	f := Finding{Range: e.Range, Severity: SeverityError, Code: CodeSyntax, Message: e.Message}
	syntaxFixes(&f, e)
	return f
}

// evalFinding renders an evaluation error; a use of a failed name is not
// reported again (ok is false).
// names are the sheet names bound so far (nil outside a sheet).
func evalFinding(err error, at grammar.Range, src []byte, names *boundNames) (Finding, bool) {
	if errors.Is(err, errNoValue) {
		return Finding{}, false
	}
	var ee *EvalError
	if errors.As(err, &ee) {
		sev := SeverityError
		if ee.Code == CodeUnknownValue {
			sev = SeverityInfo
		}
		f := Finding{Range: ee.Range, Severity: sev, Code: ee.Code, Message: CapMessage(ee.Message), Related: ee.Related, Fixes: ee.Fixes}
		switch ee.Code {
		case CodeUndefined:
			// A misspelt layout tag (LayoutRigth) is read as a name too.
			if best, ok := names.closest(string(src[ee.Range.Pos.Offset:ee.Range.End.Offset])); ok {
				suggestName(&f, ee.Range, best)
			}
		case CodeUnknownOp:
			var names []string
			for _, op := range Ops() {
				names = append(names, op.Name)
			}
			nameFixes(&f, ee.Range, string(src[ee.Range.Pos.Offset:ee.Range.End.Offset]), names)
		}
		return f, true
	}
	var pe *grammar.Error
	if errors.As(err, &pe) {
		return syntaxFinding(pe), true
	}
	return Finding{Range: at, Severity: SeverityError, Code: CodeAlgebra, Message: CapMessage(err.Error())}, true
}

// boundNames are the names a sheet has bound so far, to suggest one (or a
// layout tag) for a name nobody binds; nil outside a sheet. The suggestion depends on the set of names alone, so
// the cache keeps it for as long as the set is the same: a sheet with a
// few undefined names and thousands of bindings would otherwise compare
// each with every binding on every keystroke.
type boundNames struct {
	names []string
	masks []uint64 // letterMask of each name
	cache *Cache
	// scope holds the names bound so far (with a cache, which finds the
	// candidates near a name among all it has seen bound: Cache.nearOf).
	scope scopeEnv
	count int // how many names are bound
}

// add records a name bound for the first time.
func (b *boundNames) add(name string) {
	b.count++
	if b.cache != nil {
		return
	}
	b.names = append(b.names, name)
	b.masks = append(b.masks, letterMask(name))
}

// tagNames are the layout tags' names, to suggest one for a misspelt tag.
var tagNames = func() []string {
	out := make([]string, 0, len(tags))
	for t := range tags {
		out = append(out, t)
	}
	return out
}()

// closest is the bound name or layout tag closest to name, if one is close
// enough.
func (b *boundNames) closest(name string) (string, bool) {
	best, ok := closest(name, tagNames)
	if b == nil {
		return best, ok
	}
	if b.cache == nil {
		return closestIn(name, b.names, b.masks, best, ok)
	}
	// The near names come by distance, then in byte order, as closestIn
	// ranks them: the first bound so far is the best bound name.
	for _, c := range b.cache.nearOf(name, b.scope) {
		if b.scope[c.name] == nil {
			continue
		}
		if !ok {
			return c.name, true
		}
		if d := editdist.Within(name, best, len(name)/2+1); c.dist < d || (c.dist == d && c.name < best) {
			return c.name, true
		}
		break
	}
	return best, ok
}
