package analysis

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/cute-lsp/cute-lsp/analysis/gmma"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/source"
)

// Code is the CuTe code of a C++/CUDA or Python file (layouts written as
// code, not descriptors): what package source read, evaluated on demand by
// CuTe's operations (the table, opTable), as CuTe C++ would evaluate it.
//
// Evaluation never reports an error: code this evaluator cannot resolve (a
// name bound elsewhere, a type it does not know, an operation CuTe would
// need the rest of the program for) simply has no value, so a layout
// written in a way it does not follow is a missed hover, never a false
// error. Integer literals are run-time values in C++ (CuTe's make_shape(8)
// holds an int) and static in the DSL; Int<N>, _N and C<N> are static; a
// function or template parameter is an unknown run-time value ("?").
type Code struct {
	src    []byte
	File   *source.File
	python bool
	memo   map[int]codeResult
	byName map[string][]int // binding indices by name, in source order
	lines  *lineIndex       // made on first use
	cache  *CodeCache       // values kept from one reading to the next (code_cache.go)
	keys   *bindingKeys     // the bindings' keys in cache, made on first use
	// code_trust.go, made on first use: File.Writes by name, whether each
	// binding's value reads only trusted names, the "with ... raises" blocks.
	writes    map[string][]source.Range
	trustMemo map[int]bool
	raising   []source.Range
	fromCute  map[string]bool // Python: the names imported from CuTe's modules
	// mu guards memo and lines: an editor's requests on one snapshot
	// (hover, inlay hints) may run at once.
	mu sync.Mutex
	// completed fills in, once, what lint's read deferred (complete).
	completed sync.Once
}

type codeResult struct {
	v       layout.Value
	pending bool
}

// errUnresolved marks code that has no value here; it is never shown.
var errUnresolved = errors.New("unresolved")

// ReadCode reads the CuTe code of a host file; nil for other languages or
// when the file names nothing of CuTe's.
func ReadCode(lang Language, src []byte) *Code { return readCode(lang, src, source.ReadCpp) }

// ReadCodeForLint is ReadCode for findings and counts alone (lint
// --code-stats): C++ is read by source.ReadCppForCounts, which leaves out
// what only hover shows.
// Its values are evaluated afresh, without the cache (CodeCache): see
// Code.cacheUsable, which decides so for C++ from the File; Python is
// read by the one reader, so its Code is told here.
func ReadCodeForLint(lang Language, src []byte) *Code {
	c := readCode(lang, src, source.ReadCppForCounts)
	c.UseCache(nil)
	return c
}

// The calls lint's findings of code are made at (source.ReadCppForLint
// reads nothing of a file that calls none): the algebra's operations,
// whose rejections callError reports.
func init() {
	var calls []string
	for i := range opTable {
		if !opTable[i].Analysis { // isAlgebraOp: opTable's names are unique (opSlots)
			calls = append(calls, opTable[i].Name)
		}
	}
	source.FindingCalls = source.NewNames(calls...)
}

// whole is c, or where c's read left out code a stale comment's binding
// may need (source.File.Partial), the file's code read as lint
// --code-stats reads it.
func (c *Code) whole() *Code {
	if !c.File.Partial {
		return c
	}
	w := newCode(LangCpp, c.src, source.ReadCppForCounts)
	w.UseCache(nil)
	return w
}

// complete fills in what lint's read for findings did not look for
// (source.File.Deferred): the writes of names, as ReadCppForCounts finds
// them (its Bindings and Roots are c's).
func (c *Code) complete() {
	c.completed.Do(func() {
		if c.File.Deferred {
			c.File.Writes, c.File.Deferred = source.ReadCppForCounts(c.src).Writes, false
		}
	})
}

func readCode(lang Language, src []byte, readCpp func([]byte) *source.File) *Code {
	if !source.CodeCandidate(src) {
		return nil
	}
	return newCode(lang, src, readCpp)
}

// newCode reads the code of src whether or not it names CuTe (nil for a
// language without code).
func newCode(lang Language, src []byte, readCpp func([]byte) *source.File) *Code {
	return newCodeIn(lang, src, readCpp, nil, nil)
}

// newCodeIn is newCode, its memo and binding indices in the maps given
// (empty; made here where nil).
func newCodeIn(lang Language, src []byte, readCpp func([]byte) *source.File, byName map[string][]int, memo map[int]codeResult) *Code {
	var c *Code
	switch lang {
	case LangCpp:
		c = &Code{File: readCpp(src)}
	case LangPython:
		c = &Code{File: source.ReadPython(src), python: true}
	default:
		return nil
	}
	c.src = src
	c.cache = sharedCodeCache
	c.memo, c.byName = memo, byName
	if c.memo == nil {
		c.memo = map[int]codeResult{}
	}
	if c.byName == nil {
		c.byName = make(map[string][]int, len(c.File.Bindings))
	}
	for i, b := range c.File.Bindings {
		c.byName[b.Name] = append(c.byName[b.Name], i)
	}
	return c
}

// AnalyzeHostCode is AnalyzeHost of a file whose code was read already:
// code is ReadCode(LanguageOf(filename), src), shared with the caller, so
// that the server answers what needs values only (inlay hints, hover) from
// the read while the findings are computed.
func AnalyzeHostCode(filename string, src []byte, code *Code) *Host {
	h := &Host{Src: src, Language: LanguageOf(filename)}
	h.codeOnce.Do(func() { h.code = code })
	return h.analyze()
}

// CodeValue is the value of the code at an offset.
type CodeValue struct {
	Start, End int    // the hovered expression or name
	Name       string // the name, when a name was hovered
	Value      layout.Value
	Printed    string // as CuTe C++ prints it
}

// At is the value of the innermost expression (or name) at off, if it has one.
func (c *Code) At(off int) (CodeValue, bool) {
	if c == nil {
		return CodeValue{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, b := range c.File.Bindings {
		if b.NameAt.End > b.NameAt.Start && b.NameAt.Contains(off) {
			v, err := c.binding(i, 0)
			if err != nil || !tabulable(v) {
				return CodeValue{}, false
			}
			return CodeValue{Start: b.NameAt.Start, End: b.NameAt.End, Name: b.Name, Value: v, Printed: CuTePrint(v)}, true
		}
	}
	for _, root := range c.rootsAt(off) {
		path := source.Path(root, off)
		// From the innermost node outwards, the first that has a value; a
		// function's name stands for its call.
		for k := len(path) - 1; k >= 0; k-- {
			n := path[k]
			if id, ok := n.(*source.Ident); ok && k > 0 {
				if call, ok := path[k-1].(*source.Call); ok && call.Fun == id {
					continue
				}
			}
			v, err := c.eval(n, nil, 0)
			if err != nil {
				continue
			}
			if !worthShowing(n, v) || !tabulable(v) {
				return CodeValue{}, false
			}
			s, e := n.Span()
			cv := CodeValue{Start: s, End: e, Value: v, Printed: CuTePrint(v)}
			if id, ok := n.(*source.Ident); ok {
				cv.Name = id.Full
			}
			return cv, true
		}
	}
	return c.nameAt(off)
}

// nameAt is the value of a bound name at off outside the expressions
// read (print(L), a kernel's argument list).
func (c *Code) nameAt(off int) (CodeValue, bool) {
	if off < 0 || off > len(c.src) {
		return CodeValue{}, false
	}
	s, e := off, off
	for s > 0 && isIdentByte(c.src[s-1]) {
		s--
	}
	for e < len(c.src) && isIdentByte(c.src[e]) {
		e++
	}
	if s == e || s > 0 && (c.src[s-1] == '.' || c.src[s-1] == ':') {
		return CodeValue{}, false
	}
	name := string(c.src[s:e])
	i, ok := c.lookup(name, s)
	if !ok {
		return CodeValue{}, false
	}
	v, err := c.binding(i, 0)
	if err != nil || !tabulable(v) {
		return CodeValue{}, false
	}
	if t, ok := v.(layout.IntTuple); ok && t.IsUnknown() {
		return CodeValue{}, false
	}
	return CodeValue{Start: s, End: e, Name: name, Value: v, Printed: CuTePrint(v)}, true
}

// fitsInt reports whether every integer of v fits CuTe's int: Int<N> is
// an int, and so are the run-time integers the snippets write; beyond it
// CuTe's arithmetic overflows (size((_16,_65536,_65536)) prints 0), so a
// value past it is not CuTe's.
func fitsInt(v layout.Value) bool {
	return everyLeaf(v, func(t layout.IntTuple) bool {
		return t.IsUnknown() || t.IsUnderscore() || t.Value() >= -(1<<31) && t.Value() < 1<<31
	})
}

// everyLeaf reports whether ok holds for every integer leaf of v's trees
// (a tuple, a layout, a swizzled layout's offset and inner layout, a tiler's
// modes); a value of another kind has no such leaves.
func everyLeaf(v layout.Value, ok func(layout.IntTuple) bool) bool {
	switch v := v.(type) {
	case layout.IntTuple:
		return leavesAll(v, ok)
	case *layout.Layout:
		return leavesAll(v.Shape, ok) && leavesAll(v.Stride, ok)
	case layout.Composed:
		return leavesAll(v.Offset, ok) && leavesAll(v.Inner.Shape, ok) && leavesAll(v.Inner.Stride, ok)
	case PointerComposed:
		return leavesAll(v.Inner.Shape, ok) && leavesAll(v.Inner.Stride, ok)
	case layout.Tiler:
		for _, m := range v.Modes {
			if m.Sub != nil && !everyLeaf(*m.Sub, ok) || m.Sub == nil && !m.Skip && !everyLeaf(layout.Box(m.Layout), ok) {
				return false
			}
		}
	}
	return true
}

func leavesAll(t layout.IntTuple, ok func(layout.IntTuple) bool) bool {
	if t.IsTuple() {
		for _, e := range t.Elems() {
			if !leavesAll(e, ok) {
				return false
			}
		}
		return true
	}
	return ok(t)
}

// tabulable reports whether a value can be hovered: anything but an
// element type (a type, not a value). CuTe gives some layouts an empty
// shape (make_layout of ()) or a negative one (left_inverse(4:-1) is
// (_-1,_4):(_0,_1)); they are shown as CuTe prints them, and hover's offset
// table and the pictures say why they draw nothing.
func tabulable(v layout.Value) bool {
	_, isType := v.(elementTypeValue)
	return !isType
}

// worthShowing reports whether the value of n tells more than its text: a
// literal, or a name holding a run-time integer, is left alone (hovering
// every loop counter of a kernel would be noise).
func worthShowing(n source.Node, v layout.Value) bool {
	if _, ok := n.(*source.Int); ok {
		return false
	}
	if t, ok := v.(layout.IntTuple); ok && t.IsLeaf() && !t.IsStatic() {
		switch n.(type) {
		case *source.Call, *source.Ident:
			return !t.IsUnknown() // size(L), kBlockM: a known run-time value
		}
		return false
	}
	return true
}

// rootsAt is the roots whose range holds off.
func (c *Code) rootsAt(off int) []source.Node {
	var out []source.Node
	for _, r := range c.File.Roots {
		s, e := r.Span()
		if s <= off && off <= e {
			out = append(out, r)
		}
	}
	return out
}

// CodeCounts is what lint --code-stats reports of a file's code.
type CodeCounts struct {
	Roots, Evaluated, Layouts int // expressions, those with a value, the layouts among them
	Written, WrittenValued    int // layouts written (layoutWriters) and those with a layout value
}

// Counts evaluates every root once and counts it: as an expression, and,
// when it writes a layout (a call of an operation that makes one, or a
// Layout/ComposedLayout type), in the census of layouts written. The
// layouts written as arguments of a tiled atom (make_tiled_copy(atom,
// Layout<...>{}, ...)) count as roots of their own.
func (c *Code) Counts() CodeCounts {
	var n CodeCounts
	if c == nil {
		return n
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	count := func(r source.Node) {
		n.Roots++
		v, err := c.eval(r, nil, 0)
		isLayout := false
		switch v.(type) {
		case *layout.Layout, layout.Composed, PointerComposed:
			isLayout = err == nil
		}
		if err == nil {
			n.Evaluated++
		}
		if isLayout {
			n.Layouts++
		}
		if call, ok := r.(*source.Call); ok && call.Fun != nil && layoutWriters[call.Fun.Name] {
			n.Written++
			if isLayout {
				n.WrittenValued++
			}
		}
	}
	for _, r := range c.File.Roots {
		count(r)
		if call, ok := r.(*source.Call); ok && call.Fun != nil && atomWriters[call.Fun.Name] {
			source.Inspect(r, func(x source.Node) bool {
				if call, ok := x.(*source.Call); ok && x != r && call.Fun != nil && layoutWriters[call.Fun.Name] {
					count(x)
					return false
				}
				return true
			})
		}
	}
	return n
}

// layoutWriters are the names whose call (or, for the types, whose
// template-id) writes a layout in code: CuTe's layout types and the
// operations that make one. Counts takes the census of the expressions
// written with them, so that lint --code-stats can say how many of the layouts
// written in code have a value.
var layoutWriters = map[string]bool{
	"Layout": true, "ComposedLayout": true, "make_layout": true, "make_ordered_layout": true,
	"make_composed_layout": true, "composition": true, "complement": true, "coalesce": true,
	"filter": true, "right_inverse": true, "left_inverse": true, "tile_to_shape": true,
	"logical_divide": true, "zipped_divide": true, "tiled_divide": true, "flat_divide": true,
	"logical_product": true, "zipped_product": true, "tiled_product": true, "flat_product": true,
	"blocked_product": true, "raked_product": true, "upcast": true, "downcast": true,
	"recast_layout": true,
}

// atomWriters are the atoms and tiled atoms whose calls and types the
// reader takes as roots (source's codeNames): the layouts written in them
// count in Counts as the layouts of other roots do.
var atomWriters = map[string]bool{
	"MMA_Atom": true, "Copy_Atom": true, "TiledMMA": true, "make_tiled_mma": true, "make_tiled_copy": true,
	"make_tiled_copy_A": true, "make_tiled_copy_B": true, "make_tiled_copy_C": true, "make_tiled_copy_S": true,
	"make_tiled_copy_D": true, "make_tiled_copy_C_atom": true,
}

// maxEvalDepth bounds the nesting of evaluation (names and alias templates
// referring to each other).
const maxEvalDepth = 64

// binding is the value of binding i (memoized when it is not a template).
func (c *Code) binding(i, depth int) (layout.Value, error) {
	if r, ok := c.memo[i]; ok {
		if r.pending || r.v == nil {
			return nil, errUnresolved
		}
		return r.v, nil
	}
	b := c.File.Bindings[i]
	if b.Unknown {
		return layout.Unknown(), nil
	}
	if b.Value == nil || depth > maxEvalDepth {
		return nil, errUnresolved
	}
	if v, ok := c.cachedBinding(i); ok {
		c.memo[i] = codeResult{v: v}
		if v == nil {
			return nil, errUnresolved
		}
		return v, nil
	}
	c.memo[i] = codeResult{pending: true}
	v, err := c.eval(b.Value, nil, depth+1)
	if err != nil {
		v = nil
	}
	if b.Reassigned && v != nil && !staticValue(v) {
		// Assigned again later: the run-time value is not the initial one
		// everywhere. A run-time integer is unknown; anything else has none.
		if leaf, ok := v.(layout.IntTuple); ok && leaf.IsLeaf() {
			v = layout.Unknown()
		} else {
			v = nil
		}
	}
	c.memo[i] = codeResult{v: v}
	c.rememberBinding(i, v)
	if v == nil {
		return nil, errUnresolved
	}
	return v, nil
}

// lookup finds the binding of name visible at off: the latest one.
func (c *Code) lookup(name string, off int) (int, bool) {
	same := c.byName[name]
	for k := len(same) - 1; k >= 0; k-- {
		b := &c.File.Bindings[same[k]]
		if b.Visible.Start <= off && off < b.Visible.End {
			return same[k], true
		}
	}
	return 0, false
}

// scope holds the arguments of an alias template being instantiated.
type scope map[string]layout.Value

func (c *Code) eval(n source.Node, sc scope, depth int) (layout.Value, error) {
	if depth > maxEvalDepth {
		return nil, errUnresolved
	}
	switch n := n.(type) {
	case *source.Int:
		if n.Static || c.python {
			return layout.Int(n.Value), nil
		}
		return layout.Dyn(n.Value), nil
	case *source.Ident:
		return c.ident(n, sc, depth)
	case *source.Call:
		v, err := c.call(n, sc, depth)
		if err == nil && !fitsInt(v) {
			return nil, errUnresolved
		}
		return v, err
	case *source.Binary:
		v, err := c.binary(n, sc, depth)
		if err == nil && !fitsInt(v) {
			return nil, errUnresolved
		}
		return v, err
	case *source.Unary:
		x, err := c.intLeaf(n.X, sc, depth)
		if err != nil {
			return nil, err
		}
		switch n.Op {
		case "+":
			return x, nil
		case "-":
			if x.IsUnknown() {
				return x, nil
			}
			return withStatic(-x.Value(), x.IsStatic()), nil
		}
	case *source.Tuple:
		return c.tuple(n.Elems, sc, depth)
	case *source.Attr:
		x, err := c.eval(n.X, sc, depth+1)
		if err != nil {
			return nil, err
		}
		return c.member(n.Name, x, nil)
	}
	return nil, errUnresolved
}

func withStatic(v int64, static bool) layout.IntTuple {
	if static {
		return layout.Int(v)
	}
	return layout.Dyn(v)
}

// ident resolves a name: a binding, a template argument, CuTe's _N, _,
// the layout tags, smem_ptr_flag.
func (c *Code) ident(n *source.Ident, sc scope, depth int) (layout.Value, error) {
	if n.Qualifier() == "" {
		if v, ok := sc[n.Name]; ok {
			return v, nil
		}
		if i, ok := c.lookup(n.Name, n.Start); ok {
			if c.File.Bindings[i].Template {
				return nil, errUnresolved // an alias template named without its arguments
			}
			return c.binding(i, depth+1)
		}
	} else if i, ok := c.scopedBinding(n); ok {
		// Traits::SmemLayoutA, typename Traits::TileShape: a member of a
		// struct of this file.
		if c.File.Bindings[i].Template {
			return nil, errUnresolved
		}
		return c.binding(i, depth+1)
	} else if c.python {
		// x.shape where x is bound: an attribute of a value.
		parts := strings.Split(n.Full, ".")
		if i, ok := c.lookup(parts[0], n.Start); ok && len(parts) == 2 {
			x, err := c.binding(i, depth+1)
			if err != nil {
				return nil, err
			}
			return c.member(parts[1], x, nil)
		}
	}
	if !c.cuteQualified(n) {
		return nil, errUnresolved
	}
	if v, ok := staticName(n.Name); ok {
		return v, nil
	}
	switch n.Name {
	case "_", "Underscore":
		return layout.Underscore(), nil
	case "LayoutLeft", "GenColMajor":
		return layout.LayoutLeft, nil
	case "LayoutRight", "GenRowMajor":
		return layout.LayoutRight, nil
	case "smem_ptr_flag":
		return ptrFlag(1), nil
	}
	return nil, errUnresolved
}

// scopedBinding is the member binding a qualified C++ name reads
// (Traits::X): the one binding of that name directly in the body of the
// one struct or class of this file named as the qualifier. A struct
// defined twice (specializations, #if branches), a member bound twice, or
// a longer qualifier (ns::Traits::X may name another file's Traits) has none.
func (c *Code) scopedBinding(n *source.Ident) (int, bool) {
	if c.python || len(c.File.Scopes) == 0 {
		return 0, false
	}
	q := n.Qualifier()
	if q == "" || strings.Contains(q, ":") {
		return 0, false
	}
	var body source.Range
	found := 0
	for _, s := range c.File.Scopes {
		if s.Name == q {
			body = s.Body
			found++
		}
	}
	if found != 1 {
		return 0, false
	}
	member, count := 0, 0
	for _, j := range c.byName[n.Name] {
		b := &c.File.Bindings[j]
		if body.Start < b.NameAt.Start && b.Visible.End == body.End {
			member, count = j, count+1
		}
	}
	return member, count == 1
}

// staticName reads CuTe's static integer names: _8, _0, _m1 (-1).
func staticName(name string) (layout.IntTuple, bool) {
	if len(name) < 2 || name[0] != '_' {
		return layout.IntTuple{}, false
	}
	digits, neg := name[1:], false
	if digits[0] == 'm' {
		digits, neg = digits[1:], true
	}
	if digits == "" || len(digits) > 1 && digits[0] == '0' {
		return layout.IntTuple{}, false
	}
	v, err := strconv.ParseInt(digits, 10, 63)
	if err != nil {
		return layout.IntTuple{}, false
	}
	if neg {
		v = -v
	}
	return layout.Int(v), true
}

// ptrFlag is smem_ptr_flag_bits<B>, the pointer stage of a ComposedLayout
// type (it prints smem_ptr[Bb](unset)).
type ptrFlag int

func (p ptrFlag) String() string { return "smem_ptr[" + strconv.Itoa(int(p)) + "b](unset)" }

// PointerComposed is ComposedLayout<Swizzle, smem_ptr_flag_bits<B>, L>:
// the swizzle acts on the pointer's addresses, and CuTe prints the
// pointer stage (Sw<3,4,3> o smem_ptr[16b](unset) o L).
type PointerComposed struct {
	Outer layout.Swizzle
	Bits  int
	Inner layout.Layout
}

func (p PointerComposed) String() string {
	return p.Outer.String() + " o " + ptrFlag(p.Bits).String() + " o " + p.Inner.String()
}

// Offsets is the function on element offsets: CuTe keeps the swizzle on
// the byte addresses of B-bit elements, so it moves to element offsets
// (Sw<3,4,3> on 16-bit elements is Sw<3,3,3>); ok is false where no
// swizzle on element offsets is the same permutation.
func (p PointerComposed) Offsets() (layout.Composed, bool) {
	sw, err := gmma.ElementSwizzle(p.Outer, p.Bits)
	if err != nil {
		return layout.Composed{}, false
	}
	return layout.Composed{Outer: sw, Offset: layout.Int(0), Inner: p.Inner}, true
}

// CuTePrint prints a value as CuTe C++'s print() does: static integers
// with "_", run-time ones without, composed layouts with their stages.
func CuTePrint(v layout.Value) string {
	switch v := v.(type) {
	case layout.IntTuple:
		return v.Format(true)
	case *layout.Layout:
		return v.Format(true)
	case layout.Composed:
		return v.Format(true)
	case PointerComposed:
		return v.Outer.String() + " o " + ptrFlag(v.Bits).String() + " o " + v.Inner.Format(true)
	case layout.Tiler:
		parts := make([]string, len(v.Modes))
		for i, m := range v.Modes {
			switch {
			case m.Skip:
				parts[i] = "_"
			case m.Sub != nil:
				parts[i] = CuTePrint(*m.Sub)
			case m.Int:
				parts[i] = m.Layout.Shape.Format(true)
			default:
				parts[i] = m.Layout.Format(true)
			}
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	if s, ok := cutePrintAtom(v); ok {
		return strings.TrimSuffix(s, "\n")
	}
	return v.String()
}

// InlayHints are the values of the bound layouts whose declarations end in
// [start, end]: " = (_8,_4):(_1,_8)" after the declaration, as CuTe prints it.
func (c *Code) InlayHints(start, end int) []InlayHint {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []InlayHint
	for i, b := range c.File.Bindings {
		at := b.Visible.Start
		if b.Value == nil || b.Template || b.Unknown || at < start || at > end {
			continue
		}
		v, err := c.binding(i, 0)
		if err != nil {
			continue
		}
		var label string
		switch v.(type) {
		case *layout.Layout, layout.Composed, PointerComposed:
			label = c.printedBinding(i, v)
		default:
			var ok bool
			if label, ok = atomSummary(v); !ok {
				continue
			}
		}
		if len(label) > maxInlayLength {
			label = label[:maxInlayLength-1] + "…"
		}
		out = append(out, InlayHint{At: c.position(at), Label: " = " + label})
	}
	return out
}

// position is the grammar position of a byte offset (rune columns).
func (c *Code) position(off int) grammar.Position {
	if c.lines == nil {
		c.lines = newLineIndex(string(c.src))
	}
	return c.lines.position(off)
}

func (PointerComposed) IsValue() {} // a layout.Value

func (ptrFlag) IsValue() {} // a layout.Value
