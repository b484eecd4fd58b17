package lsp

import (
	"encoding/json"
	"io"
)

// What the stream needs to find its way back after a wrong Content-Length:
// the next header, found where no well-formed body can hold one, and a way
// to read again what was read too far.

// headerName is the header the stream resynchronises on, as it is looked
// for (case does not matter).
const headerName = "content-length:"

// headerScan finds headerName in a body read in pieces, outside its JSON
// strings: a well-formed body holds it only inside a string (a document
// about LSP), where it must not be taken for a header; right after a
// body's closing brace, where a too-long length runs on, it is a header.
type headerScan struct {
	inString, escaped bool
	matched           int // bytes of headerName matched so far
}

// feed scans b and returns the index just past the end of the first
// header name ending in it, or -1.
func (h *headerScan) feed(b []byte) int {
	for i, c := range b {
		if h.inString {
			switch {
			case h.escaped:
				h.escaped = false
			case c == '\\':
				h.escaped = true
			case c == '"':
				h.inString = false
			}
			continue
		}
		switch lower(c) {
		case '"':
			h.inString, h.matched = true, 0
		case headerName[h.matched]:
			h.matched++
			if h.matched == len(headerName) {
				h.matched = 0
				return i + 1
			}
		case headerName[0]:
			// The name's first letter appears in it only once, so a failed
			// match restarts here or nowhere.
			h.matched = 1
		default:
			h.matched = 0
		}
	}
	return -1
}

// findHeader is the index where a header starts in body (outside its
// strings), or where a header's beginning ends it; -1 when neither.
func findHeader(body []byte) int {
	var scan headerScan
	if end := scan.feed(body); end >= 0 {
		return end - len(headerName)
	}
	if scan.matched > 0 {
		return len(body) - scan.matched
	}
	return -1
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// indexFold is the index of name (lower case) in b, ignoring case; -1 when
// absent.
func indexFold(b []byte, name string) int {
	for i := 0; i+len(name) <= len(b); i++ {
		j := 0
		for j < len(name) && lower(b[i+j]) == name[j] {
			j++
		}
		if j == len(name) {
			return i
		}
	}
	return -1
}

// messageID is the id of the message whose body starts with prefix, as raw
// JSON, when it is among the members read before the prefix ends; nil
// otherwise.
func messageID(prefix []byte) []byte {
	dec := json.NewDecoder(&prefixReader{b: prefix})
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" {
			switch v[0] {
			case '"':
				return v
			case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				// A number at the prefix's end may be cut short.
				if _, err := dec.Token(); err != nil {
					return nil
				}
				return v
			}
			return nil
		}
	}
	return nil
}

type prefixReader struct{ b []byte }

func (r *prefixReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// pushback reads the bytes given back to it, then its reader.
type pushback struct {
	pending []byte
	r       io.Reader
}

func (p *pushback) Read(b []byte) (int, error) {
	if len(p.pending) > 0 {
		n := copy(b, p.pending)
		p.pending = p.pending[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// unread puts data back in front of everything not yet read.
func (s *tolerantStream) unread(data []byte) {
	buffered, _ := s.in.Peek(s.in.Buffered())
	rest := make([]byte, 0, len(data)+len(buffered)+len(s.src.pending))
	rest = append(append(append(rest, data...), buffered...), s.src.pending...)
	s.src.pending = rest
	s.in.Reset(s.src)
}
