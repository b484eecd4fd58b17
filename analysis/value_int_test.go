package analysis

import (
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// TestIntValuesShared: a small integer answer (0..255, a power of two up to
// 2^62) is one shared Value with its static mark, any other a new one; and
// rank, depth, size and cosize of a layout allocate nothing for one.
func TestIntValuesShared(t *testing.T) {
	for _, n := range []int64{0, 1, 7, 255, 256, 1 << 20, 1 << 62} {
		for _, static := range []bool{true, false} {
			a := intValue(n, static)
			want := newInt(n, static)
			if a.(layout.IntTuple).Format(true) != want.(layout.IntTuple).Format(true) {
				t.Errorf("intValue(%d, %v) = %v, want %v", n, static, a.(layout.IntTuple).Format(true), want.(layout.IntTuple).Format(true))
			}
			if n := testing.AllocsPerRun(10, func() { sink = intValue(n, static) }); n != 0 {
				t.Errorf("intValue(%v, %v): %v allocations, want the shared Value", a, static, n)
			}
		}
	}
	for _, n := range []int64{-1, 257, 3 << 10, 1<<62 + 1} {
		if v := intValue(n, true); v.(layout.IntTuple).Format(true) != layout.Int(n).Format(true) {
			t.Errorf("intValue(%d) = %v", n, v)
		}
		if got := testing.AllocsPerRun(10, func() { sink = intValue(n, true) }); got != 1 {
			t.Errorf("intValue(%d): %v allocations, want a new Value", n, got)
		}
	}
	l := []layout.Value{layout.Box(layout.Make(layout.Ints(4, 8), layout.Ints(1, 4)))}
	for op, want := range map[string]string{"rank": "_2", "depth": "_1", "size": "_32", "cosize": "_32"} {
		v, err := ApplyOp(op, l...)
		if err != nil || v.(layout.IntTuple).Format(true) != want {
			t.Errorf("%s(%v) = %v, %v; want %s", op, l[0], v, err, want)
		}
		if n := testing.AllocsPerRun(10, func() { sink, _ = ApplyOp(op, l...) }); n != 0 {
			t.Errorf("%s(%v): %v allocations, want none", op, l[0], n)
		}
	}
}
