package layout

import "math/bits"

// Checked int64 arithmetic: every operation that can overflow reports it
// instead of wrapping, because a wrapped offset is a silently wrong answer.

func mulChecked(a, b int64) (int64, bool) {
	// The signed 128-bit product from the unsigned one: its high word is
	// the unsigned high word less b where a < 0 and a where b < 0. The
	// product fits when that high word is the sign extension of the low
	// one. Branch-free and small enough to inline into the kernels' loops.
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	h := int64(hi) - (a>>63)&b - (b>>63)&a
	if h != int64(lo)>>63 {
		return 0, false
	}
	return int64(lo), true
}

func addChecked(a, b int64) (int64, bool) {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, false
	}
	return s, true
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// gcd64 is the non-negative greatest common divisor; gcd64(0, 0) == 0.
func gcd64(a, b int64) int64 {
	a, b = abs64(a), abs64(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
