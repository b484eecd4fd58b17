package analysis

import (
	"strings"

	"github.com/cute-lsp/cute-lsp/source"
)

// Definition is the binding a name in the code at off refers to, in the
// same file: the name bound by "auto x = ...", "using X = ...",
// "constexpr int k = ...", a function or def parameter, or a DSL
// assignment, as the binding visible at off (the latest one before it in
// its block). On a binding's own name it is that name. ok is false for a
// word that is no bound name here: a qualified or member name
// (cute::Int, x.shape's shape), a name in a comment or string, a name
// bound in another file.
func (c *Code) Definition(off int) (source.Range, bool) {
	if c == nil || off < 0 || off > len(c.src) {
		return source.Range{}, false
	}
	s, e := off, off
	for s > 0 && isIdentByte(c.src[s-1]) {
		s--
	}
	for e < len(c.src) && isIdentByte(c.src[e]) {
		e++
	}
	if s == e || c.src[s] >= '0' && c.src[s] <= '9' {
		return source.Range{}, false
	}
	if s > 0 && (c.src[s-1] == '.' || c.src[s-1] == ':') {
		return source.Range{}, false // a member or a qualified name
	}
	if c.inCommentOrString(s) {
		return source.Range{}, false
	}
	name := string(c.src[s:e])
	for _, b := range c.File.Bindings {
		if b.NameAt.Start == s && b.NameAt.End == e {
			return b.NameAt, true
		}
	}
	i, ok := c.lookup(name, s)
	if !ok {
		return source.Range{}, false
	}
	at := c.File.Bindings[i].NameAt
	if at.End <= at.Start {
		return source.Range{}, false // a binding the reader made without a name in the text
	}
	return at, true
}

// inCommentOrString reports whether off lies in a comment or a string
// literal of the file.
func (c *Code) inCommentOrString(off int) bool {
	var regions []region
	if c.python {
		regions = pythonRegions(string(c.src))
	} else {
		regions = cppRegions(string(c.src))
	}
	for _, r := range regions {
		if r.start-1 <= off && off <= r.end {
			return true
		}
		if r.start > off {
			break
		}
	}
	return false
}

// References are the places in the file that name the binding the name at
// off refers to (the one Definition gives): every read of the name that
// resolves to that binding, and with includeDecl the binding's own name.
// A later binding of the same name is another binding (its reads are its
// own); names in comments and strings, members and qualified names are
// none. Nil where Definition has no answer.
func (c *Code) References(off int, includeDecl bool) []source.Range {
	def, ok := c.Definition(off)
	if !ok {
		return nil
	}
	target := -1
	for i, b := range c.File.Bindings {
		if b.NameAt == def {
			target = i
			break
		}
	}
	if target < 0 {
		return nil
	}
	name := string(c.src[def.Start:def.End])
	var regions []region
	if c.python {
		regions = pythonRegions(string(c.src))
	} else {
		regions = cppRegions(string(c.src))
	}
	bindingAt := map[int]bool{}
	for _, b := range c.byName[name] {
		bindingAt[c.File.Bindings[b].NameAt.Start] = true
	}
	var out []source.Range
	text := string(c.src)
	for from, k := 0, 0; ; {
		i := strings.Index(text[from:], name)
		if i < 0 {
			break
		}
		s, e := from+i, from+i+len(name)
		from = e
		if s > 0 && (isIdentByte(text[s-1]) || text[s-1] == '.' || text[s-1] == ':') || e < len(text) && isIdentByte(text[e]) {
			continue // part of a longer word, a member or a qualified name
		}
		for k < len(regions) && regions[k].end < s {
			k++
		}
		if k < len(regions) && regions[k].start-1 <= s {
			continue // in a comment or a string
		}
		switch {
		case s == def.Start:
			if includeDecl {
				out = append(out, def)
			}
		case bindingAt[s]:
			// another binding of the name
		default:
			if j, ok := c.lookup(name, s); ok && j == target {
				out = append(out, source.Range{Start: s, End: e})
			}
		}
	}
	return out
}
