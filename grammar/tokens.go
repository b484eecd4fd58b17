package grammar

func tokSpan(t token) Range {
	return Range{Pos: t.Pos, End: tokenEnd(t)}
}

func join(a, b Range) Range { return Range{Pos: a.Pos, End: b.End} }

func quote(s string) string { return "'" + s + "'" }

// foundText names a token for a message: quoted text, or "end of input".
func foundText(t token) string {
	switch {
	case t.EOF():
		return "end of input"
	case t.Type == tokNewline || t.Type == tokEnd:
		return "end of line"
	}
	v := t.Value
	if len(v) > 40 {
		v = v[:37] + "..."
	}
	return quote(v)
}
