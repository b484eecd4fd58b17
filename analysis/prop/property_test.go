package prop

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cute-lsp/cute-lsp/internal/layouttest"
	"github.com/cute-lsp/cute-lsp/layout"
)

// bruteProperties enumerates f and answers every property by definition.
func bruteProperties(t *testing.T, v layout.Value) (inj, onto bool, image []layout.Interval, contig int64) {
	t.Helper()
	f, err := asIndexFunction("test", v)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := f.Size()
	co, _ := f.Cosize()
	vals := make([]int64, n)
	for i := range n {
		if vals[i], err = f.Eval(i); err != nil {
			t.Fatal(err)
		}
	}
	contig = n
	for i := int64(1); i < n; i++ {
		if vals[i] != vals[0]+i {
			contig = i
			break
		}
	}
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	inj = len(slices.Compact(slices.Clone(sorted))) == len(sorted)
	distinct := slices.Compact(sorted)
	onto = int64(len(distinct)) == co && len(distinct) > 0 && distinct[0] == 0 && distinct[len(distinct)-1] == co-1
	for _, x := range distinct {
		if k := len(image); k > 0 && image[k-1].Hi == x {
			image[k-1].Hi++
			continue
		}
		image = append(image, layout.Interval{Lo: x, Hi: x + 1})
	}
	return inj, onto, image, contig
}

func checkProperties(t *testing.T, v layout.Value) {
	t.Helper()
	inj, onto, image, contig := bruteProperties(t, v)
	if got, err := IsInjective(v); err != nil || got != inj {
		t.Fatalf("IsInjective(%v) = %v, %v; want %v", v, got, err, inj)
	}
	if got, err := IsSurjective(v); err != nil || got != onto {
		t.Fatalf("IsSurjective(%v) = %v, %v; want %v", v, got, err, onto)
	}
	f, _ := asIndexFunction("test", v)
	n, _ := f.Size()
	co, _ := f.Cosize()
	if got, err := IsBijective(v); err != nil || got != (onto && n == co) {
		t.Fatalf("IsBijective(%v) = %v, %v; want %v", v, got, err, onto && n == co)
	}
	if got, err := IsCompact(v); err != nil || got != (inj && onto && n == co) {
		t.Fatalf("IsCompact(%v) = %v, %v", v, got, err)
	}
	if got, err := Image(v); err != nil || fmt.Sprint(got) != fmt.Sprint(image) {
		t.Fatalf("Image(%v) = %v, %v; want %v", v, got, err, image)
	}
	if got, err := Contiguity(v); err != nil || got != contig {
		t.Fatalf("Contiguity(%v) = %v, %v; want %d", v, got, err, contig)
	}
}

// Law: every property equals its definition, checked by enumeration.
func TestPropertiesMatchDefinitions(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for range 3000 {
		checkProperties(t, layout.Box(layouttest.PropertyLayout(r)))
	}
	for range 1500 {
		l := layouttest.PropertyLayout(r)
		sw := layouttest.RandomSwizzle(r)
		off := layout.Int(0)
		if r.IntN(4) == 0 {
			off = layout.Int(r.Int64N(64))
		}
		checkProperties(t, layout.Composed{Outer: sw, Offset: off, Inner: l})
	}
}

func TestPropertiesExamples(t *testing.T) {
	cases := []struct {
		l                       string
		inj, onto, bij, compact bool
		image                   string
		contig                  int64
	}{
		{"(4,8):(1,4)", true, true, true, true, "[{0 32}]", 32},
		{"(4,8):(8,1)", true, true, true, true, "[{0 32}]", 1},
		{"(4,2):(1,8)", true, false, false, false, "[{0 4} {8 12}]", 4},
		{"(4,2):(0,1)", false, true, false, false, "[{0 2}]", 1},
		{"(2,2,2,2):(1,1,6,7)", false, false, false, false, "[{0 3} {6 10} {13 16}]", 2},
		{"(3,2):(2,3)", true, false, false, false, "[{0 1} {2 6} {7 8}]", 1},
		{"4:-1", true, false, false, false, "[{-3 1}]", 1},
		{"(1,1):(5,7)", true, true, true, true, "[{0 1}]", 1},
		{"(2,2,2):(1,100000,100000)", false, false, false, false, "[{0 2} {100000 100002} {200000 200002}]", 2},
		{"(2,3):(-7,-100000)", true, false, false, false, "[{-200007 -200006} {-200000 -199999} {-100007 -100006} {-100000 -99999} {-7 -6} {0 1}]", 1},
	}
	for _, c := range cases {
		l := mustLayout(c.l)
		inj, _ := IsInjective(layout.Box(l))
		onto, _ := IsSurjective(layout.Box(l))
		bij, _ := IsBijective(layout.Box(l))
		compact, _ := IsCompact(layout.Box(l))
		image, _ := Image(layout.Box(l))
		contig, _ := Contiguity(layout.Box(l))
		if inj != c.inj || onto != c.onto || bij != c.bij || compact != c.compact || fmt.Sprint(image) != c.image || contig != c.contig {
			t.Errorf("%s: injective %v surjective %v bijective %v compact %v image %v contiguity %d; want %v %v %v %v %s %d",
				c.l, inj, onto, bij, compact, image, contig, c.inj, c.onto, c.bij, c.compact, c.image, c.contig)
		}
	}
	// The 128B swizzle keeps 8-element (16-byte) runs of a row-major tile
	// whole: row 0 is not swizzled, row 1 runs 8 elements at a time.
	sw := layout.Composed{Outer: layout.Swizzle{B: 3, M: 3, S: 3}, Offset: layout.Int(0), Inner: mustLayout("(8,64):(64,1)")}
	row1, err := layout.SliceComposed(layout.Tup(layout.Int(1), layout.Underscore()), sw)
	if err != nil || row1.String() != "((8,2,4)):((1,-8,16))" {
		t.Fatalf("SliceComposed((1,_), %v) = %v, %v", sw, row1, err)
	}
	if n, err := Contiguity(row1); err != nil || n != 8 {
		t.Errorf("Contiguity(%v) = %d, %v; want 8", row1, n, err)
	}
	if ok, err := IsBijective(sw); err != nil || !ok {
		t.Errorf("IsBijective(%v) = %v, %v", sw, ok, err)
	}
}

// Huge layouts: the closed forms answer without enumerating.
func TestPropertiesLarge(t *testing.T) {
	big := mustLayout("(65536,65536,16):(1,65536,4294967296)")
	for name, f := range map[string]func(layout.Value) (bool, error){"injective": IsInjective, "surjective": IsSurjective, "bijective": IsBijective} {
		if ok, err := f(layout.Box(big)); err != nil || !ok {
			t.Errorf("%s(%v) = %v, %v", name, big, ok, err)
		}
	}
	if n, err := Contiguity(layout.Box(big)); err != nil || n != 1<<36 {
		t.Errorf("Contiguity(%v) = %d, %v", big, n, err)
	}
	if im, err := Image(layout.Box(big)); err != nil || fmt.Sprint(im) != "[{0 68719476736}]" {
		t.Errorf("Image(%v) = %v, %v", big, im, err)
	}
	gapped := mustLayout("(65536,65536):(1,65537)")
	if ok, err := IsSurjective(layout.Box(gapped)); err != nil || ok {
		t.Errorf("IsSurjective(%v) = %v, %v", gapped, ok, err)
	}
	if ok, err := IsInjective(layout.Box(gapped)); err != nil || !ok {
		t.Errorf("IsInjective(%v) = %v, %v", gapped, ok, err)
	}
	sw := layout.Composed{Outer: layout.Swizzle{B: 3, M: 4, S: 3}, Offset: layout.Int(0), Inner: big}
	if ok, err := IsBijective(sw); err != nil || !ok {
		t.Errorf("IsBijective(%v) = %v, %v", sw, ok, err)
	}
	if n, err := Contiguity(sw); err != nil || n != 128 {
		t.Errorf("Contiguity(%v) = %d, %v", sw, n, err)
	}
	// Where only enumeration can tell, past the limit: a clear error.
	overlap := mustLayout("(4096,4096):(3,5)")
	for name, run := range map[string]func() error{
		"injective": func() error { _, err := IsInjective(layout.Box(overlap)); return err },
		"image":     func() error { _, err := Image(layout.Box(overlap)); return err },
		"surjective": func() error {
			_, err := IsSurjective(layout.Composed{Outer: layout.Swizzle{B: 3, M: 4, S: 3}, Offset: layout.Int(5), Inner: big})
			return err
		},
		"contiguity": func() error {
			_, err := Contiguity(layout.Composed{Outer: layout.Swizzle{B: 1, M: 0, S: 31}, Offset: layout.Int(0), Inner: big})
			return err
		},
		"nested contiguity": func() error {
			_, err := Contiguity(layout.NestedComposed{Outer: layout.Swizzle{B: 1, M: 0, S: 1}, Offset: layout.Int(0), Inner: layout.Composed{Outer: layout.Swizzle{B: 1, M: 0, S: 1}, Offset: layout.Int(0), Inner: big}})
			return err
		},
	} {
		var le *layout.Error
		if err := run(); !errors.As(err, &le) || le.Condition != layout.CondTooLarge {
			t.Errorf("%s: got %v, want %q", name, err, layout.CondTooLarge)
		}
	}
}

func TestPropertiesErrors(t *testing.T) {
	bad := []struct {
		name string
		run  func() error
		cond string
	}{
		{"unknown stride", func() error {
			_, err := IsInjective(layout.Box(layout.Make(layout.Ints(4, 2), layout.Tup(layout.Int(1), layout.Unknown()))))
			return err
		}, layout.CondUnknown},
		{"basis stride", func() error {
			_, err := IsSurjective(layout.Box(layout.Make(layout.Int(4), layout.Basis(1, 0))))
			return err
		}, layout.CondUnknown},
		{"not congruent", func() error {
			_, err := Contiguity(layout.Box(layout.Make(layout.Ints(4, 2), layout.Int(1))))
			return err
		}, layout.CondCongruent},
		{"cosize overflow", func() error {
			_, err := IsInjective(layout.Box(mustLayout("(4,4):(1,4611686018427387904)")))
			return err
		}, layout.CondOverflow},
		{"not a layout", func() error { _, err := IsInjective(layout.Ints(1, 2)); return err }, layout.CondComposedOperand},
		{"bad swizzle", func() error {
			_, err := IsInjective(layout.Composed{Outer: layout.Swizzle{B: 3, M: 4, S: 2}, Offset: layout.Int(0), Inner: mustLayout("8:1")})
			return err
		}, layout.CondSwizzleShift},
		{"bad nested swizzle", func() error {
			_, err := Image(layout.NestedComposed{Outer: layout.Swizzle{B: 1, M: 4, S: 2}, Offset: layout.Int(0), Inner: layout.Composed{Outer: layout.Swizzle{B: 3, M: 4, S: 2}, Offset: layout.Int(0), Inner: mustLayout("8:1")}})
			return err
		}, layout.CondSwizzleShift},
		{"unknown offset", func() error {
			_, err := Contiguity(layout.Composed{Outer: layout.Swizzle{B: 1, M: 0, S: 1}, Offset: layout.Unknown(), Inner: mustLayout("8:1")})
			return err
		}, layout.CondUnknown},
		{"negative shape", func() error { _, err := IsInjective(layout.Box(mustLayout("(-5,-57):(1,3)"))); return err }, layout.CondInvalidParams},
	}
	for _, c := range bad {
		err := c.run()
		var le *layout.Error
		if !errors.As(err, &le) || le.Condition != c.cond {
			t.Errorf("%s: got %v, want condition %q", c.name, err, c.cond)
		}
	}
}

// Law: for plain layouts, Contiguity(L) == MaxCommonVector(L, size(L):1).
func TestContiguityMaxCommonVectorProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	compared := 0
	for range 2000 {
		l := layouttest.PropertyLayout(r)
		n, _ := l.Size()
		c, err := Contiguity(layout.Box(l))
		if err != nil {
			t.Fatal(err)
		}
		m, err := layout.MaxCommonVector(l, layout.Make(layout.Int(n), layout.Int(1)))
		if err != nil {
			continue // max_common_vector rejects some layouts CuTe cannot invert
		}
		if c != m {
			t.Fatalf("Contiguity(%v) = %d, MaxCommonVector(L, %d:1) = %d", l, c, n, m)
		}
		compared++
	}
	if compared < 1000 {
		t.Errorf("only %d of 2000 layouts compared", compared)
	}
}

// FuzzProperties computes the properties of arbitrary swizzled layouts (as
// layout's FuzzComposed draws them): they may reject, never panic.
func FuzzProperties(f *testing.F) {
	f.Add(int8(3), int8(4), int8(3), int64(1548), int64(8), int64(64), int64(64), int64(1))
	f.Add(int8(2), int8(0), int8(-3), int64(-5), int64(8), int64(8), int64(8), int64(1))
	f.Add(int8(40), int8(-1), int8(100), int64(1<<62), int64(-3), int64(0), int64(0), int64(-7))
	f.Fuzz(func(t *testing.T, b, m, s int8, x, s0, s1, d0, d1 int64) {
		l := layout.Make(layout.Tup(layout.Int(s0), layout.Int(s1)), layout.Tup(layout.Int(d0), layout.Int(d1)))
		c := layout.Composed{Outer: layout.Swizzle{B: int(b), M: int(m), S: int(s)}, Offset: layout.Int(x), Inner: l}
		if size, err := l.Size(); err == nil && size >= 0 && size <= 1<<12 {
			_, _ = IsInjective(c)
			_, _ = IsSurjective(c)
			_, _ = Image(layout.Box(l))
			_, _ = Contiguity(c)
		}
	})
}
