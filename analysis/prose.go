package analysis

import (
	"strings"

	"github.com/cute-lsp/cute-lsp/grammar"
)

// The rules that tell a descriptor written in a comment or a string from
// the prose around it (see the package doc, "Host files").

// standsAlone reports whether the candidate body[start:end] ends its line
// (but for one closing punctuation mark) and nothing but comment marks
// ("//", "*", "#", "///<") or text that introduces it with ':' or '='
// comes before it on its line: "// (4,8):(1,4)", "// mA: gmem_ptr[16b](A)
// o L", "# bad swizzle: Sw<3,2,1> o _0 o L", "layout = (4,8):(1,4)". Such a
// descriptor is unmistakably one; a candidate inside a sentence may be the
// sentence's own brackets.
func standsAlone(body string, start, end int) bool {
	lineStart := strings.LastIndexByte(body[:start], '\n') + 1
	lineEnd := strings.IndexByte(body[end:], '\n')
	if lineEnd < 0 {
		lineEnd = len(body) - end
	}
	after := strings.TrimSpace(body[end : end+lineEnd])
	if len(after) > 1 || after != "" && !strings.Contains(".,;", after) {
		return false
	}
	before := strings.TrimSpace(strings.TrimLeft(body[lineStart:start], " \t/*#!<"))
	return before == "" || strings.HasSuffix(before, ":") || strings.HasSuffix(before, "=")
}

// inProse lowers a finding about a descriptor that does not stand alone to
// a warning: "(4,8):(1,4,2)" inside a sentence is worth a look but may be
// the sentence's own brackets, so it never fails a lint run.
func inProse(f Finding, alone bool) Finding {
	if !alone && f.Severity == SeverityError {
		f.Severity = SeverityWarning
	}
	return f
}

// speaksOfBits reports whether a comment or string is about bit fields: it
// has a word that starts with "bit" (bits, 32-bit, Bits, bitfield; not
// arbitrary) or writes a range down to bit 0 ("[15:0]"). There "[hi:lo]"
// is a bit range, not a tiler.
func speaksOfBits(body string) bool {
	for i := 0; i+3 <= len(body); i++ {
		if strings.EqualFold(body[i:i+3], "bit") && (i == 0 || !isLetterByte(body[i-1])) {
			return true
		}
	}
	for from := 0; ; {
		i := strings.Index(body[from:], ":0]")
		if i < 0 {
			return false
		}
		i += from
		j := i
		for j > 0 && body[j-1] >= '0' && body[j-1] <= '9' {
			j--
		}
		if j < i && j > 0 && body[j-1] == '[' {
			return true
		}
		from = i + 1
	}
}

// isLetterByte reports whether c is an ASCII letter.
func isLetterByte(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// bitRange reports whether n is written like a bit range, "[hi:lo]": a
// tiler of one mode, two plain integers with hi >= lo.
func bitRange(n grammar.Node) bool {
	t, ok := n.(*grammar.Tiler)
	if !ok || len(t.Modes) != 1 {
		return false
	}
	l, ok := t.Modes[0].(*grammar.Layout)
	if !ok {
		return false
	}
	hi, ok1 := l.Shape.(*grammar.Int)
	lo, ok2 := l.Stride.(*grammar.Int)
	return ok1 && ok2 && !hi.Static && !lo.Static && hi.Value >= lo.Value
}

// rangeFromZero reports whether l, a mode of a tiler, is written like a
// range of values starting at zero or below, "[0:448]" ("Range: [0:448]"
// in CUTLASS's float8.h): two plain integers, the first not positive. As a
// tiler it would be a mode of no element, which no one writes.
func rangeFromZero(l *grammar.Layout) bool {
	lo, ok1 := l.Shape.(*grammar.Int)
	_, ok2 := l.Stride.(*grammar.Int)
	return ok1 && ok2 && !lo.Static && lo.Value <= 0
}
