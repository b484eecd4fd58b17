package lsp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// maxFrame bounds one message body; a larger Content-Length is answered with
// an error and its body skipped.
const maxFrame = 64 << 20

// tolerantStream frames LSP messages like jsonrpc2's header stream, but a
// frame the connection could not decode never reaches it: jsonrpc2 ends the
// whole connection on one undecodable frame, and a language server must
// answer a malformed message with an error and go on serving. It reads the
// header itself (so a bad header costs one frame, not the stream) and checks
// each body with jsonrpc2.DecodeMessage before handing it on; writes go
// through jsonrpc2's own header stream.
type tolerantStream struct {
	in  *bufio.Reader
	out jsonrpc2.Stream
	raw io.ReadWriteCloser
	// onReject is told of each frame answered here, for the log.
	onReject func(reason string)
}

func newTolerantStream(rwc io.ReadWriteCloser, onReject func(string)) *tolerantStream {
	return &tolerantStream{in: bufio.NewReaderSize(rwc, 64<<10), out: jsonrpc2.NewHeaderStream(rwc), raw: rwc, onReject: onReject}
}

// errorResponse is a JSON-RPC error with a null id: the answer to a message
// whose id could not be read.
func errorResponse(code jsonrpc2.Code, msg string) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%s}}`, code, strconv.Quote(msg))
}

func (s *tolerantStream) reject(ctx context.Context, code jsonrpc2.Code, reason string) error {
	if s.onReject != nil {
		s.onReject(reason)
	}
	_, err := s.WriteFrame(ctx, errorResponse(code, reason))
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
		length, hdr, err := s.readHeader()
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
			if _, err := s.in.Discard(length); err != nil {
				return nil, 0, io.ErrUnexpectedEOF
			}
			if werr := s.reject(ctx, jsonrpc2.ParseError, fmt.Sprintf("message of %d bytes is over the %d-byte limit", length, maxFrame)); werr != nil {
				return nil, 0, werr
			}
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.in, body); err != nil {
			return nil, 0, io.ErrUnexpectedEOF
		}
		if code, reason, ok := checkMessage(body); !ok {
			if werr := s.reject(ctx, code, reason); werr != nil {
				return nil, 0, werr
			}
			continue
		}
		return body, int64(hdr + length), nil
	}
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
// another error.
func (s *tolerantStream) readHeader() (length, consumed int, err error) {
	length = -1
	bad := ""
	for {
		line, err := s.in.ReadSlice('\n')
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				// An overlong header line: drop it whole.
				consumed += len(line)
				for errors.Is(err, bufio.ErrBufferFull) {
					line, err = s.in.ReadSlice('\n')
					consumed += len(line)
				}
				if err != nil {
					return 0, 0, eofIn(consumed, err)
				}
				bad = "header line too long"
				continue
			}
			return 0, 0, eofIn(consumed+len(line), err)
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
		// The body, if any, follows; without a trustworthy length it cannot be
		// skipped, so skip what Content-Length said when it was readable.
		if length > 0 && length <= maxFrame {
			if _, err := s.in.Discard(length); err != nil {
				return 0, 0, io.ErrUnexpectedEOF
			}
		}
		return 0, 0, fmt.Errorf("%w: %s", errBadHeader, bad)
	case length < 0:
		return 0, 0, fmt.Errorf("%w: no Content-Length", errBadHeader)
	case length == 0:
		return 0, 0, fmt.Errorf("%w: empty message", errBadHeader)
	}
	return length, consumed, nil
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

func (s *tolerantStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.out.Write(ctx, msg)
}

// WriteFrame writes an already-encoded body through the header stream.
func (s *tolerantStream) WriteFrame(ctx context.Context, data []byte) (int64, error) {
	return s.out.(interface {
		WriteFrame(context.Context, []byte) (int64, error)
	}).WriteFrame(ctx, data)
}

func (s *tolerantStream) Close() error { return s.raw.Close() }
