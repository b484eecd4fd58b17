package lsp

import (
	"slices"
	"strings"
)

// Apply returns the snapshot that results from applying changes, in order, to
// s. Each change's positions are read against the text left by the ones
// before it, as the protocol says; out-of-range positions clamp.
//
// A didChange may carry thousands of range edits (a multi-cursor edit, a
// replace-all); copying the text and indexing its lines again for each one
// made that quadratic, in the read loop that every other message waits
// behind. The edits are applied instead to the text held as a list of
// lines, where one costs its own lines (and moving the list's tail when it
// adds or removes lines), and the text is joined once at the end.
func (s *Snapshot) Apply(version int32, changes []Change, enc Encoding) *Snapshot {
	if len(changes) == 1 && !changes[0].Whole {
		// One edit: one copy of the text is all it costs anyway.
		c := changes[0]
		start, end := s.Offset(c.Start, enc), s.Offset(c.End, enc)
		if end < start {
			start, end = end, start
		}
		var b strings.Builder
		b.Grow(len(s.Text) - (end - start) + len(c.Text))
		b.WriteString(s.Text[:start])
		b.WriteString(c.Text)
		b.WriteString(s.Text[end:])
		return NewSnapshot(s.URI, version, s.Kind, b.String())
	}
	doc := newLineDoc(s.Text)
	for _, c := range changes {
		if c.Whole {
			doc = newLineDoc(c.Text)
			continue
		}
		doc.replace(c.Start, c.End, c.Text, enc)
	}
	return NewSnapshot(s.URI, version, s.Kind, doc.String())
}

// lineDoc is a text as its lines, each with its line break ("\n", "\r\n" or
// "\r"); the last line has none and may be empty, so a text has as many
// lines here as a Snapshot of it counts.
type lineDoc struct {
	lines []string
	size  int
}

func newLineDoc(text string) *lineDoc {
	return &lineDoc{lines: splitLines(text, nil, true), size: len(text)}
}

// splitLines appends to out the lines of text, each with its break. The
// text after the last break is appended when keepRest is set, or when it
// is not empty.
func splitLines(text string, out []string, keepRest bool) []string {
	for {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			break
		}
		end := i + 1
		if text[i] == '\r' && end < len(text) && text[end] == '\n' {
			end++
		}
		out = append(out, text[:end])
		text = text[end:]
	}
	if keepRest || text != "" {
		out = append(out, text)
	}
	return out
}

// content is a line without its break.
func content(line string) string {
	line = strings.TrimSuffix(line, "\n")
	return strings.TrimSuffix(line, "\r")
}

// locate is the line and byte offset in it of position p, clamped as
// Snapshot.Offset clamps.
func (d *lineDoc) locate(p Position, enc Encoding) (line, off int) {
	if p.Line < 0 {
		return 0, 0
	}
	if p.Line >= len(d.lines) {
		last := len(d.lines) - 1
		return last, len(d.lines[last])
	}
	return p.Line, characterOffset(content(d.lines[p.Line]), p.Character, enc)
}

// replace replaces the text between two positions with text.
func (d *lineDoc) replace(start, end Position, text string, enc Encoding) {
	l1, o1 := d.locate(start, enc)
	l2, o2 := d.locate(end, enc)
	if l2 < l1 || l2 == l1 && o2 < o1 {
		l1, o1, l2, o2 = l2, o2, l1, o1
	}
	tail := d.lines[l2][o2:]
	prefix := d.lines[l1][:o1]
	// A "\n" brought right after a line ending in "\r" joins its break:
	// that line is rebuilt too.
	first := tail
	if text != "" {
		first = text
	}
	if prefix == "" && l1 > 0 && strings.HasPrefix(first, "\n") && strings.HasSuffix(d.lines[l1-1], "\r") {
		l1--
		prefix = d.lines[l1]
	}
	removed := 0
	for _, l := range d.lines[l1 : l2+1] {
		removed += len(l)
	}
	joined := prefix + text + tail
	last := l2 == len(d.lines)-1
	if l1 == l2 && !strings.ContainsAny(text, "\r\n") {
		// Typing inside a line: no break comes or goes, the list keeps
		// its shape.
		d.lines[l1] = joined
	} else {
		d.lines = slices.Replace(d.lines, l1, l2+1, splitLines(joined, nil, last)...)
	}
	d.size += len(joined) - removed
}

func (d *lineDoc) String() string {
	var b strings.Builder
	b.Grow(d.size)
	for _, l := range d.lines {
		b.WriteString(l)
	}
	return b.String()
}
