package layout

import "errors"

// Leaf arithmetic shared by every IntTuple operation. Unknown leaves ("?")
// propagate through it: an unknown times a known zero is zero, anything else
// touching an unknown is unknown. Scaled bases (n@d) scale by integers and
// add into arithmetic tuples, as CuTe's ScaledBasis and ArithmeticTuple do.
// Static marks combine as CuTe's types do: a result is static only when
// every operand is.

// IsUnknown reports whether err is an *Error saying the operation needed a
// value known only at run time (a "?" leaf): the answer is unknown, not wrong.
func IsUnknown(err error) bool {
	if err == nil {
		return false
	}
	// The direct case first: errors.As would move e to the heap on every call.
	if e, ok := err.(*Error); ok {
		return e.Condition == CondUnknown
	}
	var e *Error
	return errors.As(err, &e) && e.Condition == CondUnknown
}

// intLeaf is a known integer leaf with the given static mark.
func intLeaf(v int64, static bool) IntTuple {
	return IntTuple{val: v, leafInfo: leafInfo{kindInt, static}}
}

// IsPlainInt reports whether t is an integer leaf: not a tuple, a scaled
// basis, "?" or "_".
func IsPlainInt(t IntTuple) bool { return t.kind == kindInt && len(t.sub) == 0 }

// isConst is CuTe's is_constant<v, T>: a static integer leaf equal to v.
func (t IntTuple) isConst(v int64) bool { return IsPlainInt(t) && t.static && t.val == v }

// isKnown reports whether t is a known integer leaf equal to v, static or not.
func (t IntTuple) isKnown(v int64) bool { return IsPlainInt(t) && t.val == v }

// unknownErr is the error of an operation that needs the value of a "?" leaf.
func unknownErr(op, what string) *Error {
	return Errorf(op, CondUnknown, "%s is only known at run time", what)
}

// leafValue is the integer held by a known integer leaf; an unknown leaf is a
// CondUnknown error, anything else (tuple, basis, "_") is an error naming it.
func leafValue(op string, t IntTuple) (int64, error) {
	switch {
	case IsPlainInt(t):
		return t.val, nil
	case t.kind == kindUnknown:
		return 0, unknownErr(op, "a value")
	case t.IsTuple():
		return 0, Errorf(op, "", "expected an integer, got the tuple %v", t)
	case t.IsBasis():
		return 0, Errorf(op, "", "expected an integer, got the scaled basis %v", t)
	}
	return 0, Errorf(op, "", "expected an integer, got %v", t)
}

// mulLeaf is a*b for leaves: integers, unknowns, and a basis scaled by an integer.
func mulLeaf(op string, a, b IntTuple) (IntTuple, error) {
	if a.IsTuple() || b.IsTuple() {
		return IntTuple{}, Errorf(op, "", "cannot multiply %v by %v: both must be integers", a.String(), b.String())
	}
	if a.kind == kindUnderscore || b.kind == kindUnderscore {
		return IntTuple{}, Errorf(op, "", "cannot multiply %v by %v: _ is not a number", a.String(), b.String())
	}
	if a.kind == kindUnknown || b.kind == kindUnknown {
		if a.isKnown(0) {
			return a, nil
		}
		if b.isKnown(0) {
			return b, nil
		}
		return Unknown(), nil
	}
	if a.IsBasis() && b.IsBasis() {
		return IntTuple{}, Errorf(op, "", "cannot multiply two scaled bases %v and %v", a.String(), b.String())
	}
	v, ok := MulChecked(a.val, b.val)
	if !ok {
		return IntTuple{}, Errorf(op, CondOverflow, "%v * %v overflows int64", a.String(), b.String())
	}
	out := intLeaf(v, a.static && b.static)
	switch {
	case a.IsBasis():
		out = out.withPath(a.sub)
	case b.IsBasis():
		out = out.withPath(b.sub)
	}
	return out, nil
}

// addOp is a+b for IntTuples as CuTe adds offsets: integers add, a scaled
// basis adds to another basis or to an arithmetic tuple position by position
// (1@0 + 2@1 = (1,2)); zero is the identity; unknowns give unknown.
// Law: addOp(a, b) == addOp(b, a) and addOp(a, 0) == a.
func addOp(op string, a, b IntTuple) (IntTuple, error) {
	switch {
	case a.isKnown(0) && !b.IsTuple() && b.kind != kindUnderscore:
		if IsPlainInt(b) {
			b.static = b.static && a.static
		}
		return b, nil
	case b.isKnown(0) && !a.IsTuple() && a.kind != kindUnderscore:
		if IsPlainInt(a) {
			a.static = a.static && b.static
		}
		return a, nil
	case a.kind == kindUnderscore || b.kind == kindUnderscore:
		return IntTuple{}, Errorf(op, "", "cannot add %v and %v: _ is not a number", a.String(), b.String())
	case a.kind == kindUnknown || b.kind == kindUnknown:
		return Unknown(), nil
	case IsPlainInt(a) && IsPlainInt(b):
		v, ok := AddChecked(a.val, b.val)
		if !ok {
			return IntTuple{}, Errorf(op, CondOverflow, "%v + %v overflows int64", a.String(), b.String())
		}
		return intLeaf(v, a.static && b.static), nil
	case a.IsBasis() && b.IsBasis() && samePath(a.sub, b.sub):
		v, ok := AddChecked(a.val, b.val)
		if !ok {
			return IntTuple{}, Errorf(op, CondOverflow, "%v + %v overflows int64", a.String(), b.String())
		}
		out := intLeaf(v, a.static && b.static)
		return out.withPath(a.sub), nil
	case IsPlainInt(a) || IsPlainInt(b):
		if a.isKnown(0) || b.isKnown(0) { // 0 + tuple
			if a.isKnown(0) {
				return b, nil
			}
			return a, nil
		}
		return IntTuple{}, Errorf(op, "", "cannot add the integer and the basis-valued offsets %v and %v", a.String(), b.String())
	}
	if !basisModesInRange(a) || !basisModesInRange(b) {
		return IntTuple{}, Errorf(op, "", "cannot add %v and %v: basis modes must lie in [0, %d]", a.String(), b.String(), maxBasisMode)
	}
	at, bt := asArithmeticTuple(a), asArithmeticTuple(b)
	n := max(len(at.elems()), len(bt.elems()))
	out := make([]IntTuple, n)
	for i := range out {
		x, y := Int(0), Int(0)
		if i < len(at.elems()) {
			x = at.elems()[i]
		}
		if i < len(bt.elems()) {
			y = bt.elems()[i]
		}
		s, err := addOp(op, x, y)
		if err != nil {
			return IntTuple{}, err
		}
		out[i] = s
	}
	return Tup(out...), nil
}

// maxBasisMode bounds the mode index of a scaled basis that is spelled out
// as an arithmetic tuple (which has that many positions).
const maxBasisMode = 1 << 10

func basisModesInRange(t IntTuple) bool {
	for _, m := range t.path() {
		if m.val < 0 || m.val > maxBasisMode {
			return false
		}
	}
	for _, e := range t.elems() {
		if !basisModesInRange(e) {
			return false
		}
	}
	return true
}

// asArithmeticTuple is CuTe's as_arithmetic_tuple: n@(m0,m1,...) becomes the
// tuple with zeros everywhere but position m0, which holds n@(m1,...).
func asArithmeticTuple(t IntTuple) IntTuple {
	if !t.IsBasis() {
		return t
	}
	m0 := t.sub[0].val
	inner := asArithmeticTuple(t.withPath(t.sub[1:]))
	out := make([]IntTuple, m0+1)
	for i := range out {
		out[i] = Int(0)
	}
	out[m0] = inner
	return Tup(out...)
}
