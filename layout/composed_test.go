package layout

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// evaler is what the laws here read of a layout or a swizzled layout.
type evaler interface{ Eval(i int64) (int64, error) }

// offsetsOf is l at every index below its size (the laws' small layouts).
func offsetsOf(l Layout) []int64 {
	n, _ := l.Size()
	out := make([]int64, 0, max(n, 0))
	for i := range n {
		x, _ := l.Eval(i)
		out = append(out, x)
	}
	return out
}

// isInjective and isCompact are the properties by their definitions
// (package analysis/prop computes them).
func isInjective(l Layout) bool {
	xs := offsetsOf(l)
	slices.Sort(xs)
	return len(slices.Compact(xs)) == len(xs)
}

func isCompact(l Layout) bool {
	xs := offsetsOf(l)
	slices.Sort(xs)
	for i, x := range xs {
		if x != int64(i) {
			return false
		}
	}
	return true
}

func randomComposed(r *rand.Rand) Composed {
	off := Int(0)
	if r.IntN(4) == 0 {
		off = Int(r.Int64N(256))
	}
	return Composed{Outer: RandomSwizzle(r), Offset: off, Inner: PropertyLayout(r)}
}

// Law: Composed.Eval(i) == Sw(off + L(i)), and a nested one applies both swizzles.
func TestComposedEvalProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for range 500 {
		c := randomComposed(r)
		n, _ := c.Size()
		for i := range n {
			got, err := c.Eval(i)
			if err != nil {
				t.Fatal(err)
			}
			x, _ := c.Inner.Eval(i)
			want, _ := c.Outer.Apply(c.Offset.Value() + x)
			if got != want {
				t.Fatalf("%v(%d) = %d, want %d", c, i, got, want)
			}
		}
		outer := RandomSwizzle(r)
		nested := NestedComposed{Outer: outer, Offset: Int(3), Inner: c}
		for i := range n {
			got, err := nested.Eval(i)
			x, _ := c.Eval(i)
			if want := outer.apply(3 + x); err != nil || got != want {
				t.Fatalf("%v(%d) = %d, %v; want %d", nested, i, got, err, want)
			}
		}
	}
}

// Law: composition(Sw, L)(i) == Sw(L(i)); an identity swizzle gives L itself.
func TestComposeSwizzleLayoutProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	for range 500 {
		sw, l := RandomSwizzle(r), PropertyLayout(r)
		v, err := Apply("composition", sw, Box(l))
		if err != nil {
			t.Fatal(err)
		}
		if sw.B == 0 {
			if v.String() != l.String() {
				t.Fatalf("composition(%v, %v) = %v, want the layout", sw, l, v)
			}
			continue
		}
		c := v.(Composed)
		n, _ := l.Size()
		for i := range n {
			got, _ := c.Eval(i)
			x, _ := l.Eval(i)
			if got != sw.apply(x) {
				t.Fatalf("composition(%v, %v)(%d) = %d, want %d", sw, l, i, got, sw.apply(x))
			}
		}
	}
}

// Law: (Sw o off o L) o B == Sw o off o (L o B), so where L o B is exact,
// (C o B)(i) == C(B(i)).
func TestComposedCompositionProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	checked := 0
	for range 1000 {
		c := randomComposed(r)
		size, _ := c.Size()
		b := Make(Int(1+r.Int64N(size)), Int(1))
		if r.IntN(2) == 0 && size%2 == 0 {
			b = Make(Ints(2, size/2), Ints(size/2, 1))
		}
		lb, err := Apply("composition", Box(c.Inner), Box(b))
		if err != nil {
			continue
		}
		exact := true
		bn, _ := b.Size()
		for i := range bn {
			bi, _ := b.Eval(i)
			want, _ := c.Inner.Eval(bi)
			got, _ := lb.(*Layout).Eval(i)
			exact = exact && got == want
		}
		if !exact {
			continue // CuTe's weak divisibility: L o B itself is not L after B
		}
		v, err := Apply("composition", c, Box(b))
		if err != nil {
			t.Fatalf("composition(%v, %v): %v", c, b, err)
		}
		f, ok := v.(evaler)
		if !ok {
			t.Fatalf("composition(%v, %v) = %v, not a layout", c, b, v)
		}
		for i := range bn {
			bi, _ := b.Eval(i)
			want, _ := c.Eval(bi)
			if got, _ := f.Eval(i); got != want {
				t.Fatalf("composition(%v, %v)(%d) = %d, want %d", c, b, i, got, want)
			}
		}
		checked++
	}
	if checked < 300 {
		t.Errorf("only %d compositions were exact enough to check", checked)
	}
}

// mapsBitsInOrder reports whether a sends each bit 2^k below size to a
// power of two, increasing with k (a is then XOR-linear and keeps the order
// of the bits a swizzle mask picks).
func mapsBitsInOrder(a Layout, size int64) bool {
	prev := int64(0)
	for b := int64(1); b < size; b <<= 1 {
		x, err := a.Eval(b)
		if err != nil || x <= prev || x&(x-1) != 0 {
			return false
		}
		prev = x
	}
	return true
}

// Law: CuTe's right_inverse of Sw o 0 o L is inverse(L) with Sw moved to its
// left by the images of Sw's masks. That is a right inverse, C(R(i)) == i,
// where inverse(L) maps the bits in order within the domain; elsewhere
// CuTe's answer (reproduced here) is not an inverse: right_inverse of
// Sw<2,0,-2> o 0 o (4,2,2):(4,2,1) is Sw<2,0,2> o 0 o (2,2,4):(8,4,1), and
// C(R(1)) = 13. Likewise left_inverse: L'(C(i)) == i.
func TestComposedInverseProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 38))
	checked := 0
	for range 4000 {
		c := randomComposed(r)
		c.Offset = Int(0)
		if r.IntN(2) == 0 { // a permuted compact layout of power-of-two modes
			shapes := []int64{int64(2) << r.IntN(3), int64(2) << r.IntN(3), int64(2) << r.IntN(3)}
			strides := []int64{1, shapes[0], shapes[0] * shapes[1]}
			p := r.Perm(3)
			c.Inner = Make(Ints(shapes[p[0]], shapes[p[1]], shapes[p[2]]), Ints(strides[p[0]], strides[p[1]], strides[p[2]]))
		}
		size, _ := c.Size()
		if !isCompact(c.Inner) || size%c.Outer.Size() != 0 {
			continue
		}
		for _, name := range []string{"right_inverse", "left_inverse"} {
			plain, err := Apply(name, Box(c.Inner))
			if err != nil || !mapsBitsInOrder(*(plain.(*Layout)), size) {
				continue
			}
			inv, err := Apply(name, c)
			if err != nil {
				t.Fatalf("%s(%v): %v", name, c, err)
			}
			f := inv.(evaler)
			for i := range size {
				var got int64
				if name == "right_inverse" {
					ri, _ := f.Eval(i)
					got, _ = c.Eval(ri)
				} else {
					ci, _ := c.Eval(i)
					got, _ = f.Eval(ci)
				}
				if got != i {
					t.Fatalf("%s(%v) = %v is not an inverse at %d: %d", name, c, inv, i, got)
				}
			}
			checked++
		}
	}
	if checked < 200 {
		t.Errorf("only %d inverses checked", checked)
	}
	c := Composed{Swizzle{2, 0, -2}, Int(0), mustLayout("(4,2,2):(4,2,1)"), 0}
	if inv, err := Apply("right_inverse", c); err != nil || inv.String() != "Sw<2,0,2> o 0 o (2,2,4):(8,4,1)" {
		t.Errorf("right_inverse(%v) = %v, %v", c, inv, err)
	}
}

// Law: upcast(downcast(C, n), n) == C for swizzled layouts with a unit stride.
func TestComposedCastProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 40))
	for range 1000 {
		c := Composed{Outer: RandomSwizzle(r), Offset: Int(r.Int64N(64)), Inner: randomCastLayout(r, true)}
		n := int64(1) << r.IntN(4)
		down, err := DowncastComposed(c, n)
		if err != nil {
			t.Fatalf("DowncastComposed(%v, %d): %v", c, n, err)
		}
		up, err := Apply("upcast", down, Int(n))
		if err != nil || up.String() != c.String() && !(c.Outer.B == 0 && c.Offset.Value() == 0) {
			t.Fatalf("upcast(downcast(%v, %d)) = %v, %v", c, n, up, err)
		}
	}
}

// Law: with (R, P) = SliceAndOffsetComposed(c, C), R(k) + P == C at c with
// its "_" leaf given by k.
func TestSliceComposedProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for range 300 {
		c := randomComposed(r)
		rows, cols := int64(1)<<r.IntN(4), int64(1)<<r.IntN(4)
		if r.IntN(2) == 0 {
			c.Inner = Make(Ints(rows, cols), Ints(cols, 1))
		} else {
			c.Inner = Make(Ints(rows, cols), Ints(1, rows))
		}
		// CuTe's slice assumes the offset's bits are disjoint from the layout's.
		c.Offset = Int(r.Int64N(4) * rows * cols)
		i := r.Int64N(rows)
		v, p, err := SliceAndOffsetComposed(Tup(Int(i), Underscore()), c)
		if err != nil {
			t.Fatalf("slice (%d,_) of %v: %v", i, c, err)
		}
		f := v.(evaler)
		for j := range cols {
			want, _ := c.Eval(i + rows*j)
			if got, _ := f.Eval(j); got+p != want {
				t.Fatalf("slice (%d,_) of %v = %v + %d at %d: %d, want %d", i, c, v, p, j, got+p, want)
			}
		}
	}
}

// Law: the left inverse of a swizzled layout with an offset, inverse(L) o -off o Sw,
// undoes it where L's left inverse undoes L.
func TestLayoutAfterSwizzleProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 48))
	for range 300 {
		c := randomComposed(r)
		c.Offset = Int(1 + r.Int64N(100))
		if !isInjective(c.Inner) {
			continue
		}
		inv, err := Apply("left_inverse", c)
		if err != nil {
			continue
		}
		la := inv.(LayoutAfterSwizzle)
		plain, _ := Apply("left_inverse", Box(c.Inner))
		n, _ := c.Size()
		exact := true
		for i := range n {
			x, _ := c.Inner.Eval(i)
			y, _ := plain.(*Layout).Eval(x)
			exact = exact && y == i
		}
		if !exact {
			continue
		}
		for i := range n {
			ci, _ := c.Eval(i)
			if got, err := la.Eval(ci); err != nil || got != i {
				t.Fatalf("%v at %v(%d) = %d, %v; want %d", la, c, i, got, err, i)
			}
		}
	}
	c := Composed{Swizzle{3, 4, -5}, Int(8), mustLayout("((2,2),4):((1,8),2)"), 0}
	inv, err := Apply("left_inverse", c)
	if err != nil || inv.String() != "(2,4,2):(1,4,2) o -8 o Sw<3,4,-5>" {
		t.Errorf("left_inverse(%v) = %v, %v", c, inv, err)
	}
	if f := inv.(LayoutAfterSwizzle).Format(true); f != "(_2,_4,_2):(_1,_4,_2) o _-8 o Sw<3,4,-5>" {
		t.Errorf("Format = %s", f)
	}
}

func TestComposedOps(t *testing.T) {
	c := Composed{Swizzle{3, 4, 3}, Int(0), mustLayout("(8,64):(64,1)"), 0}
	cases := []struct {
		op   string
		args []Value
		want string
	}{
		{"size", []Value{c}, "512"},
		{"cosize", []Value{c}, "512"},
		{"rank", []Value{c}, "2"},
		{"coalesce", []Value{Composed{Swizzle{1, 2, 3}, Int(0), mustLayout("(4,8):(1,4)"), 0}}, "Sw<1,2,3> o 0 o 32:1"},
		{"composition", []Value{Swizzle{1, 4, 3}, Swizzle{1, 5, 3}}, "Sw<2,4,3>"},
		{"composition", []Value{Swizzle{1, 4, 3}, Int(16)}, "Sw<1,4,3> o 0 o 16:1"},
		{"composition", []Value{c, Swizzle{0, 0, 0}}, "Sw<3,4,3> o 0 o (8,64):(64,1)"},
		{"right_inverse", []Value{Swizzle{3, 4, 3}}, "Sw<3,4,3>"},
		{"make_layout", []Value{Swizzle{0, 2, 3}}, "5:1"},
	}
	for _, k := range cases {
		got, err := Apply(k.op, k.args...)
		if err != nil || got.String() != k.want {
			t.Errorf("%s(%v) = %v, %v; want %s", k.op, k.args, got, err, k.want)
		}
	}
	nested, err := Apply("composition", Composed{Swizzle{2, 0, 3}, Int(0), mustLayout("(8,8):(8,1)"), 0}, Composed{Swizzle{2, 0, -3}, Int(0), mustLayout("(8,8):(8,1)"), 0})
	if err != nil || nested.String() != "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)" {
		t.Fatalf("nested composition = %v, %v", nested, err)
	}
	if n, err := Apply("size", nested); err != nil || n.String() != "64" {
		t.Errorf("size(%v) = %v, %v", nested, n, err)
	}
	// Composing more onto the nested layout goes inside both swizzles.
	if v, err := Apply("composition", nested, Int(8)); err != nil || v.String() != "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o 8:1" {
		t.Errorf("composition(%v, 8) = %v, %v", nested, v, err)
	}
	if f := (NestedComposed{Swizzle{1, 2, 3}, Int(0), c}).Format(true); f != "Sw<1,2,3> o _0 o Sw<3,4,3> o _0 o (_8,_64):(_64,_1)" {
		t.Errorf("Format = %s", f)
	}
}

func TestComposedErrors(t *testing.T) {
	good := Composed{Swizzle{3, 4, 3}, Int(0), mustLayout("(8,64):(64,1)"), 0}
	badSw := Composed{Swizzle{3, 4, 2}, Int(0), mustLayout("(8,64):(64,1)"), 0}
	nested := NestedComposed{Swizzle{1, 2, 3}, Int(0), good}
	bad := []struct {
		name string
		run  func() error
		cond string
	}{
		{"compose invalid swizzle", func() error { _, err := Apply("composition", Swizzle{3, 4, 2}, Box(mustLayout("4:1"))); return err }, CondSwizzleShift},
		{"compose swizzle with tuple", func() error { _, err := Apply("composition", Swizzle{3, 4, 3}, Ints(2, 2)); return err }, CondComposedOperand},
		{"compose invalid composed", func() error { _, err := Apply("composition", badSw, Int(4)); return err }, CondSwizzleShift},
		{"compose composed inner error", func() error { _, err := Apply("composition", good, LayoutLeft); return err }, ""},
		{"compose invalid nested", func() error {
			_, err := Apply("composition", NestedComposed{Swizzle{3, 4, 2}, Int(0), good}, Int(4))
			return err
		}, CondSwizzleShift},
		{"compose nested inner error", func() error { _, err := Apply("composition", nested, LayoutLeft); return err }, ""},
		{"compose three deep", func() error { _, err := Apply("composition", good, nested); return err }, CondComposedNesting},
		{"layout o nested", func() error { _, err := Apply("composition", Box(mustLayout("4:1")), nested); return err }, CondComposedNesting},
		{"layout o composed with offset", func() error {
			_, err := Apply("composition", Box(mustLayout("64:1")), Composed{Swizzle{3, 4, 3}, Int(4), mustLayout("8:1"), 0})
			return err
		}, CondComposedOffset},
		{"layout o composed invalid", func() error { _, err := Apply("composition", Box(mustLayout("64:1")), badSw); return err }, CondSwizzleShift},
		{"tuple o composed", func() error { _, err := Apply("composition", Ints(2, 2), good); return err }, CondComposedOperand},
		{"tuple o swizzle", func() error { _, err := Apply("composition", Ints(2, 2), Swizzle{1, 2, 3}); return err }, CondComposedOperand},
		{"layout o swizzle, masks", func() error {
			_, err := Apply("composition", Box(mustLayout("(64,8):(8,1)")), Swizzle{3, 4, 3})
			return err
		}, CondSwizzleShift},
		{"layout o swizzle, unknown", func() error {
			_, err := ComposeLayoutSwizzle("composition", Make(Int(64), Unknown()), Swizzle{1, 2, 3})
			return err
		}, CondUnknown},
		{"layout o invalid swizzle", func() error { _, err := Apply("composition", Box(mustLayout("64:1")), Swizzle{3, 4, 2}); return err }, CondSwizzleShift},
		{"layout o composed, masks", func() error {
			_, err := Apply("composition", Box(mustLayout("(64,8):(8,1)")), Composed{Swizzle{3, 4, 3}, Int(0), mustLayout("8:1"), 0})
			return err
		}, CondSwizzleShift},
		{"composed onto a tiler", func() error { _, err := ComposeSwizzle("t", Swizzle{1, 2, 3}, Int(0), Tiler{}); return err }, CondComposedOperand},
		{"inverse of invalid swizzle", func() error { _, err := Apply("right_inverse", Swizzle{3, 4, 2}); return err }, CondSwizzleShift},
		{"inverse of invalid composed", func() error { _, err := Apply("left_inverse", badSw); return err }, CondSwizzleShift},
		{"inverse with unknown offset", func() error {
			_, err := Apply("right_inverse", Composed{Swizzle{3, 4, 3}, Unknown(), mustLayout("8:1"), 0})
			return err
		}, CondUnknown},
		{"inverse with offset -2^63", func() error {
			_, err := Apply("right_inverse", Composed{Swizzle{3, 4, 3}, Int(-1 << 63), mustLayout("8:1"), 0})
			return err
		}, CondOverflow},
		{"layout after swizzle, invalid", func() error {
			_, err := LayoutAfterSwizzle{mustLayout("8:1"), Int(0), Swizzle{3, 4, 2}}.Eval(1)
			return err
		}, CondSwizzleShift},
		{"layout after swizzle, unknown offset", func() error {
			_, err := LayoutAfterSwizzle{mustLayout("8:1"), Unknown(), Swizzle{3, 4, 3}}.Eval(1)
			return err
		}, CondUnknown},
		{"layout after swizzle, overflow", func() error {
			_, err := LayoutAfterSwizzle{mustLayout("8:1"), Int(1<<63 - 1), Swizzle{3, 4, 3}}.Eval(1 << 7)
			return err
		}, CondOverflow},
		{"inverse of nested", func() error { _, err := Apply("right_inverse", nested); return err }, CondComposedNesting},
		{"inverse, masks", func() error { _, err := Apply("right_inverse", good); return err }, CondSwizzleShift},
		{"inverse, bit counts", func() error {
			_, err := Apply("left_inverse", Composed{Swizzle{3, 1, 3}, Int(0), mustLayout("(32,4,(1,6)):(24,6,(6,1))"), 0})
			return err
		}, CondSwizzleYZBits},
		{"inverse, runs", func() error {
			_, err := Apply("right_inverse", Composed{Swizzle{3, 4, 4}, Int(0), mustLayout("(64,32):(32,1)"), 0})
			return err
		}, CondSwizzleMasks},
		{"make_layout invalid", func() error { _, err := Apply("make_layout", Swizzle{3, 4, 2}); return err }, CondSwizzleShift},
		{"eval invalid", func() error { _, err := badSw.Eval(0); return err }, CondSwizzleShift},
		{"eval unknown offset", func() error {
			_, err := (Composed{Swizzle{1, 2, 3}, Unknown(), mustLayout("8:1"), 0}).Eval(1)
			return err
		}, CondUnknown},
		{"eval inner unknown", func() error {
			_, err := (Composed{Swizzle{1, 2, 3}, Int(0), Make(Int(8), Unknown()), 0}).Eval(1)
			return err
		}, CondUnknown},
		{"eval overflow", func() error {
			_, err := (Composed{Swizzle{1, 2, 3}, Int(1 << 62), mustLayout("8:4611686018427387904"), 0}).Eval(1)
			return err
		}, CondOverflow},
		{"nested eval invalid", func() error { _, err := (NestedComposed{Swizzle{3, 4, 2}, Int(0), good}).Eval(0); return err }, CondSwizzleShift},
		{"nested eval unknown offset", func() error { _, err := (NestedComposed{Swizzle{1, 2, 3}, Unknown(), good}).Eval(0); return err }, CondUnknown},
		{"nested eval inner", func() error { _, err := (NestedComposed{Swizzle{1, 2, 3}, Int(0), badSw}).Eval(0); return err }, CondSwizzleShift},
		{"nested eval overflow", func() error {
			_, err := (NestedComposed{Swizzle{1, 2, 3}, Int(1 << 62), Composed{Swizzle{1, 2, 3}, Int(1 << 62), mustLayout("8:1"), 0}}).Eval(1)
			return err
		}, CondOverflow},
		{"apply inner invalid", func() error { _, err := Apply("coalesce", badSw); return err }, CondSwizzleShift},
		{"query invalid", func() error { _, err := Apply("size", badSw); return err }, CondSwizzleShift},
		{"slice invalid", func() error { _, err := SliceComposed(Tup(Int(1), Underscore()), badSw); return err }, CondSwizzleShift},
		{"slice unknown offset", func() error {
			_, err := SliceComposed(Tup(Int(1), Underscore()), Composed{Swizzle{1, 2, 3}, Unknown(), mustLayout("(8,8):(8,1)"), 0})
			return err
		}, CondUnknown},
		{"slice offset overflow", func() error {
			_, err := SliceComposed(Tup(Int(1), Underscore()), Composed{Swizzle{1, 2, 3}, Int(1<<63 - 1), mustLayout("(8,8):(8,1)"), 0})
			return err
		}, CondOverflow},
	}
	for _, c := range bad {
		err := c.run()
		var le *Error
		if !errors.As(err, &le) || (c.cond != "" && le.Condition != c.cond) {
			t.Errorf("%s: got %v, want condition %q", c.name, err, c.cond)
		}
	}
	if _, err := SliceComposed(Tup(Int(1), Int(2), Underscore()), good); err == nil {
		t.Error("slice with a coordinate of the wrong rank: no error")
	}
	if _, err := SliceComposed(Tup(Int(1), Underscore()), Composed{Swizzle{1, 2, 3}, Int(0), Make(Ints(8, 8), Tup(Unknown(), Int(1))), 0}); err == nil {
		t.Error("slice with an unknown offset in the layout: no error")
	}
}

// FuzzComposed drives the swizzle and swizzled-layout operations with
// arbitrary parameters: they may reject, never panic.
func FuzzComposed(f *testing.F) {
	f.Add(int8(3), int8(4), int8(3), int64(1548), int64(8), int64(64), int64(64), int64(1), int64(2))
	f.Add(int8(2), int8(0), int8(-3), int64(-5), int64(8), int64(8), int64(8), int64(1), int64(3))
	f.Add(int8(40), int8(-1), int8(100), int64(1<<62), int64(-3), int64(0), int64(0), int64(-7), int64(0))
	f.Fuzz(func(t *testing.T, b, m, s int8, x, s0, s1, d0, d1, n int64) {
		sw := Swizzle{B: int(b), M: int(m), S: int(s)}
		_, _, _ = sw.YMask(), sw.ZMask(), sw.Size()
		_, _ = sw.Apply(x)
		_, _ = makeSwizzle("fuzz", x, s0)
		_, _ = UpcastSwizzle(sw, n)
		_, _ = DowncastSwizzle(sw, n)
		l := Make(Tup(Int(s0), Int(s1)), Tup(Int(d0), Int(d1)))
		c := Composed{Outer: sw, Offset: Int(x), Inner: l}
		_, _ = c.Eval(n)
		for _, op := range []string{"composition", "right_inverse", "left_inverse", "size", "cosize", "upcast", "downcast", "coalesce"} {
			_, _ = Apply(op, c, Int(n))
			_, _ = Apply(op, c)
			_, _ = Apply(op, Box(l), sw)
			_, _ = Apply(op, sw, Box(l))
			_, _ = Apply(op, Box(l), Int(n))
		}
		_, _ = Apply("recast_layout", Box(l), Int(n), Int(s0))
		_, _ = Apply("recast_layout", c, Int(n), Int(s0))
		_, _ = Apply("make_layout", sw)
		_, _ = SliceComposed(Tup(Int(x), Underscore()), c)
		_, _ = Apply("local_tile", c, Ints(d0, d1), Ints(0, n))
		_, _ = Apply("local_partition", c, Box(Make(Ints(d0, d1), Ints(1, d0))), Int(n))
	})
}

// Law: logical_product(A, Sw o 0 o n:1)(a, j) == logical_product(A, n:1)(a, Sw(j))
// for A compact of power-of-two size.
func TestLogicalProductSwizzledProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	checked := 0
	for range 3000 {
		sw := RandomSwizzle(r)
		if sw.Bits() > 9 {
			continue
		}
		n := sw.Size() << r.IntN(2)
		// The law needs the product's tile mode to carry bits in order: A compact, of power-of-two size.
		a := PropertyLayout(r)
		if !isCompact(a) {
			continue
		}
		if as, _ := a.Size(); as&(as-1) != 0 {
			continue
		}
		tiler := Composed{Outer: sw, Offset: Int(0), Inner: Make(Int(n), Int(1))}
		v, err := Apply("logical_product", Box(a), tiler)
		if err != nil {
			continue // complement of A past int64, or a swizzle the images cannot form
		}
		plain, err := LogicalProduct(&a, Box(tiler.Inner))
		if err != nil {
			t.Fatal(err)
		}
		got1, want1 := v.(evaler).Eval, plain.Eval
		as, _ := a.Size()
		for j := range n {
			for i := range as {
				got, _ := got1(i + as*j)
				want, _ := want1(i + as*sw.apply(j))
				if got != want {
					t.Fatalf("logical_product(%v, %v) = %v at (%d,%d): %d, want %d", a, tiler, v, i, j, got, want)
				}
			}
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("only %d products checked", checked)
	}
	v, err := Apply("logical_product", Box(mustLayout("2:1")), Composed{Swizzle{1, 0, 1}, Int(0), mustLayout("4:1"), 0})
	if err != nil || v.String() != "Sw<1,1,1> o 0 o (2,4):(1,2)" {
		t.Errorf("logical_product(2:1, Sw<1,0,1> o 0 o 4:1) = %v, %v", v, err)
	}
}

func TestMaxCommonComposed(t *testing.T) {
	c := Composed{Swizzle{3, 3, 3}, Int(0), mustLayout("(8,64):(64,1)"), 0}
	l := mustLayout("(8,64):(64,1)")
	cases := []struct {
		op   string
		a, b Value
		want string
	}{
		{"max_common_vector", c, Box(l), "8"},
		{"max_common_vector", Box(l), c, "8"},
		{"max_common_vector", c, c, "512"},
		{"max_common_vector", c, Composed{Swizzle{2, 2, 3}, Int(0), l, 0}, "4"},
		{"max_common_layout", c, Box(l), "8:8"},
		{"max_common_layout", Box(l), c, "8:8"},
		{"max_common_layout", Composed{Swizzle{3, 4, 3}, Int(0), mustLayout("8:1"), 0}, Box(mustLayout("8:1")), "8:1"},
	}
	for _, k := range cases {
		got, err := Apply(k.op, k.a, k.b)
		if err != nil || got.String() != k.want {
			t.Errorf("%s(%v, %v) = %v, %v; want %s", k.op, k.a, k.b, got, err, k.want)
		}
	}
	badSw := Composed{Swizzle{3, 3, 2}, Int(0), l, 0}
	for _, args := range [][]Value{{badSw, Box(l)}, {Box(l), badSw}, {c, Tiler{}}, {c, c}, {Tiler{}, c}} {
		if _, err := Apply("max_common_layout", args...); err == nil {
			t.Errorf("max_common_layout(%v): no error", args)
		}
	}
	for _, args := range [][]Value{{badSw, Box(l)}, {Box(l), badSw}, {c, Tiler{}}} {
		if _, err := Apply("max_common_vector", args...); err == nil {
			t.Errorf("max_common_vector(%v): no error", args)
		}
	}
	for _, args := range [][]Value{
		{Box(l), Composed{Swizzle{3, 3, 3}, Int(8), l, 0}},
		{Box(l), badSw},
		{Box(mustLayout("(2,2):(1,2)")), Composed{Swizzle{3, 3, 3}, Int(0), mustLayout("(8,64):(64,3)"), 0}},
	} {
		if _, err := Apply("logical_product", args...); err == nil {
			t.Errorf("logical_product(%v): no error", args)
		}
	}
}

// Law: a partition of a swizzled layout picks the same elements as the
// partition of its inner layout, swizzled: C'(i) == Sw(off + p.Offset + p.Layout(i)).
func TestPartitionComposedProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 46))
	for range 300 {
		sw := RandomSwizzle(r)
		off := 128 * r.Int64N(4) // bits disjoint from the layout's
		inner := Make(Ints(8, 16), Ints(16, 1))
		c := Composed{Outer: sw, Offset: Int(off), Inner: inner}
		calls := [][]Value{
			{Ints(4, 8), Tup(Int(r.Int64N(2)), Int(r.Int64N(2)))},
			{Box(mustLayout("(2,4):(4,1)")), Int(r.Int64N(8))},
		}
		for k, name := range []string{"local_tile", "local_partition"} {
			v, err := Apply(name, append([]Value{c}, calls[k]...)...)
			if err != nil {
				t.Fatalf("%s(%v): %v", name, c, err)
			}
			pv, err := Apply(name, append([]Value{Box(inner)}, calls[k]...)...)
			if err != nil {
				t.Fatal(err)
			}
			p := pv.(Partition)
			cp := v.(ComposedPartition)
			f := cp.Layout.(evaler)
			n, _ := p.Layout.Size()
			for i := range n {
				x, _ := p.Layout.Eval(i)
				want := sw.apply(off + p.Offset.Value() + x)
				if got, _ := f.Eval(i); got+cp.Offset != want {
					t.Fatalf("%s(%v, %v) = %v at %d: %d, want %d", name, c, calls[k], v, i, got+cp.Offset, want)
				}
			}
		}
	}
	c := Composed{Swizzle{3, 3, 3}, Int(0), mustLayout("(64,64):(64,1)"), 0}
	cases := []struct {
		op   string
		args []Value
		want string
	}{
		{"slice", []Value{Tup(Int(1), Underscore()), c}, "((8,2,4)):((1,-8,16))"},
		{"local_tile", []Value{c, Ints(8, 64), Ints(1, 0)}, "Sw<3,3,3> o 0 o (8,64):(64,1) + 512"},
		{"local_tile", []Value{c, Ints(8, 16, 4), Ints(1, 1, 0), Tup(Int(1), Int(1), Underscore())}, "Sw<3,3,3> o 16 o (8,16):(64,1) + 512"},
		{"outer_partition", []Value{c, Ints(8, 8), Ints(1, 1)}, "(8,(2,4)):(512,(-8,16)) + 73"},                                                   // CuTe C++
		{"local_partition", []Value{c, Box(mustLayout("(4,8):(8,1)")), Int(5), Tup(Int(1), Underscore())}, "Sw<3,3,3> o 0 o (16,64):(256,1) + 0"}, // CuTe C++
		{"filter", []Value{c, Ints(1, 1)}, "Sw<3,3,3> o 0 o (64,64):(64,1)"},
		{"nullspace", []Value{c}, "1:0"},
		{"zip", []Value{c}, "Sw<3,3,3> o 0 o ((64,64)):((64,1))"},
	}
	for _, k := range cases {
		got, err := Apply(k.op, k.args...)
		if err != nil || got.String() != k.want {
			t.Errorf("%s(%v) = %v, %v; want %s", k.op, k.args, got, err, k.want)
		}
	}
	bad := [][]Value{
		{Composed{Swizzle{3, 3, 2}, Int(0), c.Inner, 0}, Ints(8, 64), Ints(1, 0)},
		{c, Ints(8, 64), Ints(9, 0, 4)},
		{Composed{Swizzle{3, 3, 3}, Unknown(), c.Inner, 0}, Ints(8, 64), Ints(1, 0)},
		{c, Ints(8, 64)},
		{c, Ints(8, 64), Box(mustLayout("2:1"))},
		{c, Ints(8, 64), Ints(1, 0), Box(mustLayout("2:1"))},
		{c, Ints(8, 64), Ints(1, 0), Ints(1, 1, 1)},
		{c, Swizzle{1, 2, 3}, Ints(1, 0)},
	}
	for _, args := range bad {
		if _, err := Apply("local_tile", args...); err == nil {
			t.Errorf("local_tile(%v): no error", args)
		}
	}
	for _, args := range [][]Value{
		{c, Ints(8, 64), Int(0)},
		{c, Box(mustLayout("(4,8):(8,1)")), Unknown()},
		{c, Box(mustLayout("(4,8):(8,1)")), Int(1), Box(mustLayout("2:1"))},
		{c, Box(mustLayout("(4,8):(8,1)")), Int(1), Ints(1, 1, 1)},
	} {
		if _, err := Apply("local_partition", args...); err == nil {
			t.Errorf("local_partition(%v): no error", args)
		}
	}
	if v, err := Apply("outer_partition", c, Ints(8, 8), Ints(1, 1), Ints(1, 1)); err == nil {
		t.Errorf("outer_partition with four arguments = %v", v)
	}
	if v, err := Apply("local_tile", Composed{Swizzle{3, 3, 3}, Int(0), mustLayout("(6,6):(6,1)"), 0}, Ints(4, 4), Ints(1, 1)); err == nil {
		t.Errorf("local_tile of a non-dividing swizzled layout = %v", v)
	}
}
