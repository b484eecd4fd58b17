package layout

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// wildValue is any kind of value an operation may be handed, often one it
// does not take: layouts (valid or not), tuples, integers (negative, zero,
// huge), tilers, swizzles, swizzled layouts, tags, TIRx layouts (WildTIRx).
// Thread-value values (package tiled, above this one) are tiled's FuzzTV's.
func wildValue(r *rand.Rand) Value {
	switch r.IntN(12) {
	case 0, 1:
		return wildLayout(r)
	case 2:
		return wildTuple(r, 3)
	case 3:
		return Int([]int64{-1, 0, 1, 2, 3, 8, 64, 1 << 40, 1<<63 - 1}[r.IntN(9)])
	case 4:
		var t Tiler
		for range r.IntN(3) {
			switch r.IntN(4) {
			case 0:
				t.Modes = append(t.Modes, TilerMode{Skip: true})
			case 1:
				n := r.Int64N(9)
				t.Modes = append(t.Modes, TilerMode{Layout: Layout{Shape: Int(n), Stride: Int(1)}, Int: true})
			default:
				t.Modes = append(t.Modes, TilerMode{Layout: wildLayout(r)})
			}
		}
		return t
	case 5:
		return randomSwizzle(r)
	case 6:
		return randomComposed(r)
	case 7:
		return []Value{LayoutLeft, LayoutRight}[r.IntN(2)]
	case 8:
		if WildTIRx != nil {
			return WildTIRx(r)
		}
	}
	return randomLayout(r, 3, 2)
}

// FuzzEveryOp applies every registered operation to zero to four wild
// arguments: none may panic or hang, and every failure is an *Error.
func FuzzEveryOp(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(3), uint64(5))
	f.Add(uint64(8), uint64(13))
	ops := Ops()
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		r := rand.New(rand.NewPCG(s1, s2))
		for _, op := range ops {
			args := make([]Value, r.IntN(5))
			for i := range args {
				args[i] = wildValue(r)
			}
			checkOpSurvives(t, op.Name, args)
		}
	})
}

// checkOpSurvives applies the operation name to args: it must answer within
// 2 s, and fail, if it fails, with an *Error.
func checkOpSurvives(t *testing.T, name string, args []Value) {
	t.Helper()
	op, _ := LookupOp(name)
	start := time.Now()
	_, err := op.Apply(args)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("%s%v took %v", name, args, d)
	}
	var e *Error
	if err != nil && !errors.As(err, &e) {
		t.Fatalf("%s%v: %v (%T) is not an *Error", name, args, err, err)
	}
}
