package analysis

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/source"
)

// CodeHover is what a hover on code shows: the value (At), the operation
// and operands of a hovered call (for the construction steps sheets show
// for compositions, divides and products), and how far the value holds
// where it is hovered.
type CodeHover struct {
	CodeValue
	Op   string         // the hovered call's operation, "" for a name or a non-call
	Args []layout.Value // its operands, as the table applies them
	// Note says, where a name the value reads is bound or changed again,
	// whether the value shown is the one at this point or may not be the
	// one that reaches it (the condition that holds findings back:
	// code_trust.go).
	Note string
}

// HoverAt is the hover of the code at off; ok is false where At has no value.
func (c *Code) HoverAt(off int) (CodeHover, bool) {
	cv, ok := c.At(off)
	if !ok {
		return CodeHover{}, false
	}
	h := CodeHover{CodeValue: cv}
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, ok := c.hoveredBinding(cv); ok {
		h.Note = c.bindingNote(i, cv.Start)
		return h, true
	}
	n := c.nodeSpanning(cv.Start, cv.End)
	if n == nil {
		return h, true
	}
	if call, ok := n.(*source.Call); ok {
		if op, args, ok := c.operands(call); ok {
			h.Op, h.Args = op, args
		}
	}
	if !c.trusted(n) {
		h.Note = "**may not be the value here:** it reads a name that is bound or changed again where the reader cannot tell which binding reaches here (a branch, a loop, an #if alternative); shown is the value of the bindings it reads"
	}
	return h, true
}

// hoveredBinding is the binding a hovered name refers to (its own, or
// the one visible where it is read); ok is false for a hovered expression.
func (c *Code) hoveredBinding(cv CodeValue) (int, bool) {
	if cv.Name == "" || cv.End-cv.Start != len(cv.Name) {
		return 0, false // no name, or a qualified or dotted one (cute::_8, L.shape)
	}
	for i, b := range c.File.Bindings {
		if b.NameAt.Start == cv.Start && b.NameAt.End == cv.End {
			return i, true
		}
	}
	return c.lookup(cv.Name, cv.Start)
}

// bindingNote is the note of a hover at use on a name bound by binding i:
// "may not be the value here" where the binding's value may not be the one
// that reaches use (what holds a finding back), "the value at this point"
// where the name is bound or changed again after use.
func (c *Code) bindingNote(i, use int) string {
	b := c.File.Bindings[i]
	if !c.bindingTrusted(i, use) || !c.valueTrusted(i, map[int]bool{i: true}, 0) {
		other, ok := c.otherWrite(i, b.NameAt.End, b.Visible.End, false)
		if !ok {
			other, ok = c.otherWrite(i, 0, b.NameAt.Start, true) // a binding before it in its block
		}
		where := ""
		if ok {
			where = fmt.Sprintf(" (line %d)", c.position(other).Line)
		}
		return fmt.Sprintf("**may not be the value here:** `%s` is bound or changed again%s where the reader cannot tell which binding reaches here (a branch, a loop, an #if alternative); shown is the value of its binding on line %d", b.Name, where, c.position(b.NameAt.Start).Line)
	}
	if other, ok := c.otherWrite(i, max(use, b.NameAt.End), b.Visible.End, false); ok {
		return fmt.Sprintf("the value at this point: `%s` is bound or changed again on line %d", b.Name, c.position(other).Line)
	}
	return ""
}

// otherWrite is the first place in [from, to) where binding i's name is
// bound again in its block (C++) or scope (Python), or (unless
// bindingsOnly) written to.
func (c *Code) otherWrite(i, from, to int, bindingsOnly bool) (int, bool) {
	b := c.File.Bindings[i]
	first, found := 0, false
	consider := func(at int) {
		if from <= at && at < to && (!found || at < first) {
			first, found = at, true
		}
	}
	for _, j := range c.byName[b.Name] {
		other := c.File.Bindings[j]
		if j != i && (c.python || other.Visible.End == b.Visible.End) {
			consider(other.NameAt.Start)
		}
	}
	if !bindingsOnly {
		for _, w := range c.writesOf(b.Name) {
			consider(w.Start)
		}
	}
	return first, found
}

// nodeSpanning is the outermost node whose span is [start, end).
func (c *Code) nodeSpanning(start, end int) source.Node {
	for _, root := range c.rootsAt(start) {
		for _, n := range source.Path(root, start) {
			if s, e := n.Span(); s == start && e == end {
				return n
			}
		}
	}
	return nil
}
