// Package layouttest holds the random CuTe values that the tests of layout,
// tiled and analysis/prop draw, and the check their fuzzers apply to every
// operation, so that each is written once. It imports layout, so layout's
// own tests (package layout) reach it through ops_table_hook_test.go
// (package layout_test), which sets their copies before any test runs.
package layouttest

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cute-lsp/cute-lsp/layout"
)

// WildTuple is an integer tuple of depth at most depth with leaves of every
// kind a user might write or a computation produce: unknown, zero,
// negative, huge, scaled bases, run-time, "_".
func WildTuple(r *rand.Rand, depth int) layout.IntTuple {
	if depth > 0 && r.IntN(3) == 0 {
		elems := make([]layout.IntTuple, r.IntN(4))
		for i := range elems {
			elems[i] = WildTuple(r, depth-1)
		}
		return layout.Tup(elems...)
	}
	switch r.IntN(12) {
	case 0:
		return layout.Unknown()
	case 1:
		return layout.Int(0)
	case 2:
		return layout.Int(-r.Int64N(9))
	case 3:
		return layout.Int(1 << (40 + r.IntN(23)))
	case 4:
		return layout.Basis(r.Int64N(4), r.IntN(3))
	case 5:
		return layout.Dyn(1 + r.Int64N(8))
	case 6:
		return layout.Underscore()
	}
	return layout.Int(1 + r.Int64N(16))
}

// WildLayout is a layout of wild tuples whose stride is usually (not
// always) congruent to its shape.
func WildLayout(r *rand.Rand) layout.Layout {
	s := WildTuple(r, 3)
	if r.IntN(4) == 0 {
		return layout.Layout{Shape: s, Stride: WildTuple(r, 3)}
	}
	var like func(layout.IntTuple) layout.IntTuple
	like = func(t layout.IntTuple) layout.IntTuple {
		if !t.IsTuple() {
			return WildTuple(r, 0)
		}
		elems := make([]layout.IntTuple, len(t.Elems()))
		for i, e := range t.Elems() {
			elems[i] = like(e)
		}
		return layout.Tup(elems...)
	}
	return layout.Layout{Shape: s, Stride: like(s)}
}

// WildValue is any kind of value of package layout an operation may be
// handed, often one it does not take: wild layouts and tuples, integers
// (negative, zero, huge), tilers, swizzles (valid or not), swizzled
// layouts, tags.
func WildValue(r *rand.Rand) layout.Value {
	switch r.IntN(7) {
	case 0:
		return WildTuple(r, 3)
	case 1:
		return layout.Int([]int64{-1, 0, 1, 2, 3, 8, 64, 1 << 40, 1<<63 - 1}[r.IntN(9)])
	case 2:
		var t layout.Tiler
		for range r.IntN(3) {
			t.Modes = append(t.Modes, []layout.TilerMode{{Skip: true}, {Layout: layout.Make(layout.Int(r.Int64N(9)), layout.Int(1)), Int: true}, {Layout: WildLayout(r)}}[r.IntN(3)])
		}
		return t
	case 3:
		return layout.Swizzle{B: r.IntN(4), M: r.IntN(6), S: r.IntN(9) - 4}
	case 4:
		return layout.Composed{Outer: layout.Swizzle{B: r.IntN(4), M: r.IntN(6), S: r.IntN(4)}, Offset: layout.Int(r.Int64N(64)), Inner: WildLayout(r)}
	case 5:
		return []layout.Value{layout.LayoutLeft, layout.LayoutRight}[r.IntN(2)]
	}
	return layout.Box(WildLayout(r))
}

// PropertyLayout is a random layout of up to 4 modes with strides that
// often make it compact, sometimes overlapping or gapped, sometimes
// negative; its size is at most 5^4, small enough to enumerate.
func PropertyLayout(r *rand.Rand) layout.Layout {
	n := 1 + r.IntN(4)
	shapes, strides := make([]layout.IntTuple, n), make([]layout.IntTuple, n)
	prod := int64(1)
	for i := range n {
		s := 1 + r.Int64N(5)
		var d int64
		switch r.IntN(6) {
		case 0, 1, 2:
			d = prod // compact, column-major
		case 3:
			d = 1 + r.Int64N(12)
		case 4:
			d = 0
		default:
			d = -(1 + r.Int64N(6))
		}
		shapes[i], strides[i] = layout.Int(s), layout.Int(d)
		prod *= s
	}
	if r.IntN(3) == 0 { // permute the modes: still compact, no longer column-major
		r.Shuffle(n, func(i, j int) {
			shapes[i], shapes[j] = shapes[j], shapes[i]
			strides[i], strides[j] = strides[j], strides[i]
		})
	}
	if n == 1 {
		return layout.Make(shapes[0], strides[0])
	}
	return layout.Make(layout.Tup(shapes...), layout.Tup(strides...))
}

// RandomSwizzle is a valid swizzle with at most 20 bits.
func RandomSwizzle(r *rand.Rand) layout.Swizzle {
	b := r.IntN(4)
	s := b + r.IntN(4)
	if r.IntN(2) == 0 {
		s = -s
	}
	return layout.Swizzle{B: b, M: r.IntN(6), S: s}
}

// CheckSurvives applies apply, the operation name, to args: it must answer
// within 2 s, and fail, if it fails, with a *layout.Error.
func CheckSurvives(t *testing.T, name string, apply func([]layout.Value) (layout.Value, error), args []layout.Value) {
	t.Helper()
	start := time.Now()
	_, err := apply(args)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("%s%v took %v", name, args, d)
	}
	var e *layout.Error
	if err != nil && !errors.As(err, &e) {
		t.Fatalf("%s%v: %v (%T) is not an *Error", name, args, err, err)
	}
}
