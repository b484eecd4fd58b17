package bank

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

func ints(v ...int64) layout.IntTuple { return layout.Ints(v...) }

func lanes(f func(lane int) int64) (a [WarpSize]int64) {
	for i := range a {
		a[i] = f(i)
	}
	return a
}

func TestAnalyzeRule(t *testing.T) {
	cases := []struct {
		name   string
		in     Instruction
		wf     int
		ideal  int
		paired bool
	}{
		{"4B consecutive", Instruction{Op: Load, Width: 4, Addrs: lanes(func(l int) int64 { return 4 * int64(l) })}, 1, 1, false},
		{"4B stride 2 words", Instruction{Op: Load, Width: 4, Addrs: lanes(func(l int) int64 { return 8 * int64(l) })}, 2, 1, false},
		{"4B stride 32 words", Instruction{Op: Load, Width: 4, Addrs: lanes(func(l int) int64 { return 128 * int64(l) })}, 32, 1, false},
		{"4B broadcast", Instruction{Op: Load, Width: 4}, 1, 1, false},
		{"1B bytes of one word", Instruction{Op: Store, Width: 1, Addrs: lanes(func(l int) int64 { return int64(l % 4) })}, 1, 1, false},
		{"8B consecutive", Instruction{Op: Load, Width: 8, Addrs: lanes(func(l int) int64 { return 8 * int64(l) })}, 2, 2, false},
		{"16B consecutive", Instruction{Op: Load, Width: 16, Addrs: lanes(func(l int) int64 { return 16 * int64(l) })}, 4, 4, false},
		{"16B column of a 128B-row tile", Instruction{Op: Load, Width: 16, Addrs: lanes(func(l int) int64 { return 128 * int64(l) })}, 32, 4, false},
		// Paired loads: every lane at its neighbour's address.
		{"8B broadcast load", Instruction{Op: Load, Width: 8}, 1, 1, true},
		{"8B broadcast store", Instruction{Op: Store, Width: 8}, 2, 2, false},
		{"16B broadcast load", Instruction{Op: Load, Width: 16}, 2, 2, true},
		{"16B pairs i^1", Instruction{Op: Load, Width: 16, Addrs: lanes(func(l int) int64 { return 16 * int64(l/2) })}, 2, 2, true},
		{"16B pairs i^2", Instruction{Op: Load, Width: 16, Addrs: lanes(func(l int) int64 { return 16 * int64(l%2+2*(l/4)) })}, 2, 2, true},
		{"16B equal four apart: no pairing", Instruction{Op: Load, Width: 16, Addrs: lanes(func(l int) int64 { return 16 * int64(l%4) })}, 4, 4, false},
		{"ldmatrix x4 rows of 128B", Instruction{Op: LdMatrix, Width: 16, Matrices: 4, Addrs: lanes(func(l int) int64 { return 128 * int64(l) })}, 32, 4, false},
		{"ldmatrix x4 swizzled", Instruction{Op: LdMatrix, Width: 16, Matrices: 4, Addrs: lanes(func(l int) int64 { return 128*int64(l%8) + 16*int64((l%8)^(l/8)) })}, 4, 4, false},
		{"ldmatrix x1 ignores lanes 8..31", Instruction{Op: LdMatrix, Width: 16, Matrices: 1, Addrs: lanes(func(l int) int64 {
			if l < 8 {
				return 16 * int64(l)
			}
			return 0
		})}, 1, 1, false},
		{"stmatrix x2 same rows", Instruction{Op: StMatrix, Width: 16, Matrices: 2}, 2, 2, false},
	}
	for _, c := range cases {
		cost, err := Analyze(&c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if cost.Wavefronts != c.wf || cost.Ideal != c.ideal || c.in.Paired() != c.paired {
			t.Errorf("%s: %d wavefronts, ideal %d, paired %v; want %d, %d, %v", c.name, cost.Wavefronts, cost.Ideal, c.in.Paired(), c.wf, c.ideal, c.paired)
		}
		sum := 0
		for _, p := range cost.Phases {
			sum += p.Wavefronts
			worst := 0
			for _, n := range p.Words() {
				worst = max(worst, int(n))
			}
			if worst != p.Wavefronts {
				t.Errorf("%s: phase at lane %d costs %d but its fullest bank holds %d words", c.name, p.FirstLane, p.Wavefronts, worst)
			}
		}
		if sum != cost.Wavefronts || len(cost.Phases) != cost.Ideal {
			t.Errorf("%s: phases sum to %d over %d phases", c.name, sum, len(cost.Phases))
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	bad := []struct {
		in   Instruction
		want string
	}{
		{Instruction{Op: Load, Width: 3}, "1, 2, 4, 8 or 16"},
		{Instruction{Op: Store, Width: 32}, "1, 2, 4, 8 or 16"},
		{Instruction{Op: LdMatrix, Width: 8, Matrices: 4}, "16 bytes"},
		{Instruction{Op: StMatrix, Width: 16, Matrices: 3}, "1, 2 or 4"},
		{Instruction{Op: Op(9), Width: 4}, "unknown op"},
		{Instruction{Op: Load, Width: 8, Addrs: lanes(func(l int) int64 { return 4 })}, "not aligned"},
		{Instruction{Op: Load, Width: 4, Addrs: lanes(func(l int) int64 { return -4 })}, "negative"},
	}
	for _, b := range bad {
		if _, err := Analyze(&b.in); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%+v: error %v, want one saying %q", b.in.Op, err, b.want)
		}
		if _, err := AnalyzeAll([]Instruction{b.in}); err == nil {
			t.Errorf("AnalyzeAll accepted %+v", b.in.Op)
		}
	}
	if _, err := ParseOp("ldsm"); err == nil {
		t.Error("ParseOp accepted ldsm")
	}
	for _, o := range []Op{Load, Store, LdMatrix, StMatrix} {
		if p, err := ParseOp(o.String()); err != nil || p != o {
			t.Errorf("ParseOp(%s) = %v, %v", o, p, err)
		}
	}
}

// rowMajor is the R x C row-major layout (R,C):(C,1).
func rowMajor(r, c int64) layout.Layout { return layout.Make(ints(r, c), ints(c, 1)) }

func TestLowerVectorization(t *testing.T) {
	// 8 x 64 fp16 row-major; 32 threads, thread (t0, t1) reads row t1,
	// columns 8*t0 .. 8*t0+7. Coordinates are colexicographic over (8, 64): r + 8*c.
	tile := rowMajor(8, 64)
	tv := layout.Make(layout.Tup(ints(8, 4), layout.Int(8)), layout.Tup(ints(64, 1), layout.Int(8)))
	r, err := AnalyzeAccess(Access{Smem: layout.Box(tile), TV: tv, ElemBits: 16})
	if err != nil {
		t.Fatal(err)
	}
	if r.VectorBytes != 16 || r.ContiguousElems != 8 || len(r.Instructions) != 1 {
		t.Fatalf("want one 16-byte instruction, got %d of %d bytes (contiguous %d)", len(r.Instructions), r.VectorBytes, r.ContiguousElems)
	}
	// Asking for 64-bit accesses splits each vector in two.
	r, err = AnalyzeAccess(Access{Smem: layout.Box(tile), TV: tv, ElemBits: 16, VectorBits: 64})
	if err != nil {
		t.Fatal(err)
	}
	if r.VectorBytes != 8 || r.PerWarp != 2 || hasFinding(r.Findings, FindingVectorWidth, "") {
		t.Fatalf("64-bit request: %d instructions of %d bytes, findings %v", r.PerWarp, r.VectorBytes, r.Findings)
	}
	if r.Instructions[1].Addrs[0] != 8 {
		t.Errorf("second half of lane 0's vector at %d, want 8", r.Instructions[1].Addrs[0])
	}
	// Padding the rows by 4 elements keeps 8-byte alignment only: a 128-bit
	// request cannot be met.
	padded := layout.Make(ints(8, 64), ints(68, 1))
	r, err = AnalyzeAccess(Access{Smem: layout.Box(padded), TV: tv, ElemBits: 16, VectorBits: 128})
	if err != nil {
		t.Fatal(err)
	}
	if r.VectorBytes != 8 || !hasFinding(r.Findings, FindingVectorWidth, "aligned to only 8 bytes") {
		t.Errorf("padded rows: %d-byte accesses, findings %v", r.VectorBytes, r.Findings)
	}
	// Column-major storage: the row vectors are not contiguous at all.
	colMajor := layout.Make(ints(8, 64), ints(1, 8))
	r, err = AnalyzeAccess(Access{Smem: layout.Box(colMajor), TV: tv, ElemBits: 16, VectorBits: 128})
	if err != nil {
		t.Fatal(err)
	}
	if r.VectorBytes != 2 || r.ContiguousElems != 1 || r.PerWarp != 8 || !hasFinding(r.Findings, FindingVectorWidth, "runs of 1 element") {
		t.Errorf("column-major: %d x %d bytes, contiguous %d, findings %v", r.PerWarp, r.VectorBytes, r.ContiguousElems, r.Findings)
	}
	if !hasFinding(r.Findings, FindingConflict, "") {
		t.Errorf("column-major reads conflict 8 ways but no conflict finding: %v", r.Findings)
	}
	// 32 fp16 per thread is 64 bytes: four 16-byte instructions.
	wide := layout.Make(layout.Tup(layout.Int(32), layout.Int(32)), layout.Tup(layout.Int(32), layout.Int(1)))
	r, err = AnalyzeAccess(Access{Smem: layout.Box(layout.Make(layout.Int(1024), layout.Int(1))), TV: wide, ElemBits: 16})
	if err != nil {
		t.Fatal(err)
	}
	if r.VectorBytes != 16 || r.PerWarp != 4 || r.ContiguousElems != 32 {
		t.Errorf("64 bytes per thread: %d x %d bytes", r.PerWarp, r.VectorBytes)
	}
}

func hasFinding(fs []Finding, code, text string) bool {
	for _, f := range fs {
		if f.Code == code && strings.Contains(f.Message, text) {
			return true
		}
	}
	return false
}

func TestLowerSubByte(t *testing.T) {
	flat := layout.Make(layout.Int(4096), layout.Int(1))
	// 4-bit: two elements a byte; element e at byte e*4/8.
	one := layout.Make(layout.Int(32), layout.Int(3))
	p, err := Lower(Access{Smem: layout.Box(flat), TV: one, ElemBits: 4})
	if err != nil {
		t.Fatal(err)
	}
	if p.VectorBytes != 1 || p.Instructions[0].Addrs[5] != 15*4/8 {
		t.Errorf("4-bit single elements: width %d, lane 5 at %d", p.VectorBytes, p.Instructions[0].Addrs[5])
	}
	// 4-bit, 8 contiguous elements per thread: one 32-bit access.
	vec := layout.Make(ints(32, 8), ints(8, 1))
	p, err = Lower(Access{Smem: layout.Box(flat), TV: vec, ElemBits: 4})
	if err != nil {
		t.Fatal(err)
	}
	if p.VectorBytes != 4 || p.Instructions[0].Addrs[3] != 12 {
		t.Errorf("4-bit x8: width %d, lane 3 at %d", p.VectorBytes, p.Instructions[0].Addrs[3])
	}
	// 6-bit, 64 contiguous elements per thread (48 bytes, as CuTe packs
	// them): three 16-byte accesses.
	six := layout.Make(ints(32, 64), ints(64, 1))
	p, err = Lower(Access{Smem: layout.Box(layout.Make(layout.Int(4096), layout.Int(1))), TV: six, ElemBits: 6})
	if err != nil {
		t.Fatal(err)
	}
	if p.VectorBytes != 16 || p.PerWarp != 3 || p.Instructions[1].Addrs[1] != 48+16 {
		t.Errorf("6-bit x64: %d x %d bytes, lane 1 of the second at %d", p.PerWarp, p.VectorBytes, p.Instructions[1].Addrs[1])
	}
	// 6-bit, 4 contiguous elements (3 bytes) per thread: three byte accesses.
	p, err = Lower(Access{Smem: layout.Box(flat), TV: layout.Make(ints(32, 4), ints(4, 1)), ElemBits: 6})
	if err != nil {
		t.Fatal(err)
	}
	if p.VectorBytes != 1 || p.PerWarp != 3 || p.Instructions[2].Addrs[2] != 6+2 {
		t.Errorf("6-bit x4: %d x %d bytes", p.PerWarp, p.VectorBytes)
	}
	// 6-bit single elements, read as CuTe's sub-byte references read them:
	// the byte where each element starts, then the next byte for the lanes
	// whose element straddles into it (lanes 1, 2 mod 4), the rest off.
	p, err = Lower(Access{Smem: layout.Box(flat), TV: layout.Make(layout.Int(32), layout.Int(1)), ElemBits: 6, VectorBits: 32})
	if err != nil {
		t.Fatal(err)
	}
	if p.VectorBytes != 1 || p.PerWarp != 2 || !hasFinding(p.Findings, FindingVectorWidth, "element by element") {
		t.Fatalf("6-bit x1: %d x %d bytes, findings %v", p.PerWarp, p.VectorBytes, p.Findings)
	}
	first, second := p.Instructions[0], p.Instructions[1]
	if first.Inactive != 0 || first.Addrs[21] != 6*21/8 || second.Addrs[21] != 6*21/8+1 {
		t.Errorf("6-bit x1: lane 21 at bytes %d and %d", first.Addrs[21], second.Addrs[21])
	}
	for lane := 0; lane < WarpSize; lane++ {
		if want := lane%4 == 1 || lane%4 == 2; second.Active(lane) != want {
			t.Errorf("6-bit x1: lane %d active in the second access: %v, want %v", lane, second.Active(lane), want)
		}
	}
	r, err := AnalyzeAccess(Access{Smem: layout.Box(flat), TV: layout.Make(layout.Int(32), layout.Int(1)), ElemBits: 6})
	if err != nil {
		t.Fatal(err)
	}
	if r.Wavefronts != 2 || r.Ideal != 2 {
		t.Errorf("6-bit x1: %d wavefronts, ideal %d", r.Wavefronts, r.Ideal)
	}
	// ldmatrix cannot read sub-byte rows that do not fill whole bytes.
	if _, err := Lower(Access{Smem: layout.Box(flat), TV: layout.Make(ints(32, 3), ints(3, 1)), ElemBits: 6, Op: LdMatrix, Matrices: 4}); err == nil {
		t.Error("ldmatrix of 18-bit rows accepted")
	}
}

func TestLowerMatrix(t *testing.T) {
	// 16 x 64 fp16, rows of 128 bytes; x4 over a 16x16 block: lane l gives
	// row l%16, column block l/16.
	tile := rowMajor(16, 64)
	tv := layout.Make(layout.Tup(ints(16, 2), layout.Int(8)), layout.Tup(ints(1, 128), layout.Int(16)))
	for _, sw := range []bool{false, true} {
		var smem layout.Value = layout.Box(tile)
		want := 32 // each matrix: 8 rows 128 bytes apart, one bank group

		if sw {
			smem = layout.Composed{Outer: layout.Swizzle{B: 3, M: 3, S: 3}, Offset: layout.Int(0), Inner: tile}
			want = 4
		}
		r, err := AnalyzeAccess(Access{Smem: smem, TV: tv, ElemBits: 16, Op: LdMatrix, Matrices: 4})
		if err != nil {
			t.Fatal(err)
		}
		if r.Wavefronts != want || r.Ideal != 4 {
			t.Errorf("ldmatrix.x4 swizzled=%v: %d wavefronts (ideal %d), want %d", sw, r.Wavefronts, r.Ideal, want)
		}
	}
	// ldmatrix needs 16-byte rows.
	narrow := layout.Make(layout.Tup(layout.Int(32), layout.Int(4)), layout.Tup(layout.Int(64), layout.Int(1)))
	if _, err := Lower(Access{Smem: layout.Box(tile), TV: narrow, ElemBits: 16, Op: LdMatrix, Matrices: 4}); err == nil || !strings.Contains(err.Error(), "16-byte rows") {
		t.Errorf("8-byte rows for ldmatrix: %v", err)
	}
	if _, err := Lower(Access{Smem: layout.Box(tile), TV: tv, ElemBits: 16, Op: StMatrix, Matrices: 8}); err == nil {
		t.Error("stmatrix.x8 accepted")
	}
}

func TestLowerErrors(t *testing.T) {
	flat := layout.Make(layout.Int(1024), layout.Int(1))
	tv := layout.Make(layout.Int(32), layout.Int(1))
	bad := []struct {
		a    Access
		want string
	}{
		{Access{Smem: layout.Box(flat), TV: tv, ElemBits: 12}, "elements of 12 bits"},
		{Access{Smem: layout.Box(flat), TV: tv, ElemBits: 16, VectorBits: 48}, "48-bit access"},
		{Access{Smem: layout.Box(flat), TV: tv, ElemBits: 16, Op: Op(7)}, "unknown op"},
		{Access{Smem: nil, TV: tv, ElemBits: 16}, "no shared-memory layout"},
		{Access{Smem: layout.Int(3), TV: tv, ElemBits: 16}, "not a layout"},
		{Access{Smem: layout.Box(flat), TV: layout.Make(layout.Int(48), layout.Int(1)), ElemBits: 16}, "whole number of warps"},
		{Access{Smem: layout.Box(flat), TV: layout.Make(layout.Int(32), layout.Int(-1)), ElemBits: 16}, "negative"},
		{Access{Smem: layout.Box(layout.Make(layout.Int(1024), layout.Int(-1))), TV: tv, ElemBits: 16}, "negative"},
		{Access{Smem: layout.Box(layout.Make(ints(4, 8), layout.Int(1))), TV: tv, ElemBits: 16}, "not congruent"},
		{Access{Smem: layout.Box(layout.Make(layout.Int(8), ints(1, 2))), TV: tv, ElemBits: 16}, "not congruent"},
		{Access{Smem: layout.Box(layout.Make(layout.Unknown(), layout.Int(1))), TV: tv, ElemBits: 16}, "not known before run time"},
		{Access{Smem: layout.Box(layout.Make(layout.Int(8), layout.Basis(1, 0))), TV: tv, ElemBits: 16}, "scaled basis"},
		{Access{Smem: layout.Box(layout.Make(layout.Int(0), layout.Int(1))), TV: tv, ElemBits: 16}, "not positive"},
		{Access{Smem: layout.Box(layout.Make(ints(1<<40, 1<<40), ints(1, 1))), TV: tv, ElemBits: 16}, "overflows"},
		{Access{Smem: layout.Box(layout.Make(layout.Int(4), layout.Int(1<<62))), TV: tv, ElemBits: 16}, "overflow"},
		{Access{Smem: layout.Box(flat), TV: layout.Make(layout.Int(32), layout.Int(1<<61)), ElemBits: 16}, "overflow"},
		{Access{Smem: layout.Composed{Outer: layout.Swizzle{B: 3, M: 4, S: 2}, Offset: layout.Int(0), Inner: flat}, TV: tv, ElemBits: 16}, "is not a swizzle"},
		{Access{Smem: layout.Composed{Outer: layout.Swizzle{B: 3, M: 60, S: 3}, Offset: layout.Int(0), Inner: flat}, TV: tv, ElemBits: 16}, "past bit 62"},
		{Access{Smem: layout.Composed{Outer: layout.Swizzle{B: 3, M: 4, S: 3}, Offset: ints(1, 2), Inner: flat}, TV: tv, ElemBits: 16}, "not an integer"},
		{Access{Smem: layout.Composed{Outer: layout.Swizzle{B: 3, M: 4, S: 3}, Offset: layout.Int(-2048), Inner: flat}, TV: tv, ElemBits: 16}, "negative"},
		{Access{Smem: layout.Box(flat), TV: layout.Make(ints(32, 2), ints(2, 1)), ElemBits: 16, Op: LdMatrix, Matrices: 4}, "16-byte rows"},
		{Access{Smem: layout.Box(flat), TV: layout.Make(ints(1<<20, 1<<20), ints(1, 1)), ElemBits: 16}, "too many"},
		{Access{Smem: layout.Box(flat), TV: layout.Make(ints(32, 4), ints(1)), ElemBits: 16}, "thread, value"},
		{Access{Smem: layout.Box(flat), TV: layout.Make(layout.Tup(), layout.Tup()), ElemBits: 16}, "thread, value"},
	}
	for _, b := range bad {
		if _, err := Lower(b.a); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("smem %v, tv %v, %d bits: error %v, want one saying %q", b.a.Smem, b.a.TV, b.a.ElemBits, err, b.want)
		}
	}
	// Beyond the shared-memory layout's size the last mode extends, as in CuTe.
	p, err := Lower(Access{Smem: layout.Box(layout.Make(ints(4, 4), ints(1, 8))), TV: layout.Make(layout.Int(32), layout.Int(1)), ElemBits: 32})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Instructions[0].Addrs[17]; got != 4*(1+8*4) {
		t.Errorf("coordinate 17 of (4,4):(1,8) at byte %d, want %d", got, 4*(1+8*4))
	}
}

// TestEvalAgreesWithLayout checks the bulk evaluator against the layout
// package's Eval on random plain and swizzled layouts.
func TestEvalAgreesWithLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randTuple := func(depth int, leaf func() int64) (layout.IntTuple, layout.IntTuple) {
		var mk func(int) (layout.IntTuple, layout.IntTuple)
		mk = func(d int) (layout.IntTuple, layout.IntTuple) {
			if d == 0 || rng.IntN(3) == 0 {
				return layout.Int(int64(1 + rng.IntN(6))), layout.Int(leaf())
			}
			n := 1 + rng.IntN(2)
			sh, st := make([]layout.IntTuple, n), make([]layout.IntTuple, n)
			for i := range sh {
				sh[i], st[i] = mk(d - 1)
			}
			return layout.Tup(sh...), layout.Tup(st...)
		}
		return mk(depth)
	}
	for k := 0; k < 300; k++ {
		sh, st := randTuple(2, func() int64 { return int64(rng.IntN(40)) })
		inner := layout.Make(sh, st)
		var v layout.Value = layout.Box(inner)
		if k%2 == 1 {
			b := 1 + rng.IntN(3)
			v = layout.Composed{Outer: layout.Swizzle{B: b, M: rng.IntN(4), S: b + rng.IntN(3)}, Offset: layout.Int(int64(rng.IntN(64))), Inner: inner}
		}
		s, err := compileSmem(v)
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		for i := int64(0); i < s.inner.size+5; i++ {
			var want int64
			switch l := v.(type) {
			case *layout.Layout:
				want, err = l.Eval(i)
			case layout.Composed:
				want, err = l.Eval(i)
			}
			if err != nil {
				t.Fatalf("%v(%d): %v", v, i, err)
			}
			got, err := s.eval(i)
			if err != nil || got != want {
				t.Fatalf("%v(%d) = %d, %v; layout says %d", v, i, got, err, want)
			}
		}
	}
}

// TestRunCheckSound checks that every run the fast check proves
// consecutive is consecutive, on random layouts, swizzles and value modes.
func TestRunCheckSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	proven := 0
	for k := 0; k < 2000; k++ {
		n := 1 + rng.IntN(3)
		sh, st := make([]int64, n), make([]int64, n)
		for i := range sh {
			sh[i] = int64(1 << rng.IntN(5))
			st[i] = int64(rng.IntN(3)) * int64(1<<rng.IntN(6))
			if rng.IntN(2) == 0 {
				st[i] = 1
			}
		}
		var v layout.Value = layout.Box(layout.Make(ints(sh...), ints(st...)))
		if rng.IntN(2) == 0 {
			b := rng.IntN(4)
			s := b + rng.IntN(3)
			if rng.IntN(3) == 0 {
				s = -s
			}
			v = layout.Composed{Outer: layout.Swizzle{B: b, M: rng.IntN(5), S: s}, Offset: layout.Int(int64(rng.IntN(40))), Inner: *(v.(*layout.Layout))}
		}
		s, err := compileSmem(v)
		if err != nil {
			continue
		}
		V := int64(1 + rng.IntN(8))
		val, _ := compile(layout.Make(layout.Int(V), layout.Int(int64(1<<rng.IntN(4)))), "value")
		rc := newRunCheck(&s, &val)
		for c0 := int64(0); c0 < s.inner.size; c0++ {
			y, ok := rc.run(c0)
			if !ok {
				continue
			}
			proven++
			for i := int64(0); i < V; i++ {
				want, err := s.eval(c0 + i*val.stride[0])
				if err != nil || want != y+i {
					t.Fatalf("%v, value mode %d:%d from %d: value %d at %d (%v), proven %d", v, V, val.stride[0], c0, i, want, err, y+i)
				}
			}
		}
	}
	if proven < 1000 {
		t.Errorf("only %d runs proven", proven)
	}
}

// TestPhasesAgainstWords checks the slot-based costing against a direct
// count of distinct 4-byte words per bank, on random instructions.
func TestPhasesAgainstWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for k := 0; k < 3000; k++ {
		in := Instruction{Op: Op(rng.IntN(4)), Width: 1 << rng.IntN(5)}
		if in.Op.IsMatrix() {
			in.Width, in.Matrices = 16, 1<<rng.IntN(3)
		} else if rng.IntN(3) == 0 {
			in.Inactive = rng.Uint32()
		}
		pool := 1 + rng.IntN(40)
		for l := range in.Addrs {
			in.Addrs[l] = int64(in.Width) * int64(rng.IntN(pool)) * int64(1+rng.IntN(3))
		}
		cost, err := Analyze(&in)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range cost.Phases {
			var want [Banks]uint8
			seen := map[int64]bool{}
			for l := p.FirstLane; l < p.FirstLane+p.Lanes; l++ {
				if !in.Active(l) {
					continue
				}
				for w := in.Addrs[l] >> 2; w <= (in.Addrs[l]+int64(in.Width)-1)>>2; w++ {
					if !seen[w] {
						seen[w] = true
						want[w%Banks]++
					}
				}
			}
			worst := 0
			for _, n := range want {
				worst = max(worst, int(n))
			}
			if p.Words() != want || p.Wavefronts != worst {
				t.Fatalf("%s %d B lanes %d+%d: words %v, %d wavefronts; direct count %v, %d",
					in.Op, in.Width, p.FirstLane, p.Lanes, p.Words(), p.Wavefronts, want, worst)
			}
		}
	}
}

// TestInlineRunCheck lowers random swizzled tiles with and without the
// inline copy of the run check.
func TestInlineRunCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for k := 0; k < 400; k++ {
		rows, cols := int64(1<<(2+rng.IntN(5))), int64(1<<(2+rng.IntN(6)))
		inner := layout.Make(ints(rows, cols), ints(cols+int64(rng.IntN(2))*int64(rng.IntN(9)), 1))
		var smem layout.Value = layout.Box(inner)
		if rng.IntN(3) > 0 {
			b := 1 + rng.IntN(3)
			smem = layout.Composed{Outer: layout.Swizzle{B: b, M: rng.IntN(5), S: b + rng.IntN(4)}, Offset: layout.Int(int64(rng.IntN(3) * 8)), Inner: inner}
		}
		V := int64(1 << rng.IntN(4))
		if V > cols {
			V = cols
		}
		tr := int64(1 << rng.IntN(6))
		tv := layout.Make(layout.Tup(ints(32/min(tr, 32), min(tr, 32)), layout.Int(V), layout.Int(2)),
			layout.Tup(ints(rows*V*int64(rng.IntN(3)), int64(rng.IntN(3))), layout.Int(rows), layout.Int(int64(rng.IntN(5)))))
		a := Access{Smem: smem, TV: tv, ElemBits: 16}
		fast, err1 := Lower(a)
		noInlineRunCheck = true
		slow, err2 := Lower(a)
		noInlineRunCheck = false
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("%v %v: %v vs %v", smem, tv, err1, err2)
		}
		if err1 != nil {
			continue
		}
		if len(fast.Instructions) != len(slow.Instructions) {
			t.Fatalf("%v %v: %d vs %d instructions", smem, tv, len(fast.Instructions), len(slow.Instructions))
		}
		for i := range fast.Instructions {
			if fast.Instructions[i] != slow.Instructions[i] {
				t.Fatalf("%v %v: instruction %d differs", smem, tv, i)
			}
		}
	}
}
