package bank

import (
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// tile128 is a 128x128 fp16 tile, row-major (256-byte rows) and swizzled so
// that 16-byte chunks of 8 successive rows fall in 8 bank groups
// (Sw<3,3,4>: row bits 7-9 of the element offset onto chunk bits 3-5), read by 4 warps
// with 16-byte vectors: thread (c, r) reads row r + 8*step, columns
// 8c..8c+7, for 16 steps.
func tile128() Access {
	smem := layout.Composed{Outer: layout.Swizzle{B: 3, M: 3, S: 4}, Offset: layout.Int(0),
		Inner: layout.Make(layout.Ints(128, 128), layout.Ints(128, 1))}
	// Coordinates are colexicographic over (128, 128): r + 128*c.
	tv := layout.Make(
		layout.Tup(layout.Ints(16, 8), layout.Int(8), layout.Int(16)),
		layout.Tup(layout.Ints(1024, 1), layout.Int(128), layout.Int(8)))
	return Access{Smem: smem, TV: tv, ElemBits: 16}
}

func TestTile128(t *testing.T) {
	r, err := AnalyzeAccess(tile128())
	if err != nil {
		t.Fatal(err)
	}
	if r.Warps != 4 || r.PerWarp != 16 || r.VectorBytes != 16 || r.Wavefronts != 256 || r.Ideal != 256 {
		t.Errorf("128x128 fp16: %d warps x %d instructions of %d bytes, %d wavefronts (ideal %d); want 4 x 16 of 16, 256 (256)",
			r.Warps, r.PerWarp, r.VectorBytes, r.Wavefronts, r.Ideal)
	}
	// Sw<3,3,3> (the 128-byte-row swizzle) takes only two row bits here: 2-way.
	b := tile128()
	b.TV = layout.Make(
		layout.Tup(layout.Ints(8, 16), layout.Int(8), layout.Int(16)),
		layout.Tup(layout.Ints(1, 1024), layout.Int(128), layout.Int(8)))
	b.Smem = layout.Composed{Outer: layout.Swizzle{B: 3, M: 3, S: 3}, Offset: layout.Int(0), Inner: b.Smem.(layout.Composed).Inner}
	if r, err := AnalyzeAccess(b); err != nil {
		t.Error(err)
	} else if r.Wavefronts != 512 {
		t.Errorf("Sw<3,3,3> down the columns: %d wavefronts, want 512", r.Wavefronts)
	}
	// Read down the columns instead (thread (r, c): row r, columns 8c..),
	// each 8-lane phase reads 8 rows of one 16-byte column: 8-way unswizzled,
	// conflict-free swizzled.
	a := tile128()
	a.TV = layout.Make(
		layout.Tup(layout.Ints(8, 16), layout.Int(8), layout.Int(16)),
		layout.Tup(layout.Ints(1, 1024), layout.Int(128), layout.Int(8)))
	for _, sw := range []bool{true, false} {
		if !sw {
			a.Smem = layout.Box(a.Smem.(layout.Composed).Inner)
		}
		r, err = AnalyzeAccess(a)
		if err != nil {
			t.Fatal(err)
		}
		want := 256
		if !sw {
			want = 8 * 256
		}
		if r.Wavefronts != want {
			t.Errorf("down the columns, swizzled %v: %d wavefronts, want %d", sw, r.Wavefronts, want)
		}
	}
}

// BenchmarkBank128x128FP16 is the bank analysis of a 128x128 fp16 tile read
// by 4 warps (16384 elements, 64 warp instructions); target <= 50 us.
func BenchmarkBank128x128FP16(b *testing.B) {
	a := tile128()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeAccess(a); err != nil {
			b.Fatal(err)
		}
	}
}
