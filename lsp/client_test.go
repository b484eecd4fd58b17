package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// rpcMessage is any JSON-RPC message as the test client sees it.
type rpcMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// published is one textDocument/publishDiagnostics the client received.
type published struct {
	URI         string `json:"uri"`
	Version     *int   `json:"version"`
	Diagnostics []struct {
		Range    lspRange `json:"range"`
		Severity int      `json:"severity"`
		Code     string   `json:"code"`
		Message  string   `json:"message"`
	} `json:"diagnostics"`
}

type lspPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start lspPos `json:"start"`
	End   lspPos `json:"end"`
}

// testClient speaks JSON-RPC to a server over a pipe, writing frames by hand
// so tests can also send what no well-behaved client would.
type testClient struct {
	t   testing.TB
	out io.WriteCloser
	wmu sync.Mutex

	mu      sync.Mutex
	cond    *sync.Cond
	nextID  int
	answers map[string]rpcMessage // by raw id ("null" for id-less errors: appended with a counter)
	nullIDs []rpcMessage
	notes   []rpcMessage
	diags   map[string][]published
	closed  bool

	// countOnly keeps memory flat for long runs: answers are counted (and
	// error codes tallied) instead of stored, and only the latest
	// publication per document is kept.
	countOnly  bool
	heads      int // publications read by publishedHead alone
	answered   int
	errorCodes map[int]int
}

func newTestClient(t testing.TB, in io.Reader, out io.WriteCloser) *testClient {
	c := &testClient{t: t, out: out, answers: map[string]rpcMessage{}, diags: map[string][]published{}}
	c.cond = sync.NewCond(&c.mu)
	go c.readLoop(in)
	return c
}

func (c *testClient) readLoop(in io.Reader) {
	r := bufio.NewReader(in)
	defer func() {
		c.mu.Lock()
		c.closed = true
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		c.mu.Lock()
		countOnly := c.countOnly
		c.mu.Unlock()
		if countOnly {
			if p, ok := publishedHead(body); ok {
				c.mu.Lock()
				c.diags[p.URI] = append(c.diags[p.URI][:0], p)
				c.heads++
				c.cond.Broadcast()
				c.mu.Unlock()
				continue
			}
		}
		var m rpcMessage
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON: %s", body)
			return
		}
		c.mu.Lock()
		switch {
		case m.Method != "" && len(m.ID) > 0:
			// A server-to-client request: answer with null so the server is
			// not left waiting.
			go c.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID))
			c.notes = append(c.notes, m)
		case m.Method == "textDocument/publishDiagnostics":
			var p published
			if err := json.Unmarshal(m.Params, &p); err == nil {
				if c.countOnly {
					c.diags[p.URI] = append(c.diags[p.URI][:0], p)
				} else {
					c.diags[p.URI] = append(c.diags[p.URI], p)
				}
			}
			if !c.countOnly {
				c.notes = append(c.notes, m)
			}
		case m.Method != "":
			if !c.countOnly {
				c.notes = append(c.notes, m)
			}
		case c.countOnly:
			c.answered++
			if m.Error != nil {
				if c.errorCodes == nil {
					c.errorCodes = map[int]int{}
				}
				c.errorCodes[m.Error.Code]++
			}
		case string(m.ID) == "null" || len(m.ID) == 0:
			c.nullIDs = append(c.nullIDs, m)
		default:
			c.answers[string(m.ID)] = m
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

// publishedHead reads the uri and version of a publishDiagnostics
// notification and stops there, without decoding (or even scanning) the
// diagnostics after them: a client counting publications need not spend
// the milliseconds that decoding a sheet's hundred kilobytes takes, on the
// cores the server under measurement runs on. ok is false for any other
// message, or one it cannot read this way.
func publishedHead(body []byte) (p published, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	delim := func(want json.Delim) bool {
		t, err := dec.Token()
		return err == nil && t == want
	}
	key := func() (string, bool) {
		t, err := dec.Token()
		k, isKey := t.(string)
		return k, err == nil && isKey
	}
	if !delim('{') {
		return p, false
	}
	var method string
	haveURI, haveVersion := false, false
	for dec.More() {
		k, ok := key()
		if !ok {
			return p, false
		}
		switch k {
		case "method":
			if dec.Decode(&method) != nil || method != "textDocument/publishDiagnostics" {
				return p, false
			}
		case "params":
			if !delim('{') {
				return p, false
			}
			for dec.More() {
				k, ok := key()
				if !ok {
					return p, false
				}
				var err error
				switch k {
				case "uri":
					err, haveURI = dec.Decode(&p.URI), true
				case "version":
					err, haveVersion = dec.Decode(&p.Version), true
				default:
					var skip json.RawMessage
					err = dec.Decode(&skip)
				}
				if err != nil {
					return p, false
				}
				if haveURI && haveVersion && method != "" {
					return p, true
				}
			}
			if !delim('}') {
				return p, false
			}
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return p, false
			}
		}
	}
	return p, haveURI && haveVersion && method != ""
}

func (c *testClient) write(body string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.out, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

// writeRaw sends bytes as they are, framing included.
func (c *testClient) writeRaw(data string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	io.WriteString(c.out, data)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// send issues a request and returns its raw id without waiting.
func (c *testClient) send(method string, params any) string {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	c.mu.Unlock()
	c.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, mustJSON(params)))
	return id
}

// sendID issues a request with a caller-chosen raw id (a number or a quoted string).
func (c *testClient) sendID(id, method string, params any) {
	c.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, mustJSON(params)))
}

func (c *testClient) notify(method string, params any) {
	c.write(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, mustJSON(params)))
}

const waitLimit = 20 * time.Second

// wait blocks until cond holds (checked under the lock) or fails the test.
func (c *testClient) wait(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(waitLimit)
	timer := time.AfterFunc(waitLimit, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !cond() {
		if c.closed {
			c.t.Fatalf("connection closed while waiting for %s", what)
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s", what)
		}
		c.cond.Wait()
	}
}

// answer waits for the response to id.
func (c *testClient) answer(id string) rpcMessage {
	c.t.Helper()
	var m rpcMessage
	c.wait("answer to "+id, func() bool {
		var ok bool
		m, ok = c.answers[id]
		if ok {
			delete(c.answers, id)
		}
		return ok
	})
	return m
}

// call issues a request and decodes its result into result (if non-nil);
// it fails the test on an error answer.
func (c *testClient) call(method string, params, result any) {
	c.t.Helper()
	m := c.answer(c.send(method, params))
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	if result != nil {
		if err := json.Unmarshal(m.Result, result); err != nil {
			c.t.Fatalf("%s: decoding %s: %v", method, m.Result, err)
		}
	}
}

// callErr issues a request that must fail and returns its error.
func (c *testClient) callErr(method string, params any) *rpcError {
	c.t.Helper()
	m := c.answer(c.send(method, params))
	if m.Error == nil {
		c.t.Fatalf("%s: want an error, got result %s", method, m.Result)
	}
	return m.Error
}

// setCountOnly switches the client to counting answers (see countOnly).
func (c *testClient) setCountOnly(on bool) {
	c.mu.Lock()
	c.countOnly = on
	c.mu.Unlock()
}

// diagnosticsFor waits for a publication for uri at version (any version
// when version < 0) and returns the latest such.
func (c *testClient) diagnosticsFor(uri string, version int) published {
	c.t.Helper()
	var p published
	c.wait(fmt.Sprintf("diagnostics for %s v%d", uri, version), func() bool {
		list := c.diags[uri]
		for i := len(list) - 1; i >= 0; i-- {
			if version < 0 || list[i].Version != nil && *list[i].Version == version {
				p = list[i]
				return true
			}
		}
		return false
	})
	return p
}

// session is a server running in-process on a pair of OS pipes, with a
// client on the other ends.
type session struct {
	*testClient
	server *Server
	exit   chan int
	toSrv  *os.File
}

func startSession(t testing.TB, opts Options) *session {
	t.Helper()
	srvIn, cliOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cliIn, srvOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	srv := NewServer(opts)
	exit := make(chan int, 1)
	go func() {
		code := srv.Serve(context.Background(), pipeConn{srvIn, srvOut})
		srvOut.Close()
		exit <- code
	}()
	s := &session{testClient: newTestClient(t, cliIn, cliOut), server: srv, exit: exit, toSrv: cliOut}
	t.Cleanup(func() {
		cliOut.Close()
		select {
		case <-exit:
		case <-time.After(10 * time.Second):
			t.Errorf("server did not stop after its input closed")
		}
		cliIn.Close()
	})
	return s
}

type pipeConn struct {
	r *os.File
	w *os.File
}

func (p pipeConn) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeConn) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeConn) Close() error                { return p.r.Close() }

// initialize runs the handshake; encodings are the client's offered ones.
func (s *session) initialize(encodings ...string) map[string]any {
	s.t.Helper()
	params := map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}
	if len(encodings) > 0 {
		params["capabilities"] = map[string]any{"general": map[string]any{"positionEncodings": encodings}}
	}
	var res map[string]any
	s.call("initialize", params, &res)
	s.notify("initialized", map[string]any{})
	return res
}

func (s *session) open(uri, text string) {
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "cute", "version": 1, "text": text}})
}

func (s *session) change(uri string, version int, start, end lspPos, text string) {
	s.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"range": lspRange{start, end}, "text": text}},
	})
}

func at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lspPos{line, char}}
}

// shutdownAndExit ends the session properly and returns the exit code.
func (s *session) shutdownAndExit() int {
	s.t.Helper()
	s.call("shutdown", nil, nil)
	s.notify("exit", nil)
	select {
	case code := <-s.exit:
		s.exit <- code
		return code
	case <-time.After(10 * time.Second):
		s.t.Fatal("server did not exit")
	}
	return -1
}

// TestPublishedHead: the counting client's shortcut reads what a full
// decode reads, from the frames the server writes, and nothing else.
func TestPublishedHead(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	s.open(sheetURI, "a = (4,2):(1,4)\nb = composition(a, (2,2):(1,2)\n")
	full := s.diagnosticsFor(sheetURI, 1)
	frame := mustJSON(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": full})
	got, ok := publishedHead([]byte(frame))
	if !ok || got.URI != full.URI || got.Version == nil || *got.Version != 1 {
		t.Fatalf("publishedHead(%s) = %+v, %v", frame, got, ok)
	}
	for _, other := range []string{
		`{"jsonrpc":"2.0","id":3,"result":null}`,
		`{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":3,"message":"x"}}`,
		`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///a.cute","diagnostics":[]}}`,
		`not json`,
	} {
		if p, ok := publishedHead([]byte(other)); ok {
			t.Errorf("publishedHead(%s) = %+v, want no", other, p)
		}
	}
	// The frames the server writes take the shortcut.
	s.setCountOnly(true)
	s.change(sheetURI, 2, lspPos{0, 0}, lspPos{0, 0}, "x")
	s.diagnosticsFor(sheetURI, 2)
	s.mu.Lock()
	heads := s.heads
	s.mu.Unlock()
	if heads == 0 {
		t.Error("the server's publishDiagnostics frames were decoded in full")
	}
}
