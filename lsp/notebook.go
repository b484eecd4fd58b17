package lsp

import (
	"context"
	"strings"
	"sync"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/source"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Jupyter notebooks. A notebook's code cells are one Python program, run
// in cell order: a name bound in a cell is seen by the cells after it. Each
// cell is a text document of its own (a vscode-notebook-cell: URI, its
// text from the client alone, never read from disk), kept in the store like
// any other; what the server adds is which cells make a notebook, in which
// order. Clients tell that in one of two ways:
//
//   - Notebook document sync (LSP 3.17): the server advertises
//     notebookDocumentSync for "jupyter-notebook" notebooks with Python
//     cells, and notebookDocument/didOpen, didChange and didClose give the
//     cells, their order and their text.
//   - A client without it opens each cell with textDocument/didOpen, under
//     a URI vscode-notebook-cell:PATH#FRAGMENT. The cells of one PATH are
//     one notebook, in the order they were opened: the fragment is the
//     client's own handle for a cell and says nothing of its place, and
//     editors open a notebook's cells top to bottom.
//
// Hover, inlay hints and pictures (cute.picture, hover's link) on a cell
// read the analysis of the joined program
// (source.JoinCells of the notebook's Python cells), the cell's positions
// shifted by the line the cell starts on there; each cell keeps its bytes
// and lines in the joined text, so a position moves by that line offset
// alone. The joined program is made again when any cell changed, so an
// edit in a cell is seen by the cells after it; the server then asks a
// client that supports it to refresh its inlay hints. Diagnostics, code
// actions (quick fixes and refactors) and go to definition read the joined
// program too:
// a cell's findings are those of the joined analysis that start in it
// (so a call reading names bound in earlier cells is checked with their
// values), and a definition may be in an earlier cell. An edit in a cell
// schedules the diagnostics of the cells after it, and asks a pulling
// client to pull again.

// cellScheme is the URI scheme of VS Code's notebook cells.
const cellScheme = "vscode-notebook-cell:"

// jupyterNotebook is the notebook type the server syncs.
const jupyterNotebook = "jupyter-notebook"

// notebookSync is the notebookDocumentSync capability: Jupyter notebooks'
// Python cells.
func notebookSync() protocol.NotebookDocumentSync {
	return &protocol.NotebookDocumentSyncOptions{
		NotebookSelector: []protocol.NotebookSelector{&protocol.NotebookDocumentFilterWithNotebook{
			Notebook: protocol.String(jupyterNotebook),
			Cells:    []protocol.NotebookCellLanguage{{Language: "python"}},
		}},
	}
}

func init() {
	notificationHandlers[protocol.MethodNotebookDocumentDidOpen] = didOpenNotebook
	notificationHandlers[protocol.MethodNotebookDocumentDidChange] = didChangeNotebook
	notificationHandlers[protocol.MethodNotebookDocumentDidSave] = func(context.Context, *Server, []byte) error { return nil }
	notificationHandlers[protocol.MethodNotebookDocumentDidClose] = didCloseNotebook
}

// notebookSet holds the open notebooks. Its zero value is empty.
type notebookSet struct {
	mu sync.Mutex
	// byURI: a synced notebook by its URI, a notebook of cells opened one
	// by one by its cells' URI without the fragment.
	byURI map[string]*notebook
	// ofCell is the notebook of each cell URI.
	ofCell map[string]*notebook
}

// notebook is one open notebook: its cells' URIs in order.
type notebook struct {
	uri    string
	synced bool // by notebook document sync; else cells opened one by one
	cells  []notebookCell
	joined *joinedNotebook // the latest joined program, made on demand
}

type notebookCell struct {
	uri  string
	code bool // a code cell (markup cells are no part of the program)
}

// joinedNotebook is a notebook's Python cells joined into one program.
type joinedNotebook struct {
	from  []*Snapshot // the cells' snapshots it was joined from, in order
	snap  *Snapshot   // the joined program
	lines []int       // the line each cell starts on in snap
	bytes []int       // the byte offset where each cell starts in snap
}

// cellView is one cell seen in its notebook's joined program.
type cellView struct {
	joined   *Snapshot
	lineBase int // the line of the joined program where the cell starts
	byteBase int // its byte offset there
	lines    int // how many lines the cell has
	size     int // how many bytes
	// cells are the notebook's code cells in the joined program, in order
	// (where go to definition finds the cell of a binding).
	cells []joinedCell
}

// joinedCell is a code cell of the joined program: its URI and where it starts.
type joinedCell struct {
	uri                string
	lineBase, byteBase int
	snap               *Snapshot
}

func (ns *notebookSet) init() {
	if ns.byURI == nil {
		ns.byURI = map[string]*notebook{}
		ns.ofCell = map[string]*notebook{}
	}
}

// notebookOfCell is the notebook a cell opened on its own belongs to: its
// URI without the fragment; "" for a URI that is not a notebook cell's.
func notebookOfCell(uri string) string {
	if len(uri) < len(cellScheme) || !strings.EqualFold(uri[:len(cellScheme)], cellScheme) {
		return ""
	}
	nb, _, _ := strings.Cut(uri, "#")
	return nb
}

// cellOpened takes a cell opened with textDocument/didOpen into the
// notebook of its path, after the cells opened before it.
func (ns *notebookSet) cellOpened(uri string) {
	key := notebookOfCell(uri)
	if key == "" {
		return
	}
	ns.mu.Lock()
	defer ns.mu.Unlock()
	ns.init()
	if _, ok := ns.ofCell[uri]; ok {
		return // a synced notebook's cell, or opened twice
	}
	nb := ns.byURI[key]
	if nb == nil || nb.synced {
		nb = &notebook{uri: key}
		ns.byURI[key] = nb
	}
	nb.cells = append(nb.cells, notebookCell{uri: uri, code: true})
	nb.joined = nil
	ns.ofCell[uri] = nb
}

// cellClosed drops a cell closed with textDocument/didClose from its
// notebook, and the notebook with its last cell.
// It returns the cells that came after it (their program changed).
func (ns *notebookSet) cellClosed(uri string) (after []string) {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	nb, ok := ns.ofCell[uri]
	if !ok || nb.synced {
		return nil
	}
	for i, c := range nb.cells {
		if c.uri == uri {
			after = nb.uris(i + 1)
			break
		}
	}
	delete(ns.ofCell, uri)
	nb.remove(uri)
	if len(nb.cells) == 0 {
		delete(ns.byURI, nb.uri)
	}
	return after
}

func (nb *notebook) remove(uri string) {
	for i, c := range nb.cells {
		if c.uri == uri {
			nb.cells = append(nb.cells[:i], nb.cells[i+1:]...)
			break
		}
	}
	nb.joined = nil
}

// cellChanged analyzes the cells after a changed one again and asks the
// client to show their inlay hints and diagnostics again (their values and
// findings may have changed with it).
func (ns *notebookSet) cellChanged(s *Server, uri string) {
	s.cellsChanged(ns.cellsAfter(uri))
}

// cellsAfter are the URIs of the cells after uri in its notebook.
func (ns *notebookSet) cellsAfter(uri string) []string {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	nb, ok := ns.ofCell[uri]
	if !ok {
		return nil
	}
	for i, c := range nb.cells {
		if c.uri == uri {
			return nb.uris(i + 1)
		}
	}
	return nil
}

// uris are the URIs of the notebook's cells from the i-th on.
func (nb *notebook) uris(from int) []string {
	var out []string
	for _, c := range nb.cells[from:] {
		out = append(out, c.uri)
	}
	return out
}

// cellsChanged schedules the diagnostics of cells whose program changed
// (their own text did not) and asks the client to refresh what it shows
// of them.
func (s *Server) cellsChanged(uris []string) {
	if len(uris) == 0 {
		return
	}
	for _, u := range uris {
		s.diags.schedule(u, false)
	}
	s.refreshInlayHintsLater()
	s.refreshDiagnosticsLater()
}

// refreshDiagnosticsLater sends workspace/diagnostic/refresh to a pulling
// client that supports it, from a goroutine of its own (as
// refreshInlayHintsLater).
func (s *Server) refreshDiagnosticsLater() {
	s.mu.Lock()
	refresh := s.refreshDiagnostics
	s.mu.Unlock()
	if !refresh || s.conn == nil {
		return
	}
	s.goSafe(protocol.MethodWorkspaceDiagnosticRefresh, func() {
		if _, err := s.conn.Call(context.Background(), protocol.MethodWorkspaceDiagnosticRefresh, nil, nil); err != nil {
			s.logf("%s: %v", protocol.MethodWorkspaceDiagnosticRefresh, err)
		}
	})
}

// refreshInlayHintsLater sends workspace/inlayHint/refresh to a client
// that supports it. A request waits for its answer, which the read loop
// (running the notification that asks for it) delivers: it goes out from
// a goroutine of its own.
func (s *Server) refreshInlayHintsLater() {
	s.mu.Lock()
	refresh := s.refreshInlayHints
	s.mu.Unlock()
	if !refresh || s.conn == nil {
		return
	}
	s.goSafe(protocol.MethodWorkspaceInlayHintRefresh, func() {
		if _, err := s.conn.Call(context.Background(), protocol.MethodWorkspaceInlayHintRefresh, nil, nil); err != nil {
			s.logf("%s: %v", protocol.MethodWorkspaceInlayHintRefresh, err)
		}
	})
}

// view is snap's cell in its notebook's joined program; nil when snap is
// not a Python cell of an open notebook.
func (ns *notebookSet) view(store *Store, snap *Snapshot) *cellView {
	if snap == nil || snap.Kind != KindPython {
		return nil
	}
	ns.mu.Lock()
	defer ns.mu.Unlock()
	nb, ok := ns.ofCell[snap.URI]
	if !ok {
		return nil
	}
	// The program is joined from the cells' latest snapshots, this one
	// for the cell asked about.
	from := make([]*Snapshot, 0, len(nb.cells))
	at := -1
	for _, c := range nb.cells {
		if !c.code {
			continue
		}
		cs, ok := store.Get(c.uri)
		if c.uri == snap.URI {
			cs, ok, at = snap, true, len(from)
		}
		if ok && cs.Kind == KindPython {
			from = append(from, cs)
		}
	}
	if at < 0 {
		return nil
	}
	j := nb.joined
	if j == nil || !sameSnapshots(j.from, from) {
		j = joinNotebook(nb.uri, from)
		nb.joined = j
	}
	cells := make([]joinedCell, len(j.from))
	for i, c := range j.from {
		cells[i] = joinedCell{uri: c.URI, lineBase: j.lines[i], byteBase: j.bytes[i], snap: c}
	}
	return &cellView{joined: j.snap, lineBase: j.lines[at], byteBase: j.bytes[at], lines: snap.LineCount(), size: len(snap.Text), cells: cells}
}

func sameSnapshots(a, b []*Snapshot) bool {
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

// joinNotebook joins cells into one program (source.JoinCells).
func joinNotebook(uri string, cells []*Snapshot) *joinedNotebook {
	texts := make([]string, len(cells))
	for i, c := range cells {
		texts[i] = c.Text
	}
	text, starts := source.JoinCells(texts)
	snap := NewSnapshot(uri, 0, KindPython, text)
	j := &joinedNotebook{from: cells, snap: snap, bytes: starts, lines: make([]int, len(starts))}
	for i, off := range starts {
		j.lines[i] = snap.LineOf(off)
	}
	return j
}

// hover is hoverAt in the joined program, its range moved into the cell.
func (v *cellView) hover(ctx context.Context, a *Analyzed, enc Encoding, cfg Config, off int) *protocol.Hover {
	h := hoverAt(ctx, a, v.joined, enc, cfg, off+v.byteBase)
	if h == nil {
		return nil
	}
	if h.Range != nil {
		r, ok := v.cellRange(*h.Range)
		if !ok {
			return nil
		}
		h.Range = &r
	}
	return h
}

// inlayHints are those of the joined program inside the cell's span.
func (v *cellView) inlayHints(ctx context.Context, a *Analyzed, enc Encoding, span Span) []protocol.InlayHint {
	hints := inlayHints(ctx, a, v.joined, enc, Span{span.Start + v.byteBase, span.End + v.byteBase})
	out := hints[:0]
	for _, h := range hints {
		if p, ok := v.cellPosition(h.Position); ok {
			h.Position = p
			out = append(out, h)
		}
	}
	return out
}

// cellPosition moves a position of the joined program into the cell; ok
// is false when it lies in another cell.
func (v *cellView) cellPosition(p protocol.Position) (protocol.Position, bool) {
	line := int(p.Line) - v.lineBase
	if line < 0 || line >= v.lines {
		return p, false
	}
	p.Line = uint32(line)
	return p, true
}

func (v *cellView) cellRange(r protocol.Range) (protocol.Range, bool) {
	start, ok1 := v.cellPosition(r.Start)
	end, ok2 := v.cellPosition(r.End)
	return protocol.Range{Start: start, End: end}, ok1 && ok2
}

// didOpenNotebook opens a synced notebook and its cells' documents.
func didOpenNotebook(_ context.Context, s *Server, params []byte) error {
	var p protocol.DidOpenNotebookDocumentParams
	if err := decode(params, &p); err != nil {
		return err
	}
	nb := &notebook{uri: string(p.NotebookDocument.URI), synced: true}
	for _, c := range p.NotebookDocument.Cells {
		nb.cells = append(nb.cells, notebookCell{uri: string(c.Document), code: c.Kind == protocol.NotebookCellKindCode})
	}
	ns := &s.notebooks
	ns.mu.Lock()
	ns.init()
	if old := ns.byURI[nb.uri]; old != nil {
		ns.forget(old)
	}
	ns.byURI[nb.uri] = nb
	for _, c := range nb.cells {
		if old := ns.ofCell[c.uri]; old != nil && old != nb {
			// A cell opened on its own before its notebook was.
			old.remove(c.uri)
			if len(old.cells) == 0 {
				ns.forget(old)
			}
		}
		ns.ofCell[c.uri] = nb
	}
	ns.mu.Unlock()
	s.openCells(p.CellTextDocuments)
	return nil
}

// forget drops a notebook and its cells from the set (the caller holds mu).
func (ns *notebookSet) forget(nb *notebook) {
	for _, c := range nb.cells {
		if ns.ofCell[c.uri] == nb {
			delete(ns.ofCell, c.uri)
		}
	}
	if ns.byURI[nb.uri] == nb {
		delete(ns.byURI, nb.uri)
	}
}

func (s *Server) openCells(docs []protocol.TextDocumentItem) {
	for _, td := range docs {
		snap := s.store.Open(string(td.URI), string(td.LanguageID), td.Version, td.Text)
		s.diags.schedule(snap.URI, true)
	}
}

func (s *Server) closeCell(uri string) {
	s.store.Close(uri)
	s.diags.forget(uri)
	s.features.Closed(uri)
}

// didChangeNotebook applies a synced notebook's changes: cells added,
// removed or moved, their kinds, and their text.
func didChangeNotebook(_ context.Context, s *Server, params []byte) error {
	var p protocol.DidChangeNotebookDocumentParams
	if err := decode(params, &p); err != nil {
		return err
	}
	cells := p.Change.Cells
	if cells == nil {
		return nil
	}
	uri := string(p.NotebookDocument.URI)
	ns := &s.notebooks
	ns.mu.Lock()
	ns.init()
	nb := ns.byURI[uri]
	if nb == nil || !nb.synced {
		ns.mu.Unlock()
		s.logf("notebookDocument/didChange for %s, which is not open: ignored", uri)
		return nil
	}
	if st := cells.Structure; st != nil {
		start := min(int(st.Array.Start), len(nb.cells))
		end := min(start+int(st.Array.DeleteCount), len(nb.cells))
		added := make([]notebookCell, 0, len(st.Array.Cells))
		for _, c := range st.Array.Cells {
			added = append(added, notebookCell{uri: string(c.Document), code: c.Kind == protocol.NotebookCellKindCode})
		}
		for _, c := range nb.cells[start:end] {
			if ns.ofCell[c.uri] == nb {
				delete(ns.ofCell, c.uri)
			}
		}
		nb.cells = append(nb.cells[:start:start], append(added, nb.cells[end:]...)...)
		for _, c := range nb.cells {
			ns.ofCell[c.uri] = nb
		}
	}
	for _, c := range cells.Data {
		for i := range nb.cells {
			if nb.cells[i].uri == string(c.Document) {
				nb.cells[i].code = c.Kind == protocol.NotebookCellKindCode
			}
		}
	}
	nb.joined = nil
	all := nb.uris(0)
	ns.mu.Unlock()

	if st := cells.Structure; st != nil {
		for _, td := range st.DidClose {
			s.closeCell(string(td.URI))
		}
		s.openCells(st.DidOpen)
	}
	enc, _, _ := s.session()
	for _, c := range cells.TextContent {
		u := string(c.Document.URI)
		if _, ok := s.store.Change(u, c.Document.Version, contentChanges(c.Changes), enc); !ok {
			s.logf("notebookDocument/didChange for the cell %s, which is not open: ignored", u)
			continue
		}
		s.diags.schedule(u, false)
	}
	// Any cell's program may have changed (a cell's text, or the cells
	// before it).
	s.cellsChanged(all)
	return nil
}

// didCloseNotebook closes a synced notebook and its cells' documents.
func didCloseNotebook(_ context.Context, s *Server, params []byte) error {
	var p protocol.DidCloseNotebookDocumentParams
	if err := decode(params, &p); err != nil {
		return err
	}
	uri := string(p.NotebookDocument.URI)
	ns := &s.notebooks
	ns.mu.Lock()
	var cells []string
	if nb := ns.byURI[uri]; nb != nil && nb.synced {
		for _, c := range nb.cells {
			cells = append(cells, c.uri)
		}
		ns.forget(nb)
	}
	ns.mu.Unlock()
	for _, td := range p.CellTextDocuments {
		cells = append(cells, string(td.URI))
	}
	for _, c := range cells {
		s.closeCell(c)
	}
	return nil
}

// open reports how many notebooks and notebook cells are open (tests).
func (ns *notebookSet) open() (notebooks, cells int) {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	return len(ns.byURI), len(ns.ofCell)
}

// findings are the findings of the joined program that start in the cell,
// moved into it (their related places and fixes outside it dropped), with
// the project's configuration applied as to the cell.
func (v *cellView) findings(ctx context.Context, s *Server, cell *Snapshot) ([]analysis.Finding, error) {
	val, err := v.joined.MemoContext(ctx, analysisKey{}, func() any { return findingsOf(s.features, v.joined) })
	if err != nil {
		return nil, err
	}
	all, _ := val.([]analysis.Finding)
	var out []analysis.Finding
	for _, f := range all {
		r, ok := v.cellGrammarRange(f.Range)
		if !ok {
			continue
		}
		f.Range = r
		var related []analysis.Related
		for _, rel := range f.Related {
			if r, ok := v.cellGrammarRange(rel.Range); ok {
				rel.Range = r
				related = append(related, rel)
			}
		}
		f.Related = related
		var fixes []analysis.Fix
		for _, fix := range f.Fixes {
			if edits, ok := v.cellEdits(fix.Edits); ok {
				fix.Edits = edits
				fixes = append(fixes, fix)
			}
		}
		f.Fixes = fixes
		out = append(out, f)
	}
	return s.projectFindings(cell.URI, out), nil
}

// cellGrammarRange moves a range of the joined program into the cell; ok
// is false when it does not lie in the cell (the line break after the cell
// is the cell's end).
func (v *cellView) cellGrammarRange(r grammar.Range) (grammar.Range, bool) {
	start, end := int(r.Pos.Offset)-v.byteBase, int(r.End.Offset)-v.byteBase
	if start < 0 || end < start || end > v.size+1 {
		return r, false
	}
	move := func(p grammar.Position) grammar.Position {
		p.Offset -= int32(v.byteBase)
		p.Line -= int32(v.lineBase)
		if int(p.Offset) > v.size {
			p.Offset = int32(v.size)
		}
		return p
	}
	return grammar.Range{Pos: move(r.Pos), End: move(r.End)}, true
}

// cellEdits are a fix's edits moved into the cell; ok is false when one
// edits another cell.
func (v *cellView) cellEdits(edits []analysis.Edit) ([]analysis.Edit, bool) {
	out := make([]analysis.Edit, len(edits))
	for i, e := range edits {
		r, ok := v.cellGrammarRange(e.Range)
		if !ok {
			return nil, false
		}
		out[i] = analysis.Edit{Range: r, NewText: e.NewText}
	}
	return out, true
}

// refactors are the code's refactors at off in the joined program (so a
// value read from an earlier cell can be written as a comment), those
// whose edits lie in the cell, moved into it; snap is the cell's.
func (v *cellView) refactors(ctx context.Context, a *Analyzed, snap *Snapshot, enc Encoding, off int) []*protocol.CodeAction {
	h := a.host(ctx, v.joined)
	if h == nil {
		return nil
	}
	var rs []analysis.Refactor
	for _, r := range h.Code().Refactors(off + v.byteBase) {
		if edits, ok := v.cellEdits(r.Edits); ok {
			r.Edits = edits
			rs = append(rs, r)
		}
	}
	return refactorActions(snap, enc, rs)
}

// definitions is go to definition in the joined program: the binding may
// be in an earlier cell, given by that cell's URI.
func (v *cellView) definitions(ctx context.Context, a *Analyzed, enc Encoding, off int) protocol.LocationSlice {
	h := a.host(ctx, v.joined)
	if h == nil {
		return protocol.LocationSlice{}
	}
	r, ok := h.Code().Definition(off + v.byteBase)
	if !ok {
		return protocol.LocationSlice{}
	}
	if l, ok := v.location(enc, r); ok {
		return protocol.LocationSlice{l}
	}
	return protocol.LocationSlice{}
}

// references are the references in the joined program to the name at off,
// each in its cell.
func (v *cellView) references(ctx context.Context, a *Analyzed, enc Encoding, off int, includeDecl bool) protocol.LocationSlice {
	out := protocol.LocationSlice{}
	h := a.host(ctx, v.joined)
	if h == nil {
		return out
	}
	for _, r := range h.Code().References(off+v.byteBase, includeDecl) {
		if l, ok := v.location(enc, r); ok {
			out = append(out, l)
		}
	}
	return out
}

// location is a range of the joined program in the cell that holds it.
func (v *cellView) location(enc Encoding, r source.Range) (protocol.Location, bool) {
	for k := len(v.cells) - 1; k >= 0; k-- {
		c := v.cells[k]
		if c.byteBase <= r.Start {
			if r.End-c.byteBase > len(c.snap.Text) {
				return protocol.Location{}, false
			}
			sp := Span{Start: r.Start - c.byteBase, End: r.End - c.byteBase}
			return protocol.Location{URI: uri.URI(c.uri), Range: toRange(c.snap, enc, sp)}, true
		}
	}
	return protocol.Location{}, false
}

// diagnosticsResultID is resultID, of the joined program for a notebook
// cell (its findings change with the cells before it).
func (s *Server) diagnosticsResultID(snap *Snapshot, gen int) string {
	if cell := s.notebooks.view(s.store, snap); cell != nil {
		return hashID(textHash(cell.joined.Text)^uint64(cell.byteBase)*0x9e3779b97f4a7c15, gen)
	}
	return resultID(snap, gen)
}
