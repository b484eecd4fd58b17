package lsp

import (
	"context"
	"path"
	"strings"
	"sync"
	"unicode/utf8"
)

// Kind is what sort of document a snapshot holds; features decide from it
// where descriptors can appear (a whole sheet, MLIR types, or comments and
// strings of host code).
type Kind int

const (
	KindUnknown Kind = iota
	KindSheet        // .cute layout sheet
	KindMLIR         // .mlir
	KindCpp          // C++/CUDA host code
	KindPython       // Python host code
)

func (k Kind) String() string {
	switch k {
	case KindSheet:
		return "sheet"
	case KindMLIR:
		return "mlir"
	case KindCpp:
		return "cpp"
	case KindPython:
		return "python"
	}
	return "unknown"
}

// KindOf classifies a document by the extension of its URI, falling back to
// the editor's language id for buffers without a telling name.
func KindOf(uri, languageID string) Kind {
	switch strings.ToLower(path.Ext(uri)) {
	case ".cute":
		return KindSheet
	case ".mlir":
		return KindMLIR
	case ".cu", ".cuh", ".cpp", ".hpp", ".h", ".cc":
		return KindCpp
	case ".py":
		return KindPython
	}
	switch languageID {
	case "cute":
		return KindSheet
	case "mlir":
		return KindMLIR
	case "cpp", "c", "cuda", "cuda-cpp":
		return KindCpp
	case "python":
		return KindPython
	}
	return KindUnknown
}

// Encoding is the unit LSP positions count characters in, as negotiated at
// initialize.
type Encoding int

const (
	UTF16 Encoding = iota // the protocol's default
	UTF8
	UTF32
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case UTF32:
		return "utf-32"
	}
	return "utf-16"
}

// Position is an LSP position: a 0-based line and a 0-based character
// counted in the session's Encoding.
type Position struct {
	Line, Character int
}

// Span is a half-open byte range [Start, End) of a snapshot's text.
type Span struct {
	Start, End int
}

// Contains reports whether offset lies in s, its end included (a cursor just
// after a word still touches it).
func (s Span) Contains(offset int) bool { return s.Start <= offset && offset <= s.End }

// Overlaps reports whether s and o share a point, counting touching ends.
func (s Span) Overlaps(o Span) bool { return s.Start <= o.End && o.Start <= s.End }

// Snapshot is one immutable version of a document. Features are pure
// functions of it, so it can be read by any number of requests at once.
type Snapshot struct {
	URI     string
	Version int32
	Kind    Kind
	Text    string
	// lineStarts[i] is the byte offset where line i starts; lineStarts[0] is 0.
	lineStarts []int

	memoMu sync.Mutex
	memo   map[any]*memoEntry
}

type memoEntry struct {
	done     chan struct{} // closed once value or panicked is set
	value    any
	panicked any // what compute panicked with, if it did
}

// Memo returns compute's value for key, computing it once per snapshot: a
// parse or an analysis done for one request is shared by every later request
// on the same version. compute must be a pure function of the snapshot.
func (s *Snapshot) Memo(key any, compute func() any) any {
	v, _ := s.MemoContext(context.Background(), key, compute)
	return v
}

// MemoContext is Memo for a caller that may be cancelled: it stops waiting
// for the value when ctx ends, returning ctx's error. The computation is
// shared by every caller, so it is not cancelled with one: it goes on, on
// a goroutine of its own, for the others and for the next request.
func (s *Snapshot) MemoContext(ctx context.Context, key any, compute func() any) (any, error) {
	s.memoMu.Lock()
	if s.memo == nil {
		s.memo = map[any]*memoEntry{}
	}
	e, ok := s.memo[key]
	if !ok {
		e = &memoEntry{done: make(chan struct{})}
		s.memo[key] = e
	}
	s.memoMu.Unlock()
	if !ok {
		run := func() {
			defer close(e.done)
			defer func() {
				if r := recover(); r != nil {
					e.panicked = r
				}
			}()
			e.value = compute()
		}
		if ctx.Done() == nil {
			run()
		} else {
			go run()
		}
	}
	select {
	case <-e.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if e.panicked != nil {
		// Every caller fails as the first did, each recovered by its own
		// request, rather than reading a missing value.
		panic(e.panicked)
	}
	return e.value, nil
}

// NewSnapshot indexes text's lines. Line ends are "\n", "\r\n" and "\r", as
// the protocol defines them.
func NewSnapshot(uri string, version int32, kind Kind, text string) *Snapshot {
	return &Snapshot{URI: uri, Version: version, Kind: kind, Text: text, lineStarts: lineStarts(text)}
}

func lineStarts(text string) []int {
	starts := make([]int, 1, 1+strings.Count(text, "\n"))
	if strings.IndexByte(text, '\r') < 0 {
		// The common case: "\n" alone, found with IndexByte's vector loop.
		for i := 0; ; {
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				return starts
			}
			i += j + 1
			starts = append(starts, i)
		}
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// LineCount is the number of lines; a text ending in a line break has an
// empty last line.
func (s *Snapshot) LineCount() int { return len(s.lineStarts) }

// LineSpan is the byte range of line i without its line break. A line past
// the end is the empty span at the end of the text.
func (s *Snapshot) LineSpan(i int) Span {
	if i < 0 {
		i = 0
	}
	if i >= len(s.lineStarts) {
		return Span{len(s.Text), len(s.Text)}
	}
	start := s.lineStarts[i]
	end := len(s.Text)
	if i+1 < len(s.lineStarts) {
		end = s.lineStarts[i+1]
		if end > start && s.Text[end-1] == '\n' {
			end--
		}
		if end > start && s.Text[end-1] == '\r' {
			end--
		}
	}
	return Span{start, end}
}

// Line is the text of line i without its line break.
func (s *Snapshot) Line(i int) string {
	sp := s.LineSpan(i)
	return s.Text[sp.Start:sp.End]
}

// LineOf is the line holding byte offset off (clamped to the text).
func (s *Snapshot) LineOf(off int) int {
	return s.lineFrom(0, max(0, min(off, len(s.Text))))
}

// lineFrom is LineOf of offset off (within the text), which is on line lo
// or after it.
func (s *Snapshot) lineFrom(lo, off int) int {
	hi := len(s.lineStarts) - 1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s.lineStarts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// Offset converts an LSP position to a byte offset. Positions past the end
// of a line clamp to the line's end, lines past the end of the text clamp to
// the text's end, and a character inside a multi-unit character clamps to
// that character's start: a client can never make it index out of range.
func (s *Snapshot) Offset(p Position, enc Encoding) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(s.lineStarts) {
		return len(s.Text)
	}
	line := s.LineSpan(p.Line)
	return line.Start + characterOffset(s.Text[line.Start:line.End], p.Character, enc)
}

// characterOffset is the byte offset in line (a line's text without its
// break) of the character-th character counted in enc, clamped to the
// line's end and to the start of a character it falls inside.
func characterOffset(line string, character int, enc Encoding) int {
	if character <= 0 {
		return 0
	}
	if enc == UTF8 {
		off := min(character, len(line))
		for off > 0 && off < len(line) && !utf8.RuneStart(line[off]) {
			off--
		}
		return off
	}
	units := 0
	for i, r := range line {
		w := 1
		if enc == UTF16 && r >= 0x10000 {
			w = 2
		}
		if units+w > character {
			return i
		}
		units += w
	}
	return len(line)
}

// Position converts a byte offset (clamped to the text) to an LSP position.
// An offset inside a line break counts as the end of that line, one inside
// a multi-byte character as that character's start.
func (s *Snapshot) Position(off int, enc Encoding) Position {
	off = max(0, min(off, len(s.Text)))
	return s.positionOnLine(off, s.LineOf(off), enc)
}

// positionOnLine is Position of offset off (within the text), which is on
// line line.
func (s *Snapshot) positionOnLine(off, line int, enc Encoding) Position {
	sp := s.LineSpan(line)
	off = min(off, sp.End)
	for off > sp.Start && off < sp.End && !utf8.RuneStart(s.Text[off]) {
		off--
	}
	seg := s.Text[sp.Start:off]
	switch enc {
	case UTF8:
		return Position{line, len(seg)}
	case UTF32:
		return Position{line, utf8.RuneCountInString(seg)}
	}
	n := 0
	for _, r := range seg {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return Position{line, n}
}

// WordAt is the span of the identifier ([A-Za-z0-9_]) around offset off, or
// an empty span at off when there is none.
func (s *Snapshot) WordAt(off int) Span {
	off = max(0, min(off, len(s.Text)))
	start, end := off, off
	for start > 0 && isWordByte(s.Text[start-1]) {
		start--
	}
	for end < len(s.Text) && isWordByte(s.Text[end]) {
		end++
	}
	return Span{start, end}
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
