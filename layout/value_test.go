package layout

import "testing"

// TestSmallLeafNumbers: smallLeaf numbers each integer 0..31 and each power
// of two 32..2^20, static and run time apart, and nothing else; Box of a
// leaf layout of two such integers is one shared box.
func TestSmallLeafNumbers(t *testing.T) {
	value := func(i int) int64 { // the integer smallLeaf numbers i (i < smallLeafValues)
		if i < 32 {
			return int64(i)
		}
		return 1 << (i - 32 + 5)
	}
	for i := range smallLeafValues {
		v := value(i)
		if j, ok := smallLeaf(&[]IntTuple{Int(v)}[0]); !ok || j != i {
			t.Errorf("smallLeaf(%d) = %d, %v; want %d", v, j, ok, i)
		}
		if j, ok := smallLeaf(&[]IntTuple{Dyn(v)}[0]); !ok || j != i+smallLeafValues {
			t.Errorf("smallLeaf(run-time %d) = %d, %v; want %d", v, j, ok, i+smallLeafValues)
		}
	}
	for _, v := range []IntTuple{Unknown(), Basis(1, 0), Ints(1), Underscore(), Int(-1), Int(33), Int(48), Int(1<<20 + 1), Int(1 << 21), Int(3 << 10)} {
		if j, ok := smallLeaf(&v); ok {
			t.Errorf("smallLeaf(%v) = %d, want none", v, j)
		}
	}
	if a, b := Box(Make(Int(8), Int(1))), Box(Make(Int(8), Int(1))); a != b || a.(*Layout).Format(true) != "_8:_1" {
		t.Errorf("Box(8:1) twice: %p and %p (%v), want one shared _8:_1", a, b, a)
	}
	if a, b := Box(Make(Dyn(8), Int(1))), Box(Make(Int(8), Int(1))); a == b || a.(*Layout).Format(true) != "8:_1" {
		t.Errorf("Box(8:1) run time and static: both %p (%v)", a, a)
	}
}

// TestBoxOfResult: Box of an operation's result is the block it was built
// in, and of a layout whose trees were replaced since, a new box.
func TestBoxOfResult(t *testing.T) {
	out, err := Coalesce(ref(Make(Ints(2, 3, 4), Ints(1, 4, 12)))) // (2,12):(1,4), built in a block
	if err != nil {
		t.Fatal(err)
	}
	if a, b := Box(*out), Box(*out); a != b || a != out.box || a != out {
		t.Errorf("Box(%v) twice: %p and %p, want its block %p", out, a, b, out.box)
	}
	changed := *out
	changed.Stride = Ints(1, 2)
	if v := Box(changed); v == Box(*out) || v.String() != "(2,12):(1,2)" {
		t.Errorf("Box of %v with new strides = %v, the block of %v", changed, v, out)
	}
}
