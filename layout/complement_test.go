package layout

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// filterRef is filter(A) as the test sees it: A's modes of non-zero stride
// and shape above 1, as one flat layout (1:0 when none).
func filterRef(a Layout) Layout {
	shape, stride := leavesRef(a)
	var ss, dd []IntTuple
	for k := range shape {
		if stride[k] != 0 && shape[k] != 1 {
			ss, dd = append(ss, Int(shape[k])), append(dd, Int(stride[k]))
		}
	}
	if len(ss) == 0 {
		return Layout{Shape: Int(1), Stride: Int(0)}
	}
	return Layout{Shape: Tup(ss...), Stride: Tup(dd...)}
}

// tractable reports whether a's non-zero strides, in increasing order, are
// each a multiple of the extent of the modes below them (all positive).
func tractable(a Layout) bool {
	shape, stride := leavesRef(filterRef(a))
	order := make([]int, len(shape))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return int(stride[i] - stride[j]) })
	extent := int64(1)
	for _, k := range order {
		if stride[k] <= 0 || stride[k]%extent != 0 {
			return stride[k] == 0 && shape[k] == 1
		}
		extent = stride[k] * shape[k]
	}
	return true
}

func injectiveRef(l Layout) bool {
	seen := map[int64]bool{}
	at := refOf(l)
	for i := range sizeRef(l) {
		v := at(i)
		if seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// TestComplementLaw: the complement R of A within M is increasing and meets
// filter(A) only at 0; a non-injective A is rejected, and a tractable one
// (strides each a multiple of the extent below) never is; for tractable A,
// (filter(A), R) is a bijection onto [0, size), and for an integer M that
// size reaches M.
func TestComplementLaw(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tractables := 0
	for n := range 2000 {
		a := lawLayout(r, false)
		f := filterRef(a)
		var m int64
		tupleM := false
		var got Layout
		var err error
		switch n % 3 {
		case 0:
			got, err = Deref(Complement(&a))
			m = cosizeRef(f)
		case 1:
			m = 1 + r.Int64N(2*cosizeRef(f)+8)
			got, err = Deref(ComplementTo(&a, Int(m)))
		default:
			m1, m2 := 1+r.Int64N(8), 1+r.Int64N(64)
			m, tupleM = m1*m2, true
			got, err = Deref(ComplementTo(&a, Ints(m1, m2)))
		}
		if err != nil {
			if injectiveRef(f) && tractable(a) {
				t.Fatalf("complement of the tractable %v within %d: %v", a, m, err)
			}
			continue
		}
		if !injectiveRef(f) {
			t.Fatalf("complement of the non-injective %v = %v, want an error", a, got)
		}
		image := map[int64]bool{}
		atF, atR := refOf(f), refOf(got)
		for i := int64(1); i < sizeRef(f); i++ {
			image[atF(i)] = true
		}
		for j := range sizeRef(got) {
			v := atR(j)
			if j > 0 && (image[v] || v <= atR(j-1)) {
				t.Fatalf("complement of %v within %d = %v: R(%d) = %d is in A's image or not above R(%d)", a, m, got, j, v, j-1)
			}
		}
		if !tractable(a) {
			continue
		}
		tractables++
		both := Layout{Shape: Tup(f.Shape, got.Shape), Stride: Tup(f.Stride, got.Stride)}
		size := sizeRef(both)
		if size < m && !tupleM { // a shape cotarget rounds up mode by mode, and may fall short
			t.Fatalf("complement of %v within %d = %v: (A, R) has size %d < %d", a, m, got, size, m)
		}
		hit := make([]bool, size)
		atBoth := refOf(both)
		for i := range size {
			v := atBoth(i)
			if v < 0 || v >= size || hit[v] {
				t.Fatalf("complement of %v within %d = %v: (A, R) is not a bijection onto [0, %d): %d at %d", a, m, got, size, v, i)
			}
			hit[v] = true
		}
	}
	if tractables < 250 {
		t.Fatalf("only %d tractable layouts drawn", tractables)
	}
}

func cosizeRef(l Layout) int64 {
	shape, stride := leavesRef(l)
	c := int64(1)
	for k := range shape {
		c += (shape[k] - 1) * abs64(stride[k])
	}
	return c
}

func TestComplementExamples(t *testing.T) {
	for _, c := range []struct {
		a    string
		m    Value
		want string
	}{
		{"4:2", Int(19), "(2,3):(1,8)"}, // the last mode rounds up
		{"4:2", Ints(2, 8), "(2,2):(1,8)"},
		{"(4):(-2)", nil, "(-2,0):(1,-8)"},
		{"(7,5,16):(0,0,0)", nil, "1:0"},
		{"(7,5,16):(0,0,0)", Ints(2, 4), "8:1"},
		{"(3,6):(16,2)", Ints(8, 21), "(2,4):(1,48)"},
		{"(2,4):(1,6)", nil, "3:2"},
		{"4:1", Tup(Int(2), Ints(4, 3)), "6:4"},
	} {
		var got Layout
		var err error
		if c.m == nil {
			got, err = Deref(Complement(ref(mustLayout(c.a))))
		} else {
			got, err = Deref(ComplementTo(ref(mustLayout(c.a)), c.m.(IntTuple)))
		}
		if err != nil || got.String() != c.want {
			t.Errorf("complement(%s, %v) = %v, %v; want %s", c.a, c.m, got, err, c.want)
		}
	}
}

func TestComplementErrors(t *testing.T) {
	_, err := Complement(ref(mustLayout("(2,8,4,2):(8,4,12,24)")))
	wantError(t, "non-injective", err, "complement", CondNonInjective, "2:8", "[0, 32)")
	_, err = ComplementTo(ref(mustLayout("(6,4):(8,32)")), Int(1096))
	wantError(t, "non-injective last mode", err, "complement", CondNonInjective, "4:32")
	_, err = Complement(&Layout{Shape: Ints(4, 4), Stride: Ints(1, 1<<62)})
	wantError(t, "cosize overflow", err, "complement", CondOverflow)
	_, err = Complement(&Layout{Shape: Int(2), Stride: Int(-1 << 63)})
	wantError(t, "cosize of the least stride", err, "complement", CondOverflow)
	_, err = ComplementTo(&Layout{Shape: Ints(4, 4), Stride: Ints(1, 1<<61)}, Int(4))
	wantError(t, "stride product overflow", err, "complement", CondOverflow)
	_, err = ComplementTo(ref(mustLayout("4:2")), Int(1<<63-1))
	wantError(t, "ceil_div overflow", err, "complement", CondOverflow)
	_, err = ComplementTo(ref(mustLayout("4:2")), Ints(1<<62, 1<<62))
	wantError(t, "cotarget shape overflow", err, "complement", CondOverflow)
	_, err = ComplementTo(ref(mustLayout("4:2")), Tup(Int(3), Ints(1<<62, 1<<62)))
	wantError(t, "nested cotarget overflow", err, "complement", CondOverflow)
	_, err = ComplementTo(ref(mustLayout("4:2")), Tup(Ints(1<<62, 1<<62), Int(3)))
	wantError(t, "nested cotarget product overflow", err, "complement", CondOverflow)
	if got, err := ComplementTo(ref(mustLayout("4:2")), Tup(Ints(3, 5), Int(7))); err != nil || got.String() != "(2,14):(1,8)" {
		// ceil_div((3,5),8) = (1,2), then 7 divided by ceil_div(8, 15) = 1: rest 1*2*7.
		t.Errorf("complement(4:2, ((3,5),7)) = %v, %v; want (2,14):(1,8)", got, err)
	}
	_, err = ComplementTo(ref(mustLayout("4:0")), Ints(1<<62, 1<<62))
	wantError(t, "empty layout, cotarget overflow", err, "complement", CondOverflow)
	_, err = ComplementTo(ref(mustLayout("4:2")), Ints(8, 0))
	wantError(t, "cotarget with a 0", err, "complement", CondDivideByZero)
	_, err = Complement(ref(mustLayout("(2,0):(1,2)")))
	wantError(t, "shape 0", err, "complement", CondDivideByZero)
	_, err = Complement(ref(mustLayout("(0,2):(1,2)")))
	wantError(t, "shape 0 below another mode", err, "complement", CondDivideByZero)
	_, err = Complement(&Layout{Shape: Ints(1<<62, 4), Stride: Ints(1, 1<<62)})
	wantError(t, "coalesce overflow", err, "complement", CondOverflow)
	many := make([]int64, 70)
	ones := make([]int64, 70)
	for i := range many {
		many[i], ones[i] = 2, 1
	}
	_, err = Complement(&Layout{Shape: Ints(many...), Stride: Ints(ones...)})
	wantError(t, "seventy modes", err, "complement", CondNonInjective)
	_, err = Complement(&Layout{Shape: Ints(2, 2), Stride: Int(1)})
	wantError(t, "not congruent", err, "complement", CondCongruent)
	_, err = ComplementTo(ref(mustLayout("4:2")), Tup(Int(2), Unknown()))
	wantError(t, "unknown cotarget", err, "complement", CondUnknown)
	_, err = ComplementTo(&Layout{Shape: Ints(2, 2), Stride: Int(1)}, Int(4))
	wantError(t, "not congruent, with cotarget", err, "complement", CondCongruent)

	for _, args := range [][]Value{
		{},
		{Box(mustLayout("4:1")), Int(4), Int(4)},
		{Box(mustLayout("4:1")), Box(mustLayout("4:1"))},
		{Tiler{}},
	} {
		if _, err := Apply("complement", args...); err == nil {
			t.Errorf("complement%v accepted", args)
		}
	}
	if v, err := Apply("complement", Int(4), Int(8)); err != nil || v.String() != "2:4" {
		t.Errorf("complement(4, 8) = %v, %v; want 2:4 (the integer 4 is 4:1)", v, err)
	}
	if _, err := Apply("complement", Unknown()); err == nil {
		t.Errorf("complement(?) accepted")
	}
}
