package layout

import (
	"errors"
	"math/rand/v2"
	"testing"
)

func TestSwizzleMasks(t *testing.T) {
	cases := []struct {
		sw   Swizzle
		y, z int64
	}{
		{Swizzle{3, 4, 3}, 0b111 << 7, 0b111 << 4},
		{Swizzle{2, 0, -3}, 0b11, 0b11 << 3},
		{Swizzle{0, 4, 3}, 0, 0},
		{Swizzle{1, 2, 1}, 0b1000, 0b100},
	}
	for _, c := range cases {
		if c.sw.YMask() != c.y || c.sw.ZMask() != c.z {
			t.Errorf("%v: masks %#b %#b, want %#b %#b", c.sw, c.sw.YMask(), c.sw.ZMask(), c.y, c.z)
		}
	}
	if sw := (Swizzle{3, 4, 3}); sw.Bits() != 10 || sw.Size() != 1024 {
		t.Errorf("Sw<3,4,3>: bits %d size %d", sw.Bits(), sw.Size())
	}
	for _, bad := range []Swizzle{{-1, 0, 0}, {3, 4, 2}, {70, 3, 80}, {1, -5, 1}} {
		if bad.YMask() != 0 || bad.ZMask() != 0 || bad.Size() != 0 {
			t.Errorf("%v: masks %d %d size %d, want 0 for a swizzle CuTe rejects", bad, bad.YMask(), bad.ZMask(), bad.Size())
		}
	}
}

// CuTe's worked examples: Sw<3,4,3> XORs bits [7,10) onto [4,7).
func TestSwizzleApply(t *testing.T) {
	cases := []struct {
		sw   Swizzle
		x, y int64
	}{
		{Swizzle{3, 4, 3}, 0x40, 0x40},
		{Swizzle{3, 4, 3}, 0x80, 0x90},
		{Swizzle{3, 4, 3}, 1548, 1612},
		{Swizzle{3, 4, -3}, 1979, 1595},
		{Swizzle{2, 0, -3}, 42, 58},
		{Swizzle{1, 1, 5}, 119, 117},
		{Swizzle{0, 2, 0}, 7, 7},
	}
	for _, c := range cases {
		got, err := c.sw.Apply(c.x)
		if err != nil || got != c.y {
			t.Errorf("%v(%d) = %d, %v; want %d", c.sw, c.x, got, err, c.y)
		}
	}
}

// Law: a swizzle is an involution and maps each aligned block of Size onto itself.
func TestSwizzleInvolutionProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		sw := RandomSwizzle(r)
		x := r.Int64N(1 << 24)
		y, err := sw.Apply(x)
		if err != nil {
			t.Fatalf("%v: %v", sw, err)
		}
		if back, _ := sw.Apply(y); back != x {
			t.Fatalf("%v: Apply(Apply(%d)) = %d", sw, x, back)
		}
		if y/sw.Size() != x/sw.Size() {
			t.Fatalf("%v moved %d out of its block to %d", sw, x, y)
		}
		if sw.Inverse() != sw {
			t.Fatalf("%v: inverse %v", sw, sw.Inverse())
		}
	}
}

// Law: a swizzle is a bijection on [0, Size).
func TestSwizzleBijectionProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		sw := RandomSwizzle(r)
		if sw.Bits() > 14 {
			continue
		}
		seen := make([]bool, sw.Size())
		for x := range sw.Size() {
			y := sw.apply(x)
			if y < 0 || y >= sw.Size() || seen[y] {
				t.Fatalf("%v is not a bijection of [0,%d): %d -> %d", sw, sw.Size(), x, y)
			}
			seen[y] = true
		}
	}
}

// Law: make_swizzle of a swizzle's own masks is that swizzle (B > 0), and
// merging a swizzle with itself cancels to the identity.
func TestMakeSwizzleProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		sw := RandomSwizzle(r)
		got, err := makeSwizzle("test", sw.YMask(), sw.ZMask())
		if err != nil {
			t.Fatalf("makeSwizzle(masks of %v): %v", sw, err)
		}
		if sw.B > 0 && got != sw {
			t.Fatalf("makeSwizzle(masks of %v) = %v", sw, got)
		}
		if got.B != 0 && got != sw {
			t.Fatalf("makeSwizzle(masks of %v) = %v", sw, got)
		}
		id, err := ComposeSwizzles(sw, sw)
		if err != nil || id.B != 0 {
			t.Fatalf("ComposeSwizzles(%v, %v) = %v, %v", sw, sw, id, err)
		}
	}
}

// Law: swizzles of one shift compose to the swizzle of the XORed masks.
func TestComposeSwizzlesProperty(t *testing.T) {
	a, b := Swizzle{1, 4, 3}, Swizzle{1, 5, 3}
	ab, err := ComposeSwizzles(a, b)
	if err != nil || ab != (Swizzle{2, 4, 3}) {
		t.Fatalf("ComposeSwizzles(%v, %v) = %v, %v", a, b, ab, err)
	}
	for x := range int64(1 << 9) {
		if ab.apply(x) != a.apply(b.apply(x)) {
			t.Fatalf("%v(%d) = %d, %v(%v(%d)) = %d", ab, x, ab.apply(x), a, b, x, a.apply(b.apply(x)))
		}
	}
}

// Law: UpcastSwizzle(DowncastSwizzle(s, n), n) == s.
func TestSwizzleCastProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 1000 {
		sw := RandomSwizzle(r)
		n := int64(1) << r.IntN(4)
		down, err := DowncastSwizzle(sw, n)
		if err != nil {
			t.Fatalf("DowncastSwizzle(%v, %d): %v", sw, n, err)
		}
		up, err := UpcastSwizzle(down, n)
		if err != nil || up != sw {
			t.Fatalf("UpcastSwizzle(%v, %d) = %v, %v; want %v", down, n, up, err, sw)
		}
	}
	// Upcasting past M drops low swizzle bits: Sw<3,1,3> by 4 leaves Sw<2,0,3>.
	if got, _ := UpcastSwizzle(Swizzle{3, 1, 3}, 4); got != (Swizzle{2, 0, 3}) {
		t.Errorf("UpcastSwizzle(Sw<3,1,3>, 4) = %v, want Sw<2,0,3>", got)
	}
	if got, _ := UpcastSwizzle(Swizzle{1, 0, 3}, 8); got != (Swizzle{0, 0, 3}) {
		t.Errorf("UpcastSwizzle(Sw<1,0,3>, 8) = %v, want Sw<0,0,3>", got)
	}
}

func TestSwizzleErrors(t *testing.T) {
	bad := []struct {
		name string
		run  func() error
		cond string
	}{
		{"S < B", func() error { _, err := (Swizzle{3, 3, 2}).Apply(72); return err }, CondSwizzleShift},
		{"negative S, |S| < B", func() error { _, err := (Swizzle{2, 0, -1}).Apply(1); return err }, CondSwizzleShift},
		{"negative B", func() error { _, err := (Swizzle{-1, 0, 0}).Apply(1); return err }, CondSwizzleBits},
		{"negative M", func() error { _, err := (Swizzle{1, -1, 1}).Apply(1); return err }, CondSwizzleBase},
		{"too wide", func() error { _, err := (Swizzle{3, 28, 3}).Apply(1); return err }, CondSwizzleWidth},
		{"shift too wide", func() error { _, err := (Swizzle{0, 20, 12}).Apply(1); return err }, CondSwizzleWidth},
		{"make: bit counts", func() error { _, err := makeSwizzle("t", 0b110, 0b1); return err }, CondSwizzleYZBits},
		{"make: overlap", func() error { _, err := makeSwizzle("t", 14, 385); return err }, CondSwizzleShift},
		{"make: not runs", func() error { _, err := makeSwizzle("t", 56, 1027); return err }, CondSwizzleMasks},
		{"make: negative", func() error { _, err := makeSwizzle("t", -8, 4); return err }, CondSwizzleOperand},
		{"make: wide", func() error { _, err := makeSwizzle("t", 1<<32, 4); return err }, CondSwizzleOperand},
		{"merge shifts", func() error { _, err := ComposeSwizzles(Swizzle{1, 4, 3}, Swizzle{1, 4, 4}); return err }, CondSwizzleMerge},
		{"merge invalid left", func() error { _, err := ComposeSwizzles(Swizzle{3, 4, 2}, Swizzle{1, 4, 4}); return err }, CondSwizzleShift},
		{"merge invalid right", func() error { _, err := ComposeSwizzles(Swizzle{1, 4, 4}, Swizzle{3, 4, 2}); return err }, CondSwizzleShift},
		{"upcast by 3", func() error { _, err := UpcastSwizzle(Swizzle{3, 4, 3}, 3); return err }, CondPowerOfTwo},
		{"upcast invalid", func() error { _, err := UpcastSwizzle(Swizzle{3, 4, 2}, 2); return err }, CondSwizzleShift},
		{"downcast by 0", func() error { _, err := DowncastSwizzle(Swizzle{3, 4, 3}, 0); return err }, CondPowerOfTwo},
		{"downcast invalid", func() error { _, err := DowncastSwizzle(Swizzle{3, 4, 2}, 2); return err }, CondSwizzleShift},
		{"downcast too wide", func() error { _, err := DowncastSwizzle(Swizzle{3, 20, 3}, 1<<8); return err }, CondSwizzleWidth},
	}
	for _, c := range bad {
		err := c.run()
		var le *Error
		if !errors.As(err, &le) || le.Condition != c.cond {
			t.Errorf("%s: got %v, want condition %q", c.name, err, c.cond)
		}
	}
}

func TestSwizzleOp(t *testing.T) {
	v, err := Apply("swizzle", Swizzle{3, 4, 3}, Int(128))
	if err != nil || v.String() != "144" {
		t.Errorf("swizzle(Sw<3,4,3>, 128) = %v, %v", v, err)
	}
	for _, args := range [][]Value{{Swizzle{3, 4, 3}}, {Int(1), Int(2)}, {Swizzle{3, 4, 3}, Unknown()}} {
		if _, err := Apply("swizzle", args...); err == nil {
			t.Errorf("swizzle(%v): no error", args)
		}
	}
}
