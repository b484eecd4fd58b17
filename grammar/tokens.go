package grammar

import "github.com/alecthomas/participle/v2/lexer"

func pos(p lexer.Position) Position {
	return Position{Offset: p.Offset, Line: p.Line, Column: p.Column}
}

func tokSpan(t lexer.Token) Range {
	return Range{Pos: pos(t.Pos), End: pos(tokenEnd(t))}
}

func join(a, b Range) Range { return Range{Pos: a.Pos, End: b.End} }

func quote(s string) string { return "'" + s + "'" }

// foundText names a token for a message: quoted text, or "end of input".
func foundText(t lexer.Token) string {
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
