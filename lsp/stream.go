package lsp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
)

// maxFrame bounds one message body (64 MiB: sixteen times the largest sheet
// read from disk). A larger Content-Length is refused with an error answer
// (to the message's id when its first bytes name one) and its body skipped
// without being held in memory.
const maxFrame = 64 << 20

// idPrefix is how much of an oversized body is read to find its id.
const idPrefix = 4 << 10

// tolerantStream frames LSP messages like jsonrpc2's header stream, but a
// frame the connection could not decode never reaches it: jsonrpc2 ends the
// whole connection on one undecodable frame, and a language server must
// answer a malformed message with an error and go on serving. It reads the
// header itself (so a bad header costs one frame, not the stream) and checks
// each body with jsonrpc2.DecodeMessage before handing it on; writes go
// through jsonrpc2's own header stream.
//
// A wrong Content-Length would otherwise desynchronise the stream for good:
// too short, the rest of the body is read as the next header; too long, the
// body swallows the next message's header. Both are caught up on the next
// "Content-Length:" (see resync.go): met in a header line after other text,
// it starts the header afresh; met outside the JSON strings of a body that
// does not decode, what follows it is given back to be read as a header.
// A too-long length still waits for its bytes: a client that sends nothing
// more until it is answered stalls, as it would with any LSP server.
type tolerantStream struct {
	in  *bufio.Reader
	src *pushback // what in reads: the transport, behind bytes given back
	raw io.ReadWriteCloser
	// wmu orders the writes; wbuf is the buffer a message is framed in,
	// kept for the next one while it is small (see frame).
	wmu  sync.Mutex
	wbuf []byte
	// expected is about how large the next message's body will be, when a
	// large one is coming (expect), 0 otherwise.
	expected atomic.Int64
	// onReject is told of each frame answered here, for the log.
	onReject func(reason string)
}

func newTolerantStream(rwc io.ReadWriteCloser, onReject func(string)) *tolerantStream {
	src := &pushback{r: rwc}
	return &tolerantStream{in: bufio.NewReaderSize(src, 64<<10), src: src, raw: rwc, onReject: onReject}
}

// errorResponse is a JSON-RPC error answering id (raw JSON; null when the
// message's id could not be read).
func errorResponse(id []byte, code jsonrpc2.Code, msg string) []byte {
	if len(id) == 0 {
		id = []byte("null")
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, strconv.Quote(msg))
}

func (s *tolerantStream) reject(ctx context.Context, code jsonrpc2.Code, reason string) error {
	return s.rejectID(ctx, nil, code, reason)
}

func (s *tolerantStream) rejectID(ctx context.Context, id []byte, code jsonrpc2.Code, reason string) error {
	if s.onReject != nil {
		s.onReject(reason)
	}
	_, err := s.WriteFrame(ctx, errorResponse(id, code, reason))
	return err
}

// ReadFrame returns the body of the next well-formed message, answering and
// skipping every malformed one before it. It fails only when the transport
// does.
func (s *tolerantStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		length, hdr, junk, err := s.readHeader()
		if junk > 0 {
			if werr := s.reject(ctx, jsonrpc2.ParseError, fmt.Sprintf("skipped %d bytes that were not a message before a Content-Length header", junk)); werr != nil {
				return nil, 0, werr
			}
		}
		if err != nil {
			if errors.Is(err, errBadHeader) {
				if werr := s.reject(ctx, jsonrpc2.ParseError, err.Error()); werr != nil {
					return nil, 0, werr
				}
				continue
			}
			return nil, 0, err
		}
		if length > maxFrame {
			if err := s.refuseOversized(ctx, length); err != nil {
				return nil, 0, err
			}
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.in, body); err != nil {
			return nil, 0, io.ErrUnexpectedEOF
		}
		if code, reason, ok := checkMessage(body); !ok {
			// A body that swallowed the next message's header gives it back.
			if at := findHeader(body); at >= 0 {
				s.unread(body[at:])
				reason += fmt.Sprintf(" (its Content-Length of %d ran %d bytes into the next message)", length, length-at)
			}
			if werr := s.reject(ctx, code, reason); werr != nil {
				return nil, 0, werr
			}
			continue
		}
		return body, int64(hdr + length), nil
	}
}

// refuseOversized answers a message over maxFrame and skips its body: its
// first bytes are read for an id to answer, the rest is discarded (up to
// the next header outside its JSON strings, should its length be a lie).
func (s *tolerantStream) refuseOversized(ctx context.Context, length int) error {
	// The id is looked for in what has arrived, up to idPrefix bytes, and
	// no more is waited for: a client that sent a short body after a lying
	// length waits for the answer before it sends anything else.
	_, err := s.in.Peek(1)
	var prefix []byte
	if err == nil {
		arrived, _ := s.in.Peek(min(length, idPrefix, s.in.Buffered()))
		prefix = append([]byte(nil), arrived...)
		_, _ = s.in.Discard(len(prefix))
	}
	n := len(prefix)
	reason := fmt.Sprintf("message of %d bytes is over the %d-byte limit", length, maxFrame)
	if werr := s.rejectID(ctx, messageID(prefix), jsonrpc2.InvalidRequest, reason); werr != nil {
		return werr
	}
	if err != nil {
		return io.ErrUnexpectedEOF
	}
	var scan headerScan
	if at := scan.feed(prefix); at >= 0 {
		s.unread(append([]byte(headerName), prefix[at:]...))
		return nil
	}
	return s.skip(length-n, &scan)
}

// skip discards up to n bytes, stopping early at a header that scan finds.
func (s *tolerantStream) skip(n int, scan *headerScan) error {
	for n > 0 {
		if _, err := s.in.Peek(1); err != nil {
			return io.ErrUnexpectedEOF
		}
		chunk, _ := s.in.Peek(min(n, s.in.Buffered()))
		if at := scan.feed(chunk); at >= 0 {
			_, _ = s.in.Discard(at)
			s.unread([]byte(headerName))
			return nil
		}
		_, _ = s.in.Discard(len(chunk))
		n -= len(chunk)
	}
	return nil
}

// checkMessage reports whether jsonrpc2 can take body: one request,
// notification or response object. Batches (arrays) are not part of LSP and
// are refused here too, as is anything jsonrpc2 would fail the connection on.
func checkMessage(body []byte) (jsonrpc2.Code, string, bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		if len(trimmed) > 0 && trimmed[0] == '[' {
			return jsonrpc2.InvalidRequest, "batch messages are not supported", false
		}
		return jsonrpc2.ParseError, "message is not a JSON object", false
	}
	if _, err := jsonrpc2.DecodeMessage(body); err != nil {
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) && rpcErr.Code == jsonrpc2.InvalidRequest {
			return jsonrpc2.InvalidRequest, "invalid request: " + err.Error(), false
		}
		return jsonrpc2.ParseError, "malformed message: " + err.Error(), false
	}
	return 0, "", true
}

var errBadHeader = errors.New("malformed message header")

// readHeader reads one header block. A malformed block is consumed up to its
// blank line and reported as errBadHeader; only a failing transport is
// another error. junk counts the bytes dropped before a Content-Length
// header that ended them (the rest of a body whose length was too short,
// garbage lines): the block starts afresh there.
func (s *tolerantStream) readHeader() (length, consumed, junk int, err error) {
	length = -1
	bad := ""
	for {
		line, err := s.in.ReadSlice('\n')
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				// An overlong header line: drop it whole, unless a header
				// starts in it.
				for errors.Is(err, bufio.ErrBufferFull) {
					if at := indexFold(line, headerName); at >= 0 {
						s.unread(line[at:])
						line, err = line[:at], nil
						break
					}
					consumed += len(line)
					line, err = s.in.ReadSlice('\n')
				}
				if err != nil {
					return 0, 0, junk, eofIn(consumed, err)
				}
				consumed += len(line)
				bad = "header line too long"
				continue
			}
			return 0, 0, junk, eofIn(consumed+len(line), err)
		}
		if at := indexFold(line, headerName); at > 0 || at == 0 && bad != "" {
			// Whatever came before a Content-Length header is not part of
			// this message.
			junk += consumed + at
			consumed, bad, length = 0, "", -1
			line = line[at:]
		}
		consumed += len(line)
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if consumed <= 2 {
				// Blank lines between messages are tolerated.
				consumed = 0
				continue
			}
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			bad = fmt.Sprintf("header line %q has no ':'", truncate(string(line), 40))
			continue
		}
		if bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil || n < 0 {
				bad = fmt.Sprintf("Content-Length %q is not a length", truncate(string(value), 40))
				continue
			}
			length = n
		}
	}
	switch {
	case bad != "":
		// The body, if any, follows; without a trustworthy header it is
		// skipped as far as Content-Length said when it was readable, up to
		// the next header.
		if length > 0 {
			if err := s.skip(length, &headerScan{}); err != nil {
				return 0, 0, junk, err
			}
		}
		return 0, 0, junk, fmt.Errorf("%w: %s", errBadHeader, bad)
	case length < 0:
		return 0, 0, junk, fmt.Errorf("%w: no Content-Length", errBadHeader)
	case length == 0:
		return 0, 0, junk, fmt.Errorf("%w: empty message", errBadHeader)
	}
	return length, consumed, junk, nil
}

func eofIn(consumed int, err error) error {
	if errors.Is(err, io.EOF) && consumed > 0 {
		return io.ErrUnexpectedEOF
	}
	return err
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// Read implements jsonrpc2.Stream for callers that do not read frames.
func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	body, n, err := s.ReadFrame(ctx)
	if err != nil {
		return nil, 0, err
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	return msg, n, err
}

// Write implements jsonrpc2.Stream: msg encoded and framed with its
// Content-Length header, written in one write.
func (s *tolerantStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.frame(ctx, func(buf []byte) []byte { return jsonrpc2.AppendMessage(buf, msg) })
}

// WriteFrame writes an already-encoded body, framed.
func (s *tolerantStream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	return s.frame(ctx, func(buf []byte) []byte { return append(buf, data...) })
}

// expect says that a message of about n bytes (its params and method) is
// to be written next: above keptFrameBuffer, its frame is made at that
// size rather than grown to it. A message written in between takes the
// room instead, which costs nothing but the room.
func (s *tolerantStream) expect(n int) {
	if n > keptFrameBuffer {
		s.expected.Store(int64(n))
	}
}

// keptFrameBuffer is the largest frame buffer kept for the next message.
// A sheet's diagnostics run to megabytes (2.3 MB for 50,000 peer lines):
// jsonrpc2's header stream kept the buffer of its largest message for as
// long as the connection lasted, beside the analysis it came from.
const keptFrameBuffer = 64 << 10

// frame writes the body appendBody appends, after its header: the header
// goes in the room left before the body, so that the frame is one write.
func (s *tolerantStream) frame(ctx context.Context, appendBody func([]byte) []byte) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	const room = len("Content-Length: ") + 20 + len("\r\n\r\n")
	buf := s.wbuf[:0]
	if n := int(s.expected.Swap(0)); n > 0 {
		// The envelope around the params is under a hundred bytes.
		buf = make([]byte, 0, room+n+128)
	}
	buf = append(buf, make([]byte, room)...)
	buf = appendBody(buf)
	var room0 [room]byte
	header := append(room0[:0], "Content-Length: "...)
	header = strconv.AppendInt(header, int64(len(buf)-room), 10)
	header = append(header, "\r\n\r\n"...)
	start := room - len(header)
	copy(buf[start:], header)
	n, err := s.raw.Write(buf[start:])
	if cap(buf) <= keptFrameBuffer {
		s.wbuf = buf[:0]
	} else {
		s.wbuf = nil
	}
	return int64(n), err
}

func (s *tolerantStream) Close() error { return s.raw.Close() }
