package layout

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// randomCastLayout is a random static layout of rank 1..3 (modes may nest
// one level), strides from {0, +-1, +-2^k, small odd}, and, when unit is
// set, at least one static stride 1.
func randomCastLayout(r *rand.Rand, unit bool) Layout {
	strideChoices := []int64{0, 1, -1, 2, 4, 8, 16, 3, 6, -2, 12}
	leaf := func() (IntTuple, IntTuple) {
		return Int(1 + r.Int64N(8)), Int(strideChoices[r.IntN(len(strideChoices))])
	}
	n := 1 + r.IntN(3)
	shapes, strides := make([]IntTuple, n), make([]IntTuple, n)
	for i := range n {
		if r.IntN(4) == 0 {
			s0, d0 := leaf()
			s1, d1 := leaf()
			shapes[i], strides[i] = Tup(s0, s1), Tup(d0, d1)
			continue
		}
		shapes[i], strides[i] = leaf()
	}
	if unit && !hasStaticOne(Tup(strides...)) {
		k := r.IntN(n)
		if strides[k].IsTuple() {
			strides[k] = Tup(Int(1), strides[k].At(1))
		} else {
			strides[k] = Int(1)
		}
	}
	if n == 1 && r.IntN(2) == 0 {
		return Make(shapes[0], strides[0])
	}
	return Make(Tup(shapes...), Tup(strides...))
}

func TestUpcastDowncastExamples(t *testing.T) {
	cases := []struct {
		op   func(Layout, int64) (Layout, error)
		l    string
		n    int64
		want string
	}{
		{Upcast, "(4,3):(1,4)", 8, "(1,2):(1,1)"},
		{Upcast, "(4,3):(-1,-4)", 2, "(2,3):(-1,-2)"},
		{Upcast, "(3):(0)", 16, "(3):(0)"},
		{Upcast, "((2,4),4):((8,16),2)", 8, "((2,4),1):((1,2),1)"},
		{Downcast, "(4,2):(1,4)", 2, "(8,2):(1,8)"},
		{Downcast, "(1,2,2):(1,1,2)", 4, "(4,8,2):(1,1,8)"},
		{Downcast, "((8),8):((1),8)", 8, "((64),8):((1),64)"},
	}
	for _, c := range cases {
		got, err := c.op(mustLayout(c.l), c.n)
		if err != nil || got.String() != c.want {
			t.Errorf("cast(%s, %d) = %v, %v; want %s", c.l, c.n, got, err, c.want)
		}
	}
	// Run-time strides: upcast divides (when it can), downcast multiplies.
	dyn := Make(Tup(Int(4), Int(8)), Tup(Int(1), Dyn(64)))
	if got, err := Upcast(dyn, 4); err != nil || got.String() != "(1,8):(1,16)" || got.Stride.At(1).IsStatic() {
		t.Errorf("Upcast(%v, 4) = %v, %v", dyn, got, err)
	}
	if got, err := Downcast(dyn, 4); err != nil || got.String() != "(16,8):(1,256)" {
		t.Errorf("Downcast(%v, 4) = %v, %v", dyn, got, err)
	}
	unk := Make(Tup(Unknown(), Int(8)), Tup(Int(1), Unknown()))
	if got, err := Upcast(unk, 2); err != nil || got.String() != "(?,8):(1,?)" {
		t.Errorf("Upcast(%v, 2) = %v, %v", unk, got, err)
	}
	if got, err := Downcast(unk, 2); err != nil || got.String() != "(?,8):(1,?)" {
		t.Errorf("Downcast(%v, 2) = %v, %v", unk, got, err)
	}
	if got, err := Upcast(Make(Dyn(6), Int(2)), 4); err != nil || got.String() != "3:1" || got.Shape.IsStatic() {
		t.Errorf("Upcast(6:2 run-time shape, 4) = %v, %v", got, err)
	}
}

// Law: Upcast(Downcast(L, N), N) == L for every L with a static unit stride.
func TestUpcastDowncastProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 3000 {
		l := randomCastLayout(r, true)
		n := []int64{2, 4, 8, 16, 3}[r.IntN(5)]
		down, err := Downcast(l, n)
		if err != nil {
			t.Fatalf("Downcast(%v, %d): %v", l, n, err)
		}
		up, err := Upcast(down, n)
		if err != nil {
			t.Fatalf("Upcast(%v, %d): %v", down, n, err)
		}
		if !up.Shape.Equal(l.Shape) || !up.Stride.Equal(l.Stride) {
			t.Fatalf("Upcast(Downcast(%v, %d)) = %v", l, n, up)
		}
	}
}

// Law: recasting to the same width is the identity, and a recast to a
// narrower type and back is the identity where the layout has a unit stride.
func TestRecastLayoutProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	widths := []int64{1, 2, 4, 8, 16, 32, 64}
	for range 2000 {
		l := randomCastLayout(r, true)
		a, b := widths[r.IntN(len(widths))], widths[r.IntN(len(widths))]
		same, err := RecastLayout(l, a, a)
		if err != nil || same.String() != l.String() {
			t.Fatalf("RecastLayout(%v, %d, %d) = %v, %v", l, a, a, same, err)
		}
		wide, narrow := max(a, b), min(a, b)
		down, err := RecastLayout(l, wide, narrow)
		if err != nil {
			t.Fatalf("RecastLayout(%v, %d, %d): %v", l, wide, narrow, err)
		}
		back, err := RecastLayout(down, narrow, wide)
		if err != nil || back.String() != l.String() {
			t.Fatalf("RecastLayout(RecastLayout(%v, %d, %d)) = %v, %v", l, wide, narrow, back, err)
		}
	}
	// Widths that are not multiples of each other go through both casts.
	got, err := RecastLayout(mustLayout("(12,4):(1,12)"), 24, 16)
	if err != nil || got.String() != "(18,4):(1,18)" {
		t.Errorf("RecastLayout((12,4):(1,12), 24, 16) = %v, %v", got, err)
	}
}

func TestRecastErrors(t *testing.T) {
	bad := []struct {
		name string
		run  func() error
		cond string
	}{
		{"upcast divisibility", func() error { _, err := Upcast(mustLayout("3:6"), 4); return err }, CondUpcastDivisibility},
		{"upcast run-time divisibility", func() error { _, err := Upcast(Make(Int(4), Dyn(6)), 4); return err }, CondUpcastDivisibility},
		{"upcast by 0", func() error { _, err := Upcast(mustLayout("4:1"), 0); return err }, CondCastFactor},
		{"downcast by -2", func() error { _, err := Downcast(mustLayout("4:1"), -2); return err }, CondCastFactor},
		{"downcast without unit stride", func() error { _, err := Downcast(mustLayout("(4,2):(-1,8)"), 2); return err }, CondDowncastAdjacent},
		{"downcast run-time unit stride", func() error { _, err := Downcast(Make(Int(4), Dyn(1)), 2); return err }, CondDowncastAdjacent},
		{"downcast overflow", func() error { _, err := Downcast(mustLayout("(4,2):(1,4611686018427387904)"), 4); return err }, CondOverflow},
		{"upcast not congruent", func() error { _, err := Upcast(Make(Ints(4, 2), Int(1)), 2); return err }, CondCongruent},
		{"upcast rank mismatch", func() error { _, err := Upcast(Make(Ints(4, 2), Ints(1, 2, 3)), 2); return err }, CondCongruent},
		{"upcast basis stride", func() error { _, err := Upcast(Make(Int(4), Basis(1, 0)), 2); return err }, CondUnknown},
		{"downcast basis stride", func() error { _, err := Downcast(Make(Ints(4, 2), Tup(Int(1), Basis(1, 0))), 2); return err }, CondUnknown},
		{"recast widths", func() error { _, err := RecastLayout(mustLayout("4:1"), 0, 8); return err }, CondCastFactor},
		{"recast composed widths", func() error {
			_, err := RecastComposed(Composed{Swizzle{1, 2, 3}, Int(0), mustLayout("4:1"), 0}, 8, -8)
			return err
		}, CondCastFactor},
		{"composed upcast offset", func() error {
			_, err := UpcastComposed(Composed{Swizzle{1, 2, 3}, Int(3), mustLayout("8:1"), 0}, 2)
			return err
		}, "Static safe_div requires t % u == 0"},
		{"composed upcast bad swizzle", func() error {
			_, err := UpcastComposed(Composed{Swizzle{3, 2, 2}, Int(0), mustLayout("8:1"), 0}, 2)
			return err
		}, CondSwizzleShift},
		{"composed upcast bad layout", func() error {
			_, err := UpcastComposed(Composed{Swizzle{1, 2, 3}, Int(0), mustLayout("8:3"), 0}, 2)
			return err
		}, CondUpcastDivisibility},
		{"composed upcast tuple offset", func() error {
			_, err := UpcastComposed(Composed{Swizzle{1, 2, 3}, Ints(0, 1), mustLayout("8:1"), 0}, 2)
			return err
		}, CondUnknown},
		{"composed downcast bad swizzle", func() error {
			_, err := DowncastComposed(Composed{Swizzle{1, 2, 3}, Int(0), mustLayout("8:1"), 0}, 3)
			return err
		}, CondPowerOfTwo},
		{"composed downcast bad layout", func() error {
			_, err := DowncastComposed(Composed{Swizzle{1, 2, 3}, Int(0), mustLayout("8:2"), 0}, 2)
			return err
		}, CondDowncastAdjacent},
		{"composed downcast tuple offset", func() error {
			_, err := DowncastComposed(Composed{Swizzle{1, 2, 3}, Ints(0, 1), mustLayout("8:1"), 0}, 2)
			return err
		}, CondUnknown},
	}
	for _, c := range bad {
		err := c.run()
		var le *Error
		if !errors.As(err, &le) || le.Condition != c.cond {
			t.Errorf("%s: got %v, want condition %q", c.name, err, c.cond)
		}
	}
	for _, args := range [][]Value{
		{Box(mustLayout("4:1"))}, {Box(mustLayout("4:1")), Unknown()}, {Ints(1, 2), Int(2)},
	} {
		for _, op := range []string{"upcast", "downcast"} {
			if _, err := Apply(op, args...); err == nil {
				t.Errorf("%s(%v): no error", op, args)
			}
		}
	}
	for _, args := range [][]Value{
		{Box(mustLayout("4:1")), Int(8)}, {Box(mustLayout("4:1")), Int(8), Unknown()}, {Ints(1, 2), Int(8), Int(16)},
	} {
		if _, err := Apply("recast_layout", args...); err == nil {
			t.Errorf("recast_layout(%v): no error", args)
		}
	}
}

// Swizzled layouts recast part by part: Sw<3,4,3> o 0 o (8,64):(64,1) for
// 16-bit elements read as 32-bit is Sw<3,3,3> o 0 o (8,32):(32,1).
func TestRecastComposed(t *testing.T) {
	c := Composed{Swizzle{3, 4, 3}, Int(0), mustLayout("(8,64):(64,1)"), 0}
	cases := []struct {
		oldBits, newBits int64
		want             string
	}{
		{16, 16, "Sw<3,4,3> o 0 o (8,64):(64,1)"},
		{16, 32, "Sw<3,3,3> o 0 o (8,32):(32,1)"},
		{16, 8, "Sw<3,5,3> o 0 o (8,128):(128,1)"},
		{8, 256, "Sw<2,0,3> o 0 o (8,2):(2,1)"},
		{8, 1024, "Sw<0,0,3> o 0 o (4,1):(1,1)"},
	}
	for _, c2 := range cases {
		got, err := RecastComposed(c, c2.oldBits, c2.newBits)
		if err != nil || got.String() != c2.want {
			t.Errorf("RecastComposed(%v, %d, %d) = %v, %v; want %s", c, c2.oldBits, c2.newBits, got, err, c2.want)
		}
	}
	// A swizzle only casts by powers of two.
	if got, err := RecastComposed(c, 16, 24); err == nil {
		t.Errorf("RecastComposed(%v, 16, 24) = %v, want an error", c, got)
	}
	got, err := Apply("recast_layout", c, Int(16), Int(32))
	if err != nil || got.String() != "Sw<3,3,3> o 0 o (8,32):(32,1)" {
		t.Errorf("recast_layout op: %v, %v", got, err)
	}
	got, err = Apply("upcast", Swizzle{3, 4, 3}, Int(4))
	if err != nil || got.String() != "Sw<3,2,3>" {
		t.Errorf("upcast(Sw<3,4,3>, 4) = %v, %v", got, err)
	}
	// A static offset scales with the element width.
	off := Composed{Swizzle{1, 2, 3}, Int(8), mustLayout("16:1"), 0}
	if got, err := DowncastComposed(off, 2); err != nil || got.String() != "Sw<1,3,3> o 16 o 32:1" {
		t.Errorf("DowncastComposed(%v, 2) = %v, %v", off, got, err)
	}
	if got, err := UpcastComposed(off, 2); err != nil || got.String() != "Sw<1,1,3> o 4 o 8:1" {
		t.Errorf("UpcastComposed(%v, 2) = %v, %v", off, got, err)
	}
}

// Integers (offsets) and swizzles cast too: upcast<2>(8) = 4, downcast<2>(8) = 16.
func TestCastIntegersAndSwizzles(t *testing.T) {
	cases := []struct {
		op   string
		args []Value
		want string
	}{
		{"upcast", []Value{Int(8), Int(2)}, "4"},
		{"downcast", []Value{Int(8), Int(2)}, "16"},
		{"recast_layout", []Value{Swizzle{3, 4, 3}, Int(16), Int(32)}, "Sw<3,3,3>"},
		{"recast_layout", []Value{Swizzle{3, 4, 3}, Int(16), Int(8)}, "Sw<3,5,3>"},
		{"recast_layout", []Value{Swizzle{3, 4, 3}, Int(16), Int(16)}, "Sw<3,4,3>"},
	}
	for _, c := range cases {
		got, err := Apply(c.op, c.args...)
		if err != nil || got.String() != c.want {
			t.Errorf("%s(%v) = %v, %v; want %s", c.op, c.args, got, err, c.want)
		}
	}
	for _, args := range [][]Value{{Int(7), Int(2)}, {Int(8), Int(0)}, {Swizzle{3, 4, 3}, Int(3)}} {
		if got, err := Apply("upcast", args...); err == nil {
			t.Errorf("upcast(%v) = %v, want an error", args, got)
		}
	}
	for _, args := range [][]Value{{Int(8), Int(16), Int(32)}, {Swizzle{3, 4, 3}, Int(16), Int(24)}, {Swizzle{3, 4, 2}, Int(16), Int(16)}, {Swizzle{3, 4, 3}, Int(0), Int(16)}} {
		if got, err := Apply("recast_layout", args...); err == nil {
			t.Errorf("recast_layout(%v) = %v, want an error", args, got)
		}
	}
}
