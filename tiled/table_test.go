package tiled_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cute-lsp/cute-lsp/analysis"
	. "github.com/cute-lsp/cute-lsp/layout" // the tests write CuTe values as layout's own tests do
)

// The tests here call the thread-value operations by name, as a sheet does,
// through analysis's table of operations (which imports this package; so
// they are in package tiled_test).

// Apply calls the table's operation name on args.
func Apply(name string, args ...Value) (Value, error) {
	for _, op := range analysis.Ops() {
		if op.Name == name {
			return op.Apply(args)
		}
	}
	return nil, &Error{Op: name, Detail: "no such operation"}
}

// checkOpSurvives applies the operation name to args: it must answer within
// 2 s, and fail, if it fails, with an *Error.
func checkOpSurvives(t *testing.T, name string, args []Value) {
	t.Helper()
	start := time.Now()
	_, err := Apply(name, args...)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("%s%v took %v", name, args, d)
	}
	var e *Error
	if err != nil && !errors.As(err, &e) {
		t.Fatalf("%s%v: %v (%T) is not an *Error", name, args, err, err)
	}
}

// wildTuple is an integer tuple of depth at most depth with leaves of every
// kind: unknown, zero, negative, huge, scaled bases, run-time, "_".
func wildTuple(r *rand.Rand, depth int) IntTuple {
	if depth > 0 && r.IntN(3) == 0 {
		elems := make([]IntTuple, r.IntN(4))
		for i := range elems {
			elems[i] = wildTuple(r, depth-1)
		}
		return Tup(elems...)
	}
	switch r.IntN(12) {
	case 0:
		return Unknown()
	case 1:
		return Int(0)
	case 2:
		return Int(-r.Int64N(9))
	case 3:
		return Int(1 << (40 + r.IntN(23)))
	case 4:
		return Basis(r.Int64N(4), r.IntN(3))
	case 5:
		return Dyn(1 + r.Int64N(8))
	case 6:
		return Underscore()
	}
	return Int(1 + r.Int64N(16))
}

// wildLayout is a layout whose stride is usually (not always) congruent.
func wildLayout(r *rand.Rand) Layout {
	s := wildTuple(r, 3)
	if r.IntN(4) == 0 {
		return Layout{Shape: s, Stride: wildTuple(r, 3)}
	}
	var like func(IntTuple) IntTuple
	like = func(t IntTuple) IntTuple {
		if !t.IsTuple() {
			return wildTuple(r, 0)
		}
		elems := make([]IntTuple, len(t.Elems()))
		for i, e := range t.Elems() {
			elems[i] = like(e)
		}
		return Tup(elems...)
	}
	return Layout{Shape: s, Stride: like(s)}
}

// wildValue is any other kind of value an operation may be handed: layouts,
// tuples, integers, tilers, swizzles, swizzled layouts, tags.
func wildValue(r *rand.Rand) Value {
	switch r.IntN(7) {
	case 0:
		return wildTuple(r, 3)
	case 1:
		return Int([]int64{-1, 0, 1, 2, 3, 8, 64, 1 << 40, 1<<63 - 1}[r.IntN(9)])
	case 2:
		var t Tiler
		for range r.IntN(3) {
			t.Modes = append(t.Modes, []TilerMode{{Skip: true}, {Layout: Make(Int(r.Int64N(9)), Int(1)), Int: true}, {Layout: wildLayout(r)}}[r.IntN(3)])
		}
		return t
	case 3:
		return Swizzle{B: r.IntN(4), M: r.IntN(6), S: r.IntN(9) - 4}
	case 4:
		return Composed{Outer: Swizzle{B: r.IntN(4), M: r.IntN(6), S: r.IntN(4)}, Offset: Int(r.Int64N(64)), Inner: wildLayout(r)}
	case 5:
		return []Value{LayoutLeft, LayoutRight}[r.IntN(2)]
	}
	return wildLayout(r)
}
