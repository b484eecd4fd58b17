package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Notebook is the Python code of a Jupyter notebook (nbformat 4): its code
// cells in order, each with where its source text lies in the .ipynb file,
// so that a position in the code maps back to the JSON string a user can
// click on.
type Notebook struct {
	// Cells are the code cells, in the notebook's order.
	Cells []Cell
	// Language is the kernel's language from the notebook's metadata
	// (kernelspec.language, else language_info.name), "" when it names none.
	Language string

	data  []byte
	lines []int // byte offsets of the file's line starts, made on first use
}

// Cell is one code cell.
type Cell struct {
	// Index is the cell's index in the notebook's cells array (markdown and
	// raw cells counted), as Jupyter numbers cells from 0.
	Index int
	// Source is the cell's text: its source string, or its list of strings
	// joined.
	Source string
	// At is the byte offset in the file of the cell's "source" value.
	At int
	// pieces map Source's bytes to the file's, in order of Source offset.
	pieces []piece
	// end is the file offset just after the last source string's contents
	// (its closing quote), At when the source is an empty list.
	end int
}

// piece is a stretch of a cell's source read from the file: Source bytes
// from dec on come from file bytes from raw on, one for one, up to the
// next piece; an escape's bytes all come from the escape's backslash.
type piece struct {
	dec, raw int
	escape   bool
}

// NotebookError is a notebook cute-lsp cannot read, and where.
type NotebookError struct {
	Offset int // byte offset in the file, -1 when the error is the whole file's
	Reason string
}

func (e *NotebookError) Error() string {
	if e.Offset < 0 {
		return e.Reason
	}
	return fmt.Sprintf("at byte %d: %s", e.Offset, e.Reason)
}

// ReadNotebook reads the code cells of an nbformat 4 notebook: a JSON
// object whose "cells" array holds objects with "cell_type" and "source"
// (a string or a list of strings). Other keys are skipped. Malformed JSON,
// text that is not UTF-8, an older nbformat or a cells array of the wrong
// shape are a *NotebookError; nothing here panics, and the work is one
// pass over the file with no recursion.
func ReadNotebook(data []byte) (*Notebook, error) {
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, w := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && w <= 1 {
				break
			}
			off += w
		}
		return nil, &NotebookError{off, "not UTF-8 (a notebook is JSON text in UTF-8)"}
	}
	r := &nbReader{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	r.dec.UseNumber()
	nb, err := r.notebook()
	if err != nil {
		var ne *NotebookError
		if errors.As(err, &ne) {
			return nil, ne
		}
		return nil, r.fail(err)
	}
	nb.data = data
	return nb, nil
}

// nbReader walks a notebook's JSON tokens, knowing where each string is.
type nbReader struct {
	data []byte
	dec  *json.Decoder
}

// fail is a decoder error as a NotebookError at its offset.
func (r *nbReader) fail(err error) *NotebookError {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return &NotebookError{int(se.Offset), "malformed JSON: " + se.Error()}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &NotebookError{len(r.data), "malformed JSON: the file ends inside a value"}
	}
	return &NotebookError{int(r.dec.InputOffset()), "malformed JSON: " + err.Error()}
}

// token is the next token and the file offset where it starts.
func (r *nbReader) token() (json.Token, int, error) {
	from := int(r.dec.InputOffset())
	t, err := r.dec.Token()
	if err != nil {
		return nil, from, err
	}
	to := int(r.dec.InputOffset())
	// Between tokens lie only blanks, commas and colons.
	start := from
	for start < to && strings.IndexByte(" \t\r\n,:", r.data[start]) >= 0 {
		start++
	}
	return t, start, nil
}

// skip consumes one value whose first token is t.
func (r *nbReader) skip(t json.Token) error {
	depth := 0
	for {
		if d, ok := t.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
		var err error
		if t, _, err = r.token(); err != nil {
			return err
		}
	}
}

// object calls member for each key of the object whose '{' was just read;
// member must consume the key's value.
func (r *nbReader) object(member func(key string) error) error {
	for {
		t, at, err := r.token()
		if err != nil {
			return err
		}
		if t == json.Delim('}') {
			return nil
		}
		key, ok := t.(string)
		if !ok {
			return &NotebookError{at, "malformed JSON: expected a key"}
		}
		if err := member(key); err != nil {
			return err
		}
	}
}

// skipValue reads and skips the next value.
func (r *nbReader) skipValue() error {
	t, _, err := r.token()
	if err != nil {
		return err
	}
	return r.skip(t)
}

func (r *nbReader) notebook() (*Notebook, error) {
	t, at, err := r.token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, &NotebookError{at, "not a notebook: the file is not a JSON object"}
	}
	nb := &Notebook{}
	sawCells := false
	var kernelLanguage, infoName string
	err = r.object(func(key string) error {
		switch key {
		case "nbformat":
			t, at, err := r.token()
			if err != nil {
				return err
			}
			n, ok := t.(json.Number)
			if !ok {
				return &NotebookError{at, "nbformat is not a number"}
			}
			if v, err := n.Int64(); err != nil || v != 4 {
				return &NotebookError{at, fmt.Sprintf("nbformat %s: only nbformat 4 notebooks are read", n)}
			}
			return nil
		case "cells":
			sawCells = true
			return r.cells(nb)
		case "metadata":
			return r.metadata(&kernelLanguage, &infoName)
		}
		return r.skipValue()
	})
	if err != nil {
		return nil, err
	}
	if _, at, err := r.token(); err != io.EOF {
		return nil, &NotebookError{at, "malformed JSON: text after the notebook's object"}
	}
	if !sawCells {
		return nil, &NotebookError{-1, "not an nbformat 4 notebook: no \"cells\" array"}
	}
	nb.Language = kernelLanguage
	if nb.Language == "" {
		nb.Language = infoName
	}
	return nb, nil
}

// metadata reads kernelspec.language and language_info.name.
func (r *nbReader) metadata(kernelLanguage, infoName *string) error {
	t, _, err := r.token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return r.skip(t)
	}
	return r.object(func(key string) error {
		var want, into = "", (*string)(nil)
		switch key {
		case "kernelspec":
			want, into = "language", kernelLanguage
		case "language_info":
			want, into = "name", infoName
		default:
			return r.skipValue()
		}
		t, _, err := r.token()
		if err != nil {
			return err
		}
		if t != json.Delim('{') {
			return r.skip(t)
		}
		return r.object(func(key string) error {
			t, _, err := r.token()
			if err != nil {
				return err
			}
			if s, ok := t.(string); ok && key == want {
				*into = s
				return nil
			}
			return r.skip(t)
		})
	})
}

func (r *nbReader) cells(nb *Notebook) error {
	t, at, err := r.token()
	if err != nil {
		return err
	}
	if t != json.Delim('[') {
		return &NotebookError{at, "\"cells\" is not an array"}
	}
	for index := 0; ; index++ {
		t, at, err := r.token()
		if err != nil {
			return err
		}
		if t == json.Delim(']') {
			return nil
		}
		if t != json.Delim('{') {
			return &NotebookError{at, fmt.Sprintf("cell %d is not an object", index)}
		}
		var cellType string
		var cell Cell
		haveSource := false
		err = r.object(func(key string) error {
			switch key {
			case "cell_type":
				t, at, err := r.token()
				if err != nil {
					return err
				}
				s, ok := t.(string)
				if !ok {
					return &NotebookError{at, fmt.Sprintf("cell %d: cell_type is not a string", index)}
				}
				cellType = s
				return nil
			case "source":
				haveSource = true
				return r.source(index, &cell)
			}
			return r.skipValue()
		})
		if err != nil {
			return err
		}
		if cellType == "code" && haveSource {
			cell.Index = index
			nb.Cells = append(nb.Cells, cell)
		}
	}
}

// source reads a cell's source: a string, or an array of strings.
func (r *nbReader) source(index int, c *Cell) error {
	t, at, err := r.token()
	if err != nil {
		return err
	}
	c.At, c.end = at, at
	var text strings.Builder
	add := func(t json.Token, at int) error {
		if _, ok := t.(string); !ok {
			return &NotebookError{at, fmt.Sprintf("cell %d: source holds something other than strings", index)}
		}
		end := int(r.dec.InputOffset()) - 1 // the closing quote
		c.pieces = appendDecoded(&text, c.pieces, r.data, at+1, end)
		c.end = end
		return nil
	}
	if t != json.Delim('[') {
		if err := add(t, at); err != nil {
			return err
		}
		c.Source = text.String()
		return nil
	}
	for {
		t, at, err := r.token()
		if err != nil {
			return err
		}
		if t == json.Delim(']') {
			c.Source = text.String()
			return nil
		}
		if err := add(t, at); err != nil {
			return err
		}
	}
}

// appendDecoded decodes the contents of a JSON string literal, the file's
// bytes [from, to) (already checked by the decoder), onto text, recording
// where each stretch of it came from.
func appendDecoded(text *strings.Builder, pieces []piece, data []byte, from, to int) []piece {
	plain := -1 // the start of the current run of plain bytes
	for i := from; i < to; {
		if data[i] != '\\' {
			if plain < 0 {
				plain = i
				pieces = append(pieces, piece{dec: text.Len(), raw: i})
			}
			text.WriteByte(data[i])
			i++
			continue
		}
		plain = -1
		pieces = append(pieces, piece{dec: text.Len(), raw: i, escape: true})
		if i+1 >= to {
			break
		}
		switch c := data[i+1]; c {
		case 'u':
			r, n := decodeUnicodeEscape(data[i:to])
			text.WriteRune(r)
			i += n
			continue
		case 'b':
			text.WriteByte('\b')
		case 'f':
			text.WriteByte('\f')
		case 'n':
			text.WriteByte('\n')
		case 'r':
			text.WriteByte('\r')
		case 't':
			text.WriteByte('\t')
		default: // " \ /
			text.WriteByte(c)
		}
		i += 2
	}
	return pieces
}

// decodeUnicodeEscape reads \uXXXX (and a low surrogate's \uXXXX after a
// high one) at the start of s: the rune, U+FFFD for a lone surrogate, and
// how many bytes it took.
func decodeUnicodeEscape(s []byte) (rune, int) {
	hex := func(s []byte) (rune, bool) {
		if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(s[2:6]), 16, 32)
		return rune(v), err == nil
	}
	r, ok := hex(s)
	if !ok {
		return utf8.RuneError, min(2, len(s))
	}
	if utf16.IsSurrogate(r) {
		if r2, ok := hex(s[6:]); ok {
			if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
				return pair, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

// FileOffset is the byte offset in the .ipynb file of the byte off of the
// cell's Source; off == len(Source) is the end of the last source string's
// contents. A byte written as an escape maps to the escape's backslash.
func (c *Cell) FileOffset(off int) int {
	if off >= len(c.Source) || len(c.pieces) == 0 {
		return c.end
	}
	off = max(off, 0)
	i := sort.Search(len(c.pieces), func(i int) bool { return c.pieces[i].dec > off }) - 1
	p := c.pieces[max(i, 0)]
	if p.escape {
		return p.raw
	}
	return p.raw + off - p.dec
}

// Position is the 1-based line and column (in code points) of a byte
// offset of the .ipynb file.
func (nb *Notebook) Position(fileOffset int) (line, column int) {
	if nb.lines == nil {
		nb.lines = []int{0}
		for i, b := range nb.data {
			if b == '\n' {
				nb.lines = append(nb.lines, i+1)
			}
		}
	}
	fileOffset = max(0, min(fileOffset, len(nb.data)))
	l := sort.SearchInts(nb.lines, fileOffset+1) - 1
	return l + 1, utf8.RuneCount(nb.data[nb.lines[l]:fileOffset]) + 1
}

// JoinCells joins notebook cells into one Python program, in order, the
// way Jupyter runs them: names bound in a cell are seen by the cells after
// it. Each cell starts on a line of its own (starts[i] is cell i's byte
// offset in text), and each is followed by a line break so no cell runs
// into the next; a cell's bytes are kept at the same offsets, so that
// positions map back by subtracting its start. IPython's own syntax is
// blanked to spaces (same length): a line magic or shell escape (a line
// whose first non-blank characters are % and a name, or ! but not !=) and
// the whole of a cell magic's cell (one that starts with %%).
func JoinCells(cells []string) (text string, starts []int) {
	var b strings.Builder
	n := 0
	for _, c := range cells {
		n += len(c) + 2
	}
	b.Grow(n)
	starts = make([]int, len(cells))
	for i, c := range cells {
		starts[i] = b.Len()
		b.WriteString(blankIPython(c))
		if strings.HasSuffix(c, "\r") {
			// "\r" then "\n" would read as one line break.
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String(), starts
}

// isIPythonLine reports whether a line (its indentation trimmed) is a
// line magic (%time, %%bash) or a shell escape (!ls), not the Python
// continuation of an expression (% 4, != b) inside brackets.
func isIPythonLine(line string) bool {
	switch {
	case strings.HasPrefix(line, "!"):
		return !strings.HasPrefix(line, "!=")
	case strings.HasPrefix(line, "%"):
		if len(line) < 2 {
			return false
		}
		c := line[1]
		return c == '%' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	return false
}

// blankIPython turns IPython's magics and shell escapes into spaces.
func blankIPython(cell string) string {
	if !strings.ContainsAny(cell, "%!") {
		return cell
	}
	whole := strings.HasPrefix(strings.TrimLeft(cell, " \t"), "%%")
	out := []byte(cell)
	for start := 0; start < len(out); {
		end := start
		for end < len(out) && out[end] != '\n' && out[end] != '\r' {
			end++
		}
		if whole || isIPythonLine(strings.TrimLeft(string(out[start:end]), " \t")) {
			for i := start; i < end; i++ {
				out[i] = ' '
			}
		}
		start = end + 1
	}
	return string(out)
}
