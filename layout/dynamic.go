package layout

// Run-time integers in composition, complement and the divides and
// products built on them. CuTe C++ makes its simplifications only where
// the types prove them: a mode is dropped or skipped only when its shape
// is a static 1 (is_constant<1>), modes merge only when the merge is a
// static fact, the divisibility static_asserts fire only on static
// operands, and an operation's result is static only when its operands
// are (but a static 0 times anything is a static 0). With run-time
// integers the same function comes back in another tree:
// composition((10,2):(16,4), (5,4):(1,5)) is ((5,1),(2,2)):((16,4),(80,4))
// where the static form is (_5,(_2,_2)):(_16,(_80,_4)).
//
// The int64 kernels of composition.go and complement.go read every
// integer as static (the golden corpora are all static); an operand with
// a run-time integer takes the IntTuple path here instead, which follows
// CuTe's composition_impl, bw_coalesce and detail::complement step by
// step, static marks included. Scaled bases and unknown ("?") leaves stay
// on the kernels' path.

import "math"

// CondDynamicStrideComplement is CuTe's static_assert text for a
// complement of a layout of rank > 1 with a run-time stride.
const CondDynamicStrideComplement = "Dynamic-stride complement only for rank-1 layouts"

// runTimePlain reports whether some leaf of the trees is a run-time
// integer while every leaf is a plain integer (no basis, unknown or "_"):
// the operands the run-time path here computes. It runs before every
// composition and complement, so it walks by pointer, leaves inline.
func runTimePlain(ts ...IntTuple) bool {
	var seen leafSeen
	for i := range ts {
		seen |= scanLeaves(&ts[i])
	}
	return seen == seenRunTime
}

// leafSeen gathers what a walk met: run-time plain integers, and leaves
// that are not plain integers.
type leafSeen uint8

const (
	seenRunTime leafSeen = 1 << iota
	seenOther
)

func scanLeaves(t *IntTuple) leafSeen {
	if t.kind != kindTuple {
		return leafKindSeen(t)
	}
	var seen leafSeen
	es := elemsOf(t)
	for i := range es {
		if es[i].kind == kindTuple {
			seen |= scanLeaves(&es[i])
		} else {
			seen |= leafKindSeen(&es[i])
		}
	}
	return seen
}

func leafKindSeen(t *IntTuple) leafSeen {
	switch {
	case t.kind != kindInt || len(t.sub) != 0:
		return seenOther
	case !t.static:
		return seenRunTime
	}
	return 0
}

// Leaf arithmetic with CuTe's static rules (plain integer leaves only).

// dMul is a*b: static when both are, and a static 0 whenever either is one
// (CuTe's C<0> * int is C<0>).
func dMul(op string, a, b IntTuple) (IntTuple, error) {
	if a.isConst(0) {
		return a, nil
	}
	if b.isConst(0) {
		return b, nil
	}
	v, ok := mulChecked(a.val, b.val)
	if !ok {
		return IntTuple{}, errorf(op, CondOverflow, "%v * %v overflows int64", a, b)
	}
	return intLeaf(v, a.static && b.static), nil
}

// dDiv is a/b truncated as C++ divides (C<0> / int is C<0>).
func dDiv(op string, a, b IntTuple) (IntTuple, error) {
	if a.isConst(0) {
		return a, nil
	}
	if b.val == 0 {
		return IntTuple{}, errorf(op, CondDivideByZero, "%v / %v divides by zero", a, b)
	}
	if a.val == math.MinInt64 && b.val == -1 {
		return IntTuple{}, errorf(op, CondOverflow, "%v / %v overflows int64", a, b)
	}
	return intLeaf(a.val/b.val, a.static && b.static), nil
}

// dCeilDiv is CuTe's ceil_div on integers, (a + b - 1) / b.
func dCeilDiv(op string, a, b IntTuple) (IntTuple, error) {
	if b.val == 0 {
		return IntTuple{}, errorf(op, CondDivideByZero, "ceil_div(%v, %v) divides by zero", a, b)
	}
	v, ok := ceilDivC(a.val, b.val)
	if !ok {
		return IntTuple{}, errorf(op, CondOverflow, "ceil_div(%v, %v) overflows int64", a, b)
	}
	return intLeaf(v, a.static && b.static), nil
}

func dAdd(op string, a, b IntTuple) (IntTuple, error) {
	v, ok := addChecked(a.val, b.val)
	if !ok {
		return IntTuple{}, errorf(op, CondOverflow, "%v + %v overflows int64", a, b)
	}
	return intLeaf(v, a.static && b.static), nil
}

func dAbs(a IntTuple) IntTuple {
	if a.val < 0 && a.val != math.MinInt64 {
		a.val = -a.val
	}
	return a
}

func dSignum(a IntTuple) IntTuple {
	switch {
	case a.val > 0:
		return intLeaf(1, a.static)
	case a.val < 0:
		return intLeaf(-1, a.static)
	}
	return intLeaf(0, a.static)
}

func dMin(a, b IntTuple) IntTuple {
	return intLeaf(min(a.val, b.val), a.static && b.static)
}

// flatLeaves is the leaves of a layout, shapes and strides, in order,
// after a congruence check.
func flatLeaves(op string, l Layout) ([]IntTuple, []IntTuple, error) {
	if err := checkCongruent(op, l.Shape, l.Stride, nil); err != nil {
		return nil, nil, err
	}
	return FlattenToTuple(l.Shape).Elems(), FlattenToTuple(l.Stride).Elems(), nil
}

// coalesceXDyn is CuTe's detail::coalesce_x(A): A's flat modes merged from
// the back as bw_coalesce does, with a last mode of static size 1 read as
// size 2 so that the function outside A's domain is kept; it returns the
// flat modes (one mode for an integral shape).
func coalesceXDyn(a Layout) ([]IntTuple, []IntTuple, error) {
	s, d, err := flatLeaves("composition", a)
	if err != nil {
		return nil, nil, err
	}
	if len(s) == 0 || (a.Shape.IsTuple() && len(a.Shape.elems()) == 0) {
		return []IntTuple{Int(1)}, []IntTuple{Int(0)}, nil
	}
	n := len(s)
	last := s[n-1]
	if last.isConst(1) {
		last = Int(2)
	}
	return bwCoalesceDyn(s[:n-1], d[:n-1], last, d[n-1])
}

// bwCoalesceDyn is CuTe's bw_coalesce: the modes s:d merged, from the
// back, into the front mode ns:nd; a static size-1 mode is skipped, a
// front of static size 1 replaced, and a mode merges with the front only
// when the front's shape is static and s*d == the front's stride is a
// static fact. The result is the flat modes; all of static size 1 is 1:0.
func bwCoalesceDyn(s, d []IntTuple, ns, nd IntTuple) ([]IntTuple, []IntTuple, error) {
	// Built back to front: outS[len-1] is the front mode.
	outS, outD := []IntTuple{ns}, []IntTuple{nd}
	for i := len(s) - 1; i >= 0; i-- {
		f := len(outS) - 1
		switch {
		case s[i].isConst(1):
		case len(outS) == 1 && outS[0].isConst(1):
			outS[0], outD[0] = s[i], d[i]
		default:
			merged, ok, err := mergeModes("composition", s[i], d[i], outS[f], outD[f])
			if err != nil {
				return nil, nil, err
			}
			if ok {
				outS[f], outD[f] = merged, d[i]
			} else {
				outS, outD = append(outS, s[i]), append(outD, d[i])
			}
		}
	}
	if len(outS) == 1 && outS[0].isConst(1) {
		return []IntTuple{Int(1)}, []IntTuple{Int(0)}, nil
	}
	for i, j := 0, len(outS)-1; i < j; i, j = i+1, j-1 {
		outS[i], outS[j] = outS[j], outS[i]
		outD[i], outD[j] = outD[j], outD[i]
	}
	return outS, outD, nil
}

// compositionDyn is Composition for plain-integer operands with run-time
// integers: coalesce_x(A) (B's strides are integers, so its coprofile is
// an integer), then composition_impl mode by mode of B.
func compositionDyn(a, b Layout) (Layout, error) {
	if err := checkCongruent("composition", b.Shape, b.Stride, nil); err != nil {
		return Layout{}, err
	}
	ls, ld, err := coalesceXDyn(a)
	if err != nil {
		return Layout{}, err
	}
	c := dynComposer{shape: ls, stride: ld, integral: len(ls) == 1}
	s, d, err := c.mode(b.Shape, b.Stride)
	if err != nil {
		return Layout{}, err
	}
	return Layout{Shape: s, Stride: d}, nil
}

// dynComposer is composition_impl with A coalesced to the flat modes
// shape:stride (integral: A's shape is an integer, not a tuple).
type dynComposer struct {
	shape, stride []IntTuple
	integral      bool
}

func (c *dynComposer) mode(s, d IntTuple) (IntTuple, IntTuple, error) {
	const op = "composition"
	if s.IsTuple() {
		n := len(s.elems())
		rs, rd := make([]IntTuple, n), make([]IntTuple, n)
		for i := range n {
			var err error
			if rs[i], rd[i], err = c.mode(s.elems()[i], d.elems()[i]); err != nil {
				return IntTuple{}, IntTuple{}, err
			}
		}
		return Tup(rs...), Tup(rd...), nil
	}
	if d.isConst(0) {
		return s, d, nil // CuTe's shortcut for a static stride 0
	}
	if c.integral {
		v, err := dMul(op, d, c.stride[0])
		return s, v, err
	}
	r := len(c.shape)
	var outS, outD []IntTuple
	restShape, restStride := s, d
	for i := 0; i < r-1; i++ {
		cs, cd := c.shape[i], c.stride[i]
		if cs.static && restStride.static {
			if cs.val == 0 {
				return IntTuple{}, IntTuple{}, errorf(op, CondDivideByZero, "A has a mode of shape 0")
			}
			if restStride.val%cs.val != 0 && restStride.val >= cs.val {
				return IntTuple{}, IntTuple{}, errorf(op, CondStrideDivisibility,
					"stride %v of mode %v:%v of B reaches mode %d (%v:%v) of A as %v, which is neither a multiple of %v nor less than it",
					d, s, d, i, cs, cd, restStride, cs)
			}
		}
		ar := dAbs(restStride)
		nextShape, err := dCeilDiv(op, cs, ar)
		if err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		q, err := dCeilDiv(op, ar, cs)
		if err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		nextStride, err := dMul(op, q, dSignum(restStride))
		if err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		if nextShape.isConst(1) || restShape.isConst(1) {
			restStride = nextStride
			continue
		}
		newShape := dMin(nextShape, restShape)
		if newShape.static && restShape.static {
			if newShape.val == 0 {
				return IntTuple{}, IntTuple{}, errorf(op, CondDivideByZero, "mode %v:%v of B takes 0 elements of mode %d of A", s, d, i)
			}
			if restShape.val%newShape.val != 0 {
				return IntTuple{}, IntTuple{}, errorf(op, CondShapeDivisibility,
					"mode %v:%v of B has %v elements left to take at mode %d (%v:%v) of A, which holds %v of them; %v is not a multiple of %v",
					s, d, restShape, i, cs, cd, newShape, restShape, newShape)
			}
		}
		st, err := dMul(op, restStride, cd)
		if err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		outS, outD = append(outS, newShape), append(outD, st)
		if restShape, err = dDiv(op, restShape, newShape); err != nil {
			return IntTuple{}, IntTuple{}, err
		}
		restStride = nextStride
	}
	last, err := dMul(op, restStride, c.stride[r-1])
	if err != nil {
		return IntTuple{}, IntTuple{}, err
	}
	switch {
	case len(outS) == 0:
		return restShape, last, nil
	case restShape.isConst(1):
		if len(outS) == 1 {
			return outS[0], outD[0], nil
		}
		return Tup(outS...), Tup(outD...), nil
	}
	return Tup(append(outS, restShape)...), Tup(append(outD, last)...), nil
}

// complementDyn is CuTe's complement(A, M) (M nil: complement(A), whose
// cotarget is cosize(filter(A))) for plain-integer operands with run-time
// integers.
func complementDyn(a Layout, m *IntTuple) (Layout, error) {
	const op = "complement"
	f, err := Filter(a)
	if err != nil {
		return Layout{}, err
	}
	var cot IntTuple
	if m != nil {
		cot = *m
	} else if cot, err = cosizeDyn(op, f); err != nil {
		return Layout{}, err
	}
	fs, fd, err := flatLeaves(op, f)
	if err != nil {
		return Layout{}, err
	}
	if !f.Stride.IsTuple() && f.Stride.isConst(0) {
		// The irreducible rank-1 stride-0 layout: make_layout(coalesce(M)).
		s, err := CoalesceShape(cot)
		if err != nil {
			return Layout{}, err
		}
		d, err := CompactColMajor(s)
		if err != nil {
			return Layout{}, err
		}
		return Layout{Shape: s, Stride: d}, nil
	}
	r := len(fs)
	if r > 1 && !allStaticLeaves(fd) {
		return Layout{}, errorf(op, CondDynamicStrideComplement, "%v (filtered %v) has rank %d and a run-time stride; CuTe complements those only at rank 1", a, f, r)
	}
	shape, stride := append([]IntTuple(nil), fs...), append([]IntTuple(nil), fd...)
	resS, resD := make([]IntTuple, 0, r+1), append(make([]IntTuple, 0, r+1), Int(1))
	for i := 0; i < r-1; i++ {
		k := 0
		for j := range stride {
			if stride[j].val < stride[k].val {
				k = j
			}
		}
		newShape, err := dDiv(op, stride[k], resD[i])
		if err != nil {
			return Layout{}, err
		}
		if newShape.isConst(0) {
			return Layout{}, errorf(op, CondNonInjective, "%v maps two coordinates to one index (filtered: %v)", a, f)
		}
		newStride, err := dMul(op, stride[k], shape[k])
		if err != nil {
			return Layout{}, err
		}
		shape, stride = append(shape[:k], shape[k+1:]...), append(stride[:k], stride[k+1:]...)
		resS, resD = append(resS, newShape), append(resD, newStride)
	}
	newShape, err := dDiv(op, stride[0], resD[r-1])
	if err != nil {
		return Layout{}, err
	}
	if newShape.isConst(0) {
		return Layout{}, errorf(op, CondNonInjective, "%v maps two coordinates to one index (filtered: %v)", a, f)
	}
	resS = append(resS, newShape)
	newStride, err := dMul(op, stride[0], shape[0])
	if err != nil {
		return Layout{}, err
	}
	q, err := dCeilDivTuple(op, cot, newStride)
	if err != nil {
		return Layout{}, err
	}
	restShape, err := CoalesceShape(q)
	if err != nil {
		return Layout{}, err
	}
	restStride, err := CompactMajor(restShape, newStride, LayoutLeft)
	if err != nil {
		return Layout{}, err
	}
	return Coalesce(Layout{Shape: Tup(Tup(resS...), restShape), Stride: Tup(Tup(resD...), restStride)})
}

func allStaticLeaves(ts []IntTuple) bool {
	for _, t := range ts {
		if !t.static {
			return false
		}
	}
	return true
}

// dCeilDivTuple is CuTe's ceil_div(a, b) for an IntTuple a and an integer
// b: folded through a's modes, each taking ceil_div(a_i, rest) and leaving
// rest = ceil_div(rest, a_i) (a tuple a_i counting as its product).
func dCeilDivTuple(op string, a, b IntTuple) (IntTuple, error) {
	if !a.IsTuple() {
		if !a.isPlainInt() {
			return IntTuple{}, checkIntLeaf(op, a)
		}
		return dCeilDiv(op, a, b)
	}
	out := make([]IntTuple, len(a.elems()))
	rest := b
	for i, e := range a.elems() {
		var err error
		if out[i], err = dCeilDivTuple(op, e, rest); err != nil {
			return IntTuple{}, err
		}
		p, err := dProduct(op, e)
		if err != nil {
			return IntTuple{}, err
		}
		if rest, err = dCeilDiv(op, rest, p); err != nil {
			return IntTuple{}, err
		}
	}
	return Tup(out...), nil
}

// dProduct is CuTe's product(t): the leaves multiplied, from a static 1.
func dProduct(op string, t IntTuple) (IntTuple, error) {
	if !t.IsTuple() {
		if !t.isPlainInt() {
			return IntTuple{}, checkIntLeaf(op, t)
		}
		return t, nil
	}
	acc := Int(1)
	for _, e := range t.elems() {
		p, err := dProduct(op, e)
		if err != nil {
			return IntTuple{}, err
		}
		if acc, err = dMul(op, acc, p); err != nil {
			return IntTuple{}, err
		}
	}
	return acc, nil
}

// cosizeDyn is CuTe's cosize(L) = inner_product(shape - 1, |stride|) + 1,
// the sum folded from a static 0 for a tuple layout.
func cosizeDyn(op string, l Layout) (IntTuple, error) {
	s, d, err := flatLeaves(op, l)
	if err != nil {
		return IntTuple{}, err
	}
	var sum IntTuple
	for i := range s {
		m1, err := dAdd(op, s[i], Int(-1))
		if err != nil {
			return IntTuple{}, err
		}
		term, err := dMul(op, m1, dAbs(d[i]))
		if err != nil {
			return IntTuple{}, err
		}
		if i == 0 && !l.Shape.IsTuple() {
			sum = term
			continue
		}
		if i == 0 {
			sum = Int(0)
		}
		if sum, err = dAdd(op, sum, term); err != nil {
			return IntTuple{}, err
		}
	}
	if len(s) == 0 {
		sum = Int(0)
	}
	return dAdd(op, sum, Int(1))
}

// logicalProductDyn is logical_product(A, B) for a layout B, step by step,
// for operands with run-time integers:
// make_layout(A, composition(complement(A, size(A)*cosize(B)), B)).
func logicalProductDyn(a, b Layout) (Layout, error) {
	const op = "logical_product"
	sa, err := dProduct(op, a.Shape)
	if err != nil {
		return Layout{}, inOp(op, "size("+a.String()+")", err)
	}
	cb, err := cosizeDyn(op, b)
	if err != nil {
		return Layout{}, inOp(op, "cosize("+b.String()+")", err)
	}
	n, err := dMul(op, sa, cb)
	if err != nil {
		return Layout{}, err
	}
	c, err := ComplementTo(a, n)
	if err != nil {
		return Layout{}, inOp(op, "complement("+a.String()+", "+n.String()+")", err)
	}
	rep, err := Composition(c, b)
	if err != nil {
		return Layout{}, inOp(op, "composition("+c.String()+", "+b.String()+")", err)
	}
	return makeLayoutOf(a, rep), nil
}
