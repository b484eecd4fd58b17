package analysis

import (
	"strings"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/source"
)

// Layout comments beside code: "auto sA = make_layout(...); // (_8,_4):(_4,_1)"
// (the comment on the binding's last line, or a comment line of its own
// just above the binding) states the binding's value. When the comment
// clearly states a layout and the code evaluates to a different one, the
// comment is stale: a warning on the comment's descriptor, with a fix
// writing the value as CuTe prints it.
//
// "Clearly" means: the comment holds one descriptor, a layout or a
// swizzled layout; before it in the comment stands nothing, "=", or the
// binding's name with ":" or "="; after it nothing but punctuation. The
// values are compared as CuTe prints them, but without static marks ("_8"
// and "8" agree: a comment need not say which integers are static) and
// with a tuple of one element read as its element ("(8):(1)" and "8:1"
// agree). A value of another kind (the comment states the inner layout of
// a swizzled one) is not compared.

// commentLayout is a descriptor in a comment, as a candidate statement of
// a binding's value.
type commentLayout struct {
	d      *Descriptor
	region region
}

// staleComments are the warnings on layout comments that disagree with
// their binding's value.
func (h *Host) staleComments(c *Code) []Finding {
	if c == nil || len(h.Descriptors) == 0 {
		return nil
	}
	comments := h.commentLayouts()
	if len(comments) == 0 {
		return nil
	}
	c = c.whole() // a binding only the comment reads
	byLine := map[int]commentLayout{}
	for _, cl := range comments {
		byLine[int(cl.d.Range.Pos.Line)] = cl
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Finding
	claimed := map[*Descriptor]bool{}
	for i, b := range c.File.Bindings {
		if b.Value == nil || b.Template || b.Unknown || b.NameAt.End <= b.NameAt.Start || c.File.DisabledAt(b.NameAt.Start) {
			continue
		}
		cl, ok := c.bindingComment(b, byLine)
		if !ok || claimed[cl.d] {
			continue
		}
		claimed[cl.d] = true
		v, err := c.binding(i, 0)
		if err != nil || !knownValue(v) || !c.trusted(b.Value) {
			continue
		}
		stated, ok := comparable(cl.d.Value, v)
		if !ok || stated == unmarkedForm(v) {
			continue
		}
		written := string(h.Src[cl.d.Range.Pos.Offset:cl.d.Range.End.Offset])
		// The comment writes no static marks: the fix keeps its style.
		marks := strings.Contains(written, "_")
		f := Finding{
			Range:    cl.d.Range,
			Severity: SeverityWarning,
			Code:     CodeStaleComment,
			Message:  CapMessage("the comment says " + written + " but " + b.Name + " is " + showCode(v) + " (as CuTe prints it)"),
			Related:  []Related{{Range: c.rangeOf(b.NameAt.Start, b.NameAt.End), Message: b.Name + " = " + showCode(v)}},
		}
		if fix, ok := editText(v, marks); ok {
			f.Fixes = []Fix{{Title: "Write " + layout.FormatLimited(v, marks, ShowDetailBytes).String() + " (the value of " + b.Name + ")",
				Edits: []Edit{{Range: cl.d.Range, NewText: fix}}}}
		}
		out = append(out, f)
	}
	return out
}

// bindingComment is the layout comment of a binding: on the line where its
// statement ends, after it, or alone on the line just above its name.
func (c *Code) bindingComment(b source.Binding, byLine map[int]commentLayout) (commentLayout, bool) {
	_, valueEnd := b.Value.Span()
	end := c.position(valueEnd)
	if cl, ok := byLine[int(end.Line)]; ok && int(cl.d.Range.Pos.Offset) >= valueEnd && c.onlyStatementBefore(valueEnd, cl.region.start) {
		return cl, c.clearlyStates(cl, b.Name)
	}
	name := c.position(b.NameAt.Start)
	if cl, ok := byLine[int(name.Line)-1]; ok && c.commentLine(cl.region.start) {
		return cl, c.clearlyStates(cl, b.Name)
	}
	return commentLayout{}, false
}

// onlyStatementBefore reports whether between a binding's value and a
// comment there is nothing but the statement's end (";", ")", "}", ",",
// blanks and the comment's opener).
func (c *Code) onlyStatementBefore(from, to int) bool {
	if to < from {
		return false
	}
	for _, ch := range string(c.src[from:to]) {
		if !strings.ContainsRune(" \t;{}),/#*", ch) {
			return false
		}
	}
	return true
}

// commentLine reports whether the line holding off (a comment's start)
// holds nothing but the comment.
func (c *Code) commentLine(off int) bool {
	start := off
	for start > 0 && c.src[start-1] != '\n' {
		start--
	}
	before := strings.TrimSpace(string(c.src[start:off]))
	return before == "//" || before == "#" || before == "/*" || before == "///" || before == "*"
}

// clearlyStates reports whether the comment states a value and nothing
// else: nothing, "=", or the binding's name with ":" or "=" before the
// descriptor, and nothing but punctuation after it.
func (c *Code) clearlyStates(cl commentLayout, name string) bool {
	body := string(c.src[cl.region.start:cl.region.end])
	start, end := int(cl.d.Range.Pos.Offset)-cl.region.start, int(cl.d.Range.End.Offset)-cl.region.start
	if start < 0 || end > len(body) || strings.Contains(body[:start], "\n") || strings.Contains(body[end:], "\n") && strings.TrimSpace(body[end:]) != "" {
		return false
	}
	before := strings.TrimSpace(strings.TrimLeft(body[:start], " \t/*#!<"))
	switch before {
	case "", "=", name + ":", name + " :", name + "=", name + " =":
	default:
		return false
	}
	after := strings.TrimSpace(strings.TrimRight(body[end:], " \t*/"))
	return after == "" || after == "." || after == ";" || after == ","
}

// commentLayouts are the descriptors of the file's comments (not string
// literals) that are alone in their comment and read as a layout or a
// swizzled layout with a value. The comment of each is the region the
// scan found it in (Descriptor.in): the file is not split into comments
// and literals a second time.
func (h *Host) commentLayouts() []commentLayout {
	if h.Language != LangCpp && h.Language != LangPython {
		return nil
	}
	var out []commentLayout
	for k := 0; k < len(h.Descriptors); {
		d, n := h.Descriptors[k], 1
		for k+n < len(h.Descriptors) && h.Descriptors[k+n].in == d.in {
			n++
		}
		k += n
		if d.in.literal || n != 1 || d.Err != nil {
			continue
		}
		switch d.Node.(type) {
		case *grammar.Layout, *grammar.Composed:
			out = append(out, commentLayout{d: d, region: d.in})
		}
	}
	return out
}

// comparable is the comment's value as compared (unmarkedForm) when it
// and the code's value are of one kind: layouts, or swizzled layouts.
func comparable(stated, code layout.Value) (string, bool) {
	switch stated.(type) {
	case *layout.Layout:
		if _, ok := code.(*layout.Layout); ok {
			return unmarkedForm(stated), true
		}
	case layout.Composed:
		if _, ok := code.(layout.Composed); ok {
			return unmarkedForm(stated), true
		}
	}
	return "", false
}

// unmarkedForm is v as compared with a comment: printed without static
// marks, a tuple of one element as that element.
func unmarkedForm(v layout.Value) string {
	switch v := v.(type) {
	case *layout.Layout:
		return unwrapped(v.Shape).String() + ":" + unwrapped(v.Stride).String()
	case layout.Composed:
		return v.Outer.String() + " o " + unwrapped(v.Offset).String() + " o " + unmarkedForm(layout.Box(v.Inner))
	}
	return v.String()
}

// unwrapped is t with every tuple of one element replaced by its element.
func unwrapped(t layout.IntTuple) layout.IntTuple {
	if !t.IsTuple() {
		return t
	}
	es := t.Elems()
	if len(es) == 1 {
		return unwrapped(es[0])
	}
	out := make([]layout.IntTuple, len(es))
	for i, e := range es {
		out[i] = unwrapped(e)
	}
	return layout.Tup(out...)
}
