package analysis

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	return append(out, c.layoutRewrites(off)...)
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
	case layout.IntTuple, *layout.Layout, layout.Composed:
		return editText(v, true)
	}
	s := CuTePrint(v)
	// An atom prints on several lines (code_atoms.go): no one-line comment.
	return s, len(s) <= maxEditBytes && !strings.Contains(s, "\n")
}

// layoutRewrites are the rewrites of the innermost make_layout call or
// Layout<...> type at off: the one as the other (C++), and coalesce advice
// where the layout is written with literals (both languages).
func (c *Code) layoutRewrites(off int) []Refactor {
	for _, root := range c.rootsAt(off) {
		path := source.Path(root, off)
		for k := len(path) - 1; k >= 0; k-- {
			call, ok := path[k].(*source.Call)
			if !ok || call.Recv != nil || !c.cuteQualified(call.Fun) {
				continue
			}
			switch {
			case call.Fun.Name == "Layout" && call.HasTArgs && !call.Paren && len(call.Args) == 0 && !c.python:
				return append(c.typeToCall(call), c.coalesceRewrites(call)...)
			case call.Fun.Name == "make_layout" && call.Paren:
				if c.python {
					return c.coalesceRewrites(call)
				}
				return append(c.callToType(call), c.coalesceRewrites(call)...)
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
	l, ok := v.(*layout.Layout)
	if !ok || !staticValue(l) || !plainTuple(l.Shape) || !plainTuple(l.Stride) || !c.trusted(n) {
		return layout.Layout{}, false
	}
	return *l, true
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
// back (as a value, or as a type when it is none), is the layout l, static
// marks included: a rewrite CuTe would evaluate to anything else is not
// offered.
func (c *Code) checkedRewrite(start, end int, text, title string, l layout.Layout, value bool) []Refactor {
	if len(text) > maxEditBytes || !readsBackAs(LangCpp, "using namespace cute;\n", text, value, l) {
		return nil
	}
	return []Refactor{{Kind: "refactor.rewrite", Fix: Fix{Title: title, Edits: []Edit{{Range: c.rangeOf(start, end), NewText: text}}}}}
}

// readsBackAs reports whether text, after header in a file of lang, is
// read as the layout l (as a value bound by "auto probe = text;" or
// "probe = text", or as a type by "using Probe = text;").
func readsBackAs(lang Language, header, text string, value bool, l layout.Layout) bool {
	probe := header + "using Probe = " + text + ";"
	switch {
	case lang == LangPython:
		probe = header + "probe = " + text + "\n"
	case value:
		probe = header + "auto probe = " + text + ";"
	}
	back := ReadCode(lang, []byte(probe))
	if back == nil || len(back.File.Bindings) != 1 {
		return false
	}
	v, err := back.binding(0, 0)
	got, ok := v.(*layout.Layout)
	return err == nil && ok && got.Shape.Equal(l.Shape) && got.Stride.Equal(l.Stride) && got.Format(true) == l.Format(true)
}

// coalesceRewrites are the coalesce advice on a make_layout call or a
// Layout<...> type written with literals (no name of the file in it), the
// sheets' advice (coalesced, coalesceModes) written back in the call's own
// spelling: the whole layout coalesced (its rank may change), and each
// mode coalesced on its own (the rank kept). Each is the same function.
func (c *Code) coalesceRewrites(n *source.Call) []Refactor {
	if !c.literalLayout(n) {
		return nil
	}
	v, err := c.eval(n, nil, 0)
	if err != nil || !c.trusted(n) {
		return nil
	}
	l, ok := v.(*layout.Layout)
	if !ok || !knownValue(l) || !plainTuple(l.Shape) || !plainTuple(l.Stride) {
		return nil
	}
	var out []Refactor
	whole, okWhole := coalesced(*l)
	if okWhole {
		out = append(out, c.coalesceRewrite(n, whole, "Coalesce to ")...)
	}
	if modes, ok := coalesceModes(*l); ok && !(okWhole && modes.Format(true) == whole.Format(true)) {
		out = append(out, c.coalesceRewrite(n, modes, "Coalesce mode by mode to ")...)
	}
	return out
}

// coalesceRewrite writes l in n's spelling and offers it once it reads back.
func (c *Code) coalesceRewrite(n *source.Call, l layout.Layout, title string) []Refactor {
	title += capShown(l.Format(true))
	if c.python {
		prefix := strings.TrimSuffix(n.Fun.Full, n.Fun.Name)
		text := prefix + "make_layout(" + pyTuple(l.Shape) + ", stride=" + pyTuple(l.Stride) + ")"
		if len(text) > maxEditBytes || !staticValue(layout.Box(l)) || !readsBackAs(LangPython, pythonImport(n.Fun), text, true, l) {
			return nil
		}
		return []Refactor{{Kind: "refactor.rewrite", Fix: Fix{Title: title, Edits: []Edit{{Range: c.rangeOf(n.Start, n.End), NewText: text}}}}}
	}
	q := cuteQualifier(n.Fun)
	spell := staticSpelling(string(c.src[n.Start:n.End]))
	if n.Fun.Name == "Layout" {
		if !staticValue(layout.Box(l)) {
			return nil // a run-time integer has no type of its own to write
		}
		text := q + "Layout<" + tupleTypeAs(q+"Shape", l.Shape, spell) + ", " + tupleTypeAs(q+"Stride", l.Stride, spell) + ">"
		if n.Braced {
			text += "{}"
		}
		return c.checkedRewrite(n.Start, n.End, text, title, l, n.Braced)
	}
	shape, stride := tupleCallAs(q+"make_shape", l.Shape, spell), tupleCallAs(q+"make_stride", l.Stride, spell)
	if typedTuples(n) && staticValue(layout.Box(l)) {
		// make_layout(Shape<_8,_4>{}, Stride<_1,_8>{}): the tuples as types, as written.
		shape, stride = tupleTypeAs(q+"Shape", l.Shape, spell)+"{}", tupleTypeAs(q+"Stride", l.Stride, spell)+"{}"
	}
	text := q + "make_layout(" + shape + ", " + stride + ")"
	return c.checkedRewrite(n.Start, n.End, text, title, l, true)
}

// typedTuples reports whether a make_layout call writes its shape as a
// constructed type (Shape<_8,_4>{}) rather than a make_shape call.
func typedTuples(n *source.Call) bool {
	if len(n.Args) == 0 {
		return false
	}
	shape, ok := n.Args[0].(*source.Call)
	return ok && shape.Fun.Name == "Shape" && shape.Braced
}

// literalLayout reports whether n writes its layout with literals only:
// integers, static integers (_8, Int<8>{}, C<8>{}), the tuple makers and
// CuTe's layout tags, with no name the file binds.
func (c *Code) literalLayout(n *source.Call) bool {
	literal := true
	source.Inspect(n, func(x source.Node) bool {
		if !literal {
			return false
		}
		switch x := x.(type) {
		case *source.Int, *source.Tuple:
		case *source.Unary:
			_, isInt := x.X.(*source.Int)
			literal = x.Op == "-" && isInt
		case *source.Call:
			literal = x.Recv == nil && c.cuteQualified(x.Fun) && (literalMakers[x.Fun.Name] || isStaticIntName(x.Fun.Name))
			for _, k := range x.Keywords {
				literal = literal && k.Name == "stride"
			}
		case *source.Ident:
			_, bound := c.lookup(x.Name, x.Start)
			literal = !bound && (literalMakers[x.Name] || isStaticIntName(x.Name))
		default:
			literal = false
		}
		return literal
	})
	return literal
}

// literalMakers are the names a literal layout is written with.
var literalMakers = map[string]bool{
	"make_layout": true, "make_shape": true, "make_stride": true, "Layout": true, "Shape": true, "Stride": true,
	"Int": true, "C": true, "LayoutLeft": true, "LayoutRight": true, "GenColMajor": true, "GenRowMajor": true,
}

// isStaticIntName reports whether name is one of CuTe's _N (_m1) integers.
func isStaticIntName(name string) bool {
	digits := strings.TrimPrefix(strings.TrimPrefix(name, "_"), "m")
	if len(name) < 2 || name[0] != '_' || digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// staticSpelling is how the code text writes its static integers: "Int"
// (Int<8>), "C" (C<8>) or "_" (_8), the first one it uses ("_" when none).
func staticSpelling(text string) string {
	m := staticSpellingRE().FindStringSubmatch(text)
	if m == nil || m[1][0] == '_' {
		return "_"
	}
	return strings.TrimSuffix(m[1], "<")
}

// staticSpellingRE is compiled on first use, not at init: only code
// actions ask, and every CLI process would otherwise pay for it.
var staticSpellingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_])(Int<|C<|_m?[0-9])`)
})

// pythonImport is the import that makes fun's module prefix CuTe's in a
// probe: "import cutlass.cute as cute" for cute.make_layout.
func pythonImport(fun *source.Ident) string {
	switch q := fun.Qualifier(); {
	case q == "":
		return "from cutlass.cute import " + fun.Name + "\n"
	case strings.Contains(q, "."):
		return "import " + q + "\n"
	default:
		return "import cutlass.cute as " + q + "\n"
	}
}

// pyTuple writes an integer tuple as a Python literal: (8, (2, 2)), (8,).
func pyTuple(t layout.IntTuple) string {
	if !t.IsTuple() {
		return strconv.FormatInt(t.Value(), 10)
	}
	parts := make([]string, 0, len(t.Elems()))
	for _, e := range t.Elems() {
		parts = append(parts, pyTuple(e))
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// cuteQualifier is "cute::" when the name was written so.
func cuteQualifier(id *source.Ident) string {
	if q := id.Qualifier(); q != "" {
		return q + "::"
	}
	return ""
}

// tupleCall writes an integer tuple as nested calls: make_shape(_8{}, make_shape(_2{}, _2{})).
func tupleCall(fun string, t layout.IntTuple) string { return tupleCallAs(fun, t, "_") }

// tupleCallAs is tupleCall with static integers spelled as spell says
// (staticSpelling) and run-time ones as plain integers.
func tupleCallAs(fun string, t layout.IntTuple, spell string) string {
	if !t.IsTuple() {
		if !t.IsStatic() {
			return strconv.FormatInt(t.Value(), 10)
		}
		return staticIntAs(t.Value(), spell) + "{}"
	}
	parts := make([]string, 0, len(t.Elems()))
	for _, e := range t.Elems() {
		parts = append(parts, tupleCallAs(fun, e, spell))
	}
	return fun + "(" + strings.Join(parts, ", ") + ")"
}

// tupleType writes an integer tuple as a type: Shape<_8, Shape<_2, _2>>.
func tupleType(name string, t layout.IntTuple) string { return tupleTypeAs(name, t, "_") }

// tupleTypeAs is tupleType with static integers spelled as spell says.
func tupleTypeAs(name string, t layout.IntTuple, spell string) string {
	if !t.IsTuple() {
		return staticIntAs(t.Value(), spell)
	}
	parts := make([]string, 0, len(t.Elems()))
	for _, e := range t.Elems() {
		parts = append(parts, tupleTypeAs(name, e, spell))
	}
	return name + "<" + strings.Join(parts, ",") + ">"
}

// staticIntAs is staticInt in the spelling "Int" (Int<8>), "C" (C<8>) or
// "_" (_8, Int<11> where CuTe has no _N name).
func staticIntAs(v int64, spell string) string {
	if spell == "_" {
		return staticInt(v)
	}
	return spell + "<" + strconv.FormatInt(v, 10) + ">"
}

// cuteIntNames are the values CuTe names _N (_m1 for -1), ascending: a
// sorted table the linker lays out, searched, rather than a map built at
// init by every process.
var cuteIntNames = [...]int64{-32, -24, -16, -12, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128,
	136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248, 256, 384, 512, 768,
	1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288}

// cuteNamesInt is whether CuTe names v _N.
func cuteNamesInt(v int64) bool {
	_, found := slices.BinarySearch(cuteIntNames[:], v)
	return found
}

// staticInt is a static integer as CuTe spells it: _8, _m1, or Int<11>
// where CuTe has no _N name.
func staticInt(v int64) string {
	if !cuteNamesInt(v) {
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
