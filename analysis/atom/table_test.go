package atom

import (
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

func mustMMA(t *testing.T, name string) *MMA {
	t.Helper()
	a, err := LookupMMA(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func holderAt(t *testing.T, g *Grid, r, c int64) string {
	t.Helper()
	hs := g.At(r, c)
	if len(hs) != 1 {
		t.Fatalf("%s (%d,%d): %d holders", g.Title, r, c, len(hs))
	}
	return hs[0].String()
}

// The fragments of mma.sync.m16n8k16 with f16 inputs as the PTX ISA lays
// them out: lane l, groupID l/4, l%4 its index in the group; A's a0,a1 at
// row groupID, columns 2*(l%4)+{0,1}; a2,a3 eight rows down; a4..a7 eight
// columns right. C's c0,c1 at row groupID, columns 2*(l%4)+{0,1}.
func TestGridMatchesPTXFragments(t *testing.T) {
	a := mustMMA(t, "SM80_16x8x16_F32F16F16F32_TN")
	g, err := a.Grid('A')
	if err != nil {
		t.Fatal(err)
	}
	for lane := int64(0); lane < 32; lane++ {
		row, col := lane/4, 2*(lane%4)
		for v, rc := range [][2]int64{{row, col}, {row, col + 1}, {row + 8, col}, {row + 8, col + 1},
			{row, col + 8}, {row, col + 9}, {row + 8, col + 8}, {row + 8, col + 9}} {
			want := Holder{lane, int64(v)}.String()
			if got := holderAt(t, g, rc[0], rc[1]); got != want {
				t.Errorf("A(%d,%d) = %s, PTX %s", rc[0], rc[1], got, want)
			}
		}
	}
	c, err := a.Grid('C')
	if err != nil {
		t.Fatal(err)
	}
	for lane := int64(0); lane < 32; lane++ {
		row, col := lane/4, 2*(lane%4)
		if got, want := holderAt(t, c, row+8, col+1), (Holder{lane, 3}).String(); got != want {
			t.Errorf("C(%d,%d) = %s, PTX %s", row+8, col+1, got, want)
		}
	}
}

func TestGridText(t *testing.T) {
	g, err := mustMMA(t, "SM80_8x8x4_F64F64F64F64_TN").Grid('A')
	if err != nil {
		t.Fatal(err)
	}
	want := "SM80_8x8x4_F64F64F64F64_TN A (M x K = 8 x 4)\n" +
		"m\\k     0     1     2     3\n" +
		"  0  T0V0  T1V0  T2V0  T3V0\n" +
		"  1  T4V0  T5V0  T6V0  T7V0\n"
	if got := g.String(); !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant prefix\n%s", got, want)
	}
	// An operand read through a shared-memory descriptor: every thread sees every element.
	gs, err := mustMMA(t, "SM90_64x8x16_F32F16F16_SS").Grid('B')
	if err != nil {
		t.Fatal(err)
	}
	if hs := gs.At(3, 5); len(hs) != 128 || !strings.Contains(gs.String(), "T0V43+127") {
		t.Errorf("GMMA B(3,5): %d holders\n%s", len(hs), gs.String()[:200])
	}
}

func TestCopyGrid(t *testing.T) {
	c, err := LookupCopy("SM75_U32x1_LDSM_N")
	if err != nil {
		t.Fatal(err)
	}
	// ldmatrix: thread l receives elements 2*(l%4), +1 of row l/4 of the 8x8 matrix ...
	d, err := c.Grid(Dst, 16, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows != 8 || d.Cols != 8 {
		t.Fatalf("%d x %d", d.Rows, d.Cols)
	}
	for lane := int64(0); lane < 32; lane++ {
		if got, want := holderAt(t, d, lane/4, 2*(lane%4)+1), (Holder{lane, 1}).String(); got != want {
			t.Errorf("dst (%d,%d) = %s, want %s", lane/4, 2*(lane%4)+1, got, want)
		}
	}
	// ... and threads 0..7 supply the row addresses: CuTe lets threads 8..31 repeat them.
	s, err := c.Grid(Src, 16, 0)
	if err != nil {
		t.Fatal(err)
	}
	if hs := s.At(3, 5); len(hs) != 4 || hs[0] != (Holder{3, 5}) || hs[1] != (Holder{11, 5}) {
		t.Errorf("src (3,5) held by %v", hs)
	}
	// Elements wider than what a thread holds contiguously are refused.
	tr, _ := LookupCopy("SM75_U16x2_LDSM_T")
	if _, err := tr.Grid(Dst, 32, 0); err == nil {
		t.Error("U16x2_LDSM_T destination in 32-bit elements: want an error")
	}
	for _, bad := range []struct {
		side Side
		bits int
		cols int64
	}{{'X', 16, 0}, {Src, 0, 0}, {Src, 48, 0}, {Src, 16, 7}} {
		if _, err := c.Grid(bad.side, bad.bits, bad.cols); err == nil {
			t.Errorf("Grid(%c, %d, %d): want an error", bad.side, bad.bits, bad.cols)
		}
	}
	if _, err := mustMMA(t, "SM80_8x8x4_F64F64F64F64_TN").Grid('D'); err == nil {
		t.Error("operand D: want an error")
	}
}

func TestSmemAccess(t *testing.T) {
	for _, tc := range []struct {
		name     string
		bits     int
		op       string
		matrices int
		trans    bool
		tv       string
	}{
		{"SM75_U32x4_LDSM_N", 16, "ldmatrix", 4, false, "(_32,_8):(_8,_1)"},
		{"SM75_U32x1_LDSM_N", 16, "ldmatrix", 1, false, "((_8,_4),_8):((_8,_0),_1)"},
		{"SM75_U16x8_LDSM_T", 16, "ldmatrix", 4, true, "(_32,_8):(_8,_1)"},
		{"SM90_U32x2_STSM_N", 8, "stmatrix", 2, false, "((_16,_2),_16):((_16,_0),_1)"},
	} {
		c, err := LookupCopy(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := c.SmemAccess(tc.bits)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if a.Op != tc.op || a.Matrices != tc.matrices || a.Trans != tc.trans || a.TV.Format(true) != tc.tv {
			t.Errorf("%s: %+v (TV %s), want %s x%d trans=%v %s", tc.name, a, a.TV.Format(true), tc.op, tc.matrices, tc.trans, tc.tv)
		}
	}
	c, _ := LookupCopy("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>")
	if _, err := c.SmemAccess(16); err == nil {
		t.Error("cp.async: want an error")
	}
	l, _ := LookupCopy("SM75_U32x4_LDSM_N")
	for _, bits := range []int{0, 48, -8} {
		if _, err := l.SmemAccess(bits); err == nil {
			t.Errorf("%d-bit elements: want an error", bits)
		}
	}
}

func TestDescribe(t *testing.T) {
	got := mustMMA(t, "SM80_16x8x16_F32F16F16F32_TN").Describe()
	for _, want := range []string{"16 x 8 x 16", "32 thread(s)", "PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
		"A uint32_t[4]", "B uint32_t[2]", "ALayout ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))"} {
		if !strings.Contains(got, want) {
			t.Errorf("MMA description lacks %q:\n%s", want, got)
		}
	}
	c, _ := LookupCopy("SM90_TMA_LOAD<NumBitsPerTMA=65536>")
	got = c.Describe()
	for _, want := range []string{"1 thread(s), 65536 bits", "rank 1..5", "SrcLayout (_1,_65536):(_0,_1)"} {
		if !strings.Contains(got, want) {
			t.Errorf("copy description lacks %q:\n%s", want, got)
		}
	}
	l, _ := LookupCopy("SM75_U32x4_LDSM_N")
	if got := l.Describe(); !strings.Contains(got, "source uint128_t[1], destination uint32_t[4]") {
		t.Errorf("ldmatrix description:\n%s", got)
	}
}

func TestGridWindow(t *testing.T) {
	g, err := mustMMA(t, "SM90_64x256x16_F32F16F16_SS").Grid('C')
	if err != nil {
		t.Fatal(err)
	}
	got := g.Window(2, 3)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 5 || !strings.HasSuffix(lines[2], " ...") || lines[4] != "(2 of 64 rows, 3 of 256 columns shown)" {
		t.Errorf("window:\n%s", got)
	}
	if !strings.HasPrefix(lines[2], "  0 T0V0 T0V1 T1V0") {
		t.Errorf("row 0: %q", lines[2])
	}
	if full := g.Window(100, 1000); full != g.String() || strings.Contains(full, "shown") {
		t.Error("a window larger than the grid is the whole grid")
	}
}

func TestRegisterTypes(t *testing.T) {
	a := mustMMA(t, "SM80_16x8x16_F32F16F16F32_TN")
	for _, tc := range []struct {
		r         Registers
		ptx, cons string
		count     int
	}{{a.RegA, "b32", "r", 4}, {a.RegB, "b32", "r", 2}, {a.RegC, "f32", "f", 4}, {a.RegD, "f32", "f", 4}} {
		if tc.r.PTXType() != tc.ptx || tc.r.Constraint() != tc.cons || tc.r.Count != tc.count {
			t.Errorf("%+v: %s %s", tc.r, tc.r.PTXType(), tc.r.Constraint())
		}
	}
	g := mustMMA(t, "SM90_64x64x16_F32F16F16_SS")
	if g.RegA.PTXType() != "b64" || g.RegA.Constraint() != "l" || !g.RegD.None() || g.RegD.PTXType() != "" || g.RegC.Count != 32 {
		t.Errorf("GMMA registers: %+v %+v %+v", g.RegA, g.RegC, g.RegD)
	}
	d := mustMMA(t, "SM80_8x8x4_F64F64F64F64_TN")
	if d.RegA.Constraint() != "d" {
		t.Errorf("F64: %+v", d.RegA)
	}
	l, _ := LookupCopy("SM75_U32x4_LDSM_N")
	if l.RegS.PTXType() != "" || l.RegD.Constraint() != "r" {
		t.Errorf("ldmatrix: %+v %+v", l.RegS, l.RegD)
	}
}

// Atoms no catalog holds, built to reach the error paths of the grids.
func TestGridErrors(t *testing.T) {
	l := func(shape, stride layout.IntTuple) layout.Layout { return layout.Make(shape, stride) }
	ints := func(vs ...int64) layout.IntTuple { return layout.Ints(vs...) }
	one := l(layout.Int(1), layout.Int(0))
	shape := layout.Ints(2, 2, 1)
	for _, tc := range []struct {
		name string
		a    MMA
	}{
		{"outside the tile", MMA{Name: "outside", ShapeMNK: shape, ThrID: one, ALayout: l(ints(1, 4), ints(0, 2)), CLayout: one, BLayout: one}},
		{"unknown extent", MMA{Name: "unknown", ShapeMNK: shape, ThrID: one, ALayout: l(layout.Tup(layout.Int(1), layout.Unknown()), ints(0, 1))}},
		{"too large", MMA{Name: "large", ShapeMNK: layout.Ints(1<<12, 1<<12, 1<<12), ThrID: one, ALayout: l(ints(1, 1<<24), ints(0, 1))}},
		{"bad thread id", MMA{Name: "thr", ShapeMNK: shape, ThrID: l(layout.Unknown(), layout.Int(1)), ALayout: l(ints(1, 4), ints(0, 1))}},
	} {
		if _, err := tc.a.Grid('A'); err == nil {
			t.Errorf("%s: want an error", tc.name)
		}
	}
	misaligned := Copy{Name: "misaligned", ThrID: one, SrcLayout: l(ints(1, 24), ints(0, 1)), DstLayout: l(ints(1, 24), ints(0, 1))}
	// 24 bits in 16-bit elements is not whole; 8-bit elements of a 24-bit copy are fine.
	if _, err := misaligned.Grid(Src, 16, 0); err == nil {
		t.Error("24 bits in 16-bit elements: want an error")
	}
	if _, err := misaligned.Grid(Src, 8, 0); err != nil {
		t.Errorf("24 bits in 8-bit elements: %v", err)
	}
	shifted := Copy{Name: "shifted", ThrID: l(layout.Int(2), layout.Int(1)), SrcLayout: l(ints(2, 16), ints(8, 1))}
	if _, err := shifted.Grid(Src, 16, 0); err == nil {
		t.Error("a thread starting inside an element: want an error")
	}
	oddThreads := Copy{Name: "odd", ThrID: one, SrcLayout: l(ints(1, 12), ints(0, 1))}
	if _, err := oddThreads.Grid(Src, 8, 0); err == nil {
		t.Error("12 bits a thread in 8-bit elements: want an error")
	}
	noCount := Copy{Name: "SM75_X_LDSM_N", SrcLayout: l(ints(32, 128), ints(128, 1)), PTX: "ldmatrix"}
	if _, err := noCount.SmemAccess(16); err == nil {
		t.Error("ldmatrix without a matrix count: want an error")
	}
}

// SM70's 8x8x4 MMA runs on a quad pair: lanes 0-3 and 16-19 (PTX ISA,
// mma.m8n8k4); the grid names them through ThrID.
func TestGridQuadPair(t *testing.T) {
	g, err := mustMMA(t, "SM70_8x8x4_F32F16F16F32_TN").Grid('C')
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, hs := range g.Cells {
		for _, h := range hs {
			seen[h.Thread] = true
		}
	}
	for _, lane := range []int64{0, 1, 2, 3, 16, 17, 18, 19} {
		if !seen[lane] {
			t.Errorf("lane %d holds no element of C", lane)
		}
	}
	if len(seen) != 8 {
		t.Errorf("C held by lanes %v", seen)
	}
}
