package lsp

import (
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"go.lsp.dev/uri"
)

// openParams are the fields of a didOpen's params the server keeps.
type openParams struct {
	uri, languageID string
	version         int32
	text            string
}

// readOpenParams reads didOpen's params in the shape every client sends:
// an object of one member, textDocument, whose members are uri,
// languageId, version and text, each once, the strings with no invalid
// UTF-8, no control characters and no lone surrogates, the version an
// integer that fits an int32. ok is false for anything else, which the
// caller hands to protocol's decoder (decode): what is read here is what
// that decoder reads from the same bytes, the URI in its canonical form
// (FuzzReadOpenParams), and other
// shapes keep its answers, errors included.
//
// It is the first step of opening a sheet, which the client times: the
// generic decoder unescaped a 150 KB text at about 250 MB/s (0.6 ms of
// the 5,000-line peer sheet's open), in a copy of its own; here the text
// is unescaped once, into the string the snapshot keeps.
func readOpenParams(b []byte) (p openParams, ok bool) {
	r := openReader{b: b}
	if !r.byte('{') || !r.key("textDocument") || !r.byte('{') {
		return p, false
	}
	var seen [4]bool
	for n := 0; ; n++ {
		if n > 0 && !r.byte(',') {
			break
		}
		field := r.field()
		if field < 0 || seen[field] || !r.byte(':') {
			return p, false
		}
		seen[field] = true
		switch field {
		case fieldURI:
			// protocol's decoder keeps a URI in its canonical form.
			var s string
			if s, ok = r.str(); ok {
				u, err := uri.Parse(s)
				p.uri, ok = string(u), err == nil
			}
		case fieldLanguageID:
			p.languageID, ok = r.str()
		case fieldVersion:
			p.version, ok = r.int32()
		case fieldText:
			p.text, ok = r.str()
		}
		if !ok {
			return p, false
		}
	}
	if seen != [4]bool{true, true, true, true} || !r.byte('}') || !r.byte('}') {
		return p, false
	}
	r.space()
	return p, r.i == len(r.b)
}

// The members of a TextDocumentItem, as openReader.field numbers them.
const (
	fieldURI = iota
	fieldLanguageID
	fieldVersion
	fieldText
)

// openReader reads JSON from b at i, refusing (false) whatever
// readOpenParams leaves to the generic decoder.
type openReader struct {
	b []byte
	i int
}

func (r *openReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// byte reads c after blanks.
func (r *openReader) byte(c byte) bool {
	r.space()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// rawKey reads a member name without escapes, after blanks, and the
// blanks after it.
func (r *openReader) rawKey() ([]byte, bool) {
	if !r.byte('"') {
		return nil, false
	}
	start := r.i
	for r.i < len(r.b) {
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			return r.b[start : r.i-1], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
		r.i++
	}
	return nil, false
}

// key reads member name k and its colon.
func (r *openReader) key(k string) bool {
	got, ok := r.rawKey()
	return ok && string(got) == k && r.byte(':')
}

// field reads the name of a TextDocumentItem member: its number, -1 for
// any other name.
func (r *openReader) field() int {
	k, ok := r.rawKey()
	if !ok {
		return -1
	}
	switch string(k) {
	case "uri":
		return fieldURI
	case "languageId":
		return fieldLanguageID
	case "version":
		return fieldVersion
	case "text":
		return fieldText
	}
	return -1
}

// int32 reads an integer without fraction or exponent that fits an int32.
func (r *openReader) int32() (int32, bool) {
	r.space()
	neg := r.i < len(r.b) && r.b[r.i] == '-'
	if neg {
		r.i++
	}
	start := r.i
	var n int64
	for r.i < len(r.b) && '0' <= r.b[r.i] && r.b[r.i] <= '9' {
		n = n*10 + int64(r.b[r.i]-'0')
		if n > 1<<31 {
			return 0, false
		}
		r.i++
	}
	digits := r.i - start
	if digits == 0 || digits > 1 && r.b[start] == '0' {
		return 0, false
	}
	if r.i < len(r.b) {
		switch r.b[r.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	if n < -1<<31 || n > 1<<31-1 {
		return 0, false
	}
	return int32(n), true
}

// plainByte marks the bytes a JSON string holds as they are: printable
// ASCII but the quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads a string, unescaped into a string of its own.
func (r *openReader) str() (string, bool) {
	if !r.byte('"') {
		return "", false
	}
	b := r.b
	start := r.i
	i := start
	for i < len(b) && plainByte[b[i]] {
		i++
	}
	if i < len(b) && b[i] == '"' {
		r.i = i + 1
		return string(b[start:i]), true
	}
	// What is left of the message bounds the unescaped string.
	out := make([]byte, i-start, len(b)-start)
	copy(out, b[start:i])
	high := false
	for {
		run := i
		for i < len(b) && plainByte[b[i]] {
			i++
		}
		out = append(out, b[run:i]...)
		if i == len(b) {
			return "", false
		}
		switch c := b[i]; {
		case c == '"':
			i++
		case c == '\\':
			var ok bool
			if out, i, ok = unescape(out, b, i+1, len(b)); !ok {
				return "", false
			}
			continue
		case c >= 0x80:
			high = true
			out = append(out, c)
			i++
			continue
		default:
			return "", false
		}
		break
	}
	if high && !utf8.Valid(out) {
		return "", false
	}
	r.i = i
	if len(out) == 0 {
		return "", true
	}
	if cap(out)-len(out) > len(out)/8+64 {
		// A short string before a long one (an escaped URI before the
		// text) does not keep the room its buffer was given.
		return string(out), true
	}
	// out is not written again: the string shares its memory.
	return unsafe.String(&out[0], len(out)), true
}

// unescape appends the character of the escape whose letter is b[i] (past
// its backslash), returning where the string goes on; a lone surrogate is
// refused.
func unescape(out, b []byte, i, end int) ([]byte, int, bool) {
	if i >= end {
		return out, i, false
	}
	switch b[i] {
	case '"', '\\', '/':
		return append(out, b[i]), i + 1, true
	case 'b':
		return append(out, '\b'), i + 1, true
	case 'f':
		return append(out, '\f'), i + 1, true
	case 'n':
		return append(out, '\n'), i + 1, true
	case 'r':
		return append(out, '\r'), i + 1, true
	case 't':
		return append(out, '\t'), i + 1, true
	case 'u':
		r, ok := hex4(b, i+1, end)
		if !ok {
			return out, i, false
		}
		i += 5
		if utf16.IsSurrogate(r) {
			if r >= 0xDC00 || i+1 >= end || b[i] != '\\' || b[i+1] != 'u' {
				return out, i, false
			}
			lo, ok := hex4(b, i+2, end)
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return out, i, false
			}
			r = utf16.DecodeRune(r, lo)
			i += 6
		}
		return utf8.AppendRune(out, r), i, true
	}
	return out, i, false
}

// hex4 is the value of the four hexadecimal digits at b[i:].
func hex4(b []byte, i, end int) (rune, bool) {
	if i+4 > end {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
