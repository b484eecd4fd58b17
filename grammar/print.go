package grammar

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Style selects the notation Print writes.
type Style int

const (
	// Cute is CuTe C++'s print: (2,(2,2)):(4,(2,1)), Sw<3,4,3> o _0 o (_8,_64):(_64,_1),
	// static marks kept as written. The default.
	Cute Style = iota
	// Pycute is pycute's print: (4, 8):(1, 4), 1-tuples (4,), SW_3_4_3, no static marks.
	Pycute
	// MLIR is the CuTe DSL's: !cute.layout<"(4,8):(1,4)">, S<3,4,3>, no static marks.
	MLIR
)

// ParseStyle maps "cute", "pycute" and "mlir" to a Style.
func ParseStyle(s string) (Style, bool) {
	switch s {
	case "cute":
		return Cute, true
	case "pycute":
		return Pycute, true
	case "mlir":
		return MLIR, true
	}
	return Cute, false
}

func (s Style) String() string {
	switch s {
	case Pycute:
		return "pycute"
	case MLIR:
		return "mlir"
	}
	return "cute"
}

// Print writes node in the given style. parse(Print(x)) equals x up to
// positions and spelling: the style chooses the swizzle spelling, drops "{}"
// after names and swizzles, and (outside Cute) drops static marks.
func Print(node Node, style Style) string {
	p := &printer{style: style}
	if style == MLIR {
		p.top(node)
	} else {
		p.node(node)
	}
	return p.b.String()
}

type printer struct {
	b     strings.Builder
	style Style
	// breaks keeps the line breaks the source has between a call's
	// arguments (PrintFile: a formatter must not join what the user split).
	breaks bool
	// srcLines is, with breaks, the source line of each line printed after
	// the first.
	srcLines []int
}

// glued reports whether the stage s is printed joined to the stage before
// it by "_", as CuTe prints a swizzled pointer: Sw<3,4,3>_smem_ptr[16b](...).
// pycute's SW_3_4_3 would run into the pointer's kind, so that style writes
// the composed form "SW_3_4_3 o smem_ptr[16b](...)", which means the same.
func (p *printer) glued(before, s Node) bool {
	ptr, ok := s.(*Pointer)
	_, afterSwizzle := before.(*Swizzle)
	return ok && ptr.Swizzled && afterSwizzle && p.style != Pycute
}

// mlirKindOf is the !cute type a descriptor is wrapped in by the MLIR style;
// "" for nodes that have no MLIR type (names, calls, TIRx layouts).
func mlirKindOf(n Node) string {
	switch n := n.(type) {
	case *Layout, *AngleList:
		return "layout"
	case *Composed:
		for _, s := range n.Stages {
			switch s.(type) {
			case *Name, *Call, *Pointer:
				return ""
			}
		}
		return "composed_layout"
	case *Swizzle:
		return "swizzle"
	case *Tiler:
		for _, m := range n.Modes {
			switch m.(type) {
			case *Name, *Call:
				return ""
			}
		}
		return "tile"
	case *Tuple, *Int, *Unknown, *Basis:
		if hasNames(n) {
			return ""
		}
		return "int_tuple"
	}
	return ""
}

func hasNames(n Node) bool {
	switch n := n.(type) {
	case *Name:
		return true
	case *Tuple:
		for _, e := range n.Elems {
			if hasNames(e) {
				return true
			}
		}
	}
	return false
}

// top prints a node in MLIR style: a descriptor becomes an MLIR type, a call
// or a statement wraps each of its descriptor arguments.
func (p *printer) top(n Node) {
	if kind := mlirKindOf(n); kind != "" {
		p.mlirType(kind, n)
		return
	}
	switch n := n.(type) {
	case *Call:
		p.call(n, p.top)
		return
	}
	p.node(n)
}

// call prints a call, each argument by arg, keeping the source's line
// breaks between them (list).
func (p *printer) call(n *Call, arg func(Node)) {
	p.b.WriteString(n.Fun.Name)
	if n.Template != nil {
		p.b.WriteByte('<')
		for i, t := range n.Template {
			if i > 0 {
				p.b.WriteByte(',')
			}
			p.node(t)
		}
		p.b.WriteByte('>')
	}
	p.b.WriteByte('(')
	p.list(int(n.Fun.End.Line), n.Args, ", ", arg)
	p.b.WriteByte(')')
}

// list prints elems, each by each, sep between them. With breaks (and
// outside an MLIR string), an element the source starts on a later line
// than the one before it ends (or than openLine, the line of the opening
// bracket, for the first) starts a new line, aligned with the first
// element, or indented four spaces past the bracket's line when the first
// element is itself on a new line.
func (p *printer) list(openLine int, elems []Node, sep string, each func(Node)) {
	lineStart := strings.LastIndexByte(p.b.String(), '\n') + 1
	indent := utf8.RuneCountInString(p.b.String()[lineStart:])
	prevLine := openLine
	for i, a := range elems {
		span := a.Span()
		broken := p.breaks && p.style != MLIR && int(span.Pos.Line) > prevLine
		if i == 0 && broken {
			lead := p.b.String()[lineStart:]
			indent = len(lead) - len(strings.TrimLeft(lead, " ")) + 4
		}
		switch {
		case broken && i > 0:
			p.b.WriteString(strings.TrimRight(sep, " ") + "\n" + strings.Repeat(" ", indent))
		case broken:
			p.b.WriteString("\n" + strings.Repeat(" ", indent))
		case i > 0:
			p.b.WriteString(sep)
		}
		if broken {
			p.srcLines = append(p.srcLines, int(span.Pos.Line))
		}
		each(a)
		prevLine = int(span.End.Line)
	}
}

func (p *printer) mlirType(kind string, inner Node) {
	p.b.WriteString("!cute.")
	p.b.WriteString(kind)
	p.b.WriteString(`<"`)
	saved := p.style
	p.style = MLIR
	p.node(inner)
	p.style = saved
	p.b.WriteString(`">`)
}

func (p *printer) sep() string {
	if p.style == Pycute {
		return ", "
	}
	return ","
}

func (p *printer) int(n *Int) {
	if n.Static && p.style == Cute {
		p.b.WriteByte('_')
	}
	p.b.WriteString(strconv.FormatInt(n.Value, 10))
}

func (p *printer) node(n Node) {
	switch n := n.(type) {
	case nil:
	case *Int:
		p.int(n)
	case *Unknown:
		p.b.WriteByte('?')
		if n.Braced {
			p.b.WriteByte('{')
			p.b.WriteString(n.Attrs)
			p.b.WriteByte('}')
		}
	case *Underscore:
		p.b.WriteByte('_')
	case *Name:
		p.b.WriteString(n.Name)
	case *String:
		p.b.WriteString(strconv.Quote(n.Value))
	case *Basis:
		p.node(n.Count)
		if n.Den != nil {
			p.b.WriteByte('/')
			p.int(n.Den)
		}
		for _, m := range n.Modes {
			p.b.WriteByte('@')
			if m.Axis != "" {
				p.b.WriteString(m.Axis)
			} else {
				p.b.WriteString(strconv.FormatInt(m.Index, 10))
			}
		}
	case *Tuple:
		p.b.WriteByte('(')
		p.list(int(n.Pos.Line), n.Elems, p.sep(), p.node)
		if p.style == Pycute && len(n.Elems) == 1 {
			p.b.WriteByte(',')
		}
		p.b.WriteByte(')')
	case *Layout:
		p.node(n.Shape)
		p.b.WriteByte(':')
		p.node(n.Stride)
	case *AngleList:
		p.b.WriteByte('<')
		for i, m := range n.Modes {
			if i > 0 {
				p.b.WriteString(p.sep())
			}
			p.node(m)
		}
		p.b.WriteByte('>')
	case *Swizzle:
		switch p.style {
		case Pycute:
			p.b.WriteString("SW_" + strconv.FormatInt(n.B.Value, 10) + "_" + strconv.FormatInt(n.M.Value, 10) + "_" + strconv.FormatInt(n.S.Value, 10))
			return
		case MLIR:
			p.b.WriteString("S<")
		default:
			p.b.WriteString("Sw<")
		}
		p.int(n.B)
		p.b.WriteByte(',')
		p.int(n.M)
		p.b.WriteByte(',')
		p.int(n.S)
		p.b.WriteByte('>')
	case *Pointer:
		p.b.WriteString(n.Kind)
		if n.Bits != "" {
			p.b.WriteByte('[')
			p.b.WriteString(n.Bits)
			p.b.WriteByte(']')
		}
		p.b.WriteByte('(')
		p.b.WriteString(n.Addr)
		p.b.WriteByte(')')
	case *Composed:
		for i, s := range n.Stages {
			switch {
			case i == 0:
			case p.glued(n.Stages[i-1], s):
				p.b.WriteByte('_')
			default:
				p.b.WriteString(" o ")
			}
			p.node(s)
		}
	case *Tiler:
		p.b.WriteByte('[')
		p.list(int(n.Pos.Line), n.Modes, ";", p.node)
		p.b.WriteByte(']')
	case *TirxLayout:
		if n.Shard != nil {
			p.node(n.Shard)
		}
		for i, r := range n.Replicas {
			if i > 0 || n.Shard != nil {
				p.b.WriteString(" + ")
			}
			p.node(r)
		}
		for _, o := range n.Offsets {
			p.b.WriteString(" + ")
			p.node(o)
		}
	case *TirxPart:
		p.b.WriteString(n.Kind)
		p.b.WriteByte('[')
		p.node(n.Layout)
		p.b.WriteByte(']')
	case *MLIRType:
		p.mlirType(n.Kind, n.Inner)
	case *Call:
		p.call(n, p.arg)
	case *Binding:
		p.b.WriteString(n.Name.Name)
		p.b.WriteString(" = ")
		p.arg(n.Value)
	case *Assert:
		p.b.WriteString("assert ")
		p.arg(n.Left)
		p.b.WriteString(" " + n.Op.String() + " ")
		p.arg(n.Right)
	case *ExprStmt:
		p.arg(n.X)
	case *BadStmt:
		p.b.WriteString(n.Text)
	case *Comment:
		p.b.WriteString(n.Text)
	}
}

// arg prints an operand of a sheet construct; in MLIR style descriptors
// become MLIR types.
func (p *printer) arg(n Node) {
	if p.style == MLIR {
		p.top(n)
		return
	}
	p.node(n)
}

// PrintFile prints a sheet: every statement in canonical form, a statement
// that did not parse verbatim, every comment, and one blank line wherever the
// source had one or more. Nothing of the source is lost.
func PrintFile(f *File, style Style) string {
	type item struct {
		span Range // in the file
		node Node
		line int // what places the node's lines in the file (Base.Line)
	}
	items := make([]item, 0, len(f.Statements)+len(f.Comments))
	for i, s := range f.Statements {
		items = append(items, item{f.StatementRange(i), s, f.Base(i).Line})
	}
	for _, c := range f.Comments {
		inBad := false
		for i, s := range f.Statements {
			if _, ok := s.(*BadStmt); ok {
				if b := f.StatementRange(i); c.Pos.Offset >= b.Pos.Offset && c.End.Offset <= b.End.Offset {
					inBad = true
					break
				}
			}
		}
		if !inBad {
			items = append(items, item{c.Range, c, 0})
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].span.Pos.Offset < items[j].span.Pos.Offset })
	// Each output line is its code and the comment that trails it; the
	// trailing comments of consecutive lines are aligned afterwards. A
	// comment inside a statement's lines goes at the end of the output
	// line that printed its source line (a call split over lines keeps its
	// comments where they were, a joined line takes those of its parts).
	type line struct{ code, comment string }
	type printedLine struct{ src, at int }
	var lines []line
	var stmt []printedLine // the latest statement's output lines
	stmtEnd := 0           // and its last source line
	lastLine := 0
	for i, it := range items {
		p := &printer{style: style, breaks: true}
		p.node(it.node)
		text := p.b.String()
		_, isComment := it.node.(*Comment)
		at := -1
		if isComment && i > 0 && int(it.span.Pos.Line) <= stmtEnd {
			for _, pl := range stmt {
				if pl.src <= int(it.span.Pos.Line) {
					at = pl.at
				}
			}
		}
		switch {
		case at >= 0 && lines[at].comment == "":
			lines[at].comment = text
		case at >= 0:
			lines[at].comment += "  " + text
		default:
			if i > 0 && int(it.span.Pos.Line) > lastLine+1 {
				lines = append(lines, line{})
			}
			stmt, stmtEnd = stmt[:0], int(it.span.End.Line)
			srcLine := int(it.span.Pos.Line)
			for k, part := range strings.Split(text, "\n") {
				switch {
				case k > 0 && k <= len(p.srcLines):
					srcLine = p.srcLines[k-1] + it.line
				case k > 0: // a statement kept verbatim runs over its source lines
					srcLine++
				}
				stmt = append(stmt, printedLine{srcLine, len(lines)})
				lines = append(lines, line{code: part})
			}
		}
		if int(it.span.End.Line) > lastLine {
			lastLine = int(it.span.End.Line)
		}
	}
	// A run of consecutive lines with code and a trailing comment has its
	// comments in one column, two spaces past the widest code (as gofmt
	// aligns them); a line without one ends the run.
	pads := make([]int, len(lines))
	for i := 0; i < len(lines); {
		j, width := i, 0
		for j < len(lines) && lines[j].code != "" && lines[j].comment != "" {
			width = max(width, utf8.RuneCountInString(lines[j].code))
			j++
		}
		for k := i; k < j; k++ {
			pads[k] = width + 2 - utf8.RuneCountInString(lines[k].code)
		}
		i = max(j, i+1)
	}
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l.code)
		if l.comment != "" {
			b.WriteString(strings.Repeat(" ", max(pads[i], 2)) + l.comment)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
