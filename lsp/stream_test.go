package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// memConn is a transport reading from a fixed input and recording what is
// written to it.
type memConn struct {
	io.Reader
	out bytes.Buffer
}

func (c *memConn) Write(b []byte) (int, error) { return c.out.Write(b) }
func (c *memConn) Close() error                { return nil }

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func request(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.cute"},"position":{"line":0,"character":0}}}`, id)
}

// readAll reads every frame the stream hands on until the input ends, and
// returns them with the error answers the stream wrote itself.
func readAll(t *testing.T, in io.Reader) (bodies []string, replies []rpcMessage) {
	t.Helper()
	conn := &memConn{Reader: in}
	st := newTolerantStream(conn, nil)
	for {
		body, _, err := st.ReadFrame(context.Background())
		if err != nil {
			break
		}
		bodies = append(bodies, string(body))
	}
	r := bufio.NewReader(&conn.out)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break
		}
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "Content-Length:")))
		if err != nil {
			t.Fatalf("reply header %q", line)
		}
		r.ReadString('\n')
		body := make([]byte, n)
		io.ReadFull(r, body)
		var m rpcMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("reply %s: %v", body, err)
		}
		replies = append(replies, m)
	}
	return bodies, replies
}

// A Content-Length shorter than the body: the rest of the body is skipped
// as junk up to the next header, and the next message is read. Before,
// the rest was read as a header block that swallowed the next message.
func TestShortContentLengthResynchronises(t *testing.T) {
	bad := request(1)
	in := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(bad)-7, bad) + frame(request(2)) + frame(request(3))
	bodies, replies := readAll(t, strings.NewReader(in))
	if len(bodies) != 2 || bodies[0] != request(2) || bodies[1] != request(3) {
		t.Errorf("messages read = %q, want requests 2 and 3", bodies)
	}
	if len(replies) != 2 || replies[0].Error.Code != -32700 || !strings.Contains(replies[1].Error.Message, "skipped 7 bytes") {
		t.Errorf("replies = %+v, want a parse error for the cut body and one for the skipped bytes", replies)
	}
}

// A Content-Length longer than the body: the body runs into the next
// message, whose header is given back and read. Before, the next message
// was lost with the bad one.
func TestLongContentLengthResynchronises(t *testing.T) {
	for _, over := range []int{1, 3, 15, 40} {
		bad := request(1)
		in := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(bad)+over, bad) + frame(request(2)) + frame(request(3))
		bodies, replies := readAll(t, strings.NewReader(in))
		if len(bodies) != 2 || bodies[0] != request(2) || bodies[1] != request(3) {
			t.Errorf("%d over: messages read = %q, want requests 2 and 3", over, bodies)
		}
		if len(replies) != 1 || replies[0].Error.Code != -32700 || !strings.Contains(replies[0].Error.Message, "ran") {
			t.Errorf("%d over: replies = %+v, want one parse error", over, replies)
		}
	}
}

// The header name inside a string of a well-formed body is text, not a
// header: a document about LSP does not resynchronise anything.
func TestHeaderNameInsideAStringIsText(t *testing.T) {
	text := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"text":"Content-Length: 5\r\n\r\n{\"x\":1}"}}`
	bad := `{"jsonrpc":"2.0","method":"x","params":"Content-Length: 3"`
	in := frame(text) + frame(bad) + frame(request(2))
	bodies, replies := readAll(t, strings.NewReader(in))
	if len(bodies) != 2 || bodies[0] != text || bodies[1] != request(2) {
		t.Errorf("messages read = %q", bodies)
	}
	if len(replies) != 1 {
		t.Errorf("replies = %+v, want one for the unclosed body", replies)
	}
	if got := findHeader([]byte(`{"a":"\"Content-Length: 1"} content-LENGTH: 2`)); got != 28 {
		t.Errorf("findHeader = %d, want 28 (the one outside the string)", got)
	}
}

// lazyBytes yields n bytes of b repeated, without holding them.
type lazyBytes struct {
	n int
	b byte
}

func (l *lazyBytes) Read(p []byte) (int, error) {
	if l.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), l.n)
	p[0] = l.b
	for i := 1; i < k; i *= 2 {
		copy(p[i:k], p[:i])
	}
	l.n -= k
	return k, nil
}

// In the server: a request after a message with a wrong length is answered.
func TestServerAnswersAfterAWrongContentLength(t *testing.T) {
	s := startSession(t, Options{})
	s.initialize()
	s.open(sheetURI, brokenSheet)
	for _, delta := range []int{-9, 12} {
		bad := fmt.Sprintf(`{"jsonrpc":"2.0","id":"bad","method":"textDocument/hover","params":%s}`, mustJSON(at(sheetURI, 0, 1)))
		s.writeRaw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(bad)+delta, bad))
		var h map[string]any
		s.call("textDocument/hover", at(sheetURI, 0, 1), &h)
		if h == nil {
			t.Errorf("length off by %d: no hover after it", delta)
		}
	}
}

// A frame over maxFrame is answered with an error to its id and skipped
// without its size being allocated, whether its length is honest (the
// body is discarded) or a lie (2^63-1: the next header ends it). Before,
// the lie swallowed the rest of the stream unanswered.
func TestOversizedFramesAreRefusedAndSkipped(t *testing.T) {
	head := `{"jsonrpc":"2.0","id":"big","method":"textDocument/didOpen","params":{"text":"`
	tail := `"}}`
	honest := maxFrame + 1<<20
	cases := []struct {
		name string
		in   func() io.Reader
	}{
		{"honest", func() io.Reader {
			return io.MultiReader(strings.NewReader(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", honest, head)),
				&lazyBytes{honest - len(head) - len(tail), 'x'}, strings.NewReader(tail+frame(request(2))))
		}},
		{"lie", func() io.Reader {
			return io.MultiReader(strings.NewReader(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", int64(1<<63-1), head)),
				&lazyBytes{1 << 20, 'x'}, strings.NewReader(tail+frame(request(2))))
		}},
	}
	for _, tc := range cases {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		bodies, replies := readAll(t, tc.in())
		runtime.ReadMemStats(&after)
		if len(bodies) != 1 || bodies[0] != request(2) {
			t.Errorf("%s: messages read = %d, want request 2 alone", tc.name, len(bodies))
		}
		if len(replies) != 1 || string(replies[0].ID) != `"big"` || replies[0].Error.Code != -32600 || !strings.Contains(replies[0].Error.Message, "limit") {
			t.Errorf("%s: replies = %+v, want InvalidRequest to \"big\"", tc.name, replies)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
			t.Errorf("%s: reading it allocated %d bytes", tc.name, grew)
		}
	}
	// Without an id in its first bytes, the answer has a null id.
	in := io.MultiReader(strings.NewReader(fmt.Sprintf("Content-Length: %d\r\n\r\n", maxFrame+1)), &lazyBytes{maxFrame + 1, ' '}, strings.NewReader(frame(request(2))))
	bodies, replies := readAll(t, in)
	if len(bodies) != 1 || len(replies) != 1 || string(replies[0].ID) != "null" {
		t.Errorf("id-less oversized frame: %d messages, replies %+v", len(bodies), replies)
	}
}

func TestMessageID(t *testing.T) {
	for prefix, want := range map[string]string{
		`{"jsonrpc":"2.0","id":7,"method":"x","params":{"text":"`: `7`,
		`{"id":"a\"b","method"`:                                   `"a\"b"`,
		`{"method":"x","params":{"text":"abc`:                     ``,
		`{"id":null}`:                                             ``,
		`{"id":{"x":1}}`:                                          ``,
		`[1,2]`:                                                   ``,
		`{"id":12`:                                                ``,
	} {
		if got := string(messageID([]byte(prefix))); got != want {
			t.Errorf("messageID(%s) = %s, want %s", prefix, got, want)
		}
	}
}

// A lying oversized length followed by a short body, then a request, with
// the client waiting for answers (the stream stays open): the request is
// read. Before, the stream waited for 4 KiB of the oversized body that the
// client never sent, and both sides hung.
func TestOversizedLieOnAnOpenStream(t *testing.T) {
	pr, pw := io.Pipe()
	st := newTolerantStream(&memConn{Reader: pr}, nil)
	got := make(chan string, 1)
	go func() {
		body, _, err := st.ReadFrame(context.Background())
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(body)
	}()
	go func() {
		// One write, as a client sends it; the pipe is left open.
		_, _ = pw.Write([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n{}", int64(1<<63-1)) + frame(request(2))))
	}()
	select {
	case body := <-got:
		if body != request(2) {
			t.Errorf("read %q, want request 2", body)
		}
	case <-time.After(20 * time.Second): // a hang, not a speed target
		t.Fatal("the stream waited for bytes of the oversized body that never came")
	}
	pw.Close()
}

// TestWriteFramesAndKeepsNoLargeBuffer: messages go out framed, one write
// each, and the buffer of a large one is not kept for the connection's
// life (a sheet's diagnostics run to megabytes).
func TestWriteFramesAndKeepsNoLargeBuffer(t *testing.T) {
	conn := &memConn{Reader: strings.NewReader("")}
	st := newTolerantStream(conn, nil)
	small := jsonrpc2.NewNotification("window/logMessage", jsonrpc2.RawMessage(`{"type":3,"message":"hi"}`))
	large := jsonrpc2.NewNotification("textDocument/publishDiagnostics", jsonrpc2.RawMessage(`{"text":"`+strings.Repeat("x", 2*keptFrameBuffer)+`"}`))
	for _, m := range []jsonrpc2.Message{small, large, small} {
		if _, err := st.Write(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.WriteFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"result":null}`)); err != nil {
		t.Fatal(err)
	}
	if cap(st.wbuf) > keptFrameBuffer {
		t.Fatalf("the stream keeps a buffer of %d bytes", cap(st.wbuf))
	}
	bodies, _ := readAll(t, bytes.NewReader(conn.out.Bytes()))
	if len(bodies) != 4 {
		t.Fatalf("read back %d frames, want 4: %q", len(bodies), conn.out.String()[:min(200, conn.out.Len())])
	}
	for i, want := range []string{"window/logMessage", "publishDiagnostics", "window/logMessage", `"result":null`} {
		if !strings.Contains(bodies[i], want) {
			t.Errorf("frame %d = %.80q, want it to hold %q", i, bodies[i], want)
		}
	}
}
