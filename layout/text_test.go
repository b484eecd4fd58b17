package layout

import (
	"strings"
	"testing"
)

// doubled is ((2,2),(2,2))... nested depth times, each level sharing its
// child: 2^depth leaves in depth+1 nodes.
func doubled(depth int) IntTuple {
	t := Int(2)
	for range depth {
		t = Tup(t, t)
	}
	return t
}

func TestFormatLimitedIsBoundedByItsBudget(t *testing.T) {
	big := doubled(30) // 2^30 leaves: printing it whole would take gigabytes
	for _, v := range []Value{big, Box(Make(big, big)), Tiler{Modes: []TilerMode{{Layout: Make(big, big)}}},
		Composed{Outer: Swizzle{3, 4, 3}, Offset: Int(0), Inner: Make(big, big)}} {
		s := FormatLimited(v, false, 100)
		if !s.Cut {
			t.Fatalf("%T: not cut", v)
		}
		if len(s.Text) > 100 {
			t.Errorf("%T: %d bytes shown, budget 100", v, len(s.Text))
		}
		if len(s.String()) > 200 {
			t.Errorf("%T: %d bytes with the note, want at most 200: %s", v, len(s.String()), s)
		}
	}
	s := FormatLimited(big, false, 40)
	want := "((((((((((((((((((((((((((((((2,2),(2,2)... (1,073,741,824 leaves; 1,073,741,820 not shown)"
	if got := s.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFormatLimitedWholeWhenItFits(t *testing.T) {
	for _, v := range []Value{doubled(3), Box(Make(Ints(4, 8), Ints(1, 4))), Swizzle{3, 4, 3},
		Composed{Outer: Swizzle{3, 4, 3}, Offset: Int(0), Inner: Make(Ints(8, 64), Ints(64, 1))}} {
		for _, static := range []bool{false, true} {
			want := v.String()
			if f, ok := v.(interface{ Format(bool) string }); ok {
				want = f.Format(static)
			}
			if s := FormatLimited(v, static, 1000); s.Cut || s.String() != want {
				t.Errorf("FormatLimited(%v, %v) = %q, cut %v; want %q", v, static, s.String(), s.Cut, want)
			}
		}
	}
}

func TestFormatLimitedCutsIntervalsAndOtherValues(t *testing.T) {
	iv := Intervals{}
	for i := range int64(1000) {
		iv = append(iv, Interval{Lo: 4 * i, Hi: 4*i + 2})
	}
	s := FormatLimited(iv, false, 50)
	if want := "[0,2) u [4,6) u [8,10) u [12,14) u [16,18)... (1,000 intervals; 995 not shown)"; s.String() != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
	if s := FormatLimited(iv[:3], false, 50); s.Cut || s.Text != iv[:3].String() {
		t.Errorf("got %s, want %s", s.Text, iv[:3])
	}
	long := Tag(strings.Repeat("x", 100))
	if s := FormatLimited(long, false, 50); !s.Cut || s.String() != strings.Repeat("x", 50)+"... (100 characters; 50 not shown)" {
		t.Errorf("got %s", s)
	}
}

func TestCountLeavesWalksSharedSubtreesOnce(t *testing.T) {
	if n := CountLeaves(Box(Make(doubled(40), doubled(40)))); n != 2<<40 {
		t.Errorf("CountLeaves = %d, want %d", n, int64(2)<<40)
	}
	if n, _, ok := WithinLimits(doubled(40), MaxLeaves); ok || n != 1<<40 {
		t.Errorf("WithinLimits = %d, %v; want %d, false", n, ok, int64(1)<<40)
	}
	if n, _, ok := WithinLimits(doubled(20), MaxLeaves); !ok || n != 1<<20 {
		t.Errorf("WithinLimits = %d, %v; want %d, true", n, ok, 1<<20)
	}
}
