package lsp

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func init() {
	requestHandlers[protocol.MethodTextDocumentDiagnostic] = documentDiagnostic
	requestHandlers[protocol.MethodWorkspaceDiagnostic] = workspaceDiagnostic
}

// analysisKey memoizes a snapshot's findings.
type analysisKey struct{}

// findings runs (or reuses) the analysis of snap. The analysis is shared by
// every request on the snapshot, so it runs detached from any one request's
// cancellation.
func (s *Server) findings(snap *Snapshot) []analysis.Finding {
	f, _ := s.findingsContext(context.Background(), snap)
	return f
}

// findingsContext is findings for a request: it stops waiting for the
// analysis when ctx ends (the analysis goes on for the others). The
// project's configuration applies to them.
func (s *Server) findingsContext(ctx context.Context, snap *Snapshot) ([]analysis.Finding, error) {
	if cell := s.notebooks.view(s.store, snap); cell != nil {
		return cell.findings(ctx, s, snap) // notebook.go
	}
	v, err := snap.MemoContext(ctx, analysisKey{}, func() any {
		if h := s.hooks.beforeAnalysis; h != nil {
			h(snap)
		}
		return findingsOf(s.features, snap)
	})
	if err != nil {
		return nil, err
	}
	f, _ := v.([]analysis.Finding)
	return s.projectFindings(snap.URI, f), nil
}

// findingsOf is what the analysis finds in a sheet or a host file (nil in
// other documents). The slice is the analysis's own: not to be changed.
func findingsOf(a *Analyzed, snap *Snapshot) []analysis.Finding {
	if s := a.sheet(context.Background(), snap); s != nil {
		return s.Findings
	}
	if h := a.host(context.Background(), snap); h != nil {
		return h.Findings
	}
	return nil
}

// safeFindings is findings with a panic in the analysis turned into an error.
func (s *Server) safeFindings(snap *Snapshot) (findings []analysis.Finding, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.reportPanic("the analysis of "+snap.URI, r, debug.Stack())
			findings, err = nil, fmt.Errorf("internal error: %v", r)
		}
	}()
	return s.findings(snap), nil
}

// toDiagnostics converts findings to LSP diagnostics, ordered by position.
func toDiagnostics(snap *Snapshot, enc Encoding, findings []analysis.Finding) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(findings))
	for _, f := range findings {
		out = append(out, toDiagnostic(snap, enc, f))
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Range.Start, out[j].Range.Start
		return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
	})
	return out
}

// toDiagnostic is a finding as the client sees it: its range, severity,
// code and message, and its related locations in the same document. Its
// fixes are code actions (codeaction.go).
func toDiagnostic(snap *Snapshot, enc Encoding, f analysis.Finding) protocol.Diagnostic {
	d := protocol.Diagnostic{
		Range:    toRange(snap, enc, spanOf(f.Range)),
		Severity: diagnosticSeverity[f.Severity],
		Source:   protocol.NewOptional("cute-lsp"),
		Message:  protocol.String(f.Message),
	}
	if f.Code != "" {
		d.Code = protocol.String(f.Code)
	}
	for _, r := range f.Related {
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uri.URI(snap.URI), Range: toRange(snap, enc, spanOf(r.Range))},
			Message:  r.Message,
		})
	}
	return d
}

var diagnosticSeverity = map[analysis.Severity]protocol.DiagnosticSeverity{
	analysis.SeverityError:   protocol.DiagnosticSeverityError,
	analysis.SeverityWarning: protocol.DiagnosticSeverityWarning,
	analysis.SeverityInfo:    protocol.DiagnosticSeverityInformation,
	analysis.SeverityHint:    protocol.DiagnosticSeverityHint,
}

// spanOf is the byte span of an analysis range.
func spanOf(r grammar.Range) Span { return Span{int(r.Pos.Offset), int(r.End.Offset)} }

func toRange(snap *Snapshot, enc Encoding, sp Span) protocol.Range {
	return protocol.Range{Start: toPosition(snap.Position(sp.Start, enc)), End: toPosition(snap.Position(sp.End, enc))}
}

func toPosition(p Position) protocol.Position {
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
}

func fromPosition(p protocol.Position) Position {
	return Position{int(p.Line), int(p.Character)}
}

func fromRange(snap *Snapshot, enc Encoding, r protocol.Range) Span {
	a, b := snap.Offset(fromPosition(r.Start), enc), snap.Offset(fromPosition(r.End), enc)
	if b < a {
		a, b = b, a
	}
	return Span{a, b}
}

// resultID names one diagnostics report: the same text under the same
// configuration yields the same id, so a client's previousResultId can be
// answered with "unchanged".
func resultID(snap *Snapshot, gen int) string { return hashID(textHash(snap.Text), gen) }

func hashID(hash uint64, gen int) string { return fmt.Sprintf("%d.%x", gen, hash) }

func documentDiagnostic(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.DocumentDiagnosticParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc, _, gen := s.session()
	snap, err := s.document(string(p.TextDocument.URI))
	var bad *URIError
	if errors.As(err, &bad) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, bad.Error())
	}
	if snap == nil {
		return &protocol.RelatedFullDocumentDiagnosticReport{FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindFull), Items: []protocol.Diagnostic{}}}, nil
	}
	id := s.diagnosticsResultID(snap, gen)
	if p.PreviousResultID != nil && *p.PreviousResultID == id {
		return &protocol.RelatedUnchangedDocumentDiagnosticReport{UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: id}}, nil
	}
	findings, err := s.findingsContext(ctx, snap)
	if err != nil {
		return nil, err
	}
	items := toDiagnostics(snap, enc, findings)
	return &protocol.RelatedFullDocumentDiagnosticReport{FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
		Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: items}}, nil
}

// workspaceDiagnostic reports on the open sheets, then on the .cute files
// under the workspace folders that are not open, within the bounds of
// walkLimits and the rule of files.go. Each file is read, analyzed and
// reported in turn, so memory holds the reports and what diskFiles keeps,
// not every file's analysis at once; a file unchanged since the client's
// previous result is answered "unchanged" without being read.
// workspaceAnalysisBudget is how long one workspace pull spends reading
// and analyzing files on disk (VS Code pulls again every few seconds).
const workspaceAnalysisBudget = time.Second

func workspaceDiagnostic(ctx context.Context, s *Server, params []byte) (any, error) {
	var p protocol.WorkspaceDiagnosticParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	enc, _, gen := s.session()
	previous := map[string]string{}
	for _, r := range p.PreviousResultIds {
		previous[string(r.URI)] = r.Value
	}
	report := &protocol.WorkspaceDiagnosticReport{Items: []protocol.WorkspaceDocumentDiagnosticReport{}}
	unchanged := func(u, id string, version *int32) {
		report.Items = append(report.Items, &protocol.WorkspaceUnchangedDocumentDiagnosticReport{
			UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: id},
			URI:                               uri.URI(u), Version: version})
	}
	// Each sheet's analysis is waited for only while the client still
	// wants the report: a cancelled request stops at the next sheet.
	var cancelled error
	full := func(snap *Snapshot, version *int32) {
		if cancelled != nil {
			return
		}
		findings, err := s.findingsContext(ctx, snap)
		if err != nil {
			cancelled = err
			return
		}
		id := resultID(snap, gen)
		report.Items = append(report.Items, &protocol.WorkspaceFullDocumentDiagnosticReport{
			FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: toDiagnostics(snap, enc, findings)},
			URI:                          uri.URI(snap.URI), Version: version})
	}
	// Files on disk are analyzed within a time budget per pull; the rest
	// are left out of this report and come in later pulls, which answer the
	// files reported before as unchanged without analyzing them again. So
	// a first pull over a large workspace is a series of short requests, not
	// one of minutes, and each pull makes progress (at least one file).
	budget := s.workspaceBudget
	if budget == 0 {
		budget = workspaceAnalysisBudget
	}
	var analyzing time.Duration
	analyzed, deferred := 0, 0
	seen := map[string]bool{}
	for _, snap := range s.store.All() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if snap.Kind != KindSheet {
			continue
		}
		seen[snap.URI] = true
		v := snap.Version
		if id := resultID(snap, gen); previous[snap.URI] == id {
			unchanged(snap.URI, id, &v)
		} else {
			full(snap, &v)
		}
	}
	roots := s.workspaceRoots()
	cut := walkSheets(ctx, roots, s.disk.walk, func(path string) int64 {
		u := fileURI(path)
		if seen[u] {
			return 0
		}
		seen[u] = true
		real, err := readablePath(path, roots)
		if err != nil {
			return 0
		}
		if hash, ok := s.disk.unchanged(real); ok && previous[u] == hashID(hash, gen) {
			unchanged(u, previous[u], nil)
			return 0
		}
		if analyzed > 0 && analyzing >= budget {
			deferred++
			return 0
		}
		start := time.Now()
		snap, read, err := s.loadDisk(u, real)
		if err != nil {
			s.logf("workspace diagnostics: %v", err)
			return 0
		}
		full(snap, nil)
		analyzing += time.Since(start)
		analyzed++
		return read
	})
	if cancelled != nil {
		return nil, cancelled
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cut != "" {
		s.logf("workspace diagnostics stopped early (%s); the files past that point are not reported", cut)
	}
	if deferred > 0 {
		s.logf("workspace diagnostics: %d files analyzed in %v, %d left for the next pull", analyzed, analyzing.Round(time.Millisecond), deferred)
	}
	return report, nil
}

func (s *Server) workspaceRoots() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.roots...)
}

// snapshot is the latest snapshot of uri: the open document, or else the
// file on disk (version 0) where files.go allows reading it; nil when there
// is neither (why is logged).
func (s *Server) snapshot(u string) *Snapshot {
	snap, err := s.document(u)
	if err != nil {
		s.logf("not read: %v", err)
	}
	return snap
}

// document is snapshot with the reason a file is not read; a URI the
// server refuses outright is a *URIError.
func (s *Server) document(u string) (*Snapshot, error) {
	if snap, ok := s.store.Get(u); ok {
		return snap, nil
	}
	path, err := fileURIPath(u)
	if err != nil || path == "" {
		return nil, err
	}
	real, err := readablePath(path, s.workspaceRoots())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	snap, _, err := s.loadDisk(u, real)
	return snap, err
}

// loadDisk is diskFiles.load, telling the features to drop what they keep
// for the URIs whose snapshots the cache let go (unless the editor has
// opened them since).
func (s *Server) loadDisk(u, real string) (*Snapshot, int64, error) {
	snap, read, released, err := s.disk.load(u, real)
	s.releaseURIs(released)
	return snap, read, err
}

func (s *Server) releaseURIs(uris []string) {
	for _, u := range uris {
		if _, open := s.store.Get(u); !open {
			s.features.Closed(u)
		}
	}
}

// diagnosticScheduler publishes diagnostics for open documents. Each open
// document has a worker; an edit kicks it, and it analyzes the latest
// snapshot and publishes. Edits that arrive during an analysis are served
// by one more analysis after it. Where the editor sets a
// Config.DiagnosticsDelay (none by default), edits closer together than it
// are debounced: the worker waits out the delay,
// gathering further kicks, before it analyzes. An analysis under way when
// more edits arrive is followed by exactly one more.
type diagnosticScheduler struct {
	s       *Server
	mu      sync.Mutex
	workers map[string]*diagnosticWorker
	stopped bool
	wg      sync.WaitGroup
}

type diagnosticWorker struct {
	kick chan bool // true: skip the delay
	quit chan struct{}
}

func newDiagnosticScheduler(s *Server) *diagnosticScheduler {
	return &diagnosticScheduler{s: s, workers: map[string]*diagnosticWorker{}}
}

// schedule asks for diagnostics of uri; immediate skips the edit delay
// (after open, or when the configuration changed).
func (d *diagnosticScheduler) schedule(u string, immediate bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopped {
		return
	}
	w, ok := d.workers[u]
	if !ok {
		w = &diagnosticWorker{kick: make(chan bool, 1), quit: make(chan struct{})}
		d.workers[u] = w
		d.wg.Add(1)
		d.s.goSafe("the diagnostics of "+u, func() { d.run(u, w) })
	}
	select {
	case w.kick <- immediate:
	default: // a kick is already pending; it will see the newest snapshot
	}
}

// forget stops the worker of a closed document and clears its diagnostics.
func (d *diagnosticScheduler) forget(u string) {
	d.mu.Lock()
	w, ok := d.workers[u]
	delete(d.workers, u)
	stopped := d.stopped
	d.mu.Unlock()
	if ok {
		close(w.quit)
	}
	if !stopped && d.s.pushEnabled() {
		d.s.notify(protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{URI: uri.URI(u), Diagnostics: []protocol.Diagnostic{}})
	}
}

// stop ends every worker.
func (d *diagnosticScheduler) stop() {
	d.mu.Lock()
	if d.stopped {
		d.mu.Unlock()
		return
	}
	d.stopped = true
	for u, w := range d.workers {
		close(w.quit)
		delete(d.workers, u)
	}
	d.mu.Unlock()
	d.wg.Wait()
}

func (d *diagnosticScheduler) run(u string, w *diagnosticWorker) {
	defer d.wg.Done()
	var lastKick time.Time
	for {
		var immediate bool
		select {
		case <-w.quit:
			return
		case immediate = <-w.kick:
		}
		_, cfg, _ := d.s.session()
		// An edit after a quiet spell is analyzed at once; one that follows
		// another within the delay is part of a burst, and the burst is
		// analyzed once, a delay after its latest edit was noticed.
		now := time.Now()
		burst := now.Sub(lastKick) < cfg.DiagnosticsDelay
		lastKick = now
		if !immediate && burst {
			t := time.NewTimer(cfg.DiagnosticsDelay)
			select {
			case <-w.quit:
				t.Stop()
				return
			case <-t.C:
			}
		}
		// Kicks that arrived during the delay are served by this analysis.
		select {
		case <-w.kick:
		default:
		}
		snap, ok := d.s.store.Get(u)
		if !ok {
			continue
		}
		d.publishSafely(snap)
	}
}

// publishSafely is publish with a panic reported and survived: the worker
// goes on serving later edits of its document.
func (d *diagnosticScheduler) publishSafely(snap *Snapshot) {
	defer d.s.recoverPanic("the diagnostics of " + snap.URI)
	d.publish(snap)
}

func (d *diagnosticScheduler) publish(snap *Snapshot) {
	findings, err := d.s.safeFindings(snap)
	if err != nil {
		// The user sees that the analysis broke, not stale diagnostics.
		d.s.logf("%v", err)
		findings = []analysis.Finding{{Severity: analysis.SeverityError, Code: "internal-error", Message: "cute-lsp could not analyze this document: " + err.Error()}}
	}
	if !d.s.pushEnabled() {
		return
	}
	// A newer version supersedes this one before it is shown.
	if latest, ok := d.s.store.Get(snap.URI); !ok || latest != snap {
		return
	}
	enc, _, _ := d.s.session()
	// The params are written straight from the findings
	// (appendPublishDiagnostics), in a buffer about as large as the
	// latest diagnostics' size per diagnostic says.
	per := int(diagnosticBytes.Load())
	if per == 0 {
		per = firstDiagnosticBytes
	}
	params := appendPublishDiagnostics(make([]byte, 0, 256+len(findings)*(per+per/8)), snap, enc, findings)
	if len(findings) > 0 {
		diagnosticBytes.Store(int64(len(params) / len(findings)))
	}
	d.s.notifyRaw(protocol.MethodTextDocumentPublishDiagnostics, params)
	// The diagnostics are out: what the document's cache left for later
	// is done now, while the editor reads them, rather than in the next
	// edit's analysis.
	d.s.features.indexDeferred(snap.URI)
}

// firstDiagnosticBytes is about how many bytes a diagnostic takes, for the
// first diagnostics a server publishes (the peer sheet's take 230): grown
// from nothing, the buffer of a 200,000-line sheet's 9 MB was copied
// over and over, a quarter larger each time, and the room made but not
// written is not resident.
const firstDiagnosticBytes = 256

func (s *Server) pushEnabled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pushDiagnostics
}
