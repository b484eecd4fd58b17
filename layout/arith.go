package layout

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Checked int64 arithmetic: every operation that can overflow reports it
// instead of wrapping, because a wrapped offset is a silently wrong answer.

// MulChecked is a*b, and false where it overflows int64.
func MulChecked(a, b int64) (int64, bool) {
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

// AddChecked is a+b, and false where it overflows int64.
func AddChecked(a, b int64) (int64, bool) {
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

// num is a leaf integer as the algebra's bodies compute with it: plain
// data (16 bytes, no pointer), so that their arrays of modes live on the
// stack and copy in one move. Its flags f are 0 for a static plain integer,
// the common case, which the bodies test in one compare; otherwise they
// hold its leafKind (an unknown "?" or "_"), dynBit for a run-time integer,
// and from basisShift up the 1-based index of a scaled basis's path in the
// operation's bases.
type num struct {
	v int64
	f uint64
}

const kindBits, dynBit, basisShift = 3, 1 << 8, 16 // f's leafKind bits, run-time bit, basis index shift

func (n num) kind() leafKind { return leafKind(n.f & kindBits) }
func (n num) static() bool   { return n.f&dynBit == 0 } // held at compile time
func (n num) basis() uint8   { return uint8(n.f >> basisShift) }

// mode is a leaf mode s:d, as the bodies hold a layout: a flat array of
// modes, one append and one index per mode.
type mode struct{ s, d num }

// leafNum is the plain leaf at t (no basis) as a num.
func leafNum(t *IntTuple) num { return num{v: t.val, f: leafFlags(t.kind, t.static)} }

func leafFlags(kind leafKind, static bool) uint64 {
	if static {
		return uint64(kind)
	}
	return uint64(kind) | dynBit
}

// bases is the paths of the scaled bases an operation's strides scale,
// each once, so that two strides have the same basis when their indices
// are equal.
type bases struct {
	paths [][]IntTuple
}

// numOf is the leaf at t as a num, a basis path entered in b; false when
// a basis does not fit (more than 255 paths).
func numOf(t *IntTuple, b *bases) (num, bool) {
	if t.kind != kindInt || len(t.sub) == 0 {
		return leafNum(t), true
	}
	return b.basisNum(t)
}

func (b *bases) basisNum(t *IntTuple) (num, bool) {
	n := leafNum(t)
	for i, p := range b.paths {
		if samePath(p, t.sub) {
			n.f |= uint64(i+1) << basisShift
			return n, true
		}
	}
	if len(b.paths) == 255 {
		return n, false
	}
	b.paths = append(b.paths, slices.Clone(t.sub)) // t may be on a caller's stack
	n.f |= uint64(len(b.paths)) << basisShift
	return n, true
}

// leaf is n as an IntTuple leaf, its basis path from b.
func (n num) leaf(b *bases) IntTuple {
	if k := n.basis(); k > 0 {
		return IntTuple{val: n.v, sub: b.paths[k-1], leafInfo: leafInfo{n.kind(), n.static()}}
	}
	return IntTuple{val: n.v, leafInfo: leafInfo{n.kind(), n.static()}}
}

// put makes *t, a zero IntTuple, the leaf n. It writes the pointer field
// only for a basis: a whole-struct store into fresh heap memory costs a
// write barrier per call while the collector runs.
func (n num) put(t *IntTuple, b *bases) {
	t.val, t.kind, t.static = n.v, n.kind(), n.static()
	if k := n.basis(); k > 0 {
		t.sub = b.paths[k-1]
	}
}

// String prints n's value (a basis as n@?; messages that name a basis
// print it through leaf).
func (n num) String() string {
	t := num{v: n.v, f: n.f &^ (255 << basisShift)}.leaf(nil)
	if n.basis() > 0 {
		return t.String() + "@?"
	}
	return t.String()
}

// numInt is the static (or run-time) integer v.
func numInt(v int64, static bool) num { return num{v: v, f: leafFlags(kindInt, static)} }

// numOfBoth is the integer v, static where a and b both are (the result of
// arithmetic on them).
func numOfBoth(v int64, a, b num) num { return num{v: v, f: (a.f | b.f) & dynBit} }

// plain reports whether n is a known integer (not a basis).
func (n num) plain() bool { return n.f&^dynBit == 0 }

// isStatic is IntTuple.IsStatic: a known integer or basis held at compile time.
func (n num) isStatic() bool { return n.f&(kindBits|dynBit) == 0 }

// is is CuTe's is_constant<v>: a static plain integer equal to v.
func (n num) is(v int64) bool { return n == num{v: v} }

// Leaf arithmetic with CuTe's static rules: a result is static when its
// operands are, and a static 0 times anything is a static 0 (CuTe's C<0> *
// int is C<0>). Operands are known integers; mul also scales a basis.

// mul is a*b.
func mul(op string, a, b num) (num, error) {
	if p, ok := mulSmall(a, b); ok {
		return p, nil
	}
	return mulAny(op, a, b)
}

// mulSmall is a*b where both are integers in [1, 2^31] without a basis,
// whose product cannot overflow: the arithmetic's common case, small
// enough to inline into the loops that multiply (mul, with its error
// path, is not); false otherwise.
func mulSmall(a, b num) (num, bool) {
	return numOfBoth(a.v*b.v, a, b), (uint64(a.v-1)|uint64(b.v-1))>>31 == 0 && (a.f|b.f)>>basisShift == 0
}

func mulAny(op string, a, b num) (num, error) {
	switch {
	case a.is(0):
		return a, nil
	case b.is(0):
		return b, nil
	case a.basis() > 0 && b.basis() > 0:
		return num{}, Errorf(op, "", "cannot multiply two scaled bases %v and %v", a.String(), b.String())
	}
	v, ok := MulChecked(a.v, b.v)
	if !ok {
		return num{}, Errorf(op, CondOverflow, "%v * %v overflows int64", a.String(), b.String())
	}
	return num{v: v, f: (a.f|b.f)&dynBit | (a.f|b.f)&^(1<<basisShift-1)}, nil
}

// divmod is a/b and a%b for a >= 0, b > 0, in 32 bits when both fit: a
// 64-bit division costs several times a 32-bit one on common x86 cores,
// and the algebra's operands are almost always small.
func divmod(a, b int64) (int64, int64) {
	if (a|b)>>32 == 0 {
		ua, ub := uint32(a), uint32(b)
		return int64(ua / ub), int64(ua % ub)
	}
	return a / b, a % b
}

// div is a/b truncated as C++ divides (C<0> / int is C<0>).
func div(op string, a, b num) (num, error) {
	if q, ok := divSmall(a, b); ok {
		return q, nil
	}
	return divAny(op, a, b)
}

// divSmall is a/b where both are positive (the common case, small enough
// to inline into the loops that divide); false otherwise.
func divSmall(a, b num) (num, bool) {
	if a.v > 0 && b.v > 0 {
		q, _ := divmod(a.v, b.v)
		return numOfBoth(q, a, b), true
	}
	return num{}, false
}

func divAny(op string, a, b num) (num, error) {
	if a.is(0) {
		return a, nil
	}
	if b.v == 0 || a.v == math.MinInt64 && b.v == -1 {
		return num{}, arithError(op, "%v / %v", a, b)
	}
	return numOfBoth(a.v/b.v, a, b), nil
}

// ceilDiv is CuTe's ceil_div on integers, (a + b - 1) / b.
func ceilDiv(op string, a, b num) (num, error) {
	if q, ok := ceilDivSmall(a, b); ok {
		return q, nil
	}
	return ceilDivAny(op, a, b)
}

// ceilDivSmall is ceil_div(a, b) for 0 <= a < 2^62 and 0 < b < 2^62 (the
// common case, small enough to inline); false otherwise.
func ceilDivSmall(a, b num) (num, bool) {
	if a.v >= 0 && b.v > 0 && a.v < 1<<62 && b.v < 1<<62 {
		q, _ := divmod(a.v+b.v-1, b.v)
		return numOfBoth(q, a, b), true
	}
	return num{}, false
}

func ceilDivAny(op string, a, b num) (num, error) {
	v, ok := ceilDivC(a.v, b.v)
	if !ok {
		return num{}, arithError(op, "ceil_div(%v, %v)", a, b)
	}
	return numOfBoth(v, a, b), nil
}

// add is a+b.
func add(op string, a, b num) (num, error) {
	if v, ok := addSmall(a, b); ok {
		return v, nil
	}
	return num{}, arithError(op, "%v + %v", a, b)
}

// addSmall is a+b, and false where it overflows (inlined where a loop adds).
func addSmall(a, b num) (num, bool) {
	v, ok := AddChecked(a.v, b.v)
	return numOfBoth(v, a, b), ok
}

// arithError is the error of the operation what on a and b: a division by
// zero, else an overflow.
func arithError(op, what string, a, b num) error {
	expr := fmt.Sprintf(what, a.String(), b.String())
	if b.v == 0 && what != "%v + %v" {
		return Errorf(op, CondDivideByZero, "%s divides by zero", expr)
	}
	return Errorf(op, CondOverflow, "%s overflows int64", expr)
}

// abs is |a| (the most negative integer stays as it is; ceil_div then reports it).
func abs(a num) num {
	if a.v < 0 && a.v != math.MinInt64 {
		a.v = -a.v
	}
	return a
}

// ceilDivC is CuTe's ceil_div on integers, (a + b - 1) / b with C++'s
// truncating division (so for a negative divisor it is not a ceiling).
func ceilDivC(a, b int64) (int64, bool) {
	if b == 0 || b == math.MinInt64 {
		return 0, false
	}
	s, ok := AddChecked(a, b-1)
	if !ok {
		return 0, false
	}
	return s / b, true
}
