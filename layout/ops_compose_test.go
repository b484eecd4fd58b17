package layout

import (
	"testing"
)

// fuzzReader turns fuzz bytes into layouts: small shapes and strides
// mostly, sometimes zero, negative or near the int64 limits.
type fuzzReader struct {
	data []byte
	pos  int
}

func (r *fuzzReader) byte() byte {
	if r.pos >= len(r.data) {
		return 0
	}
	b := r.data[r.pos]
	r.pos++
	return b
}

func (r *fuzzReader) int(signed bool) int64 {
	b := r.byte()
	switch b {
	case 255:
		return 1 << 62
	case 254:
		return 1<<63 - 1
	case 253:
		if signed {
			return -1 << 63
		}
		return 3 << 61
	}
	v := int64(b % 17)
	if signed && b&0x80 != 0 {
		v = -v
	}
	return v
}

// stride is a stride leaf: mostly an integer, now and then a scaled basis.
func (r *fuzzReader) stride() IntTuple {
	v := r.int(true)
	if b := r.byte(); b >= 240 {
		return Basis(v, int(b%2), int(b/2%2))
	}
	return Int(v)
}

func (r *fuzzReader) layout() Layout {
	rank := 1 + int(r.byte()%4)
	var ss, dd []IntTuple
	for range rank {
		b := r.byte()
		if b&0x80 == 0 {
			ss, dd = append(ss, Int(r.int(false))), append(dd, r.stride())
			continue
		}
		var s, d []IntTuple
		for range 1 + int(b%3) {
			s, d = append(s, Int(r.int(false))), append(d, r.stride())
		}
		ss, dd = append(ss, Tup(s...)), append(dd, Tup(d...))
	}
	if rank == 1 && r.byte()&1 == 0 {
		return Layout{Shape: ss[0], Stride: dd[0]}
	}
	return Layout{Shape: Tup(ss...), Stride: Tup(dd...)}
}

// FuzzComposeOps feeds random layouts to composition, complement, the
// inverses, max_common_* and nullspace: none may panic, and the right
// inverse law holds wherever the numbers are small enough to evaluate.
func FuzzComposeOps(f *testing.F) {
	f.Add([]byte{1, 0, 4, 2, 0, 8, 1, 0, 3, 5, 19})
	f.Add([]byte{3, 0x81, 4, 1, 2, 4, 0, 8, 16, 0, 2, 3, 1, 0x80, 6, 2, 0, 12})
	f.Add([]byte{2, 0, 255, 1, 0, 4, 255, 0, 2, 253, 254})
	f.Add([]byte{2, 0, 0, 1, 0, 4, 0x83, 1, 0, 2, 0, 0, 0, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &fuzzReader{data: data}
		a, b := r.layout(), r.layout()
		m := r.int(false)
		tl := Tiler{}
		for i := range b.Shape.Len() {
			tl.Modes = append(tl.Modes, TilerMode{Layout: Layout{Shape: b.Shape.At(i), Stride: b.Stride.At(i)}, Skip: r.byte()%5 == 0})
		}
		_, _ = Composition(&a, &b)
		_, _ = CompositionTiler(a, tl)
		_, _ = compositionN(a, m)
		_, _ = Complement(&a)
		_, _ = ComplementTo(&a, Int(m))
		_, _ = ComplementTo(&a, b.Shape)
		_, _ = LeftInverse(a)
		_, _ = MaxCommonLayout(a, b)
		_, _ = MaxCommonVector(a, b)
		_, _ = Nullspace(a)
		inv, err := Deref(RightInverse(&a))
		if err != nil || !small(a) {
			return
		}
		for i := range sizeRef(inv) {
			if got := evalRef(a, evalRef(inv, i)); got != i {
				t.Fatalf("RightInverse(%v) = %v: A(R(%d)) = %d", a, inv, i, got)
			}
		}
	})
}

// small reports whether l's size and every product along it stay far from
// int64's limits (so the test-side reference arithmetic is exact).
func small(l Layout) bool {
	shape, stride := leavesRef(l)
	size := int64(1)
	for k := range shape {
		if shape[k] <= 0 || shape[k] > 64 || stride[k] > 1<<20 || stride[k] < -1<<20 {
			return false
		}
		size *= shape[k]
	}
	return size <= 1<<12
}
