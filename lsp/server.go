// Package lsp is the Language Server Protocol glue of cute-lsp: transport,
// lifecycle, the document store and the translation between LSP positions
// and byte offsets. What the server knows about the language comes from
// package analysis, through Analyzed (analyzed.go), which analyzes each
// snapshot once. Each feature has its file (hover.go, codeaction.go,
// diagnostics.go, ...): its handler takes the latest snapshot of its
// document and calls the feature's function of that snapshot, which reads
// the analysis and converts it straight to go.lsp.dev/protocol types.
package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Version is reported to the client in serverInfo.
const Version = "0.1.0"

// Options configure a Server.
type Options struct {
	// Features is the analysis every feature reads; nil means NewAnalyzed().
	Features *Analyzed
	// Log receives the server's log lines; nil means os.Stderr. Stdout is the
	// protocol channel and is never written to otherwise.
	Log io.Writer
	// Config is the starting configuration; the zero value means DefaultConfig().
	Config *Config

	// hooks are the server's own tests' ways to break it on purpose.
	hooks serverHooks
}

// serverHooks run at points where the server's tests make it panic or
// wait; each is nil outside tests.
type serverHooks struct {
	// beforeAnalysis runs as the findings of a snapshot are computed.
	beforeAnalysis func(snap *Snapshot)
}

// requestFunc answers one request. params is owned by the callee.
type requestFunc func(ctx context.Context, s *Server, params []byte) (any, error)

// notificationFunc handles one notification. Its error is only logged: a
// notification has no answer, and jsonrpc2 would end the connection on it.
type notificationFunc func(ctx context.Context, s *Server, params []byte) error

var (
	requestHandlers      = map[string]requestFunc{}
	notificationHandlers = map[string]notificationFunc{}
)

// Lifecycle states.
const (
	stateNew int32 = iota
	stateInitialized
	stateShutdown
)

// Server is one language-server session on one connection.
type Server struct {
	features *Analyzed
	hooks    serverHooks
	store    *Store
	log      io.Writer
	logMu    sync.Mutex

	conn jsonrpc2.Conn
	// stream is conn's (nil before Serve): notifyRaw tells it the size of
	// the message to come.
	stream *tolerantStream
	state  atomic.Int32
	exit   chan int // receives the exit code once

	mu              sync.Mutex // guards the fields below
	enc             Encoding
	cfg             Config
	cfgGen          int
	pushDiagnostics bool
	// refreshDiagnostics: the client pulls and accepts workspace/diagnostic/refresh.
	refreshDiagnostics bool
	roots              []string
	inflight           map[jsonrpc2.ID]context.CancelFunc
	extra              map[string]requestFunc // per-server handlers (tests)

	diags *diagnosticScheduler

	// notebooks are the Jupyter notebooks open in the editor (notebook.go).
	notebooks notebookSet

	// disk keeps what was read from disk (files.go, diskcache.go).
	disk diskFiles

	// projects caches the .cute-lsp.json of each folder (project.go).
	projects projectConfigs

	// pictureLinks: the client runs hover's "Show picture" command links
	// (initializationOptions.pictureLinks).
	pictureLinks bool

	// refreshInlayHints: the client accepts workspace/inlayHint/refresh
	// (notebook.go asks for it when a cell's values may have changed).
	refreshInlayHints bool

	// workspaceBudget overrides workspaceAnalysisBudget (tests).
	workspaceBudget time.Duration

	// panicShown is set once the user has been shown that something
	// panicked; later panics go to window/logMessage and the log alone.
	panicShown atomic.Bool
}

// NewServer makes a server; Serve runs it on a connection.
func NewServer(opts Options) *Server {
	s := &Server{
		features:        opts.Features,
		hooks:           opts.hooks,
		store:           NewStore(),
		log:             opts.Log,
		exit:            make(chan int, 1),
		cfg:             DefaultConfig(),
		pushDiagnostics: true,
		inflight:        map[jsonrpc2.ID]context.CancelFunc{},
		extra:           map[string]requestFunc{},
	}
	if s.features == nil {
		s.features = NewAnalyzed()
	}
	if s.log == nil {
		s.log = os.Stderr
	}
	if opts.Config != nil {
		s.cfg = *opts.Config
	}
	s.diags = newDiagnosticScheduler(s)
	s.features.reportPanicsTo(s.reportPanic)
	return s
}

// lspCodec marshals payloads with protocol's union-aware codec, so sealed
// union values (hover contents, diagnostic codes, ...) reach the wire in
// their LSP shapes.
type lspCodec struct{}

func (lspCodec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case nil:
		return []byte("null"), nil
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *protocol.PublishDiagnosticsParams:
		// A sheet's diagnostics run to a hundred kilobytes: the buffer
		// starts about as large as the latest ones' size per diagnostic
		// says, rather than doubling its way there.
		per := diagnosticBytes.Load()
		b, err := protocol.AppendMarshal(make([]byte, 0, 256+len(m.Diagnostics)*int(per+per/8)), v)
		if len(m.Diagnostics) > 0 {
			diagnosticBytes.Store(int64(len(b) / len(m.Diagnostics)))
		}
		return b, err
	}
	return protocol.Marshal(v)
}

// diagnosticBytes is how many bytes a diagnostic took in the latest
// diagnostics marshalled.
var diagnosticBytes atomic.Int64

func (lspCodec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// Serve runs the session on rwc until the client sends exit or the stream
// ends, and returns the process exit code the protocol asks for: 0 after
// shutdown then exit, 1 otherwise.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) int {
	stream := newTolerantStream(rwc, func(reason string) { s.logf("rejected a message: %s", reason) })
	s.stream = stream
	s.conn = jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(lspCodec{}))
	s.conn.Go(ctx, s.handle)
	code := 1
	select {
	case code = <-s.exit:
	case <-s.conn.Done():
		if s.state.Load() == stateShutdown {
			code = 0
		}
	case <-ctx.Done():
	}
	s.diags.stop()
	// Closing the transport ends the read loop, except on a stdin that
	// cannot be interrupted (a terminal or a blocking pipe): the process
	// exits anyway, so the wait for the loop is bounded.
	_ = rwc.Close()
	closed := make(chan struct{})
	s.goSafe("closing the connection", func() {
		_ = s.conn.Close()
		close(closed)
	})
	select {
	case <-closed:
	case <-time.After(250 * time.Millisecond):
	}
	return code
}

// handle is the connection's handler. Notifications run inline, in wire
// order, so an edit is applied before any later request reads the document.
// Requests are released to run concurrently (so $/cancelRequest can reach
// them) after they are registered for cancellation.
func (s *Server) handle(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
	method := req.Method()
	// This runs on the connection's read loop: a panic here would end the
	// process.
	defer func() {
		if r := recover(); r != nil {
			s.reportPanic("dispatching "+method, r, debug.Stack())
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r)
		}
	}()
	if !req.IsCall() {
		s.notification(ctx, method, req.Params())
		return nil, nil
	}
	switch st := s.state.Load(); {
	case method == protocol.MethodInitialize:
		if st != stateNew {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received")
		}
		return s.run(ctx, method, initialize, req.Params())
	case st == stateNew:
		return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized")
	case st == stateShutdown:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down")
	case method == protocol.MethodShutdown:
		return s.run(ctx, method, shutdown, req.Params())
	}
	h, ok := requestHandlers[method]
	if !ok {
		s.mu.Lock()
		h, ok = s.extra[method]
		s.mu.Unlock()
	}
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)
	}

	id := req.ID()
	params := append([]byte(nil), req.Params()...)
	// The request's own context is recycled when this handler returns; the
	// work below may outlive it when cancelled, so it hangs off the
	// connection's context instead.
	reqCtx := ctx
	ctx, cancel := context.WithCancel(jsonrpc2.DetachContext(reqCtx))
	defer cancel()
	s.mu.Lock()
	s.inflight[id] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.inflight, id)
		s.mu.Unlock()
	}()
	jsonrpc2.Async(reqCtx)

	type answer struct {
		result any
		err    error
	}
	done := make(chan answer, 1)
	s.goSafe(method, func() {
		result, err := s.run(ctx, method, h, params)
		done <- answer{result, err}
	})
	select {
	case a := <-done:
		if ctx.Err() != nil && a.err == nil {
			// Cancelled while finishing: the client asked not to be answered
			// with a result.
			return nil, protocol.ErrRequestCancelled
		}
		return a.result, a.err
	case <-ctx.Done():
		return nil, protocol.ErrRequestCancelled
	}
}

// run calls h, turning a panic into an InternalError answer: one broken
// feature must not take the session down.
func (s *Server) run(ctx context.Context, method string, h requestFunc, params []byte) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.reportPanic(method, r, debug.Stack())
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r)
		}
	}()
	result, err = h(ctx, s, params)
	if err != nil && ctx.Err() != nil {
		return nil, protocol.ErrRequestCancelled
	}
	if err != nil {
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) {
			err = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
	}
	return result, err
}

func (s *Server) notification(ctx context.Context, method string, params []byte) {
	switch method {
	case protocol.MethodExit:
		code := 1
		if s.state.Load() == stateShutdown {
			code = 0
		}
		select {
		case s.exit <- code:
		default:
		}
		return
	case protocol.MethodCancelRequest:
		s.cancelRequest(params)
		return
	}
	if s.state.Load() != stateInitialized {
		// Before initialize the protocol says notifications are dropped; after
		// shutdown there is nothing left to do with them.
		return
	}
	h, ok := notificationHandlers[method]
	if !ok {
		// Unknown notifications, "$/" ones included, are ignored.
		return
	}
	func() {
		defer s.recoverPanic(method)
		if err := h(ctx, s, params); err != nil {
			s.logf("%s: %v", method, err)
		}
	}()
}

// cancelRequest cancels the in-flight request named by a $/cancelRequest,
// whose id may be a number or a string.
func (s *Server) cancelRequest(params []byte) {
	var p protocol.CancelParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		s.logf("$/cancelRequest: %v", err)
		return
	}
	var id jsonrpc2.ID
	switch v := p.ID.(type) {
	case protocol.Integer:
		id = jsonrpc2.NewNumberID(int64(v))
	case protocol.String:
		id = jsonrpc2.NewStringID(string(v))
	default:
		s.logf("$/cancelRequest: unreadable id %v", p.ID)
		return
	}
	s.mu.Lock()
	cancel, ok := s.inflight[id]
	s.mu.Unlock()
	if ok {
		cancel()
	}
}

// handleExtra registers a request handler on this server alone (tests use it
// to reach the server's recovery paths).
func (s *Server) handleExtra(method string, h requestFunc) {
	s.mu.Lock()
	s.extra[method] = h
	s.mu.Unlock()
}

func (s *Server) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	s.logMu.Lock()
	fmt.Fprintf(s.log, "cute-lsp: %s\n", strings.TrimRight(line, "\n"))
	s.logMu.Unlock()
}

// notify sends a notification to the client; a failure is logged (the
// client may be gone).
func (s *Server) notify(method string, params any) {
	if s.conn == nil {
		return
	}
	if err := s.conn.Notify(context.Background(), method, params); err != nil {
		s.logf("sending %s: %v", method, err)
	}
}

// notifyRaw is notify of params written already, telling the stream how
// large the message will be, so that the frame it is written in is made
// at that size: a sheet's diagnostics run to megabytes (9 MB for 200,000
// peer lines), which the frame's buffer reached by growing a quarter at a
// time, copying them over and over and leaving every smaller buffer
// behind, while the collector is paused after a first analysis (pauseGC).
func (s *Server) notifyRaw(method string, params []byte) {
	if s.stream != nil {
		s.stream.expect(len(method) + len(params))
	}
	s.notify(method, jsonrpc2.RawMessage(params))
}

// session returns the negotiated encoding and the configuration with its
// generation (which changes whenever the configuration does).
func (s *Server) session() (Encoding, Config, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc, s.cfg, s.cfgGen
}

// decode reads params into v, answering InvalidParams when they do not fit.
func decode(params []byte, v any) error {
	if len(params) == 0 {
		params = []byte("{}")
	}
	if err := protocol.Unmarshal(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}
