// Package analysis binds the grammar's AST to the layout algebra: it turns
// descriptors into layout values, evaluates sheet expressions and calls, runs
// the checks, and reports what it finds as neutral findings (ranges, codes,
// messages, fixes) that the editor glue and the command line render.
//
// # Host files
//
// In C++/CUDA and Python sources (AnalyzeHost) descriptors are read from
// comments and string literals, where they share the text with prose. A
// string whose whole contents parse is one descriptor. Elsewhere a
// candidate starts at a bracket, a swizzle or the iterator of a CuTe tensor
// print ("gmem_ptr[16b](A) o (512,256):(256,_1)", "Sw<3,4,3>_smem_ptr[16b](A)
// o L", "tmem_[32b](T) o L", "ArithTuple(_0,0) o L") and is read unless it
// is prose:
//
//   - brackets right after a word or a closing bracket are a call, an index
//     or a slice (f(x), vec[i], arr((i, j))[0:4]);
//   - a stride that is not a tuple hugs its colon: in "(192, 1, 1): 6 warps"
//     the colon is the sentence's, and the tuple alone is not a descriptor;
//   - plain tuples, words and calls are not descriptors ("(a, b)", "(1, 2)");
//   - in a comment or string about bits (it says "bit", or writes a range
//     down to bit 0 such as "[15:0]"), "[hi:lo]" with hi >= lo is a bit
//     range, not a one-mode tiler;
//   - an iterator without " o " after it is not a descriptor.
//
// A descriptor that fails to parse or evaluate is an error only where it
// stands alone: a whole string, or a descriptor that ends its comment line
// (but for one closing punctuation mark) with nothing before it on the line
// or text that introduces it with ':' or '=' ("// (4,8):(1,4)", "// mA:
// gmem_ptr[16b](A) o L", "# bad swizzle: Sw<3,2,1> o _0 o L"). Inside a
// sentence it is a warning: worth a look, never a failed lint run.
package analysis

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/gmma"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// EvalError is an evaluation failure tied to the source: Range is the node
// that failed (a literal, a name, a call), Related the operands that explain
// it, Err the algebra's reason when the algebra refused.
type EvalError struct {
	Range   grammar.Range
	Code    string
	Message string
	Related []Related
	Fixes   []Fix
	Err     error
}

func (e *EvalError) Error() string { return e.Message }

func (e *EvalError) Unwrap() error { return e.Err }

// Related is a range that helps explain a finding, with what it is.
type Related struct {
	Range   grammar.Range
	Message string
}

// Env resolves sheet names to their values.
type Env interface {
	// Lookup is the value bound to name; ok is false when the name is not bound.
	// err is the binding's own failure (a name bound to a failed expression).
	Lookup(name string) (v layout.Value, ok bool, err error)
}

// noNames is the Env of a lone expression.
type noNames struct{}

func (noNames) Lookup(string) (layout.Value, bool, error) { return nil, false, nil }

// tags are the names CuTe's make_layout accepts as layout tags.
var tags = map[string]layout.Tag{
	"LayoutLeft":  layout.LayoutLeft,
	"LayoutRight": layout.LayoutRight,
	"GenColMajor": layout.LayoutLeft,
	"GenRowMajor": layout.LayoutRight,
}

// tagLengths are the shortest and the longest tag's length.
var tagLengths = func() (r struct{ min, max int }) {
	r.min = math.MaxInt
	for t := range tags {
		r.min, r.max = min(r.min, len(t)), max(r.max, len(t))
	}
	return r
}()

// isTag reports whether name is a layout tag's: most names a sheet reads
// (L7, A, tv) are shorter than any, told apart without a look-up.
func isTag(name string) bool {
	if len(name) < tagLengths.min || len(name) > tagLengths.max {
		return false
	}
	_, ok := tags[name]
	return ok
}

// Eval evaluates an expression node in env (nil for none).
func Eval(n grammar.Node, env Env) (layout.Value, error) {
	if env == nil {
		env = noNames{}
	}
	b := binder{env: env}
	return b.value(n)
}

// EvalString parses and evaluates one expression, e.g.
// "composition((4,2):(1,4), (2,2):(1,2))". Parse errors come back as *grammar.Error.
func EvalString(src string) (layout.Value, error) {
	n, perr := grammar.ParseExpr(src)
	if perr != nil {
		return nil, perr
	}
	return Eval(n, nil)
}

type binder struct {
	env   Env
	sites *[]CallSite // calls of operations with a Check, when the caller collects them
	// text is the text of the statement the nodes are of, from its start
	// on (their offsets index it); nil when not known.
	text []byte
}

// evalSites is Eval collecting the calls of operations with a Check into
// sites; text is the text of n's statement from its start on (nil when
// not known), which lets a layout literal's value come from literalValues.
func evalSites(n grammar.Node, env Env, sites *[]CallSite, text []byte) (layout.Value, error) {
	b := binder{env: env, sites: sites, text: text}
	return b.value(n)
}

// literalValues are the values of layout literals by their text: a literal
// that names nothing is a function of its text, and a generated sheet
// writes the same few literals (the same operand of a call) on thousands of
// lines. At most textMemoMax, shared by every sheet; a value is never
// changed once made, as a binding's value is shared by every name reading it.
// They are kept boxed (a Value holding a Layout): boxing one is an
// allocation of its 80 bytes, which every use would otherwise pay again.
var literalValues textMemo[[]byte, layout.Value]

// literal binds a layout literal, from literalValues when it is on one line
// and names nothing (no letter in its text). The value is a layout.Layout
// (boxed, as node returns it), also with an error.
func (b binder) literal(n *grammar.Layout) (layout.Value, error) {
	pos, end := n.Range.Pos, n.Range.End
	if pos.Line != end.Line || pos.Offset < 0 || int(end.Offset) > len(b.text) || pos.Offset > end.Offset {
		return layout.Boxed(b.layout(n))
	}
	key := b.text[pos.Offset:end.Offset]
	for _, c := range key {
		if 'a' <= c|0x20 && c|0x20 <= 'z' {
			return layout.Boxed(b.layout(n))
		}
	}
	if v, ok := literalValues.get(key); ok {
		return v, nil
	}
	l, err := b.layout(n)
	if err != nil {
		return layout.Box(l), err
	}
	v := layout.Box(l) // boxed once, kept boxed
	literalValues.put(key, v)
	return v, nil
}

func (b binder) fail(n grammar.Node, code, format string, args ...any) *EvalError {
	return &EvalError{Range: n.Span(), Code: code, Message: fmt.Sprintf(format, args...)}
}

// value binds any expression node.
func (b binder) value(n grammar.Node) (layout.Value, error) {
	switch n.(type) {
	case *grammar.Name, *grammar.Int, *grammar.Unknown, *grammar.Basis, *grammar.Tuple, *grammar.Underscore:
		// A name's value was checked where it was bound; intTuple checks tuples.
		return b.node(n)
	}
	v, err := b.node(n)
	if err != nil {
		return nil, err
	}
	if l, ok := v.(*layout.Layout); ok && flatLeaves(l.Shape)+flatLeaves(l.Stride) <= layout.MaxLeaves {
		return v, nil // within the limits, found without checkLeaves' walk
	}
	if err := b.checkLeaves(n, v); err != nil {
		return nil, err
	}
	return v, nil
}

// checkLeaves refuses a value with more than layout.MaxLeaves leaves, or
// nested deeper than layout.MaxValueDepth: a
// name repeated in a tuple shares its value's tree, so a few lines can name
// a tree of 2^30 leaves, which every feature that prints or walks it would
// then pay for. The check stops counting past the limit.
func (b binder) checkLeaves(n grammar.Node, v layout.Value) error {
	_, tooDeep, ok := layout.WithinLimits(v, layout.MaxLeaves)
	switch {
	case ok:
		return nil
	case tooDeep:
		return b.fail(n, CodeTooLarge, "this %s nests deeper than the limit of %d levels", kindOf(v), layout.MaxValueDepth)
	}
	total := layout.CountLeaves(v)
	return b.fail(n, CodeTooLarge, "this %s has %s leaves, more than the limit of %s", kindOf(v),
		groupThousands(total), groupThousands(layout.MaxLeaves))
}

// flatLeaves is how many leaves t holds when it is a leaf or a tuple of
// leaves (nested one level, far within layout.MaxValueDepth); otherwise
// more than layout.MaxLeaves, so that a caller checks it in full.
func flatLeaves(t layout.IntTuple) int {
	if t.IsLeaf() {
		return 1
	}
	for i := range t.Len() {
		if !t.At(i).IsLeaf() {
			return layout.MaxLeaves + 1
		}
	}
	return t.Len()
}

// node binds any expression node, its size unchecked.
func (b binder) node(n grammar.Node) (layout.Value, error) {
	switch n := n.(type) {
	case *grammar.Int, *grammar.Unknown, *grammar.Basis, *grammar.Tuple, *grammar.Underscore:
		return b.intTuple(n)
	case *grammar.Layout:
		return b.literal(n)
	case *grammar.Swizzle:
		return b.swizzle(n)
	case *grammar.Composed:
		return b.composed(n)
	case *grammar.Tiler:
		return b.tiler(n)
	case *grammar.AngleList:
		return b.angleList(n)
	case *grammar.MLIRType:
		return b.value(n.Inner)
	case *grammar.Name:
		return b.name(n)
	case *grammar.String:
		return Str(n.Value), nil
	case *grammar.Call:
		return b.call(n)
	case *grammar.TirxLayout:
		return b.tirx(n)
	case *grammar.Pointer:
		return nil, b.fail(n, CodeUnsupported, "a pointer stage only appears inside a composed layout")
	case nil:
		return nil, errors.New("analysis: no expression")
	}
	return nil, b.fail(n, CodeUnsupported, "this expression cannot be evaluated")
}

func (b binder) name(n *grammar.Name) (layout.Value, error) {
	v, ok, err := b.env.Lookup(n.Name)
	switch {
	case err != nil:
		// The binding's own failure is reported where it happened; here the
		// use only says it has no value, so one mistake is reported once.
		return nil, &EvalError{Range: n.Range, Code: CodeNoValue, Message: fmt.Sprintf("%s has no value: its definition failed", n.Name), Err: errNoValue}
	case ok:
		return v, nil
	}
	if tag, ok := tags[n.Name]; ok {
		return tag, nil
	}
	return nil, b.fail(n, CodeUndefined, "undefined: %s", n.Name)
}

// errNoValue marks errors that only repeat an earlier failure.
var errNoValue = errors.New("no value")

// intTuple binds a shape, stride, coordinate or descriptor.
func (b binder) intTuple(n grammar.Node) (layout.IntTuple, error) {
	switch n := n.(type) {
	case *grammar.Int:
		if n.Static {
			return layout.Int(n.Value), nil
		}
		// A plain integer written by the user is a constant: CuTe's
		// simplifications for static values apply, only the print differs.
		return layout.Int(n.Value), nil
	case *grammar.Unknown:
		return layout.Unknown(), nil
	case *grammar.Underscore:
		return layout.Underscore(), nil
	case *grammar.Basis:
		return b.basis(n)
	case *grammar.Tuple:
		elems := make([]layout.IntTuple, len(n.Elems))
		for i, e := range n.Elems {
			t, err := b.intTuple(e)
			if err != nil {
				return layout.IntTuple{}, err
			}
			elems[i] = t
		}
		t := layout.Tup(elems...)
		if flatLeaves(t) <= layout.MaxLeaves {
			return t, nil // within the limits, found without checkLeaves' walk
		}
		if err := b.checkLeaves(n, t); err != nil {
			return layout.IntTuple{}, err
		}
		return t, nil
	case *grammar.Name:
		v, err := b.name(n)
		if err != nil {
			return layout.IntTuple{}, err
		}
		if t, ok := v.(layout.IntTuple); ok {
			return t, nil
		}
		return layout.IntTuple{}, b.fail(n, CodeType, "%s is a %s, not an integer tuple", n.Name, kindOf(v))
	}
	return layout.IntTuple{}, b.fail(n, CodeType, "expected an integer, a tuple or a basis here")
}

// basis binds count@m0@m1...; the count must normalise to an integer.
func (b binder) basis(n *grammar.Basis) (layout.IntTuple, error) {
	var coef int64
	switch c := n.Count.(type) {
	case *grammar.Int:
		coef = c.Value
	case *grammar.Unknown:
		return layout.Unknown(), nil
	default:
		return layout.IntTuple{}, b.fail(n, CodeType, "a basis count must be an integer")
	}
	if n.Den != nil {
		den := n.Den.Value
		if den == 0 {
			return layout.IntTuple{}, &EvalError{Range: n.Den.Range, Code: CodeZeroDenominator, Message: "zero denominator in basis count"}
		}
		if coef%den != 0 {
			return layout.IntTuple{}, &EvalError{Range: n.Range, Code: CodeNonIntegralBasis,
				Message: fmt.Sprintf("basis count %d/%d is not an integer: a layout stride must be an integral multiple of its basis", coef, den)}
		}
		coef /= den
	}
	modes := make([]int, len(n.Modes))
	for i, m := range n.Modes {
		if m.Axis != "" {
			return layout.IntTuple{}, &EvalError{Range: m.Range, Code: CodeUnsupported, Message: fmt.Sprintf("named axis @%s belongs to TIRx layouts (S[...] + R[...])", m.Axis)}
		}
		// Written innermost first (CuTe's print order); held outermost first.
		modes[len(n.Modes)-1-i] = int(m.Index)
	}
	return layout.Basis(coef, modes...), nil
}

// layout binds shape:stride, checking congruence as make_layout does.
func (b binder) layout(n *grammar.Layout) (layout.Layout, error) {
	shape, err := b.intTuple(n.Shape)
	if err != nil {
		return layout.Layout{}, err
	}
	if err := positiveShape(n.Shape); err != nil {
		return layout.Layout{}, err
	}
	stride, err := b.intTuple(n.Stride)
	if err != nil {
		return layout.Layout{}, err
	}
	l, err := layout.MakeLayoutStride(shape, stride)
	if err != nil {
		return layout.Layout{}, &EvalError{Range: n.Range, Code: CodeIncongruent, Message: literalMessage(err), Err: err,
			Related: []Related{{n.Shape.Span(), "shape " + Show(shape, ShowDetailBytes)}, {n.Stride.Span(), "stride " + Show(stride, ShowDetailBytes)}}}
	}
	return l, nil
}

func (b binder) swizzle(n *grammar.Swizzle) (layout.Swizzle, error) {
	sw := layout.Swizzle{B: int(n.B.Value), M: int(n.M.Value), S: int(n.S.Value)}
	if err := sw.Validate("Swizzle"); err != nil {
		return layout.Swizzle{}, &EvalError{Range: n.Range, Code: CodeBadSwizzle, Message: literalMessage(err), Err: err}
	}
	return sw, nil
}

// composed binds "Sw o off o L", "Sw o L", a pointer stage standing for the
// offset, and chains of layouts, which compose right to left.
func (b binder) composed(n *grammar.Composed) (layout.Value, error) {
	stages := n.Stages
	if len(stages) == 0 {
		return nil, b.fail(n, CodeType, "empty composition")
	}
	// Evaluate from the innermost stage outwards: v = stage(v).
	v, err := b.value(stages[len(stages)-1])
	if err != nil {
		return nil, err
	}
	for i := len(stages) - 2; i >= 0; i-- {
		st := stages[i]
		if ptr, isPtr := st.(*grammar.Pointer); isPtr {
			// "Sw o smem_ptr[16b](...) o L": CuTe keeps the swizzle on byte
			// addresses; the layout counts elements, so the swizzle moves to
			// element offsets (the address itself is not part of the function).
			if i == 0 {
				continue
			}
			sw, err := b.value(stages[i-1])
			if err != nil {
				return nil, err
			}
			bsw, ok := sw.(layout.Swizzle)
			if !ok {
				return nil, b.fail(stages[i-1], CodeType, "a pointer stage follows a swizzle, not a %s", kindOf(sw))
			}
			bits, err := pointerBits(ptr)
			if err != nil {
				return nil, err
			}
			esw, err := gmma.ElementSwizzle(bsw, bits)
			if err != nil {
				return nil, &EvalError{Range: n.Range, Code: CodeBadSwizzle, Err: err,
					Message: fmt.Sprintf("%v on the bytes of %d-bit elements has no equivalent on element offsets: %v", bsw, bits, err)}
			}
			v, err = swizzledLayout(esw, layout.Int(0), v)
			if err != nil {
				return nil, b.algebraError(n, "composition", err, stages[i-1], stages[i+1])
			}
			i--
			continue
		}
		if off, isOffset := offsetStage(st); isOffset && i > 0 {
			// "Sw o off o L": the offset belongs to the swizzle to its left.
			outer, err := b.value(stages[i-1])
			if err != nil {
				return nil, err
			}
			offset, err := b.intTuple(off)
			if err != nil {
				return nil, err
			}
			v, err = swizzledLayout(outer, offset, v)
			if err != nil {
				return nil, b.algebraError(n, "composition", err, stages[i-1], stages[i+1])
			}
			i--
			continue
		}
		outer, err := b.value(st)
		if err != nil {
			return nil, err
		}
		v, err = composition(outer, v)
		if err != nil {
			return nil, b.algebraError(n, "composition", err, st, stages[i+1])
		}
	}
	return v, nil
}

// offsetStage reports whether a composed-layout stage is an offset (an integer or a tuple without ':').
func offsetStage(n grammar.Node) (grammar.Node, bool) {
	switch n.(type) {
	case *grammar.Int, *grammar.Tuple:
		return n, true
	}
	return nil, false
}

func (b binder) tiler(n *grammar.Tiler) (layout.Tiler, error) {
	var t layout.Tiler
	for _, m := range n.Modes {
		mode, err := b.tilerMode(m)
		if err != nil {
			return layout.Tiler{}, err
		}
		t.Modes = append(t.Modes, mode)
	}
	return t, nil
}

func (b binder) tilerMode(n grammar.Node) (layout.TilerMode, error) {
	switch m := n.(type) {
	case *grammar.Underscore:
		return layout.TilerMode{Skip: true}, nil
	case *grammar.Tuple:
		// A by-mode shape: each element tiles one sub-mode.
		sub := layout.Tiler{}
		for _, e := range m.Elems {
			mode, err := b.tilerMode(e)
			if err != nil {
				return layout.TilerMode{}, err
			}
			sub.Modes = append(sub.Modes, mode)
		}
		return layout.TilerMode{Sub: &sub}, nil
	}
	v, err := b.value(n)
	if err != nil {
		return layout.TilerMode{}, err
	}
	switch v := v.(type) {
	case *layout.Layout:
		return layout.TilerMode{Layout: *v}, nil
	case layout.Tiler:
		return layout.TilerMode{Sub: &v}, nil
	case layout.IntTuple:
		if v.IsLeaf() && !v.IsBasis() && !v.IsUnknown() {
			// CuTe reads a bare N as N:1 in composition but as make_layout(N) in the divides.
			return layout.TilerMode{Layout: layout.Make(v, layout.Int(1)), Int: true}, nil
		}
	}
	return layout.TilerMode{}, b.fail(n, CodeType, "a tiler mode is a layout, an integer, _ or a nested tiler; this is a %s", kindOf(v))
}

// angleList binds the seed documents' "<8:2>" (one layout) and "<2, 3>" (a tiler).
func (b binder) angleList(n *grammar.AngleList) (layout.Value, error) {
	if len(n.Modes) == 1 {
		if l, ok := n.Modes[0].(*grammar.Layout); ok {
			return layout.Boxed(b.layout(l))
		}
	}
	var t layout.Tiler
	for _, m := range n.Modes {
		mode, err := b.tilerMode(m)
		if err != nil {
			return nil, err
		}
		t.Modes = append(t.Modes, mode)
	}
	return t, nil
}

// call evaluates a call of an operation of the table by its name: the
// entry is looked up once here, its arguments evaluated (a bare word the
// operation reads as a Keyword), and its Apply called.
func (b binder) call(n *grammar.Call) (layout.Value, error) {
	op, ok := lookupOp(n.Fun.Name)
	if !ok {
		return nil, &EvalError{Range: n.Fun.Range, Code: CodeUnknownOp, Message: fmt.Sprintf("unknown operation %s", n.Fun.Name)}
	}
	if op.Analysis && len(n.Template) > 0 {
		return nil, &EvalError{Range: templateSpan(n), Code: CodeType,
			Message: fmt.Sprintf("%s takes no template arguments: %s", op.Name, op.Signature)}
	}
	key, keyed := b.callKey(n, op)
	if keyed {
		if c, ok := callValues.get(key); ok {
			if op.Check != nil && b.sites != nil {
				*b.sites = append(*b.sites, CallSite{Call: n, Op: *op, Args: c.args, Result: c.value})
			}
			return c.value, nil
		}
	}
	written := callOperands(n)
	args := make([]layout.Value, len(written))
	for i, a := range written {
		if name, ok := a.(*grammar.Name); ok && op.isKeyword(name.Name) {
			if _, bound, _ := b.env.Lookup(name.Name); !bound {
				args[i] = Keyword(name.Name)
				continue
			}
		}
		v, err := b.operand(n, a)
		if err != nil {
			return nil, err
		}
		args[i] = plain(v)
	}
	v, err := op.Apply(args)
	if err != nil {
		var oe *OpError
		if errors.As(err, &oe) {
			return nil, opError(n, oe, err)
		}
		return nil, b.argumentError(n, op.Name, err, written)
	}
	if op.Check != nil && b.sites != nil {
		*b.sites = append(*b.sites, CallSite{Call: n, Op: *op, Args: args, Result: v})
	}
	if keyed {
		callValues.put(key, calledValue{value: v, args: args})
	}
	return v, nil
}

// callValues are the values of calls by their text, with their arguments
// as evaluated (for the Check, CallSite.Args): a call of an operation of
// the algebra whose arguments are written out (integers, tuples, layout
// literals: no name, no call) is a function of its text, and a generated
// sheet makes the same few calls (complement(4:1, 64)) on thousands of
// lines. At most textMemoMax, shared by every sheet; values and
// arguments are never changed once made (literalValues).
var callValues textMemo[[]byte, calledValue]

type calledValue struct {
	value layout.Value
	args  []layout.Value
}

// callKey is the text of call n of op, the key of its value in callValues;
// ok is false when the value is not kept by its text: the text is not
// known or not on one line, op is an analysis (no function of the
// algebra), or an argument is no written-out value (a letter after the
// operation's name: a name, a call, a keyword, a swizzle).
func (b binder) callKey(n *grammar.Call, op *Op) ([]byte, bool) {
	pos, end := n.Range.Pos, n.Range.End
	if op.Analysis || pos.Line != end.Line || pos.Offset < 0 || int(end.Offset) > len(b.text) || pos.Offset > end.Offset {
		return nil, false
	}
	key := b.text[pos.Offset:end.Offset]
	name := n.Fun.Name
	if len(key) <= len(name) || string(key[:len(name)]) != name {
		return nil, false
	}
	for _, c := range key[len(name):] {
		if 'a' <= c|0x20 && c|0x20 <= 'z' {
			return nil, false
		}
	}
	return key, true
}

// opError is an analysis operation's refusal (OpError) at the argument it
// names, with its suggestions as fixes there.
func opError(n *grammar.Call, oe *OpError, err error) error {
	at := n.Span()
	if oe.Arg >= 1 && oe.Arg <= len(n.Args) {
		at = n.Args[oe.Arg-1].Span()
	}
	code := oe.Code
	if code == "" {
		code = CodeType
	}
	e := &EvalError{Range: at, Code: code, Message: err.Error(), Err: err}
	if oe.Arg >= 1 && oe.Arg <= len(n.Args) {
		for _, text := range oe.Suggest {
			e.Fixes = append(e.Fixes, Fix{Title: "Change to " + text, Edits: []Edit{{at, text}}})
		}
	}
	return e
}

// callOperands lists a call's arguments in the order the algebra takes
// them: CuTe's template arguments (select<1,3>(L)) come right after the
// first argument, as the table's adapters take them
// (select(L, 1, 3), replace<N>(L, X) as replace(L, N, X)).
func callOperands(n *grammar.Call) []grammar.Node {
	if len(n.Template) == 0 {
		return n.Args
	}
	out := make([]grammar.Node, 0, len(n.Args)+len(n.Template))
	if len(n.Args) > 0 {
		out = append(out, n.Args[0])
	}
	out = append(out, n.Template...)
	if len(n.Args) > 1 {
		out = append(out, n.Args[1:]...)
	}
	return out
}

// isTemplateArg reports whether a is one of n's template arguments.
func isTemplateArg(n *grammar.Call, a grammar.Node) (int, bool) {
	for i, t := range n.Template {
		if t == a {
			return i, true
		}
	}
	return 0, false
}

// operand evaluates one argument of a call; a template argument must be
// an integer known before run time.
func (b binder) operand(n *grammar.Call, a grammar.Node) (layout.Value, error) {
	v, err := b.value(a)
	if err != nil {
		return nil, err
	}
	if i, ok := isTemplateArg(n, a); ok {
		t, isInt := v.(layout.IntTuple)
		if !isInt || !t.IsLeaf() || t.IsUnknown() || t.IsBasis() {
			return nil, &EvalError{Range: a.Span(), Code: CodeType,
				Message: fmt.Sprintf("template argument %d of %s must be an integer, but %s is %s", i+1, n.Fun.Name, grammar.Print(a, grammar.Cute), Show(v, ShowDetailBytes))}
		}
	}
	return v, nil
}

// templateSpan is the range of a call's template arguments.
func templateSpan(n *grammar.Call) grammar.Range {
	return grammar.Range{Pos: n.Template[0].Span().Pos, End: n.Template[len(n.Template)-1].Span().End}
}

// argumentError is algebraError at the argument the algebra names, when
// it names one (layout.Error.Arg): the message says which argument, as
// the user wrote it (a template argument by its place in <...>).
func (b binder) argumentError(n *grammar.Call, op string, err error, written []grammar.Node) error {
	var le *layout.Error
	if !errors.As(err, &le) || le.Arg < 1 || le.Arg > len(written) {
		return b.algebraError(n, op, err, written...)
	}
	at := written[le.Arg-1]
	what := ""
	if i, ok := isTemplateArg(n, at); ok {
		what = fmt.Sprintf("template argument %d", i+1)
	} else {
		for i, a := range n.Args {
			if a == at {
				what = fmt.Sprintf("argument %d", i+1)
			}
		}
	}
	e := b.algebraError(n, op, err, written...).(*EvalError)
	e.Range = at.Span()
	// The argument at fault is the error's own range: relate the others.
	related := e.Related[:0]
	for _, r := range e.Related {
		if r.Range != e.Range {
			related = append(related, r)
		}
	}
	e.Related = related
	e.Message = fmt.Sprintf("%s of %s: %s", what, op, strings.TrimPrefix(e.Message, op+": "))
	return e
}

// algebraError ties an error of the algebra to the call that raised it and its operands.
func (b binder) algebraError(n grammar.Node, op string, err error, operands ...grammar.Node) error {
	var ee *EvalError
	if errors.As(err, &ee) {
		return err
	}
	code := CodeAlgebra
	var le *layout.Error
	switch {
	case layout.IsUnknown(err):
		code = CodeUnknownValue
	case errors.As(err, &le) && le.Condition == layout.CondOverflow:
		code = CodeOverflow
	case errors.As(err, &le) && le.Kind:
		code = CodeType
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, op+":") {
		// The algebra names the step that failed (product, inside size);
		// the user named the operation they called.
		msg = op + ": " + msg
	}
	e := &EvalError{Range: n.Span(), Code: code, Message: msg, Err: err}
	for i, o := range operands {
		e.Related = append(e.Related, Related{Range: o.Span(), Message: fmt.Sprintf("operand %d of %s", i+1, op)})
	}
	return e
}

// literalMessage is the algebra's reason for refusing a literal the user
// wrote, without the name of the function the algebra checked it with
// (make_layout for (2,2):(4,1,1)): the user called no function.
func literalMessage(err error) string {
	var le *layout.Error
	if !errors.As(err, &le) {
		return err.Error()
	}
	switch {
	case le.Condition == "":
		return le.Detail
	case le.Detail == "":
		return le.Condition
	}
	return le.Detail + " (" + le.Condition + ")"
}

// kindOf names the kind of a value for messages.
func kindOf(v layout.Value) string {
	switch v := v.(type) {
	case layout.IntTuple:
		if v.IsLeaf() {
			return "integer"
		}
		return "integer tuple"
	case *layout.Layout:
		return "layout"
	case layout.Composed:
		return "composed layout"
	case layout.Swizzle:
		return "swizzle"
	case layout.Tiler:
		return "tiler"
	case layout.Tag:
		return "layout tag"
	case Str:
		return "string"
	case AtomValue:
		return "atom"
	case tirx.Layout:
		return "TIRx layout"
	case tirx.PointSet:
		return "TIRx point set"
	}
	return fmt.Sprintf("%T", v)
}

// swizzledLayout is the literal "Sw o off o L", kept as written (CuTe's
// composition would drop an identity swizzle; a literal is not a call).
func swizzledLayout(outer layout.Value, offset layout.IntTuple, inner layout.Value) (layout.Value, error) {
	sw, ok := outer.(layout.Swizzle)
	if !ok {
		return nil, &layout.Error{Op: "composition", Detail: fmt.Sprintf("an offset stage follows a swizzle, not a %s", kindOf(outer))}
	}
	in, ok := inner.(*layout.Layout)
	if !ok {
		return composition(sw, inner)
	}
	return layout.Composed{Outer: sw, Offset: offset, Inner: *in}, nil
}

// positiveShape rejects a shape leaf written as zero or less: a mode of no
// elements (or fewer) is never what a layout means, and CuTe's arithmetic
// on it (sizes, divisions) goes wrong without saying so.
func positiveShape(shape grammar.Node) error {
	var bad *grammar.Int
	grammar.Inspect(shape, func(n grammar.Node) bool {
		if i, ok := n.(*grammar.Int); ok && bad == nil && i.Value <= 0 {
			bad = i
		}
		_, isBasis := n.(*grammar.Basis)
		return bad == nil && !isBasis
	})
	if bad == nil {
		return nil
	}
	return &EvalError{Range: bad.Range, Code: CodeNonPositiveShape,
		Message: fmt.Sprintf("shape leaf %d: every mode of a shape needs at least one element", bad.Value)}
}

// pointerBits reads the element width of a pointer stage: "16b" is 16 bits.
func pointerBits(p *grammar.Pointer) (int, error) {
	text := strings.TrimSuffix(p.Bits, "b")
	bits, err := strconv.Atoi(text)
	if err != nil || bits <= 0 || text != p.Bits[:len(p.Bits)-1] {
		return 0, &EvalError{Range: p.Range, Code: CodeType, Message: fmt.Sprintf("the pointer's element width %q is not a number of bits such as 16b", p.Bits)}
	}
	return bits, nil
}

// groupThousands writes n with commas between groups of three digits: 1,048,576.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var out []byte
	for i := range len(s) {
		if i > 0 && s[i-1] != '-' && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
