package tirx

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

var tensorMemoryTile = Layout{Shard: []Iter{
	{Extent: 2, Stride: 112, Axis: "TCol"},
	{Extent: 128, Stride: 1, Axis: "TLane"},
	{Extent: 112, Stride: 1, Axis: "TCol"},
}}

// Points come out in lexicographic order of their values in axis order,
// compared as numbers (warpid 6 before 10).
func TestTIRxMapOrder(t *testing.T) {
	ps, err := MapAt(tensorCoreTile, 109)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ps.String(), "{laneid:26, warpid:6, m:1} | {laneid:26, warpid:10, m:1}"; got != want {
		t.Errorf("tirx_map(T, 109) = %s, want %s", got, want)
	}
	ps, err = MapAtCoord(tensorCoreTile, []int64{6, 13}, []int64{8, 16})
	if err != nil || ps.String() != "{laneid:26, warpid:6, m:1} | {laneid:26, warpid:10, m:1}" {
		t.Errorf("tirx_map(T, (6,13), (8,16)) = %v, %v", ps, err)
	}
	if _, err := MapAtCoord(tensorCoreTile, []int64{6, 13}, []int64{8, 8}); err == nil || !strings.HasPrefix(err.Error(), "tirx_map: ") {
		t.Errorf("a shape not admitted: %v", err)
	}
}

// Span is exact on both ends, and a point past int64 is an error.
func TestTileLayoutSpan(t *testing.T) {
	got, err := tensorCoreTile.Span()
	if err != nil {
		t.Fatal(err)
	}
	want := []AxisRange{{"laneid", 0, 31}, {"warpid", 5, 10}, {MemoryAxis, 0, 1}}
	if !slices.Equal(got, want) {
		t.Errorf("Span = %v, want %v", got, want)
	}
	neg := Layout{Shard: []Iter{{4, -2, "m"}}, Offset: []AxisValue{{"m", 10}}}
	if got, err := neg.Span(); err != nil || !slices.Equal(got, []AxisRange{{MemoryAxis, 4, 10}}) {
		t.Errorf("Span of %v = %v, %v", neg, got, err)
	}
	for _, l := range []Layout{
		{Shard: []Iter{{4, 1 << 62, "m"}}},
		{Shard: []Iter{{2, 1 << 62, "m"}, {2, 1 << 62, "m"}}},
		{Shard: []Iter{{2, -(1 << 62), "m"}, {3, -(1 << 62), "m"}}},
		{Shard: []Iter{{2, 1<<63 - 1, "m"}}, Offset: []AxisValue{{"m", 1}}},
	} {
		var le *layout.Error
		if _, err := l.Span(); !errors.As(err, &le) || le.Condition != layout.CondOverflow {
			t.Errorf("Span of %v = %v, want an overflow", l, err)
		}
	}
	if _, err := (Layout{}).Span(); err == nil {
		t.Error("Span of a layout without a shard succeeded")
	}
}

func TestPointSetAndAxisListString(t *testing.T) {
	if got := (PointSet{}).String(); got != "" {
		t.Errorf("empty set prints %q", got)
	}
	if got := (PointSet{{{"TLane", 3}}}).String(); got != "{TLane:3}" {
		t.Errorf("one point prints %q", got)
	}
	if got := (AxisList{"m"}).String(); got != "(m)" {
		t.Errorf("one axis prints %q", got)
	}
}

// randomTileLayout draws a small TileLayout: 1..4 shard iters, 0..2
// replica iters, strides in [-3, 8] on three axes, offsets on distinct axes.
func randomTileLayout(r *rand.Rand) Layout {
	axes := []Axis{MemoryAxis, "laneid", "warpid"}
	iter := func() Iter {
		return Iter{Extent: 1 + r.Int64N(4), Stride: r.Int64N(12) - 3, Axis: axes[r.IntN(len(axes))]}
	}
	var t Layout
	for range 1 + r.IntN(4) {
		t.Shard = append(t.Shard, iter())
	}
	for range r.IntN(3) {
		t.Replica = append(t.Replica, iter())
	}
	for _, a := range axes {
		if r.IntN(3) == 0 {
			t.Offset = append(t.Offset, AxisValue{a, r.Int64N(20) - 5})
		}
	}
	return t
}

// noOverlap is a sufficient condition for c -> sum_k c_k s_k (c_k in
// [0, e_k)) to be injective on each axis: taken by increasing |s|, every
// iter of extent > 1 steps further than all the smaller ones reach
// together. If c != c' agree on the value, the largest iter where they
// differ moves it by at least |s_j| > sum_{i<j} (e_i-1)|s_i|, which the
// others cannot undo.
func noOverlap(its []Iter) bool {
	byAxis := map[Axis][]Iter{}
	for _, it := range its {
		if it.Extent > 1 {
			byAxis[it.Axis] = append(byAxis[it.Axis], it)
		}
	}
	for _, group := range byAxis {
		slices.SortFunc(group, func(a, b Iter) int { return int(abs64(a.Stride) - abs64(b.Stride)) })
		reach := int64(0)
		for _, it := range group {
			if abs64(it.Stride) <= reach {
				return false
			}
			reach += (it.Extent - 1) * abs64(it.Stride)
		}
	}
	return true
}

func pointMinus(p, q Point) Point {
	d := slices.Clone(p)
	for i := range d {
		d[i].Value -= q[i].Value
	}
	return d
}

// The laws of the forward mapping, over random layouts.
func TestTileLayoutLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	injectiveSeen, distinctReplicasSeen := 0, 0
	for range 2000 {
		l := randomTileLayout(r)
		size, err := l.Size()
		if err != nil {
			t.Fatal(err)
		}
		count, _ := l.ReplicaCount()
		span, err := l.Span()
		if err != nil {
			t.Fatal(err)
		}
		noOffset := l
		noOffset.Offset = nil
		// The replica vectors alone: the layout's replicas over a shard that moves nothing.
		// The replica vectors alone: the replicas over a shard that moves
		// nothing, with one iter per axis of l so the axes come in l's order.
		replicasOnly := Layout{Replica: l.Replica}
		for _, a := range l.Axes() {
			replicasOnly.Shard = append(replicasOnly.Shard, Iter{1, 0, a})
		}
		replicaVectors, err := replicasOnly.MapIndex(0)
		if err != nil {
			t.Fatal(err)
		}
		injective := noOverlap(l.Shard)
		seen := map[string]int64{}
		reached := make([][2]bool, len(span))
		for x := range size {
			// Split is the mixed-radix digits of x, last iter fastest.
			c, err := l.Split(x)
			if err != nil {
				t.Fatal(err)
			}
			back := int64(0)
			for k, it := range l.Shard {
				if c[k] < 0 || c[k] >= it.Extent {
					t.Fatalf("%v: Split(%d) = %v, component %d outside [0, %d)", l, x, c, k, it.Extent)
				}
				back = back*it.Extent + c[k]
			}
			if back != x {
				t.Fatalf("%v: Split(%d) = %v reads back as %d", l, x, c, back)
			}
			base, err := l.Base(x)
			if err != nil {
				t.Fatal(err)
			}
			// The offset is a translation: Base(x) = Base_without_O(x) + O.
			plainBase, _ := noOffset.Base(x)
			for _, o := range l.Offset {
				got, _ := base.Get(o.Axis)
				want, _ := plainBase.Get(o.Axis)
				if got != want+o.Value {
					t.Fatalf("%v: Base(%d) on %s is %d, without the offset %d, offset %d", l, x, o.Axis, got, want, o.Value)
				}
			}
			// L(x) - Base(x) is the set of replica vectors, whatever x.
			pts, err := l.MapIndex(x)
			if err != nil {
				t.Fatal(err)
			}
			if len(pts) != len(replicaVectors) {
				t.Fatalf("%v: |L(%d)| = %d, %d distinct replica vectors", l, x, len(pts), len(replicaVectors))
			}
			var diffs PointSet
			for _, p := range pts {
				diffs = append(diffs, pointMinus(p, base))
			}
			slices.SortFunc(diffs, comparePoints)
			if diffs.String() != replicaVectors.String() {
				t.Fatalf("%v: L(%d) - Base(%d) = %v, replica vectors %v", l, x, x, diffs, replicaVectors)
			}
			// Every point lies within Span.
			for _, p := range pts {
				for i, ar := range span {
					v, _ := p.Get(ar.Axis)
					if v < ar.Lo || v > ar.Hi {
						t.Fatalf("%v: L(%d) has %v, outside span %v", l, x, p, span)
					}
					reached[i][0] = reached[i][0] || v == ar.Lo
					reached[i][1] = reached[i][1] || v == ar.Hi
				}
			}
			// Injectivity of the shard when the no-overlap condition holds.
			if injective {
				key := base.String()
				if y, dup := seen[key]; dup {
					t.Fatalf("%v: shard iters do not overlap, yet Base(%d) = Base(%d) = %v", l, y, x, base)
				}
				seen[key] = x
			}
			// Any admitted shape reads the same element at the same flat index.
			shape := []int64{size}
			if e := l.Shard[0].Extent; size%e == 0 && size > e {
				shape = []int64{e, size / e}
			}
			coord := make([]int64, len(shape))
			rest := x
			for d := len(shape) - 1; d >= 0; d-- {
				coord[d] = rest % shape[d]
				rest /= shape[d]
			}
			viaCoord, err := l.Map(shape, coord)
			if err != nil || viaCoord.String() != pts.String() {
				t.Fatalf("%v: Map(%v, %v) = %v, %v; MapIndex(%d) = %v", l, shape, coord, viaCoord, err, x, pts)
			}
		}
		for i, ar := range span {
			if !reached[i][0] || !reached[i][1] {
				t.Fatalf("%v: span %v of axis %s is not attained at both ends", l, ar, ar.Axis)
			}
		}
		// Replicas that do not overlap never collide: |L(x)| is the replica count.
		if noOverlap(l.Replica) && int64(len(replicaVectors)) != count {
			t.Fatalf("%v: %d distinct replica vectors, %d combinations", l, len(replicaVectors), count)
		}
		// An iter of extent > 1 and stride 0 in the shard repeats a point.
		for _, it := range l.Shard {
			if it.Extent > 1 && it.Stride == 0 && injective {
				t.Fatalf("%v: noOverlap accepted a broadcast iter", l)
			}
		}
		if injective {
			injectiveSeen++
		}
		if noOverlap(l.Replica) && count > 1 {
			distinctReplicasSeen++
		}
	}
	// The conditional laws must have been exercised.
	if injectiveSeen < 100 || distinctReplicasSeen < 100 {
		t.Errorf("only %d injective shards and %d non-overlapping replica sets drawn", injectiveSeen, distinctReplicasSeen)
	}
}

func BenchmarkMapAt(b *testing.B) {
	for b.Loop() {
		for x := range int64(128) {
			if _, err := MapAt(tensorCoreTile, x); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkLayoutMapIndex(b *testing.B) {
	for i := range b.N {
		if _, err := tensorCoreTile.MapIndex(int64(i % 128)); err != nil {
			b.Fatal(err)
		}
	}
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}
