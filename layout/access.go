package layout

import (
	"errors"
	"fmt"
)

// What the table of operations by name (analysis/ops_table.go) needs of
// this package beyond the algebra's own functions and checks (Errorf,
// KindErrorf, InOp, CheckIntLeaf, CheckCongruent, GetMode, ComposeSwizzle,
// MulChecked, ... are the algebra's, defined beside the code that uses
// them): renaming an error to the operation the user called, kind names for
// messages, and the few conversions CuTe's overloads read their arguments
// with. The algebra itself takes typed arguments and never looks an
// operation up by name.

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
	case *Layout:
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

// UpcastInteger is CuTe's upcast<N> of an integer offset m: m / N (a
// static m must divide).
func UpcastInteger(m IntTuple, n int64) (IntTuple, error) {
	if n <= 0 {
		return m, Errorf("upcast", CondCastFactor, "N = %d", n)
	}
	return divideOffset("upcast", m, n)
}

// DowncastInteger is CuTe's downcast<N> of an integer offset m: m * N.
func DowncastInteger(m IntTuple, n int64) (IntTuple, error) {
	if n <= 0 {
		return m, Errorf("downcast", CondCastFactor, "N = %d", n)
	}
	return scaleLeaf("downcast", m, n)
}

// intArg reads a known integer argument (a template parameter).
func intArg(v Value) (int64, bool) {
	t, ok := v.(IntTuple)
	if !ok || !t.IsLeaf() || t.IsUnknown() || t.IsBasis() {
		return 0, false
	}
	return t.Value(), true
}
