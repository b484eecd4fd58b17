package layout

import (
	"errors"
	"fmt"
)

// What the table of operations by name (analysis/ops_table.go) needs of
// this package beyond the algebra's own functions: its error constructors,
// so that a call by name fails with the same *Error the algebra gives, and
// the few checks and conversions CuTe's overloads read their arguments with.
// The algebra itself takes typed arguments and never looks an operation up
// by name.

// Errorf is the *Error of op with the given CuTe condition and detail; a
// value among args prints cut to a few hundred bytes.
func Errorf(op, condition, format string, args ...any) *Error {
	return errorf(op, condition, format, args...)
}

// KindErrorf is the *Error of an operand of the wrong kind or count (Error.Kind).
func KindErrorf(op, format string, args ...any) *Error { return kindErrorf(op, format, args...) }

// InOp re-issues err, an error of a step of op, as an error of op: the
// condition stays (it is CuTe's check that failed), the detail says where.
func InOp(op, where string, err error) error { return inOp(op, where, err) }

// Renamed is err with its operation set to op: the algebra's checks name
// the function that failed, the user called op.
func Renamed(op string, err error) error {
	var le *Error
	if err == nil || !errors.As(err, &le) {
		return err
	}
	c := *le
	c.Op = op
	return &c
}

// kindNamer is a Value of another package (a TIRx layout, a TiledMMA)
// that names its own kind for messages: "a TIRx layout".
type kindNamer interface{ KindName() string }

// KindName names the kind of v for messages: "a layout", "a swizzle", ...
func KindName(v Value) string {
	switch v := v.(type) {
	case Layout:
		return "a layout"
	case IntTuple:
		return "an integer tuple"
	case Composed:
		return "a composed layout"
	case Swizzle:
		return "a swizzle"
	case Tiler:
		return "a tiler"
	case Tag:
		return "a tag"
	case kindNamer:
		return v.KindName()
	}
	return fmt.Sprintf("%T", v)
}

// IsPlainInt reports whether t is an integer leaf: not a tuple, a scaled
// basis, "?" or "_".
func IsPlainInt(t IntTuple) bool { return t.isPlainInt() }

// CheckIntLeaf is the check that an integer leaf standing for the layout
// N:1 is one the algebra can use (known, not a basis).
func CheckIntLeaf(op string, t IntTuple) error { return checkIntLeaf(op, t) }

// CheckCongruent is the check that shape and stride have the same profile.
func CheckCongruent(op string, shape, stride IntTuple) error {
	return checkCongruent(op, shape, stride, nil)
}

// GetMode is the mode of t at the hierarchical index is, errors naming op.
func GetMode(op string, t IntTuple, is []int) (IntTuple, error) { return getMode(op, t, is) }

// UpcastInteger is CuTe's upcast<N> of an integer offset m: m / N (a
// static m must divide).
func UpcastInteger(m IntTuple, n int64) (IntTuple, error) {
	if n <= 0 {
		return m, errorf("upcast", CondCastFactor, "N = %d", n)
	}
	return divideOffset("upcast", m, n)
}

// DowncastInteger is CuTe's downcast<N> of an integer offset m: m * N.
func DowncastInteger(m IntTuple, n int64) (IntTuple, error) {
	if n <= 0 {
		return m, errorf("downcast", CondCastFactor, "N = %d", n)
	}
	return scaleLeaf("downcast", m, n)
}

// ComposeSwizzle is CuTe's composition(Sw, off, inner): the swizzled layout
// Sw o off o inner, nested when inner is itself swizzled, or inner itself
// for an identity swizzle with a static zero offset over a plain layout.
// The operations CuTe applies to a swizzled layout's inner layout put the
// swizzle back around their result with it.
func ComposeSwizzle(op string, sw Swizzle, off IntTuple, inner Value) (Value, error) {
	return composeSwizzle(op, sw, off, inner)
}

// IsStaticZero reports whether t is the static integer 0.
func IsStaticZero(t IntTuple) bool { return isStaticZero(t) }

// intArg reads a known integer argument (a template parameter).
func intArg(v Value) (int64, bool) {
	t, ok := v.(IntTuple)
	if !ok || !t.IsLeaf() || t.IsUnknown() || t.IsBasis() {
		return 0, false
	}
	return t.Value(), true
}

// MulChecked is a*b, and false where it overflows int64.
func MulChecked(a, b int64) (int64, bool) { return mulChecked(a, b) }

// AddChecked is a+b, and false where it overflows int64.
func AddChecked(a, b int64) (int64, bool) { return addChecked(a, b) }
