package layout

import (
	"math/rand/v2"
	"testing"
)

func TestQueryOps(t *testing.T) {
	lay := mustLayout("(4,8):(1,4)")
	sw := Composed{Outer: Swizzle{B: 3, M: 4, S: 3}, Offset: Int(0), Inner: mustLayout("(8,64):(64,1)")}
	cases := []struct {
		op   string
		args []Value
		want string
	}{
		{"get", []Value{Tup(Int(4), Ints(8, 2)), Int(1), Int(0)}, "8"},
		{"get", []Value{Int(4), Int(0)}, "4"},
		{"get", []Value{Box(lay), Int(1)}, "8:4"},
		{"slice_and_offset", []Value{Tup(Int(1), Underscore()), Box(lay)}, "(8):(4) + 1"},
		{"slice_and_offset", []Value{Tup(Underscore(), Underscore()), Box(lay)}, "(4,8):(1,4) + 0"},
		{"slice_and_offset", []Value{Tup(Int(3), Int(7)), Box(lay)}, "():() + 31"},
		{"is_injective", []Value{Box(lay)}, "true"},
		{"is_injective", []Value{Box(mustLayout("(4,8):(1,2)"))}, "false"},
		{"is_injective", []Value{Int(8)}, "true"},
		{"is_surjective", []Value{Box(mustLayout("(4,8):(1,8)"))}, "false"},
		{"is_bijective", []Value{Box(mustLayout("(4,8):(8,1)"))}, "true"},
		{"is_compact", []Value{Box(mustLayout("(2,2,2,2):(1,1,6,7)"))}, "false"},
		{"image", []Value{Box(mustLayout("(4,2):(1,16)"))}, "[0,4) u [16,20)"},
		{"image", []Value{Box(mustLayout("(4,2):(1,4)"))}, "[0,8)"},
	}
	for _, c := range cases {
		got, err := Apply(c.op, c.args...)
		if err != nil || got.String() != c.want {
			t.Errorf("%s%v = %v, %v; want %s", c.op, c.args, got, err, c.want)
		}
	}
	// slice_and_offset agrees with slice and with the offset of the cut on
	// a swizzled layout as on a plain one.
	for _, c := range []IntTuple{Tup(Underscore(), Int(2)), Tup(Int(5), Underscore())} {
		got, err := Apply("slice_and_offset", c, sw)
		if err != nil {
			t.Fatalf("slice_and_offset(%v, %v): %v", c, sw, err)
		}
		v, off, err := SliceAndOffsetComposed(c, sw)
		if want := (ComposedPartition{Layout: v, Offset: off}); err != nil || got.String() != want.String() {
			t.Errorf("slice_and_offset(%v, %v) = %v, want %v (%v)", c, sw, got, want, err)
		}
	}
	bad := []struct {
		op   string
		args []Value
		cond string
	}{
		{"get", []Value{Ints(4, 8), Int(2)}, CondIndexRange},
		{"get", []Value{Box(lay)}, ""},
		{"get", []Value{Box(lay), Box(lay)}, ""},
		{"slice_and_offset", []Value{Box(lay)}, ""},
		{"slice_and_offset", []Value{Ints(1, 2, 3), Box(lay)}, ""},
		{"slice_and_offset", []Value{Box(lay), Box(lay)}, ""},
		{"is_injective", nil, ""},
		{"is_injective", []Value{Tiler{}}, ""},
		{"image", []Value{Box(mustLayout("(4,?):(1,4)"))}, CondUnknown},
		{"image", []Value{Box(lay), Box(lay)}, ""},
	}
	for _, c := range bad {
		if _, err := Apply(c.op, c.args...); err == nil {
			t.Errorf("%s%v: no error", c.op, c.args)
		} else if e, ok := err.(*Error); !ok || c.cond != "" && e.Condition != c.cond {
			t.Errorf("%s%v: %v, want condition %q", c.op, c.args, err, c.cond)
		}
	}
}

// TestSliceAndOffsetLaw: L at c with its _ leaves read as k is the sliced
// layout at k plus the offset, on random layouts and cuts.
func TestSliceAndOffsetLaw(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for range propertyRounds {
		l := randomLayout(r, 3, 1)
		n := l.Rank()
		cut := make([]IntTuple, n)
		for i := range n {
			s, _ := Size(l.Shape.At(i))
			if r.IntN(2) == 0 {
				cut[i] = Underscore()
			} else {
				cut[i] = Int(r.Int64N(max(s, 1)))
			}
		}
		c := Tup(cut...)
		if !l.Shape.IsTuple() {
			c = cut[0] // CuTe slices a rank-1 shape that is a leaf by a leaf
		}
		v, err := Apply("slice_and_offset", c, Box(l))
		if err != nil {
			t.Fatalf("slice_and_offset(%v, %v): %v", c, l, err)
		}
		p := v.(Partition)
		size, _ := Size(p.Layout.Shape)
		for k := range min(size, 64) {
			crd, _ := Idx2Crd(Int(k), p.Layout.Shape)
			full := make([]IntTuple, n)
			j := 0
			for i := range n {
				if cut[i].kind == kindUnderscore {
					full[i] = crd.At(j)
					j++
				} else {
					full[i] = cut[i]
				}
			}
			fc := Tup(full...)
			if !l.Shape.IsTuple() {
				fc = full[0]
			}
			want, err1 := Crd2Idx(fc, l.Shape, l.Stride)
			got, err2 := Int(0), error(nil)
			if p.Layout.Shape.Len() > 0 { // every mode cut: the offset alone
				got, err2 = Crd2Idx(Int(k), p.Layout.Shape, p.Layout.Stride)
			}
			if err1 != nil || err2 != nil || got.Value()+p.Offset.Value() != want.Value() {
				t.Fatalf("slice_and_offset(%v, %v) = %v: at %d gives %v + %v, L gives %v (%v %v)", c, l, p, k, got, p.Offset, want, err1, err2)
			}
		}
	}
}
