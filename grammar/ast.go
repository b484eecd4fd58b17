// Package grammar reads and prints CuTe layout descriptors in every spelling
// users meet them: CuTe C++ print (`(_2,(_2,_2)):(_4,(_2,_1))`, `Sw<3,4,3> o _0 o L`),
// the CuTe DSL's MLIR types (`!cute.layout<"(4,8):(1,4)">`, `S<3,4,3>`, `?{i64}`),
// pycute (`(4, 8):(1, 4)`, `SW_3_4_3`), basis descriptors (`(1@0, 8@1)`, `1/2@0`),
// TIRx layouts (`S[(8,2):(4@laneid,1)] + R[2:4@warpid] + 5@warpid`) and the
// project's layout sheets (`.cute` files: bindings, calls, asserts).
//
// It is a syntax package: it builds an AST with positions and prints it back;
// it computes nothing about layouts (package analysis binds the AST to the
// algebra). The model is go/ast + go/parser + go/printer: ParseFile,
// ParseDescriptor and ParseExpr build the tree, Print and PrintFile write it
// in the Cute, Pycute or MLIR style, Inspect walks it, Equal compares trees.
//
// Layout sheets (.cute files) are the project's notebooks for designing
// layouts, one statement a line (a line break inside open brackets
// continues the statement):
//
//	# comments start with # or //
//	A = (4,2):(1,4)                           # name = expression
//	T = [2:1;2:1]
//	D = logical_divide(A, T)                  # CuTe operations by their CuTe names
//	S = composition(Sw<3,3,3>, (8,64):(64,1)) # "{}" after Sw<...> may be dropped
//	assert composition(A, (2,2):(1,2)) == (2,2):(1,2)  # same function
//	assert flatten(((2,3),5):((1,2),6)) is (2,3,5):(1,2,6) # same representation
//
// An expression is a descriptor of any notation, an integer, a name, or a
// call with nested calls. "o" is the composition operator and never a name;
// "assert" and "is" are keywords.
//
// Errors: every statement is parsed on its own (one error never hides the
// next), an error carries the exact range of the offending token with what
// was found and what was expected, brackets nest at most MaxDepth deep and a
// token is at most MaxTokenLength bytes long.
package grammar

import "unicode/utf8"

// Position is a point in the source: a byte offset, a 1-based line and a
// 1-based column counted in runes.
//
// The positions in the tree of a sheet statement (a File's Statements) are
// relative to the statement: they are what they would be if the statement
// began on line 1 at offset 0, in the column it begins in. A statement's
// tree is so a function of its text and column alone, and an edit above it
// moves it without changing it: only its Base in the File changes. The
// File places them (File.Base, File.Position, File.Range). The trees of
// ParseExpr, ParseExprAt and ParseDescriptor are placed already.
//
// The fields are int32, so that a Range is 24 bytes, not 48 (every node
// holds one): positions stay below 2 GiB, where the largest text anything
// parses is a document of one LSP message (at most 64 MiB, lsp's maxFrame)
// and files read from disk are at most 4 MiB (lsp.MaxFileBytes); a
// statement-relative position is smaller still. Base, which places a
// statement in its file, stays int.
type Position struct {
	Offset int32
	Line   int32
	Column int32
}

// UTF16Character is the 0-based UTF-16 code-unit offset of p within its line,
// the "character" of an LSP position; src is the text p points into.
func (p Position) UTF16Character(src []byte) int {
	start := lineStart(src, int(p.Offset))
	n := 0
	for _, r := range string(src[start:min(int(p.Offset), len(src))]) {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// ByteColumn is the 1-based column of p counted in UTF-8 bytes.
func (p Position) ByteColumn(src []byte) int {
	return int(p.Offset) - lineStart(src, int(p.Offset)) + 1
}

func lineStart(src []byte, offset int) int {
	if offset > len(src) {
		offset = len(src)
	}
	for i := offset - 1; i >= 0; i-- {
		if src[i] == '\n' {
			return i + 1
		}
	}
	return 0
}

// advance is the position after text, starting at p.
func (p Position) advance(text string) Position {
	for i := 0; i < len(text); {
		if text[i] == '\n' {
			p.Line++
			p.Column = 1
			p.Offset++
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		p.Offset += int32(size)
		p.Column++
		i += size
	}
	return p
}

// Range is the range [Pos, End) a node covers: End is just after its last character.
type Range struct {
	Pos Position
	End Position
}

// Span returns r itself, so every node that embeds a Range reports its range.
func (r Range) Span() Range { return r }

// Node is any node of the AST.
type Node interface {
	Span() Range
	node()
}

// Int is an integer leaf, as written: Text keeps the spelling ("_8", "8", "-4")
// and Static records CuTe's static mark "_".
type Int struct {
	Range
	Value  int64
	Static bool
	Text   string
}

// Unknown is a dynamic leaf as the CuTe DSL prints it: "?", "?{i64}",
// "?{div=16}". Attrs is the text between the braces; Braced tells "?{}" from "?".
type Unknown struct {
	Range
	Attrs  string
	Braced bool
}

// String is a quoted string, as sheets name atoms: mma_atom("SM80_16x8x16_F32F16F16F32_TN").
// Value is the text between the quotes, with \" and \\ unescaped.
type String struct {
	Range
	Value string
}

// Underscore is "_": cute::_ in a coordinate or a tiler (take the whole mode).
type Underscore struct{ Range }

// Name is an identifier: a sheet binding, a named TIRx extent or axis, a tag
// such as LayoutLeft. Braced records a trailing "{}" (C++ value syntax).
type Name struct {
	Range
	Name   string
	Braced bool
}

// Basis is a scaled basis element: Count@m0@m1... as written, e.g. 1@0,
// _1@1, 1@0@1, 1/2@0, 4@laneid. Count is an *Int or an *Unknown; Den is the
// denominator of a fractional count (nil when there is none; never zero, the
// parser rejects that). Modes are in the written order, which is CuTe's print
// order: CuTe prints the basis E<0,1> scaled by 3 as 3@1@0, innermost mode
// first, so Modes[0] is the innermost index.
type Basis struct {
	Range
	Count Node
	Den   *Int
	Modes []*BasisMode
}

// BasisMode is one "@" index of a basis: a mode number or, in TIRx, an axis name.
type BasisMode struct {
	Range
	Index int64  // the mode number; -1 for a named axis
	Axis  string // the axis name (TIRx); "" for a mode number
	Text  string
}

// Tuple is a parenthesised IntTuple: a shape, a stride, a coordinate, a
// descriptor. A 1-tuple "(8)" is a tuple, never its element. Elements are
// *Int, *Unknown, *Underscore, *Basis, *Name or *Tuple.
type Tuple struct {
	Range
	Elems []Node
}

// Layout is Shape:Stride, each an IntTuple node (*Tuple or a leaf).
type Layout struct {
	Range
	Shape  Node
	Stride Node
}

// AngleList is the seed documents' by-mode notation "<8 : 2>", "<8:1, 4:8>",
// "<2, 3>": a list of modes, each a layout or an IntTuple.
type AngleList struct {
	Range
	Modes []Node
}

// SwizzleSpelling says how a swizzle was written.
type SwizzleSpelling int

const (
	SpellSw      SwizzleSpelling = iota // Sw<3,4,3>: CuTe C++ print
	SpellSwizzle                        // Swizzle<3,4,3>: C++ source
	SpellS                              // S<3,4,3>: MLIR (CuTe DSL)
	SpellPycute                         // SW_3_4_3: pycute
)

// Swizzle is CuTe's Swizzle<B,M,S> in any spelling. Braced records a trailing
// "{}" (Swizzle<3,4,3>{}).
type Swizzle struct {
	Range
	B, M, S  *Int
	Spelling SwizzleSpelling
	Braced   bool
}

// Pointer is the iterator stage CuTe C++ prints inside a composed layout
// (smem_ptr[16b](unset)) and before " o " in a tensor's print, the engine
// of "gmem_ptr[16b](0x7f00) o (512,256):(256,_1)". Kind is the word before
// "[" (smem_ptr, gmem_ptr, rmem_ptr, ptr, subptr, tmem_, ...), Bits the
// element width as written (16b), Addr the text between the parentheses
// (0x7f00, unset, 0x0000.0000 for tensor memory). The coordinate iterators
// ArithTuple(_0,0) and counting_iter(5) have no Bits: Addr is their origin.
//
// Swizzled marks a swizzled pointer's print, Sw<3,4,3>_smem_ptr[16b](0x7f00):
// the parser reads it as the stages Sw<3,4,3> and smem_ptr[16b](0x7f00) of a
// composed layout, the pointer Swizzled (joined to its swizzle by "_", part
// of its range), so that it means what CuTe's composed form
// "Sw<3,4,3> o smem_ptr[16b](unset) o L" means.
type Pointer struct {
	Range
	Kind     string
	Bits     string
	Addr     string
	Swizzled bool
}

// Composed is a composed layout, its stages in the written order (outermost
// first): "Sw<3,4,3> o _0 o (8,64):(64,1)" has a swizzle, an offset (an
// IntTuple node) and a layout; CuTe C++ may print a *Pointer stage; the DSL
// prints layouts as outer stages; sheets may use names and calls.
type Composed struct {
	Range
	Stages []Node
}

// Tiler is make_tile as the CuTe DSL prints it: "[(4,8):(1,4);_;32]". A mode
// is a *Layout, an *Underscore, an *Int, a *Tuple (a by-mode shape), a nested
// *Tiler, or in sheets a *Name or *Call.
type Tiler struct {
	Range
	Modes []Node
}

// TirxLayout is a TIRx layout: a shard S[...], replicas R[...] and offsets,
// joined by "+": "S[(8,2):(4@laneid,1)] + R[2:4@warpid] + 5@warpid". Shard is
// nil for a replica written on its own ("R[4:32@TLane]").
type TirxLayout struct {
	Range
	Shard    *TirxPart
	Replicas []*TirxPart
	Offsets  []Node // *Basis (5@warpid) or *Int (on the memory axis m)
}

// TirxPart is S[layout] or R[layout].
type TirxPart struct {
	Range
	Kind   string // "S" or "R"
	Layout *Layout
}

// MLIRType is a CuTe DSL type: !cute.layout<"(4,8):(1,4)">. Kind is the part
// after "!cute." (layout, composed_layout, swizzle, tile, coord, shape,
// stride, int_tuple); Inner the parsed payload, whose positions lie inside the
// quotes; Payload the span of the text between the quotes.
type MLIRType struct {
	Range
	Kind    string
	Inner   Node
	Payload Range
}

// Call is a CuTe operation called by its CuTe name: logical_divide(A, [4:1;8:1]).
// Template holds the template arguments of CuTe's spelling, select<1,3>(L)
// or upcast<2>(L), in the written order: each an *Int or a *Name (nil when
// the call has none). The operation receives them as integers right after
// its first argument (see analysis), the registry's convention.
type Call struct {
	Range
	Fun      *Name
	Template []Node
	Args     []Node
}

// File is a parsed layout sheet. The trees of its statements hold positions
// relative to each statement (see Position), which Base(i) places; its
// Comments and Errors are placed in the file.
type File struct {
	Name       string
	Statements []Stmt
	Comments   []*Comment
	Errors     []*Error
	bases      []fileBase // bases[i] places statement i
}

// Base places the tree of a sheet statement in its file: it is added to
// the offsets and lines of the tree's positions (columns are the file's
// already). A statement that begins at offset O on line L has Base{O, L-1}.
// The zero Base places nothing: the tree of ParseExpr is where it is.
type Base struct {
	Offset int
	Line   int
}

// fileBase is a Base as a File keeps it: int32, as Position's numbers
// are, so 8 bytes a statement rather than 16.
type fileBase struct{ Offset, Line int32 }

func (b fileBase) base() Base { return Base{Offset: int(b.Offset), Line: int(b.Line)} }

// Position is p, a position in a tree based at b, placed in the file.
func (b Base) Position(p Position) Position {
	return Position{Offset: p.Offset + int32(b.Offset), Line: p.Line + int32(b.Line), Column: p.Column}
}

// Range is r, a range in a tree based at b, placed in the file.
func (b Base) Range(r Range) Range {
	return Range{Pos: b.Position(r.Pos), End: b.Position(r.End)}
}

// Error is e, an error of a tree based at b, placed in the file (e itself
// for the zero Base).
func (b Base) Error(e *Error) *Error {
	if b == (Base{}) || e == nil {
		return e
	}
	c := *e
	c.Range = b.Range(e.Range)
	return &c
}

// Base places statement i's tree in the file (see Position).
func (f *File) Base(i int) Base {
	if i < 0 || i >= len(f.bases) {
		return Base{}
	}
	return f.bases[i].base()
}

// Position is p, a position in statement i's tree, placed in the file.
func (f *File) Position(i int, p Position) Position { return f.Base(i).Position(p) }

// Range is r, a range in statement i's tree, placed in the file.
func (f *File) Range(i int, r Range) Range { return f.Base(i).Range(r) }

// StatementRange is the range of statement i in the file.
func (f *File) StatementRange(i int) Range { return f.Base(i).Range(f.Statements[i].Span()) }

// Stmt is a sheet statement: *Binding, *Assert, *ExprStmt or *BadStmt.
type Stmt interface {
	Node
	stmt()
}

// Binding is "name = expr".
type Binding struct {
	Range
	Name  *Name
	Value Node
}

// AssertOp is the relation an assert checks.
type AssertOp int

const (
	// AssertEqual is "==": the same function (equal size, equal offsets everywhere).
	AssertEqual AssertOp = iota
	// AssertIs is "is": the identical representation.
	AssertIs
)

func (op AssertOp) String() string {
	if op == AssertIs {
		return "is"
	}
	return "=="
}

// Assert is "assert left == right" or "assert left is right".
type Assert struct {
	Range
	Left    Node
	Op      AssertOp
	OpRange Range
	Right   Node
}

// ExprStmt is an expression on its own line.
type ExprStmt struct {
	Range
	X Node
}

// BadStmt marks a statement that did not parse: Text is its source, kept
// verbatim so that printing the file loses nothing; Err is its diagnostic.
type BadStmt struct {
	Range
	Text string
	Err  *Error
}

// Comment is "# ..." or "// ..." up to the end of the line.
type Comment struct {
	Range
	Text string
}

func (*Int) node()        {}
func (*Unknown) node()    {}
func (*Underscore) node() {}
func (*Name) node()       {}
func (*String) node()     {}
func (*Basis) node()      {}
func (*BasisMode) node()  {}
func (*Tuple) node()      {}
func (*Layout) node()     {}
func (*AngleList) node()  {}
func (*Swizzle) node()    {}
func (*Pointer) node()    {}
func (*Composed) node()   {}
func (*Tiler) node()      {}
func (*TirxLayout) node() {}
func (*TirxPart) node()   {}
func (*MLIRType) node()   {}
func (*Call) node()       {}
func (*Binding) node()    {}
func (*Assert) node()     {}
func (*ExprStmt) node()   {}
func (*BadStmt) node()    {}
func (*Comment) node()    {}

func (*Binding) stmt()  {}
func (*Assert) stmt()   {}
func (*ExprStmt) stmt() {}
func (*BadStmt) stmt()  {}

// IntegralCount is the count of b as an integer: Count, or Count/Den when
// Den divides Count exactly. The seed grammar lets a count be a fraction
// (1/2@0) but no integral layout has one, so a fraction that is not an
// integer is an error at the count's range, never a rounded value. An
// unknown count (?@0) reports known == false.
func (b *Basis) IntegralCount() (value int64, known bool, err *Error) {
	num, ok := b.Count.(*Int)
	if !ok {
		return 0, false, nil
	}
	if b.Den == nil {
		return num.Value, true, nil
	}
	r := Range{Pos: num.Pos, End: b.Den.End}
	text := num.Text + "/" + b.Den.Text
	switch {
	case b.Den.Value == 0:
		return 0, true, errorAt(r, text, "a non-zero denominator", "zero denominator in basis count %s", text)
	case num.Value%b.Den.Value != 0:
		return 0, true, errorAt(r, text, "an integral count",
			"basis count %s is not an integer: %d is not divisible by %d", text, num.Value, b.Den.Value)
	case num.Value == -1<<63 && b.Den.Value == -1:
		return 0, true, errorAt(r, text, "a count that fits in int64", "basis count %s overflows int64", text)
	}
	return num.Value / b.Den.Value, true, nil
}
