package analysis

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/source"
)

// Findings of code: the calls CuTe C++ itself rejects at compile time. A
// call is an error here only when CuTe's check is a static_assert that
// fires on these operands: every operand of the call has a value here,
// none holds an unknown ("?") integer, and where CuTe's check reads the
// integers themselves (the divisibility conditions, injectivity) every
// one of them is static. With a run-time integer among them CuTe checks
// at run time or not at all (its "weak divisibility condition"), so there
// is no compile-time error to report. Checks on ranks and on which
// integers are static (too many tiler modes, an index out of range,
// Downcast's stride-1 mode, the complement of a run-time stride) are
// static_asserts whatever the values, and are reported once the operands
// are known.
//
// Where the algebra follows CuTe's run-time paths (composition, complement,
// the divides and products, tile_to_shape with plain integers), its value
// checks are CuTe's weak checks on the static integers met, and count too;
// upcast<N>'s per-mode check of static strides is made here on its own.
//
// Code this evaluator does not follow has no value and so no finding: a
// missed error, never a false one. Nor does code whose names the reader
// may resolve wrongly, code no build compiles, a Python name not imported
// from CuTe, or a test expecting the failure (certain, code_trust.go).

// staticAssertConditions are the conditions of CuTe's static_asserts that
// the algebra reports, each with whether CuTe's check reads only the types
// (ranks, static-ness), so that it fires with run-time integers as well.
var staticAssertConditions = map[string]bool{
	layout.CondShapeDivisibility:       false,
	layout.CondStrideDivisibility:      false,
	layout.CondNonInjective:            false,
	layout.CondTileDivide:              false,
	layout.CondUpcastDivisibility:      false,
	layout.CondLeftInverse:             false,
	layout.CondDivideTooManyModes:      true,
	layout.CondProductTooManyModes:     true,
	layout.CondIndexRange:              true,
	layout.CondTakeBounds:              true,
	layout.CondTakeEmpty:               true,
	layout.CondTileRank:                true,
	layout.CondDynamicStrideComplement: true,
	layout.CondDowncastAdjacent:        true,
}

// Findings are the findings of the code: the calls CuTe rejects at
// compile time (CodeAlgebra errors at the call, the algebra's explanation
// in the file's numbers, each operand bound to a name shown beside it).
func (c *Code) Findings() []Finding {
	if c == nil {
		return nil
	}
	var out []Finding
	for _, root := range c.File.Roots {
		// Only a call of the algebra can be rejected: most roots (a traits
		// header's 10,000 using declarations) hold none, and need neither
		// the lock nor an evaluation.
		if callsAlgebra(root) {
			out = c.rootFindings(root, out)
		}
	}
	return out
}

// callsAlgebra reports whether n holds a call of one of the algebra's
// operations (the calls callError may reject).
func callsAlgebra(n source.Node) bool {
	switch n := n.(type) {
	case *source.Call:
		if n.Fun != nil && isAlgebraOp(n.Fun.Name) || n.Recv != nil && callsAlgebra(n.Recv) {
			return true
		}
		for _, x := range n.TArgs {
			if callsAlgebra(x) {
				return true
			}
		}
		for _, x := range n.Args {
			if callsAlgebra(x) {
				return true
			}
		}
		for _, k := range n.Keywords {
			if callsAlgebra(k.Value) {
				return true
			}
		}
	case *source.Binary:
		return callsAlgebra(n.X) || callsAlgebra(n.Y)
	case *source.Unary:
		return callsAlgebra(n.X)
	case *source.Tuple:
		for _, x := range n.Elems {
			if callsAlgebra(x) {
				return true
			}
		}
	case *source.Attr:
		return callsAlgebra(n.X)
	}
	return false
}

// rootFindings appends the findings of one root expression to out: the
// calls CuTe rejects at compile time, innermost first, in source order (a
// call whose operand is itself rejected is not reported again). The
// lock is held for one root at a time, so that a request for values only
// (inlay hints, hover) waits for one root's evaluation, not the file's.
func (c *Code) rootFindings(root source.Node, out []Finding) []Finding {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []codeError
	c.collectErrors(root, &errs)
	for _, e := range errs {
		out = append(out, Finding{
			Range:    c.rangeOf(e.call.Start, e.call.End),
			Severity: SeverityError,
			Code:     CodeAlgebra,
			Message:  CapMessage(c.errorMessage(e.err)),
			Related:  c.operandBindings(e.call),
		})
	}
	return out
}

// errorMessage is the algebra's explanation of a rejected call, and who
// rejects it.
func (c *Code) errorMessage(e *layout.Error) string {
	msg := e.Error()
	if strings.HasPrefix(e.Detail, e.Op+"<") {
		msg = e.Detail + " (" + e.Condition + ")" // size<2>: ..., not size: size<2>: ...
	}
	if c.python {
		return msg + "; CuTe C++'s static_assert rejects the same call at compile time"
	}
	return msg + "; CuTe's static_assert rejects this call at compile time"
}

// showCode is a value of code as CuTe prints it, cut to ShowDetailBytes
// (a value may hold a million leaves).
func showCode(v layout.Value) string {
	switch v.(type) {
	case layout.IntTuple, *layout.Layout, layout.Composed:
		return ShowStatic(v, ShowDetailBytes)
	}
	return CapMessage(CuTePrint(v))
}

// rangeOf is the grammar range of the bytes [start, end).
func (c *Code) rangeOf(start, end int) grammar.Range {
	return grammar.Range{Pos: c.position(start), End: c.position(end)}
}

// operandBindings are the bindings of the names a call's operands are,
// with their values: "b = (_6):(_1)" beside "composition(a, b)".
func (c *Code) operandBindings(n *source.Call) []Related {
	var out []Related
	seen := map[int]bool{}
	operands := append(append([]source.Node(nil), n.Args...), n.TArgs...)
	for _, k := range n.Keywords {
		operands = append(operands, k.Value)
	}
	for _, a := range operands {
		id, ok := a.(*source.Ident)
		if !ok || id.Qualifier() != "" {
			continue
		}
		i, ok := c.lookup(id.Name, id.Start)
		if !ok || seen[i] {
			continue
		}
		seen[i] = true
		v, err := c.binding(i, 0)
		if err != nil {
			continue
		}
		b := c.File.Bindings[i]
		out = append(out, Related{Range: c.rangeOf(b.NameAt.Start, b.NameAt.End), Message: b.Name + " = " + showCode(v)})
	}
	return out
}

// codeFindings adds the findings of the file's code to the host's, in
// source order.
func (h *Host) codeFindings() {
	c := h.Code()
	fs := append(c.Findings(), h.staleComments(c)...)
	if len(fs) == 0 {
		return
	}
	h.Findings = append(h.Findings, fs...)
	sort.SliceStable(h.Findings, func(i, j int) bool {
		return h.Findings[i].Range.Pos.Offset < h.Findings[j].Range.Pos.Offset
	})
}

// codeError is CuTe's compile-time rejection of a call.
type codeError struct {
	call *source.Call
	err  *layout.Error
}

// collectErrors walks n's calls from the inside out; it reports whether an
// error was found in n. The children are visited in place, in the order
// Recv, TArgs, Args, Keywords (a slice of them for each call was most of
// what the walk allocated).
func (c *Code) collectErrors(n source.Node, out *[]codeError) bool {
	found := false
	visit := func(ch source.Node) {
		if ch != nil && c.collectErrors(ch, out) {
			found = true
		}
	}
	switch n := n.(type) {
	case *source.Call:
		if n.Recv != nil {
			visit(n.Recv)
		}
		for _, x := range n.TArgs {
			visit(x)
		}
		for _, x := range n.Args {
			visit(x)
		}
		for _, k := range n.Keywords {
			visit(k.Value)
		}
	case *source.Binary:
		visit(n.X)
		visit(n.Y)
	case *source.Unary:
		visit(n.X)
	case *source.Tuple:
		for _, x := range n.Elems {
			visit(x)
		}
	case *source.Attr:
		visit(n.X)
	}
	if found {
		return true
	}
	if call, ok := n.(*source.Call); ok {
		if e, ok := c.callError(call); ok {
			*out = append(*out, codeError{call: call, err: e})
			return true
		}
	}
	return false
}

// callError is the static_assert CuTe fails at call n, if it fails one:
// the algebra's rejection of the call (taken from the cache where the file
// uses it), when certain.
func (c *Code) callError(n *source.Call) (*layout.Error, bool) {
	if !isAlgebraOp(n.Fun.Name) {
		return nil, false // most calls of a kernel: no key to build
	}
	e, ok := c.cachedAlgebraError(n)
	if !ok || !c.certain(n) {
		return nil, false
	}
	return e, true
}

// algebraError is the static_assert CuTe fails at call n on its operands'
// values, certain or not: a function of the call's tree and of what its
// names resolve to, as a binding's value is (code_cache.go).
func (c *Code) algebraError(n *source.Call) (*layout.Error, bool) {
	// The algebra's answer on the operands is the call's: no evaluation of
	// the call itself first (Code.call applies the same operation to the
	// same operands, or has no value).
	name, operands, ok := c.operands(n)
	if !ok {
		return nil, false
	}
	static := true
	for _, v := range operands {
		if !knownValue(v) {
			return nil, false
		}
		static = static && staticValue(v)
	}
	if name == "left_inverse" && !static {
		return found(leftInverseDynamic(operands))
	}
	if name == "upcast" && !static {
		return found(upcastStaticStrides(operands))
	}
	// followed: the algebra computes as CuTe does with these operands,
	// run-time integers included, so its value checks are CuTe's weak
	// divisibility conditions (checked where the integers are static).
	followed := static || runTimeAlgebra[name] && plainIntegers(operands) || name == "tile_to_shape" && tileToShapeFollowed(operands)
	if !followed && !runTimeAware[name] && name != "downcast" {
		// The algebra computes this operation on the integers alone: with
		// a run-time one its answer says nothing of CuTe's checks.
		return nil, false
	}
	_, err := algebraApply(name, operands...)
	var le *layout.Error
	if err == nil || !errors.As(err, &le) || le.Kind {
		return nil, false
	}
	typeCheck, isAssert := staticAssertConditions[le.Condition]
	if !isAssert || !followed && !typeCheck {
		return nil, false
	}
	if user := n.Fun.Name; user != name && le.Op == name {
		// size<2>(L) is applied as layout<2>(L): say it as written.
		renamed := *le
		renamed.Op = user
		renamed.Detail = strings.Replace(le.Detail, name+"<", user+"<", 1)
		le = &renamed
	}
	return le, true
}

// certain reports whether an error at call n would be certain: compiled
// code, names read with their bindings' values, a CuTe function, not a
// test expecting the failure. Checked once the algebra has rejected the
// call: it walks the bindings and the lines.
func (c *Code) certain(n *source.Call) bool {
	return !c.File.DisabledAt(n.Start) && c.trusted(n) && !c.expectsFailure(n.Start) && c.importedFromCute(n.Fun)
}

// found is e, an error found by a check of its own, when ok (nil otherwise).
func found(e *layout.Error, ok bool) (*layout.Error, bool) {
	if !ok {
		return nil, false
	}
	return e, true
}

// operands are the operation a call names and the values it is applied to,
// as Code.call applies them (the first argument, the template arguments,
// the other arguments and the keyword arguments); ok is false for a call
// that is not one of the algebra's operations on values known here.
func (c *Code) operands(n *source.Call) (name string, vals []layout.Value, ok bool) {
	name = n.Fun.Name
	if !isAlgebraOp(name) || n.Recv != nil || n.Braced || !c.cuteQualified(n.Fun) {
		return "", nil, false // checked first: most calls of a kernel are none of the algebra's
	}
	if n.Fun.Qualifier() == "" && !c.python {
		if _, bound := c.lookup(name, n.Start); bound {
			return "", nil, false
		}
	}
	if c.python && n.Fun.Qualifier() != "" {
		if _, bound := c.lookup(firstDotted(n.Fun.Full), n.Start); bound {
			return "", nil, false
		}
	}
	if !isAlgebraOp(name) || name == "swizzle" {
		return "", nil, false
	}
	switch {
	case staticTypes[name], dslIntegers[name], castNames[name], tupleTypes[name], name == "make_layout_like",
		name == "Layout", name == "Swizzle", name == "smem_ptr_flag_bits", name == "ComposedLayout",
		name == "composition" && len(n.Args) == 3:
		return "", nil, false
	}
	targs, err := c.values(n.TArgs, nil, 0)
	if err != nil {
		return "", nil, false
	}
	for i, a := range targs {
		if t, ok := a.(layout.IntTuple); ok && t.IsLeaf() {
			targs[i] = t.WithStatic(true)
		}
	}
	args, err := c.argValues(n.Args, nil, 0)
	if err != nil {
		return "", nil, false
	}
	if modeQueries[name] {
		// size<0>(L): the mode is taken first (get, or layout of a layout).
		if len(n.Keywords) > 0 || len(args) != 1 {
			return "", nil, false
		}
		if len(targs) == 0 {
			return name, args, true
		}
		if _, isLayout := args[0].(*layout.Layout); isLayout {
			return "layout", append(args, targs...), true
		}
		return "get", append(args, targs...), true
	}
	if len(n.Keywords) > 0 {
		kw, err := c.keywords(n, nil, 0)
		if err != nil {
			return "", nil, false
		}
		args = append(args, kw...)
	}
	all := operandOrder(args, targs)
	if p, ok := firstOperand(all).(PointerComposed); ok && name == "tile_to_shape" {
		// CuTe tiles a ComposedLayout's inner layout: its checks are that call's.
		all[0] = layout.Box(p.Inner)
	}
	return name, all, true
}

// tileToShapeFollowed reports whether tile_to_shape's operands are ones
// the algebra builds as CuTe does with run-time integers (layout.TileToShape
// rounds run-time repetition counts up as CuTe's ceil_div does, then takes
// the run-time paths of make_ordered_layout and blocked_product): a plain
// layout, a plain target shape, and an order that is a tag or plain.
func tileToShapeFollowed(operands []layout.Value) bool {
	if len(operands) < 2 || len(operands) > 3 || !plainIntegers(operands[:2]) {
		return false
	}
	if _, ok := operands[0].(*layout.Layout); !ok {
		return false
	}
	if len(operands) == 3 {
		if _, isTag := operands[2].(layout.Tag); !isTag && !plainIntegers(operands[2:]) {
			return false
		}
	}
	return true
}

// knownValue reports whether v holds no unknown ("?") integer.
func knownValue(v layout.Value) bool {
	return everyLeaf(v, func(t layout.IntTuple) bool { return !t.IsUnknown() })
}

// leftInverseDynamic is CuTe's static_assert that left_inverse's strides,
// once coalesced, are all static.
func leftInverseDynamic(operands []layout.Value) (*layout.Error, bool) {
	if len(operands) != 1 {
		return nil, false
	}
	l, ok := operands[0].(*layout.Layout)
	if !ok {
		return nil, false
	}
	cl, err := layout.Coalesce(l)
	if err != nil || allStatic(cl.Stride) {
		return nil, false
	}
	return &layout.Error{Op: "left_inverse", Condition: condLeftInverseStatic,
		Detail: "the strides of " + showCode(cl) + " (" + showCode(l) + " coalesced) are not all static"}, true
}

// upcastStaticStrides is CuTe's static_assert in upcast<N> on each mode
// of a layout whose stride is static (and not 0): the stride and N divide
// one another. Modes of run-time stride are not checked at compile time.
func upcastStaticStrides(operands []layout.Value) (*layout.Error, bool) {
	if len(operands) != 2 {
		return nil, false
	}
	l, ok := operands[0].(*layout.Layout)
	n, ok2 := operands[1].(layout.IntTuple)
	if !ok || !ok2 || !n.IsLeaf() || !n.IsStatic() || n.Value() <= 0 || !plainTuple(l.Stride) {
		return nil, false
	}
	var failing *layout.IntTuple
	var walk func(d layout.IntTuple)
	walk = func(d layout.IntTuple) {
		switch {
		case failing != nil:
		case d.IsTuple():
			for _, e := range d.Elems() {
				walk(e)
			}
		case d.IsStatic() && d.Value() != 0 && d.Value()%n.Value() != 0 && n.Value()%d.Value() != 0:
			failing = &d
		}
	}
	walk(l.Stride)
	if failing == nil {
		return nil, false
	}
	return &layout.Error{Op: "upcast", Condition: layout.CondUpcastDivisibility,
		Detail: "stride " + strconv.FormatInt(failing.Value(), 10) + " and N = " + strconv.FormatInt(n.Value(), 10) + ": neither divides the other"}, true
}

// condLeftInverseStatic is CuTe's static_assert text in left_inverse.
const condLeftInverseStatic = "Left inverse requires static strides."

// isAlgebraOp reports whether name is one of the table's operations of the
// layout algebra (not an analysis: banks, atoms, descriptors), the ones
// whose refusals are CuTe's static_asserts.
func isAlgebraOp(name string) bool {
	op, ok := lookupOp(name)
	return ok && !op.Analysis
}

// algebraApply calls the algebra's operation name on args, with its error.
func algebraApply(name string, args ...layout.Value) (layout.Value, error) {
	op, ok := lookupOp(name)
	if !ok || op.Analysis {
		return nil, errUnresolved
	}
	return op.Apply(args)
}
