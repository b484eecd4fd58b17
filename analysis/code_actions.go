package analysis

import (
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/source"
)

// Refactors of code at an offset:
//
//   - on a binding with a value: write the value as a comment after the
//     statement ("auto sA = make_layout(...);  // (_8,_4):(_1,_8)"), which
//     stale-comment then keeps honest;
//   - on a static layout type, Layout<Shape<_8,_4>, Stride<_4,_1>> (a
//     value when constructed with {}, a type otherwise): the same layout
//     as make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{})),
//     inside decltype(...) where a type stands;
//   - on make_layout(...) with a static value: the Layout<...> type ({}
//     constructing it; a decltype(make_layout(...)) becomes the type).
//
// Each is offered only for a value the code has for certain (trusted, no
// unknown integer), and each rewrite evaluates back to the same layout.
func (c *Code) Refactors(off int) []Refactor {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Refactor
	if r, ok := c.valueComment(off); ok {
		out = append(out, r)
	}
	if !c.python {
		out = append(out, c.layoutRewrites(off)...)
	}
	return out
}

// valueComment is the refactor writing the value of the binding whose
// statement holds off as a comment after it.
func (c *Code) valueComment(off int) (Refactor, bool) {
	if off < 0 || off > len(c.src) {
		return Refactor{}, false
	}
	offLineEnd := off
	for offLineEnd < len(c.src) && c.src[offLineEnd] != '\n' {
		offLineEnd++
	}
	for i, b := range c.File.Bindings {
		if b.Value == nil || b.Template || b.Unknown || b.NameAt.End <= b.NameAt.Start {
			continue
		}
		_, valueEnd := b.Value.Span()
		// off lies in the statement: from its name (or earlier on the
		// name's line: "auto", "using") to the end of its value.
		if !(b.NameAt.Start <= off && off <= valueEnd || off < b.NameAt.Start && b.NameAt.Start < offLineEnd) {
			continue
		}
		lineEnd := valueEnd
		for lineEnd < len(c.src) && c.src[lineEnd] != '\n' {
			lineEnd++
		}
		rest := strings.TrimRight(string(c.src[valueEnd:lineEnd]), " \t\r")
		if strings.Trim(rest, ";)") != "" {
			return Refactor{}, false // a comment or more code after the statement
		}
		v, err := c.binding(i, 0)
		if err != nil || !knownValue(v) || !c.trusted(b.Value) || c.File.DisabledAt(b.NameAt.Start) {
			return Refactor{}, false
		}
		text, ok := codeText(v)
		if !ok {
			return Refactor{}, false
		}
		opener := "  // "
		if c.python {
			opener = "  # "
		}
		blanksEnd := lineEnd
		if blanksEnd > valueEnd && c.src[blanksEnd-1] == '\r' {
			blanksEnd--
		}
		at := c.rangeOf(valueEnd+len(rest), blanksEnd) // trailing blanks replaced
		return Refactor{Kind: "refactor.rewrite", Fix: Fix{
			Title: "Write the value of " + b.Name + " as a comment: " + strings.TrimSpace(opener) + " " + showCode(v),
			Edits: []Edit{{Range: at, NewText: opener + text}},
		}}, true
	}
	return Refactor{}, false
}

// codeText is v as CuTe prints it, whole, for an edit (ok false when it
// is longer than an edit may be).
func codeText(v layout.Value) (string, bool) {
	switch v.(type) {
	case layout.IntTuple, layout.Layout, layout.Composed:
		return editText(v, true)
	}
	s := CuTePrint(v)
	return s, len(s) <= maxEditBytes
}

// layoutRewrites are the Layout<...> <-> make_layout(...) rewrites of the
// innermost such expression at off.
func (c *Code) layoutRewrites(off int) []Refactor {
	for _, root := range c.rootsAt(off) {
		path := source.Path(root, off)
		for k := len(path) - 1; k >= 0; k-- {
			call, ok := path[k].(*source.Call)
			if !ok || call.Recv != nil || !c.cuteQualified(call.Fun) {
				continue
			}
			switch {
			case call.Fun.Name == "Layout" && call.HasTArgs && !call.Paren && len(call.Args) == 0:
				return c.typeToCall(call)
			case call.Fun.Name == "make_layout" && call.Paren:
				return c.callToType(call)
			}
		}
	}
	return nil
}

// staticLayout is the value of n when it is a layout of static plain
// integers the code has for certain.
func (c *Code) staticLayout(n source.Node) (layout.Layout, bool) {
	v, err := c.eval(n, nil, 0)
	if err != nil {
		return layout.Layout{}, false
	}
	l, ok := v.(layout.Layout)
	if !ok || !staticValue(l) || !plainTuple(l.Shape) || !plainTuple(l.Stride) || !c.trusted(n) {
		return layout.Layout{}, false
	}
	return l, true
}

// typeToCall rewrites Layout<S, D>{} as make_layout(make_shape(...),
// make_stride(...)), and the type Layout<S, D> as decltype(make_layout(...)).
func (c *Code) typeToCall(n *source.Call) []Refactor {
	l, ok := c.staticLayout(n)
	if !ok {
		return nil
	}
	q := cuteQualifier(n.Fun)
	text := q + "make_layout(" + tupleCall(q+"make_shape", l.Shape) + ", " + tupleCall(q+"make_stride", l.Stride) + ")"
	title := "Write as a make_layout call"
	if !n.Braced {
		text = "decltype(" + text + ")"
		title = "Write as decltype(make_layout(...))"
	}
	return c.checkedRewrite(n.Start, n.End, text, title, l, n.Braced)
}

// callToType rewrites make_layout(...) with a static value as the
// Layout<...>{} it constructs; decltype(make_layout(...)) as the type.
func (c *Code) callToType(n *source.Call) []Refactor {
	l, ok := c.staticLayout(n)
	if !ok {
		return nil
	}
	q := cuteQualifier(n.Fun)
	typ := q + "Layout<" + tupleType(q+"Shape", l.Shape) + ", " + tupleType(q+"Stride", l.Stride) + ">"
	start, end := n.Start, n.End
	before := strings.TrimRight(string(c.src[:start]), " \t")
	after := strings.TrimLeft(string(c.src[end:]), " \t")
	if strings.HasSuffix(before, "decltype(") && strings.HasPrefix(after, ")") &&
		(len(before) == len("decltype(") || !isIdentByte(before[len(before)-len("decltype(")-1])) {
		start = len(before) - len("decltype(")
		end = len(c.src) - len(after) + 1
		return c.checkedRewrite(start, end, typ, "Write as the type "+capShown(typ), l, false)
	}
	return c.checkedRewrite(start, end, typ+"{}", "Write as "+capShown(typ+"{}"), l, true)
}

// checkedRewrite offers replacing [start, end) by text once text, read
// back (as a value, or as a type when it is none), is the layout l.
func (c *Code) checkedRewrite(start, end int, text, title string, l layout.Layout, value bool) []Refactor {
	if len(text) > maxEditBytes {
		return nil
	}
	probe := "using namespace cute;\nusing Probe = " + text + ";"
	if value {
		probe = "using namespace cute;\nauto probe = " + text + ";"
	}
	back := ReadCode(LangCpp, []byte(probe))
	if back == nil || len(back.File.Bindings) != 1 {
		return nil
	}
	v, err := back.binding(0, 0)
	got, ok := v.(layout.Layout)
	if err != nil || !ok || !got.Shape.Equal(l.Shape) || !got.Stride.Equal(l.Stride) {
		return nil
	}
	return []Refactor{{Kind: "refactor.rewrite", Fix: Fix{Title: title, Edits: []Edit{{Range: c.rangeOf(start, end), NewText: text}}}}}
}

// cuteQualifier is "cute::" when the name was written so.
func cuteQualifier(id *source.Ident) string {
	if q := id.Qualifier(); q != "" {
		return q + "::"
	}
	return ""
}

// tupleCall writes an integer tuple as nested calls: make_shape(_8{}, make_shape(_2{}, _2{})).
func tupleCall(fun string, t layout.IntTuple) string {
	if !t.IsTuple() {
		return staticInt(t.Value()) + "{}"
	}
	parts := make([]string, 0, len(t.Elems()))
	for _, e := range t.Elems() {
		parts = append(parts, tupleCall(fun, e))
	}
	return fun + "(" + strings.Join(parts, ", ") + ")"
}

// tupleType writes an integer tuple as a type: Shape<_8, Shape<_2, _2>>.
func tupleType(name string, t layout.IntTuple) string {
	if !t.IsTuple() {
		return staticInt(t.Value())
	}
	parts := make([]string, 0, len(t.Elems()))
	for _, e := range t.Elems() {
		parts = append(parts, tupleType(name, e))
	}
	return name + "<" + strings.Join(parts, ",") + ">"
}

// cuteIntNames are the values CuTe names _N (_m1 for -1).
var cuteIntNames = func() map[int64]bool {
	m := map[int64]bool{}
	for _, v := range []int64{-32, -24, -16, -12, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1,
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128,
		136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248, 256, 384, 512, 768,
		1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288} {
		m[v] = true
	}
	return m
}()

// staticInt is a static integer as CuTe spells it: _8, _m1, or Int<11>
// where CuTe has no _N name.
func staticInt(v int64) string {
	if !cuteIntNames[v] {
		return "Int<" + strconv.FormatInt(v, 10) + ">"
	}
	if v < 0 {
		return "_m" + strconv.FormatInt(-v, 10)
	}
	return "_" + strconv.FormatInt(v, 10)
}

// capShown cuts a code text shown in a title to ShowDetailBytes.
func capShown(s string) string {
	if len(s) <= ShowDetailBytes {
		return s
	}
	return s[:ShowDetailBytes] + "…"
}
