package layout

import (
	"math/rand/v2"
	"testing"
)

// TestMaxCommonLaw: for R = MaxCommonLayout(A, B), A(R(i)) == i and
// B(R(i)) == i for i < size(R), and MaxCommonVector(A, B) == size(R).
func TestMaxCommonLaw(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	long := 0
	for n := range 3000 {
		b := lawLayout(r, false)
		a := b
		if n%3 > 0 {
			// A reordering of b's modes (or another layout) shares a prefix of b's run, or none.
			a = lawLayout(r, false)
			if n%3 == 1 {
				a = permuteModes(r, b)
			}
		}
		common, err := MaxCommonLayout(a, b)
		vec, verr := MaxCommonVector(a, b)
		if (err == nil) != (verr == nil) {
			t.Fatalf("max_common_layout(%v, %v) = %v, %v but max_common_vector gives %d, %v", a, b, common, err, vec, verr)
		}
		if err != nil {
			continue
		}
		size := sizeRef(common)
		if vec != size {
			t.Fatalf("max_common_vector(%v, %v) = %d, size of max_common_layout %v = %d", a, b, vec, common, size)
		}
		if size > 1 {
			long++
		}
		atA, atB, atC := refOf(a), refOf(b), refOf(common)
		for i := range size {
			if ga, gb := atA(atC(i)), atB(atC(i)); ga != i || gb != i {
				t.Fatalf("max_common_layout(%v, %v) = %v: A(R(%d)) = %d, B(R(%d)) = %d", a, b, common, i, ga, i, gb)
			}
		}
	}
	if long < 1000 {
		t.Fatalf("only %d common layouts beyond 1:0", long)
	}
}

// permuteModes is l with its flat modes in a random order, as a flat layout.
func permuteModes(r *rand.Rand, l Layout) Layout {
	shape, stride := leavesRef(l)
	ss, dd := make([]IntTuple, len(shape)), make([]IntTuple, len(shape))
	for i, k := range r.Perm(len(shape)) {
		ss[i], dd[i] = Int(shape[k]), Int(stride[k])
	}
	return Layout{Shape: Tup(ss...), Stride: Tup(dd...)}
}

// TestNullspaceLaw: A(R(i)) == 0 for i < size(R), and size(R) ==
// size(A)/size(filter(A)).
func TestNullspaceLaw(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	nonempty := 0
	for range 3000 {
		a := lawLayout(r, true)
		ns, err := Nullspace(a)
		if err != nil {
			t.Fatalf("Nullspace(%v): %v", a, err)
		}
		size := sizeRef(ns)
		if size > 1 {
			nonempty++
		}
		if want := sizeRef(a) / sizeRef(filterRef(a)); size != want {
			t.Fatalf("Nullspace(%v) = %v: size %d, want %d", a, ns, size, want)
		}
		atA, atN := refOf(a), refOf(ns)
		for i := range size {
			if got := atA(atN(i)); got != 0 {
				t.Fatalf("Nullspace(%v) = %v: A(R(%d)) = %d", a, ns, i, got)
			}
		}
	}
	if nonempty < 200 {
		t.Fatalf("only %d nullspaces beyond 1:0", nonempty)
	}
}

func TestCommonExamples(t *testing.T) {
	for _, c := range []struct{ op, a, b, want string }{
		{"max_common_layout", "(4,(2,4)):(2,(1,8))", "(4,(2,4)):(2,(1,8))", "(2,4,4):(4,1,8)"},
		{"max_common_layout", "(4,2):(2,1)", "(4,2):(1,4)", "1:0"},
		{"max_common_layout", "(6):(1)", "(8):(1)", "8:1"},
		{"max_common_vector", "(4,3,(2)):(6,1,(3))", "(4,3,(2)):(12,1,(48))", "3"},
		{"max_common_vector", "2:1", "2:8", "1"},
		{"nullspace", "(7,5,16):(3,1,0)", "", "16:35"},
		{"nullspace", "(2,2,2):(1,0,2)", "", "2:2"},
		{"nullspace", "(2,1,2):(0,0,1)", "", "(2,1):(1,0)"},
		{"nullspace", "(2,2):(1,2)", "", "1:0"},
	} {
		args := []Value{Box(mustLayout(c.a))}
		if c.b != "" {
			args = append(args, Box(mustLayout(c.b)))
		}
		got, err := Apply(c.op, args...)
		if err != nil || got.String() != c.want {
			t.Errorf("%s(%s, %s) = %v, %v; want %s", c.op, c.a, c.b, got, err, c.want)
		}
	}
}

func TestCommonErrors(t *testing.T) {
	_, err := MaxCommonLayout(mustLayout("(3,4):(4,1)"), mustLayout("4:1"))
	wantError(t, "max_common_layout composition", err, "max_common_layout", CondShapeDivisibility, "in composition")
	_, err = MaxCommonVector(mustLayout("(3,4):(4,1)"), mustLayout("4:1"))
	wantError(t, "max_common_vector composition", err, "max_common_vector", CondShapeDivisibility, "in composition")
	_, err = MaxCommonVector(mustLayout("4:1"), Layout{Shape: Ints(2, 2), Stride: Int(1)})
	wantError(t, "max_common_vector right inverse", err, "max_common_vector", CondCongruent, "in right_inverse")
	_, err = MaxCommonLayout(mustLayout("4:1"), Layout{Shape: Ints(2, 2), Stride: Int(1)})
	wantError(t, "max_common_layout right inverse", err, "max_common_layout", CondCongruent)
	_, err = MaxCommonLayout(mustLayout("4:1"), Layout{Shape: Ints(1<<40, 1<<40, 2), Stride: Ints(1, 1<<41, 3)})
	wantError(t, "max_common_layout overflow", err, "max_common_layout", CondOverflow)
	_, err = Nullspace(Layout{Shape: Ints(1<<40, 1<<40), Stride: Ints(0, 0)})
	wantError(t, "nullspace overflow", err, "nullspace", CondOverflow)
	_, err = Nullspace(Layout{Shape: Ints(2, 2), Stride: Int(1)})
	wantError(t, "nullspace, not congruent", err, "nullspace", CondCongruent)
	if err := relabel("x", errTest{}); err != (errTest{}) {
		t.Errorf("relabel changed a foreign error: %v", err)
	}

	for _, c := range []struct {
		op   string
		args []Value
	}{
		{"max_common_layout", []Value{Box(mustLayout("4:1"))}},
		{"max_common_layout", []Value{Tiler{}, Box(mustLayout("4:1"))}},
		{"max_common_layout", []Value{Box(mustLayout("4:1")), Tiler{}}},
		{"max_common_vector", []Value{Box(mustLayout("4:1")), Tiler{}}},
		{"max_common_vector", []Value{Box(mustLayout("(3,4):(4,1)")), Box(mustLayout("4:1"))}},
		{"nullspace", []Value{}},
		{"nullspace", []Value{Tiler{}}},
	} {
		if _, err := Apply(c.op, c.args...); err == nil {
			t.Errorf("%s%v accepted", c.op, c.args)
		}
	}
	if got, err := Apply("max_common_vector", Int(8), Int(4)); err != nil || got.String() != "4" {
		t.Errorf("max_common_vector(8, 4) = %v, %v; want 4", got, err)
	}
}

type errTest struct{}

func (errTest) Error() string { return "test" }
