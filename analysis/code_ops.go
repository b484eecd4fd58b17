package analysis

import (
	"sort"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/gmma"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/source"
)

// The CuTe C++ and DSL spellings evaluated by Code, mapped onto the
// operations of the table (opTable): one evaluator for both languages.

// tupleTypes build integer tuples from their template or call arguments.
var tupleTypes = map[string]bool{
	"Shape": true, "Stride": true, "Step": true, "Coord": true, "tuple": true, "Tile": true,
	"make_shape": true, "make_stride": true, "make_step": true, "make_coord": true, "make_tuple": true,
	"make_tile": true,
}

// staticTypes are CuTe's static integer types: Int<8>, C<8>, constant<int,8>.
var staticTypes = map[string]bool{"Int": true, "C": true, "constant": true, "integral_constant": true}

// dslIntegers are the DSL's run-time integer constructors: cutlass.Int32(8).
var dslIntegers = map[string]bool{"Int32": true, "Int64": true, "Uint32": true, "Uint64": true, "Int16": true, "Int8": true, "Uint8": true, "Uint16": true}

// modeQueries take template indices selecting a mode first: size<0>(L).
var modeQueries = map[string]bool{"size": true, "cosize": true, "rank": true, "depth": true}

// castNames evaluate to their argument (decltype, static_cast), or to
// its integer as a run-time one (int(x), int32_t(x), size_t(x), ...).
var castNames = map[string]bool{"static_cast": true, "decltype": true, "int": true, "size_t": true, "int32_t": true, "int64_t": true, "uint32_t": true}

func (c *Code) values(ns []source.Node, sc scope, depth int) ([]layout.Value, error) {
	out := make([]layout.Value, len(ns))
	for i, n := range ns {
		v, err := c.eval(n, sc, depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// argValues is the values of a call's arguments. An empty tuple written as
// an argument is CuTe's empty tuple (the DSL's cute.make_layout(()) is
// ():()); elsewhere a bare () or [] is a Python tuple or list, rarely
// CuTe's, and has no value.
func (c *Code) argValues(ns []source.Node, sc scope, depth int) ([]layout.Value, error) {
	out := make([]layout.Value, len(ns))
	for i, n := range ns {
		if t, ok := n.(*source.Tuple); ok && len(t.Elems) == 0 {
			out[i] = layout.Tup()
			continue
		}
		v, err := c.eval(n, sc, depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (c *Code) call(n *source.Call, sc scope, depth int) (layout.Value, error) {
	name := n.Fun.Name
	if n.Recv != nil {
		x, err := c.eval(n.Recv, sc, depth+1)
		if err != nil {
			return nil, err
		}
		if len(n.Args) > 0 || len(n.Keywords) > 0 {
			return nil, errUnresolved
		}
		return c.member(name, x, nil)
	}
	if n.Fun.Qualifier() == "" && !c.python {
		if i, ok := c.lookup(name, n.Start); ok {
			return c.instantiate(i, n, sc, depth)
		}
	}
	if c.python && n.Fun.Qualifier() != "" {
		// x.method(...) on a bound value is not a CuTe function.
		if _, bound := c.lookup(firstDotted(n.Fun.Full), n.Start); bound {
			return nil, errUnresolved
		}
	}
	if i, ok := c.scopedBinding(n.Fun); ok {
		return c.instantiate(i, n, sc, depth) // Traits::TileShape{}
	}
	if atom, ok := c.namedAtom(n, sc); ok {
		return atom, nil
	}
	if v, ok, err := c.atomCall(n, sc, depth); ok {
		return v, err // MMA_Atom<OP>, Copy_Atom<OP, T>, TiledMMA<...>, OP{} (code_atoms.go)
	}
	if !c.cuteQualified(n.Fun) {
		return nil, errUnresolved // cutlass::Coord<2> is not cute::Coord
	}
	if n.Braced && len(n.Args) == 0 && !n.HasTArgs {
		// _8{}, LayoutRight{}, GenColMajor{}: the value the name stands for.
		return c.ident(n.Fun, sc, depth)
	}
	if name == "recast_layout" && len(n.TArgs) == 2 && len(n.Args) == 1 && !c.python {
		return c.recastLayout(n, sc, depth)
	}
	if name == "sizeof_bits_v" && len(n.TArgs) == 1 && len(n.Args) == 0 && !n.Paren && !n.Braced && !c.python {
		// sizeof_bits_v<half_t>: a compile-time int. (sizeof_bits<T>::value
		// is not read: the reader leaves nested names of template-ids.)
		if id, ok := n.TArgs[0].(*source.Ident); ok {
			if bits, ok := c.elementType(id, sc, 0); ok {
				return layout.Dyn(int64(bits)), nil
			}
		}
		return nil, errUnresolved
	}
	targs, err := c.values(n.TArgs, sc, depth)
	if err != nil {
		return nil, err
	}
	for i, a := range targs {
		// A template argument is a compile-time constant: get<0>, upcast<2>.
		if t, ok := a.(layout.IntTuple); ok && t.IsLeaf() {
			targs[i] = t.WithStatic(true)
		}
	}
	// Braced arguments construct a value of the type: a run-time value
	// this reader does not follow, unless the type's own arguments say it all.
	if n.Braced && len(n.Args) > 0 && !tupleTypes[name] {
		return nil, errUnresolved
	}
	args, err := c.argValues(n.Args, sc, depth)
	if err != nil {
		return nil, err
	}
	switch {
	case staticTypes[name]:
		if len(targs) == 0 || len(args) > 0 {
			return nil, errUnresolved
		}
		t, ok := targs[len(targs)-1].(layout.IntTuple)
		if !ok || !t.IsLeaf() || t.IsBasis() {
			return nil, errUnresolved
		}
		if t.IsUnknown() {
			return t, nil
		}
		return layout.Int(t.Value()), nil
	case c.python && dslIntegers[name]:
		if len(args) != 1 {
			return nil, errUnresolved
		}
		t, ok := args[0].(layout.IntTuple)
		if !ok || !t.IsLeaf() {
			return nil, errUnresolved
		}
		if t.IsUnknown() {
			return t, nil
		}
		return layout.Dyn(t.Value()), nil
	case name == "abs" && len(args) == 1 && len(targs) == 0 && !c.python:
		// abs(S) of an integer (CuTe's abs keeps Int<N> static, std::abs of an int is an int).
		t, ok := args[0].(layout.IntTuple)
		if !ok || !t.IsLeaf() || t.IsBasis() || t.IsUnderscore() || t.IsUnknown() {
			return nil, errUnresolved
		}
		if t.Value() < 0 {
			return withStatic(-t.Value(), t.IsStatic()), nil
		}
		return t, nil
	case castNames[name]:
		if len(args) != 1 {
			return nil, errUnresolved
		}
		if name == "decltype" || name == "static_cast" {
			return args[0], nil
		}
		// int32_t(Int<8>{}) is a plain int: run-time, as CuTe prints it (8).
		t, ok := args[0].(layout.IntTuple)
		if !ok || !t.IsLeaf() || t.IsBasis() || t.IsUnderscore() {
			return nil, errUnresolved
		}
		if t.IsUnknown() {
			return t, nil
		}
		return layout.Dyn(t.Value()), nil
	case tupleTypes[name]:
		elems := targs
		if n.Paren || n.Braced && len(args) > 0 {
			elems = args
		}
		return tupleOf(elems, name == "Tile" || name == "make_tile")
	case name == "E" && len(targs) > 0 && len(args) == 0:
		// E<1,0>{}: CuTe's basis vector ScaledBasis<_1, 1, 0>, outermost mode first.
		modes := make([]int, len(targs))
		for i, a := range targs {
			t, ok := a.(layout.IntTuple)
			if !ok || !t.IsLeaf() || t.IsUnknown() || t.IsBasis() || t.IsUnderscore() || t.Value() < 0 || t.Value() > 64 {
				return nil, errUnresolved
			}
			modes[i] = int(t.Value())
		}
		return layout.Basis(1, modes...), nil
	case name == "Layout":
		if n.Paren || len(targs) < 1 || len(targs) > 2 {
			return nil, errUnresolved
		}
		return apply("make_layout", targs...)
	case name == "Swizzle":
		if len(targs) != 3 {
			return nil, errUnresolved
		}
		var bms [3]int
		for i, a := range targs {
			t, ok := a.(layout.IntTuple)
			if !ok || !t.IsLeaf() || t.IsUnknown() || t.IsBasis() {
				return nil, errUnresolved
			}
			bms[i] = int(t.Value())
		}
		sw := layout.Swizzle{B: bms[0], M: bms[1], S: bms[2]}
		if sw.Validate("Swizzle") != nil {
			return nil, errUnresolved
		}
		return sw, nil
	case name == "smem_ptr_flag_bits":
		if len(targs) != 1 {
			return nil, errUnresolved
		}
		t, ok := targs[0].(layout.IntTuple)
		if !ok || !t.IsLeaf() || t.IsUnknown() || t.Value() < 1 || t.Value() > 1024 {
			return nil, errUnresolved
		}
		return ptrFlag(t.Value()), nil
	case name == "ComposedLayout":
		if len(targs) != 3 {
			return nil, errUnresolved
		}
		return composedOf(targs[0], targs[1], targs[2])
	case (name == "composition" || name == "make_composed_layout") && len(args) == 3 && len(targs) == 0:
		return composedOf(args[0], args[1], args[2])
	case name == "make_swizzle" && c.python:
		return swizzleOf(args)
	case name == "group_modes" && c.python:
		if len(args) != 3 || len(n.Keywords) > 0 {
			return nil, errUnresolved
		}
		return apply("group", args...)
	case (name == "get" || name == "select") && c.python && len(n.Keywords) == 1 && n.Keywords[0].Name == "mode":
		// cute.get(L, mode=[1]) is get<1>(L); cute.select(L, mode=[0, 2]) is select<0,2>(L).
		idx, err := c.modeList(n.Keywords[0].Value, sc, depth)
		if err != nil || len(args) != 1 || len(targs) > 0 {
			return nil, errUnresolved
		}
		if name == "get" {
			return modeOf(args[0], idx)
		}
		return apply("select", append(args, idx...)...)
	case modeQueries[name] && len(targs) > 0:
		if len(args) != 1 {
			return nil, errUnresolved
		}
		sub, err := modeOf(args[0], targs)
		if err != nil {
			return nil, err
		}
		return query(name, sub)
	case modeQueries[name] && c.python && len(n.Keywords) == 1 && n.Keywords[0].Name == "mode":
		idx, err := c.modeList(n.Keywords[0].Value, sc, depth)
		if err != nil || len(args) != 1 {
			return nil, errUnresolved
		}
		sub, err := modeOf(args[0], idx)
		if err != nil {
			return nil, err
		}
		return query(name, sub)
	case modeQueries[name]:
		if len(args) != 1 {
			return nil, errUnresolved
		}
		return query(name, args[0])
	case name == "make_layout_like":
		if len(args) != 1 {
			return nil, errUnresolved
		}
		return makeLayoutLike(args[0])
	}
	if l, ok := firstOperand(args).(*layout.Layout); ok && len(n.Keywords) == 0 && !staticValue(l) && plainTuple(l.Shape) && plainTuple(l.Stride) {
		// CuTe's run-time forms of operations the table computes on
		// static integers only.
		switch {
		case name == "filter" && len(args) == 1 && len(targs) == 0:
			z, err := apply("filter_zeros", l)
			if err != nil {
				return nil, err
			}
			return apply("coalesce", z)
		case name == "right_inverse" && len(args) == 1 && len(targs) == 0:
			return rightInverseRunTime(*l)
		case name == "left_inverse" && len(args) == 1 && len(targs) == 0:
			return leftInverseRunTime(*l)
		case (name == "upcast" || name == "downcast") && len(args) == 1 && len(targs) == 1:
			f, ok := targs[0].(layout.IntTuple)
			if !ok || !f.IsLeaf() || f.IsUnknown() || f.IsBasis() || f.Value() < 1 {
				return nil, errUnresolved
			}
			if name == "upcast" {
				return upcastRunTime(*l, f.Value())
			}
			return downcastRunTime(*l, f.Value())
		}
	}
	if name == "domain_distribute" && len(args) == 2 && len(targs) == 0 && len(n.Keywords) == 0 && !c.python {
		return domainDistribute(args[0], args[1])
	}
	if name == "shape" && len(args) == 1 && len(n.Keywords) == 0 {
		if t, ok := args[0].(layout.IntTuple); ok {
			// The shape of an integer tuple is the tuple: shape<0>(TileShape{}).
			if len(targs) == 0 {
				return t, nil
			}
			return modeOf(t, targs)
		}
	}
	if name == "select" && len(args) == 1 && len(targs) > 0 && len(n.Keywords) == 0 {
		if t, ok := args[0].(layout.IntTuple); ok {
			return selectTuple(t, targs)
		}
	}
	if len(n.Keywords) > 0 {
		kw, err := c.keywords(n, sc, depth)
		if err != nil {
			return nil, err
		}
		args = append(args, kw...)
	}
	op, ok := lookupOp(name)
	if !ok || op.Analysis || name == "swizzle" {
		return nil, errUnresolved
	}
	all := operandOrder(args, targs)
	if p, ok := firstOperand(all).(PointerComposed); ok && (name == "upcast" || name == "downcast") && len(all) == 2 {
		// CuTe's upcast<N> of ComposedLayout<Sw, smem_ptr_flag_bits<B>, L>:
		// Sw o smem_ptr_flag_bits<B*N> o upcast<N>(L) (downcast: B/N).
		f, ok := all[1].(layout.IntTuple)
		if !ok || !f.IsLeaf() || f.IsUnknown() || f.IsBasis() || f.Value() < 1 || f.Value() > 1024 {
			return nil, errUnresolved
		}
		bits := int64(p.Bits) * f.Value()
		if name == "downcast" {
			if int64(p.Bits)%f.Value() != 0 {
				return nil, errUnresolved
			}
			bits = int64(p.Bits) / f.Value()
		}
		if bits < 1 || bits > 1024 {
			return nil, errUnresolved
		}
		v, err := c.applyFollowed(op, name, []layout.Value{layout.Box(p.Inner), f})
		if err != nil {
			return nil, err
		}
		inner, ok := v.(*layout.Layout)
		if !ok {
			return nil, errUnresolved
		}
		return PointerComposed{Outer: p.Outer, Bits: int(bits), Inner: *inner}, nil
	}
	if p, ok := firstOperand(all).(PointerComposed); ok && name == "tile_to_shape" {
		// CuTe tiles a ComposedLayout's inner layout and keeps its outer stages.
		all[0] = layout.Box(p.Inner)
		v, err := c.applyFollowed(op, name, all)
		if err != nil {
			return nil, err
		}
		inner, ok := v.(*layout.Layout)
		if !ok {
			return nil, errUnresolved
		}
		return PointerComposed{Outer: p.Outer, Bits: p.Bits, Inner: *inner}, nil
	}
	return c.applyFollowed(op, name, all)
}

// applyFollowed applies op where the algebra computes it as CuTe does on
// these operands: all static, or an operation that keeps CuTe's run-time
// forms (runTimeAware, runTimeAlgebra, tile_to_shape on plain operands).
func (c *Code) applyFollowed(op *Op, name string, all []layout.Value) (layout.Value, error) {
	if !runTimeAware[name] && !(runTimeAlgebra[name] && plainIntegers(all)) && !(name == "tile_to_shape" && tileToShapeFollowed(all)) {
		for _, a := range all {
			if !staticValue(a) {
				return nil, errUnresolved
			}
		}
	}
	return applyOp(op, all...)
}

// operandOrder lists a call's operands in the order the table takes them,
// as sheets do (callOperands): CuTe's template arguments right after the
// first argument (append<3>(L, X) is append(L, 3, X)).
func operandOrder(args, targs []layout.Value) []layout.Value {
	if len(targs) == 0 {
		return args
	}
	out := make([]layout.Value, 0, len(args)+len(targs))
	if len(args) > 0 {
		out = append(out, args[0])
	}
	out = append(out, targs...)
	if len(args) > 1 {
		out = append(out, args[1:]...)
	}
	return out
}

func firstOperand(all []layout.Value) layout.Value {
	if len(all) == 0 {
		return nil
	}
	return all[0]
}

// upcastRunTime is CuTe's upcast<N>(L) mode by mode, with its run-time
// forms: a static-0 stride keeps the mode; a static stride d gives
// ceil_div(s, ceil_div(N, |d|)):signum(d)*ceil_div(|d|, N) (N and d must
// divide one another: CuTe's static_assert); a run-time stride d gives
// s:d/N.
func upcastRunTime(l layout.Layout, n int64) (layout.Value, error) {
	shape, stride, ok := mapModes(l.Shape, l.Stride, func(s, d layout.IntTuple) (layout.IntTuple, layout.IntTuple, bool) {
		switch {
		case d.IsStatic() && d.Value() == 0:
			return s, d, true
		case d.IsStatic():
			a := d.Value()
			if a < 0 {
				a = -a
			}
			if a%n != 0 && n%a != 0 {
				return s, d, false
			}
			per := (n + a - 1) / a
			sign := int64(1)
			if d.Value() < 0 {
				sign = -1
			}
			return withStatic((s.Value()+per-1)/per, s.IsStatic()), layout.Int(sign * ((a + n - 1) / n)), true
		}
		return s, layout.Dyn(d.Value() / n), true
	})
	if !ok {
		return nil, errUnresolved
	}
	return &layout.Layout{Shape: shape, Stride: stride}, nil
}

// downcastRunTime is CuTe's downcast<N>(L) mode by mode: a static stride
// of 1 or -1 multiplies the mode's size by N, any other stride is
// multiplied by N; L needs a static stride 1 (CuTe's static_assert).
func downcastRunTime(l layout.Layout, n int64) (layout.Value, error) {
	hasOne := false
	shape, stride, _ := mapModes(l.Shape, l.Stride, func(s, d layout.IntTuple) (layout.IntTuple, layout.IntTuple, bool) {
		if d.IsStatic() && (d.Value() == 1 || d.Value() == -1) {
			hasOne = hasOne || d.Value() == 1
			return withStatic(s.Value()*n, s.IsStatic()), d, true
		}
		return s, withStatic(d.Value()*n, d.IsStatic()), true
	})
	if !hasOne {
		return nil, errUnresolved
	}
	return &layout.Layout{Shape: shape, Stride: stride}, nil
}

// coalescedModes is CuTe's first step of the inverses: coalesce(L), its
// shape and stride wrapped into flat tuples, and the prefix products of
// the shape (static while every factor is).
func coalescedModes(l layout.Layout) (shape, stride, preprod []layout.IntTuple, ok bool) {
	cl, err := layout.Coalesce(&l)
	if err != nil {
		return nil, nil, nil, false
	}
	shape, stride = wrapped(cl.Shape), wrapped(cl.Stride)
	if len(shape) != len(stride) {
		return nil, nil, nil, false
	}
	preprod = []layout.IntTuple{layout.Int(1)}
	for _, s := range shape {
		if s.IsTuple() {
			return nil, nil, nil, false
		}
		last := preprod[len(preprod)-1]
		preprod = append(preprod, withStatic(last.Value()*s.Value(), last.IsStatic() && s.IsStatic()))
	}
	for _, d := range stride {
		if d.IsTuple() {
			return nil, nil, nil, false
		}
	}
	return shape, stride, preprod, true
}

func wrapped(t layout.IntTuple) []layout.IntTuple {
	if t.IsTuple() {
		return t.Elems()
	}
	return []layout.IntTuple{t}
}

// sortedStatic are the indices of the static strides, by stride; ok is
// false where two are equal (CuTe's order among them is not modelled).
func sortedStatic(stride []layout.IntTuple) ([]int, bool) {
	var idx []int
	for i, d := range stride {
		if d.IsStatic() {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return stride[idx[a]].Value() < stride[idx[b]].Value() })
	for k := 1; k < len(idx); k++ {
		if stride[idx[k]].Value() == stride[idx[k-1]].Value() {
			return nil, false
		}
	}
	return idx, true
}

// rightInverseRunTime is CuTe's right_inverse(L) with run-time integers:
// of coalesce(L)'s modes, those with static strides in stride order, each
// taken while its stride is the static product reached so far (starting
// at 1), giving shape s_i and stride preprod_i; coalesced, after 1:0.
func rightInverseRunTime(l layout.Layout) (layout.Value, error) {
	shape, stride, preprod, ok := coalescedModes(l)
	if !ok {
		return nil, errUnresolved
	}
	order, ok := sortedStatic(stride)
	if !ok {
		return nil, errUnresolved
	}
	rs, rd := []layout.IntTuple{layout.Int(1)}, []layout.IntTuple{layout.Int(0)}
	curr := layout.Int(1)
	for _, i := range order {
		if !curr.IsStatic() || curr.Value() != stride[i].Value() {
			continue
		}
		rs, rd = append(rs, shape[i]), append(rd, preprod[i])
		curr = withStatic(shape[i].Value()*stride[i].Value(), shape[i].IsStatic())
	}
	r, err := layout.Coalesce(&layout.Layout{Shape: layout.Tup(rs...), Stride: layout.Tup(rd...)})
	if err != nil {
		return nil, errUnresolved
	}
	return layout.Box(*r), nil
}

// leftInverseRunTime is CuTe's left_inverse(L) where coalesce(L) has
// static strides and some run-time sizes: in stride order, each non-zero
// stride d gives the mode d/size(shape so far) : preprod_i, and the last
// mode in that order ends the shape; coalesced.
func leftInverseRunTime(l layout.Layout) (layout.Value, error) {
	shape, stride, preprod, ok := coalescedModes(l)
	if !ok || !allStatic(layout.Tup(stride...)) {
		return nil, errUnresolved // CuTe's static_assert: static strides
	}
	order, ok := sortedStatic(stride)
	if !ok || len(order) == 0 {
		return nil, errUnresolved
	}
	var rs []layout.IntTuple
	rd := []layout.IntTuple{layout.Int(0)}
	size := int64(1)
	for _, i := range order {
		d := stride[i].Value()
		if d == 0 {
			continue
		}
		if d%size != 0 {
			return nil, errUnresolved // CuTe's divisibility static_assert
		}
		rs, rd = append(rs, layout.Int(d/size)), append(rd, preprod[i])
		size *= d / size
	}
	rs = append(rs, shape[order[len(order)-1]])
	r, err := layout.Coalesce(&layout.Layout{Shape: layout.Tup(rs...), Stride: layout.Tup(rd...)})
	if err != nil {
		return nil, errUnresolved
	}
	return layout.Box(*r), nil
}

// mapModes applies f to each leaf mode (s, d) of a shape and a congruent
// stride, keeping their nesting.
func mapModes(shape, stride layout.IntTuple, f func(s, d layout.IntTuple) (layout.IntTuple, layout.IntTuple, bool)) (layout.IntTuple, layout.IntTuple, bool) {
	if !shape.IsTuple() {
		if stride.IsTuple() {
			return shape, stride, false
		}
		return f(shape, stride)
	}
	if !stride.IsTuple() || stride.Len() != shape.Len() {
		return shape, stride, false
	}
	ss, ds := shape.Elems(), stride.Elems()
	outS, outD := make([]layout.IntTuple, len(ss)), make([]layout.IntTuple, len(ss))
	for i := range ss {
		var ok bool
		outS[i], outD[i], ok = mapModes(ss[i], ds[i], f)
		if !ok {
			return shape, stride, false
		}
	}
	return layout.Tup(outS...), layout.Tup(outD...), true
}

// domainDistribute is CuTe's domain_distribute(A, b): b's (static) size
// spread over A's flattened (static) shape from the left, each mode taking
// gcd(a_i, what is left), with A's compact column-major strides; coalesced.
func domainDistribute(a, b layout.Value) (layout.Value, error) {
	shape, ok := a.(layout.IntTuple)
	if l, isLayout := a.(*layout.Layout); isLayout {
		shape, ok = l.Shape, true
	}
	n, isInt := b.(layout.IntTuple)
	if !ok || !isInt || !n.IsLeaf() || !n.IsStatic() || n.IsBasis() || n.Value() < 1 || !allStatic(shape) || !plainTuple(shape) {
		return nil, errUnresolved
	}
	var flat []layout.IntTuple
	var walk func(t layout.IntTuple)
	walk = func(t layout.IntTuple) {
		if t.IsTuple() {
			for _, e := range t.Elems() {
				walk(e)
			}
			return
		}
		flat = append(flat, t)
	}
	walk(shape)
	rest, stride := n.Value(), int64(1)
	rs, rd := make([]layout.IntTuple, len(flat)), make([]layout.IntTuple, len(flat))
	for i, s := range flat {
		if s.Value() < 1 || stride > 1<<53/s.Value() {
			return nil, errUnresolved
		}
		g := gcd(s.Value(), rest)
		rs[i], rd[i] = layout.Int(g), layout.Int(stride)
		rest /= g
		stride *= s.Value()
	}
	r, err := layout.Coalesce(&layout.Layout{Shape: layout.Tup(rs...), Stride: layout.Tup(rd...)})
	if err != nil {
		return nil, errUnresolved
	}
	return layout.Box(*r), nil
}

// selectTuple is select<I...>(t) of an integer tuple: the tuple of t's
// elements at the indices, in that order (CuTe's select on any tuple).
func selectTuple(t layout.IntTuple, idx []layout.Value) (layout.Value, error) {
	if !t.IsTuple() {
		return nil, errUnresolved
	}
	elems := t.Elems()
	out := make([]layout.IntTuple, len(idx))
	for k, v := range idx {
		i, ok := v.(layout.IntTuple)
		if !ok || !i.IsLeaf() || i.IsUnknown() || i.IsBasis() || i.Value() < 0 || i.Value() >= int64(len(elems)) {
			return nil, errUnresolved
		}
		out[k] = elems[i.Value()]
	}
	return layout.Tup(out...), nil
}

// modeList is the DSL's mode=[i, j] as the indices get<i,j> takes.
func (c *Code) modeList(n source.Node, sc scope, depth int) ([]layout.Value, error) {
	mode, err := c.eval(n, sc, depth+1)
	if err != nil {
		return nil, err
	}
	t, ok := mode.(layout.IntTuple)
	if !ok || !t.IsTuple() || t.Len() == 0 {
		return nil, errUnresolved
	}
	var idx []layout.Value
	for _, e := range t.Elems() {
		if !e.IsLeaf() || e.IsUnknown() || e.IsBasis() || e.IsUnderscore() {
			return nil, errUnresolved
		}
		idx = append(idx, e.WithStatic(true))
	}
	return idx, nil
}

// swizzleOf is the DSL's make_swizzle(B, M, S): Swizzle<B,M,S>, its
// integers compile-time constants.
func swizzleOf(args []layout.Value) (layout.Value, error) {
	if len(args) != 3 {
		return nil, errUnresolved
	}
	var bms [3]int
	for i, a := range args {
		t, ok := a.(layout.IntTuple)
		if !ok || !t.IsLeaf() || t.IsUnknown() || t.IsBasis() || t.IsUnderscore() || !t.IsStatic() {
			return nil, errUnresolved
		}
		bms[i] = int(t.Value())
	}
	sw := layout.Swizzle{B: bms[0], M: bms[1], S: bms[2]}
	if sw.Validate("make_swizzle") != nil {
		return nil, errUnresolved
	}
	return sw, nil
}

// atomKinds are CuTe's named GMMA/UMMA shared-memory atoms by their names
// (GMMA::Layout_K_SW128_Atom<T>); gmma.Atom builds them.
var atomKinds = map[string]gmma.Atom{
	"Layout_MN_INTER_Atom": {Major: gmma.MajorMN, Kind: gmma.Interleave},
	"Layout_MN_SW32_Atom":  {Major: gmma.MajorMN, Kind: gmma.SW32},
	"Layout_MN_SW64_Atom":  {Major: gmma.MajorMN, Kind: gmma.SW64},
	"Layout_MN_SW128_Atom": {Major: gmma.MajorMN, Kind: gmma.SW128},
	"Layout_K_INTER_Atom":  {Major: gmma.MajorK, Kind: gmma.Interleave},
	"Layout_K_SW32_Atom":   {Major: gmma.MajorK, Kind: gmma.SW32},
	"Layout_K_SW64_Atom":   {Major: gmma.MajorK, Kind: gmma.SW64},
	"Layout_K_SW128_Atom":  {Major: gmma.MajorK, Kind: gmma.SW128},
	// UMMA's only: Swizzle<2,5,2> on 32-byte units of 128-byte rows.
	"Layout_MN_SW128_32B_Atom": {Major: gmma.MajorMN, Kind: gmma.SW128Base32B},
}

// elementBits are sizeof_bits of the element types CUTLASS names in atoms.
var elementBits = map[string]int{
	"int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8, "float_ue8m0_t": 8,
	"int16_t": 16, "uint16_t": 16, "half_t": 16, "bfloat16_t": 16,
	"int32_t": 32, "uint32_t": 32, "float": 32, "tfloat32_t": 32,
	"int64_t": 64, "uint64_t": 64, "double": 64,
}

// recastLayout is recast_layout<OldType, NewType>(L) of element types
// (recast_layout<uint8_t, half_t>): with r = bits(New)/bits(Old) reduced
// to num/den, CuTe's downcast<den>(upcast<num>(L)); the table's
// recast_layout on static layouts, upcast and downcast's run-time forms
// on others.
func (c *Code) recastLayout(n *source.Call, sc scope, depth int) (layout.Value, error) {
	var bits [2]int
	for i, t := range n.TArgs {
		id, ok := t.(*source.Ident)
		if !ok {
			return nil, errUnresolved
		}
		if bits[i], ok = c.elementType(id, sc, 0); !ok {
			return nil, errUnresolved
		}
	}
	x, err := c.eval(n.Args[0], sc, depth+1)
	if err != nil {
		return nil, err
	}
	l, ok := x.(*layout.Layout)
	if !ok {
		return nil, errUnresolved
	}
	if staticValue(l) {
		return apply("recast_layout", l, layout.Int(int64(bits[0])), layout.Int(int64(bits[1])))
	}
	if !plainTuple(l.Shape) || !plainTuple(l.Stride) {
		return nil, errUnresolved
	}
	g := gcd(int64(bits[0]), int64(bits[1]))
	num, den := int64(bits[1])/g, int64(bits[0])/g
	var v layout.Value = l
	if num != 1 {
		if v, err = upcastRunTime(*l, num); err != nil {
			return nil, err
		}
	}
	if den != 1 {
		return downcastRunTime(*(v.(*layout.Layout)), den)
	}
	return v, nil
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// elementTypeValue is an alias template's type argument that names an
// element type, by its width: in template <class T> using A =
// decltype(upcast<sizeof_bits_v<T>>(...)), A<half_t> binds T to 16.
type elementTypeValue int

func (e elementTypeValue) String() string { return "sizeof_bits " + strconv.Itoa(int(e)) }

// elementType is sizeof_bits of a named element type: half_t,
// cutlass::half_t, or a name the file binds to one (using ElementA =
// cutlass::half_t;).
func (c *Code) elementType(t *source.Ident, sc scope, depth int) (int, bool) {
	if v, ok := sc[t.Name]; ok && t.Qualifier() == "" {
		bits, isType := v.(elementTypeValue)
		return int(bits), isType
	}
	name, ok := c.elementName(t, depth)
	if !ok {
		return 0, false
	}
	bits, ok := elementBits[name]
	return bits, ok
}

// elementName is the name of the type t names, without its cutlass:: or
// cute:: qualifier, following the aliases the file binds (using ElementA
// = cutlass::half_t;): half_t. ok is false for a name of another
// namespace, or one bound to anything but a type name.
func (c *Code) elementName(t *source.Ident, depth int) (string, bool) {
	switch t.Qualifier() {
	case "":
		if i, ok := c.lookup(t.Name, t.Start); ok && !c.python {
			b := c.File.Bindings[i]
			alias, isIdent := b.Value.(*source.Ident)
			if !isIdent || b.Template || depth > 8 {
				return "", false
			}
			return c.elementName(alias, depth+1)
		}
	case "cutlass", "::cutlass", "cute", "::cute":
	default:
		return "", false
	}
	return t.Name, true
}

// namedAtom is GMMA::Layout_K_SW128_Atom<half_t> and its family (and
// UMMA's): CuTe's ComposedLayout<Swizzle<B,4,3>, smem_ptr_flag_bits<16>,
// L>, upcast from the atom in bits (Layout_K_SW128_Atom_Bits) to elements
// of the type's width; it prints Sw<3,4,3> o smem_ptr[16b](unset) o L.
func (c *Code) namedAtom(n *source.Call, sc scope) (layout.Value, bool) {
	a, known := atomKinds[n.Fun.Name]
	if !known || n.Paren || len(n.Args) > 0 || len(n.TArgs) != 1 {
		return nil, false
	}
	q := n.Fun.Qualifier()
	space := q[strings.LastIndex(q, ":")+1:]
	if space != "UMMA" && (space != "GMMA" || a.Kind == gmma.SW128Base32B) {
		return nil, false
	}
	if q != space && q != "cute::"+space && q != "::cute::"+space && q != "SM90::"+space && q != "cute::SM90::"+space && q != "SM100::"+space && q != "cute::SM100::"+space {
		return nil, false
	}
	t, ok := n.TArgs[0].(*source.Ident)
	if !ok {
		return nil, false
	}
	if a.Bits, ok = c.elementType(t, sc, 0); !ok {
		return nil, false
	}
	v, err := a.Layout()
	if err != nil {
		return nil, false
	}
	inner, ok := v.(*layout.Layout)
	if c, isComposed := v.(layout.Composed); isComposed {
		inner, ok = &c.Inner, true
	}
	if !ok {
		return nil, false
	}
	return PointerComposed{Outer: a.Kind.ByteSwizzle(), Bits: a.Bits, Inner: *inner}, true
}

// runTimeAlgebra are the operations the algebra builds as CuTe does with
// run-time integers when every argument is a layout, tiler or integer
// tuple of plain integers (no scaled basis, no swizzle): composition,
// complement and the divides and products built on them.
var runTimeAlgebra = map[string]bool{
	"composition": true, "complement": true, "logical_divide": true, "zipped_divide": true,
	"tiled_divide": true, "flat_divide": true, "logical_product": true, "zipped_product": true,
	"tiled_product": true, "flat_product": true, "blocked_product": true, "raked_product": true,
}

// plainIntegers reports whether every argument is a layout, tiler or
// integer tuple whose leaves are known integers (no basis, unknown or _).
func plainIntegers(args []layout.Value) bool {
	for _, a := range args {
		switch a := a.(type) {
		case layout.IntTuple:
			if !plainTuple(a) {
				return false
			}
		case *layout.Layout:
			if !plainTuple(a.Shape) || !plainTuple(a.Stride) {
				return false
			}
		case layout.Tiler:
			for _, m := range a.Modes {
				if m.Sub != nil && !plainIntegers([]layout.Value{*m.Sub}) || m.Sub == nil && !m.Skip && !plainIntegers([]layout.Value{layout.Box(m.Layout)}) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func plainTuple(t layout.IntTuple) bool {
	if t.IsTuple() {
		for _, e := range t.Elems() {
			if !plainTuple(e) {
				return false
			}
		}
		return true
	}
	return !t.IsUnknown() && !t.IsBasis() && !t.IsUnderscore()
}

// runTimeAware are the operations whose results the algebra builds as
// CuTe does when some integers are run-time values (it keeps their marks
// and makes only the simplifications CuTe makes on static values); see
// also runTimeAlgebra. The others compute on the integers alone: with
// run-time operands they give no value rather than one in the wrong form.
var runTimeAware = map[string]bool{
	"make_layout": true, "make_ordered_layout": true, "coalesce": true, "shape": true, "stride": true,
	"get": true, "layout": true, "select": true, "take": true, "group": true, "append": true,
	"prepend": true, "flatten": true, "compact_order": true, "compact_col_major": true,
	"compact_row_major": true, "filter_zeros": true, "replace": true, "make_identity_layout": true,
}

// staticValue reports whether every integer of v is static (tags, swizzles
// and other values without integers count as static).
func staticValue(v layout.Value) bool {
	switch v := v.(type) {
	case layout.IntTuple:
		return allStatic(v)
	case *layout.Layout:
		return allStatic(v.Shape) && allStatic(v.Stride)
	case layout.Composed:
		return allStatic(v.Offset) && allStatic(v.Inner.Shape) && allStatic(v.Inner.Stride)
	case PointerComposed:
		return allStatic(v.Inner.Shape) && allStatic(v.Inner.Stride)
	case layout.Tiler:
		for _, m := range v.Modes {
			if m.Sub != nil && !staticValue(*m.Sub) || m.Sub == nil && !m.Skip && !staticValue(layout.Box(m.Layout)) {
				return false
			}
		}
	}
	return true
}

// keywords are the DSL's keyword arguments as the positional ones CuTe's
// C++ takes after the others (stride=, order=, tiler=, ...), in the order written.
func (c *Code) keywords(n *source.Call, sc scope, depth int) ([]layout.Value, error) {
	var out []layout.Value
	for _, k := range n.Keywords {
		switch k.Name {
		case "loc", "ip":
			continue // the DSL's MLIR location arguments
		}
		v, err := c.eval(k.Value, sc, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// instantiate evaluates a name used as a call or template-id: an alias
// template given its arguments (CLayout_64xN<128>), or a bound value
// constructed (X{}).
func (c *Code) instantiate(i int, n *source.Call, sc scope, depth int) (layout.Value, error) {
	b := c.File.Bindings[i]
	if !b.Template {
		if len(n.Args) > 0 || n.HasTArgs || n.Paren {
			return nil, errUnresolved
		}
		return c.binding(i, depth+1)
	}
	if len(n.TArgs) != len(b.Params) || len(n.Args) > 0 || b.Value == nil {
		return nil, errUnresolved
	}
	inner := scope{}
	for k, p := range b.Params {
		v, err := c.eval(n.TArgs[k], sc, depth+1)
		if err != nil {
			// A type argument naming an element type (Atom<half_t>): its width.
			id, isIdent := n.TArgs[k].(*source.Ident)
			if !isIdent {
				return nil, err
			}
			bits, ok := c.elementType(id, sc, 0)
			if !ok {
				return nil, err
			}
			v = elementTypeValue(bits)
		}
		inner[p] = v
	}
	return c.eval(b.Value, inner, depth+1)
}

// cuteQualified reports whether a name's qualifier is CuTe's namespace or
// module (or there is none): cute::Layout, cute.make_layout, make_layout.
func (c *Code) cuteQualified(id *source.Ident) bool {
	q := id.Qualifier()
	if q == "" {
		return c.python || c.File.CuteAt(id.Start)
	}
	if c.python {
		return c.File.Modules[q]
	}
	return q == "cute" || q == "::cute"
}

func firstDotted(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return s[:i]
		}
	}
	return s
}

// apply calls the operation named name; any refusal is "no value".
func apply(name string, args ...layout.Value) (layout.Value, error) {
	op, ok := lookupOp(name)
	if !ok {
		return nil, errUnresolved
	}
	return applyOp(op, args...)
}

// applyOp calls op; any refusal is "no value".
func applyOp(op *Op, args ...layout.Value) (layout.Value, error) {
	v, err := op.Apply(args)
	if err != nil {
		return nil, errUnresolved
	}
	return v, nil
}

// tupleOf builds Shape<...>/make_shape(...): an integer tuple, or for a
// tile holding layouts, a tiler.
func tupleOf(elems []layout.Value, tile bool) (layout.Value, error) {
	ts := make([]layout.IntTuple, len(elems))
	hasLayout := false
	for i, e := range elems {
		switch e := e.(type) {
		case layout.IntTuple:
			ts[i] = e
		case *layout.Layout:
			hasLayout = true
		default:
			return nil, errUnresolved
		}
	}
	if !hasLayout {
		return layout.Tup(ts...), nil
	}
	if !tile {
		return nil, errUnresolved
	}
	var t layout.Tiler
	for _, e := range elems {
		switch e := e.(type) {
		case layout.IntTuple:
			if e.IsUnderscore() {
				t.Modes = append(t.Modes, layout.TilerMode{Skip: true})
				continue
			}
			if !e.IsLeaf() {
				return nil, errUnresolved
			}
			t.Modes = append(t.Modes, layout.TilerMode{Layout: layout.Layout{Shape: e, Stride: layout.Int(1)}, Int: true})
		case *layout.Layout:
			t.Modes = append(t.Modes, layout.TilerMode{Layout: *e})
		}
	}
	return t, nil
}

// composedOf is ComposedLayout<A, O, L> / composition(A, O, L).
func composedOf(a, o, l layout.Value) (layout.Value, error) {
	sw, ok := a.(layout.Swizzle)
	inner, ok2 := l.(*layout.Layout)
	if !ok || !ok2 {
		return nil, errUnresolved
	}
	switch o := o.(type) {
	case ptrFlag:
		return PointerComposed{Outer: sw, Bits: int(o), Inner: *inner}, nil
	case layout.IntTuple:
		return layout.Composed{Outer: sw, Offset: o, Inner: *inner}, nil
	}
	return nil, errUnresolved
}

// modeOf is get<I...>(x): the sub-layout or sub-tuple at the indices.
func modeOf(x layout.Value, idx []layout.Value) (layout.Value, error) {
	if l, ok := x.(*layout.Layout); ok {
		return apply("layout", append([]layout.Value{l}, idx...)...)
	}
	return apply("get", append([]layout.Value{x}, idx...)...)
}

// query is size, cosize, rank or depth, static as CuTe's result is: the
// answer is a compile-time integer only when everything it reads is.
func query(name string, x layout.Value) (layout.Value, error) {
	v, err := apply(name, x)
	if err != nil {
		return nil, err
	}
	t, ok := v.(layout.IntTuple)
	if !ok || !t.IsLeaf() || t.IsUnknown() {
		return v, nil
	}
	static := true
	switch name {
	case "size":
		static = allStatic(shapeOf(x))
	case "cosize":
		static = allStatic(shapeOf(x)) && allStatic(strideOf(x))
	}
	return withStatic(t.Value(), static), nil
}

func shapeOf(x layout.Value) layout.Value {
	if s, ok := tiledShape(x); ok {
		return s
	}
	switch x := x.(type) {
	case *layout.Layout:
		return x.Shape
	case layout.Composed:
		return x.Inner.Shape
	}
	return x
}

func strideOf(x layout.Value) layout.Value {
	switch x := x.(type) {
	case *layout.Layout:
		return x.Stride
	case layout.Composed:
		return x.Inner.Stride
	}
	return layout.Int(0)
}

// allStatic reports whether every leaf of an integer tuple is static.
func allStatic(v layout.Value) bool {
	t, ok := v.(layout.IntTuple)
	if !ok {
		return false
	}
	if t.IsTuple() {
		for _, e := range t.Elems() {
			if !allStatic(e) {
				return false
			}
		}
		return true
	}
	return t.IsStatic()
}

// makeLayoutLike is CuTe's make_layout_like(L): L's shape with compact
// strides in the order of L's strides, stride-0 modes kept at 0.
func makeLayoutLike(x layout.Value) (layout.Value, error) {
	l, ok := x.(*layout.Layout)
	if !ok || !staticValue(l) {
		// CuTe's compact_order on run-time strides orders them as it can
		// at compile time, which the algebra does not model.
		return nil, errUnresolved
	}
	// CuTe's filter_zeros(stride, shape): the shape with 1 where the stride is 0.
	filtered, err := apply("filter_zeros", l)
	if err != nil {
		return nil, err
	}
	strides, err := apply("compact_order", shapeOf(filtered), l.Stride)
	if err != nil {
		return nil, err
	}
	return apply("make_layout", l.Shape, strides)
}

// member is x.shape(), x.stride(), x.layout(), x.size() (and the DSL's
// attributes x.shape, x.stride).
func (c *Code) member(name string, x layout.Value, _ []layout.Value) (layout.Value, error) {
	if t, ok := x.(layout.IntTuple); ok && t.IsUnknown() {
		return nil, errUnresolved // a parameter: a tensor, a layout, anything
	}
	switch name {
	case "shape", "stride":
		return apply(name, x)
	case "layout":
		switch x.(type) {
		case *layout.Layout, layout.Composed, PointerComposed:
			return x, nil
		}
	case "size", "cosize", "rank", "depth":
		return query(name, x)
	}
	return tiledMember(name, x)
}

// intLeaf evaluates n to an integer leaf (known or unknown).
func (c *Code) intLeaf(n source.Node, sc scope, depth int) (layout.IntTuple, error) {
	v, err := c.eval(n, sc, depth+1)
	if err != nil {
		return layout.IntTuple{}, err
	}
	t, ok := v.(layout.IntTuple)
	if !ok || !t.IsLeaf() || t.IsBasis() || t.IsUnderscore() {
		return layout.IntTuple{}, errUnresolved
	}
	return t, nil
}

// binary is integer arithmetic; static when both sides are.
func (c *Code) binary(n *source.Binary, sc scope, depth int) (layout.Value, error) {
	x, err := c.intLeaf(n.X, sc, depth)
	if err != nil {
		return nil, err
	}
	y, err := c.intLeaf(n.Y, sc, depth)
	if err != nil {
		return nil, err
	}
	if x.IsUnknown() || y.IsUnknown() {
		switch n.Op {
		case "+", "-", "*", "/", "%", "//", "<<":
			return layout.Unknown(), nil
		}
		return nil, errUnresolved
	}
	a, b := x.Value(), y.Value()
	var r int64
	switch n.Op {
	case "+":
		r = a + b
	case "-":
		r = a - b
	case "*":
		r = a * b
		if a != 0 && r/a != b {
			return nil, errUnresolved
		}
	case "/", "//":
		if b == 0 || c.python && n.Op == "/" {
			return nil, errUnresolved // Python's / is true division
		}
		r = a / b
		if n.Op == "//" && (a%b != 0) && (a < 0) != (b < 0) {
			r--
		}
	case "%":
		if b == 0 {
			return nil, errUnresolved
		}
		r = a % b
		if c.python && r != 0 && (r < 0) != (b < 0) {
			r += b // Python's % takes the divisor's sign
		}
	case "<<":
		if b < 0 || b > 62 {
			return nil, errUnresolved
		}
		r = a << b
	default:
		return nil, errUnresolved
	}
	if r > 1<<53 || r < -(1<<53) {
		return nil, errUnresolved
	}
	return withStatic(r, x.IsStatic() && y.IsStatic()), nil
}

// tuple is a DSL tuple: an integer tuple, or a tiler when it holds layouts.
func (c *Code) tuple(elems []source.Node, sc scope, depth int) (layout.Value, error) {
	if len(elems) == 0 {
		return nil, errUnresolved // [] or (): a Python list or tuple, rarely CuTe's ()
	}
	vs, err := c.values(elems, sc, depth)
	if err != nil {
		return nil, err
	}
	return tupleOf(vs, true)
}

func (elementTypeValue) IsValue() {} // a layout.Value
