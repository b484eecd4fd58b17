package layout

import (
	"math/rand/v2"
	"testing"
)

// TestRightInverseLaw: A(R(i)) == i for i < size(R), for every layout.
func TestRightInverseLaw(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	nontrivial := 0
	for range 3000 {
		a := lawLayout(r, true)
		inv, err := Deref(RightInverse(&a))
		if err != nil {
			t.Fatalf("RightInverse(%v): %v", a, err)
		}
		n := sizeRef(inv)
		if n > 1 {
			nontrivial++
		}
		atA, atInv := refOf(a), refOf(inv)
		for i := range n {
			if got := atA(atInv(i)); got != i {
				t.Fatalf("RightInverse(%v) = %v: A(R(%d)) = %d", a, inv, i, got)
			}
		}
	}
	if nontrivial < 1000 {
		t.Fatalf("only %d right inverses beyond 1:0", nontrivial)
	}
}

// TestLeftInverseLaw: L(A(i)) == i for i < size(A) when A is injective
// (non-negative strides).
func TestLeftInverseLaw(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	injective := 0
	for range 3000 {
		a := lawLayout(r, false)
		inv, err := LeftInverse(a)
		if err != nil {
			continue
		}
		if !injectiveRef(a) {
			continue
		}
		injective++
		atA, atInv := refOf(a), refOf(inv)
		for i := range sizeRef(a) {
			if back := atInv(atA(i)); back != i {
				t.Fatalf("LeftInverse(%v) = %v: L(A(%d)) = %d", a, inv, i, back)
			}
		}
	}
	if injective < 1000 {
		t.Fatalf("only %d injective layouts inverted", injective)
	}
}

func TestInverseExamples(t *testing.T) {
	for _, c := range []struct{ op, a, want string }{
		{"right_inverse", "(2,4,6):(4,1,8)", "(4,2,6):(2,1,8)"},
		{"right_inverse", "(3,16):(32,2)", "1:0"},
		{"right_inverse", "(7,5,16):(0,0,0)", "1:0"},
		{"right_inverse", "((3,4),8):((16,144),1)", "8:12"},
		{"left_inverse", "(2,4):(1,4)", "(4,4):(1,2)"},
		{"left_inverse", "((8,3),(8)):((0,4),(32))", "(4,8,8):(0,8,24)"},
		{"left_inverse", "(2,2):(1,1)", "2:2"},  // equal strides: CuTe's exchange sort decides
		{"left_inverse", "(7,5):(0,0)", "35:0"}, // coalesce merges stride-0 modes: 7*0 == 0
	} {
		got, err := Apply(c.op, Box(mustLayout(c.a)))
		if err != nil || got.String() != c.want {
			t.Errorf("%s(%s) = %v, %v; want %s", c.op, c.a, got, err, c.want)
		}
	}
	if got, err := Apply("right_inverse", Int(4)); err != nil || got.String() != "4:1" {
		t.Errorf("right_inverse(4) = %v, %v", got, err)
	}
}

func TestSortByStride(t *testing.T) {
	// Exchange sort is not stable: (3,1,3,1) sorts its modes as 1,3,2,0
	// (the swaps move mode 0 behind mode 2); pre carries each mode's index.
	got := []int64{0, 1, 2, 3}
	sortByStride(modesOf(Ints(3, 1, 3, 1).Elems(), Ints(3, 1, 3, 1).Elems(), nil), got)
	if want := []int64{1, 3, 2, 0}; len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("sortByStride = %v, want %v", got, want)
	}
}

func TestInverseErrors(t *testing.T) {
	_, err := LeftInverse(mustLayout("(8,2,2):(4,3,5)"))
	wantError(t, "left inverse divisibility", err, "left_inverse", CondLeftInverse, "stride 4", "multiple of 3")
	_, err = LeftInverse(Layout{Shape: Ints(1<<40, 1<<40, 2), Stride: Ints(1, 1<<41, 3)})
	wantError(t, "left inverse size overflow", err, "left_inverse", CondOverflow)
	_, err = LeftInverse(Layout{Shape: Ints(1<<62, 4), Stride: Ints(1, 1<<62)})
	wantError(t, "left inverse coalesce overflow", err, "left_inverse", CondOverflow)
	_, err = LeftInverse(Layout{Shape: Ints(2, 2), Stride: Int(1)})
	wantError(t, "left inverse, not congruent", err, "left_inverse", CondCongruent)
	_, err = RightInverse(&Layout{Shape: Ints(1<<40, 1<<40, 2), Stride: Ints(1, 1<<41, 3)})
	wantError(t, "right inverse size overflow", err, "right_inverse", CondOverflow)
	_, err = RightInverse(&Layout{Shape: Ints(1<<62, 2, 4), Stride: Ints(1, 0, 1<<62)})
	wantError(t, "right inverse coalesce overflow", err, "right_inverse", CondOverflow)
	_, err = RightInverse(&Layout{Shape: Ints(1<<62, 2), Stride: Ints(2, 1)})
	wantError(t, "right inverse cosize overflow", err, "right_inverse", CondOverflow)
	if got, err := RightInverse(&Layout{Shape: Ints(1<<40, 1<<40), Stride: Ints(1, 1<<41)}); err != nil || got.String() != "1099511627776:1" {
		t.Errorf("right inverse of a layout whose size overflows = %v, %v (the size itself is never needed)", got, err)
	}
	_, err = RightInverse(&Layout{Shape: Ints(2, 2), Stride: Int(1)})
	wantError(t, "right inverse, not congruent", err, "right_inverse", CondCongruent)

	for _, op := range []string{"right_inverse", "left_inverse"} {
		for _, args := range [][]Value{
			{},
			{Box(mustLayout("4:1")), Box(mustLayout("4:1"))},
			{Ints(2, 2)},
			{Unknown()},
			{Composed{Outer: Swizzle{3, 1, 1}, Offset: Int(1), Inner: mustLayout("4:1")}}, // |S| < B: no such swizzle
		} {
			if _, err := Apply(op, args...); err == nil {
				t.Errorf("%s%v accepted", op, args)
			}
		}
	}
}
