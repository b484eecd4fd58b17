package analysis

import (
	"math/bits"
	"sync/atomic"

	"github.com/cute-lsp/cute-lsp/layout"
)

// Integers as Values without an allocation where they are small: an
// IntTuple held in a Value is a copy of its 40 bytes on the heap, and
// size, rank, depth and cosize answer with one on every call. As the
// runtime keeps its small integers boxed, intValues keeps the Values of
// 0..255 and of the powers of two up to 2^62, static and run time, each
// made on first use and then shared: a Value is never written (an IntTuple
// has no exported field and its methods only read it), so one serves all.
var intValues [2 * intValueCount]atomic.Pointer[layout.Value]

const intValueCount = 256 + 55 // 0..255, then 2^8..2^62

// intValue is the integer n as a Value: static (CuTe's compile-time
// integers, as every answer of size, rank, depth and cosize is) or run time.
func intValue(n int64, static bool) layout.Value {
	i := int(n)
	switch {
	case n >= 0 && n < 256:
	case n > 0 && n&(n-1) == 0:
		i = 256 - 8 + bits.TrailingZeros64(uint64(n))
	default:
		return newInt(n, static)
	}
	if !static {
		i += intValueCount
	}
	if v := intValues[i].Load(); v != nil {
		return *v
	}
	v := newInt(n, static)
	intValues[i].CompareAndSwap(nil, &v) // a racing caller's equal Value may win
	return *intValues[i].Load()
}

// newInt is the integer n as a new Value.
func newInt(n int64, static bool) layout.Value {
	if static {
		return layout.Int(n)
	}
	return layout.Dyn(n)
}

// tupleValue is t as a Value, shared as intValue's where t is a small integer.
func tupleValue(t layout.IntTuple) layout.Value {
	if layout.IsPlainInt(t) {
		return intValue(t.Value(), t.IsStatic())
	}
	return t
}
