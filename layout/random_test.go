package layout

import "math/rand/v2"

// Random layouts for property tests. Every package test may use them:
//
//	r := rand.New(rand.NewPCG(1, 2))
//	l := randomLayout(r, 4, 2)
//
// Shapes use small factors (so sizes stay below 2^20 and offsets never
// overflow) with size-1 modes now and then; strides are either compact in a
// random mode order (so the layout is a bijection onto [0, size)) or drawn
// freely (zero, negative, gapped, repeated).

// The random values the tests of layout share with those of tiled and
// analysis/prop live in internal/layouttest, which imports layout, so only
// package layout_test may import it; ops_table_hook_test.go sets these
// before any test runs.
var (
	WildTuple      func(r *rand.Rand, depth int) IntTuple // any leaves: unknown, negative, huge, bases, "_"
	WildLayout     func(r *rand.Rand) Layout              // of wild tuples, its stride usually congruent
	PropertyLayout func(r *rand.Rand) Layout              // up to 4 flat modes, often compact, small enough to enumerate
	RandomSwizzle  func(r *rand.Rand) Swizzle             // valid, at most 20 bits
)

var randomFactors = []int64{1, 2, 2, 3, 4, 4, 6, 8, 8, 16}

// randomShape is a shape of 1..maxRank top-level modes nested at most
// maxDepth deep; with maxRank 1 it may also be a bare integer.
func randomShape(r *rand.Rand, maxRank, maxDepth int) IntTuple {
	if maxRank < 1 {
		maxRank = 1
	}
	if maxDepth < 1 || r.IntN(6) == 0 {
		return Int(randomFactors[r.IntN(len(randomFactors))])
	}
	n := 1 + r.IntN(maxRank)
	elems := make([]IntTuple, n)
	for i := range elems {
		if maxDepth > 1 && r.IntN(4) == 0 {
			elems[i] = randomShape(r, 3, maxDepth-1)
			if !elems[i].IsTuple() {
				elems[i] = Tup(elems[i])
			}
		} else {
			elems[i] = Int(randomFactors[r.IntN(len(randomFactors))])
		}
	}
	return Tup(elems...)
}

// randomStride is a stride congruent to shape with free entries.
func randomStride(r *rand.Rand, shape IntTuple) IntTuple {
	if shape.IsTuple() {
		elems := make([]IntTuple, len(shape.Elems()))
		for i, e := range shape.Elems() {
			elems[i] = randomStride(r, e)
		}
		return Tup(elems...)
	}
	switch r.IntN(8) {
	case 0:
		return Int(0)
	case 1:
		return Int(-1 - r.Int64N(8))
	}
	return Int(1 + r.Int64N(64))
}

// randomLayout is a random layout of at most maxRank top-level modes and
// shape depth at most maxDepth: half the time compact in a random mode
// order, otherwise with free strides.
func randomLayout(r *rand.Rand, maxRank, maxDepth int) Layout {
	shape := randomShape(r, maxRank, maxDepth)
	for {
		if n, err := Size(shape); err == nil && n <= 1<<20 {
			break
		}
		shape = randomShape(r, maxRank, maxDepth)
	}
	if r.IntN(2) == 0 {
		return Layout{Shape: shape, Stride: randomStride(r, shape)}
	}
	order := randomOrder(r, shape)
	l, err := MakeOrderedLayout(shape, order)
	if err != nil {
		panic("randomLayout: " + err.Error())
	}
	return l
}

// randomOrder is a permutation of 0..leaves-1 shaped like shape.
func randomOrder(r *rand.Rand, shape IntTuple) IntTuple {
	perm := r.Perm(countLeaves(shape))
	k := 0
	var build func(IntTuple) IntTuple
	build = func(t IntTuple) IntTuple {
		if !t.IsTuple() {
			v := perm[k]
			k++
			return Int(int64(v))
		}
		elems := make([]IntTuple, len(t.Elems()))
		for i, e := range t.Elems() {
			elems[i] = build(e)
		}
		return Tup(elems...)
	}
	return build(shape)
}

// randomCoord is a natural coordinate of shape (every leaf within its size).
func randomCoord(r *rand.Rand, shape IntTuple) IntTuple {
	if shape.IsTuple() {
		elems := make([]IntTuple, len(shape.Elems()))
		for i, e := range shape.Elems() {
			elems[i] = randomCoord(r, e)
		}
		return Tup(elems...)
	}
	return Int(r.Int64N(max(shape.Value(), 1)))
}
