package layout

import "testing"

func BenchmarkProbeCompositionOne(b *testing.B) {
	var as, bs []Layout
	for _, args := range goldenInputs(b, "composition") {
		x, ok1 := args[0].(Layout)
		y, ok2 := args[1].(Layout)
		if ok1 && ok2 && flatRank(x) == 2 && flatRank(y) == 2 {
			as, bs = append(as, x), append(bs, y)
		}
	}
	b.Logf("%d rank-2 cases; first %v o %v", len(as), as[0], bs[0])
	for _, n := range []int{1} {
		b.Run("", func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				k := i % n
				if _, err := Composition(as[k], bs[k]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var sinkBool bool

func BenchmarkProbeIsFlat(b *testing.B) {
	l := Layout{Shape: Tup(Int(2), Int(2)), Stride: Tup(Int(1), Int(2))}
	for range b.N {
		sinkBool = isFlatTuple(l.Shape) && isFlatTuple(l.Stride)
	}
}

func BenchmarkProbeFlatten(b *testing.B) {
	l := Layout{Shape: Tup(Int(2), Int(2)), Stride: Tup(Int(1), Int(2))}
	for range b.N {
		var sb, db [flatInline]int64
		as, ad, _ := flattenModes("composition", l, sb[:0], db[:0])
		as, ad, _, _ = coalesceXPaths(as, ad, nil)
		sinkBool = len(as) == len(ad)
	}
}

var sinkTuples []IntTuple

func BenchmarkProbeAlloc4(b *testing.B) {
	for range b.N {
		s := make([]IntTuple, 4)
		setInt(&s[0], 1)
		sinkTuples = s
	}
}
