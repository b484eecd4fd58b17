package layout

import "testing"

func BenchmarkSwizzleApply(b *testing.B) {
	sw := Swizzle{3, 4, 3}
	var sink int64
	for i := range b.N {
		v, _ := sw.Apply(int64(i))
		sink ^= v
	}
	_ = sink
}

func BenchmarkComposedEval(b *testing.B) {
	c := Composed{Swizzle{3, 3, 3}, Int(0), mustLayout("(8,64):(64,1)"), 0}
	for i := range b.N {
		if _, err := c.Eval(int64(i % 512)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkComposedRightInverse(b *testing.B) {
	c := Composed{Swizzle{3, 0, 3}, Int(0), mustLayout("(8,8):(8,1)"), 0}
	for range b.N {
		if _, err := Apply("right_inverse", c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecastLayout(b *testing.B) {
	l := mustLayout("((8,2),(4,16)):((1,128),(8,32))")
	for range b.N {
		if _, err := RecastLayout(l, 16, 32); err != nil {
			b.Fatal(err)
		}
	}
}
