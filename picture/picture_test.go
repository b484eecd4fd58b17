package picture

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

var update = flag.Bool("update", false, "rewrite the golden SVGs in testdata")

func eval(t *testing.T, src string) layout.Value {
	t.Helper()
	v, err := analysis.EvalString(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v
}

func grid(t *testing.T, src string) *Grid {
	t.Helper()
	g, err := FromLayout(eval(t, src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return g
}

// label is the one-line label of cell (k, r, c).
func label(g *Grid, k, r, c int) string { return strings.Join(g.Label(g.cell(k, r, c)), " ") }

func TestLayoutCells(t *testing.T) {
	g := grid(t, "(4,8):(8,1)")
	if g.Rows != 4 || g.Cols != 8 || g.Panels != 1 {
		t.Fatalf("got %dx%d x%d, want 4x8 x1", g.Rows, g.Cols, g.Panels)
	}
	for r := range 4 {
		for c := range 8 {
			if got, want := label(g, 0, r, c), strconv.Itoa(8*r+c); got != want {
				t.Errorf("cell (%d,%d) = %s, want %s", r, c, got, want)
			}
		}
	}
	// Rank 1: one column, as CuTe's print_latex appends a 1:0 mode.
	g = grid(t, "8:2")
	if g.Rows != 8 || g.Cols != 1 || g.Rank != 1 {
		t.Fatalf("8:2: got %dx%d rank %d, want 8x1 rank 1", g.Rows, g.Cols, g.Rank)
	}
	if got := label(g, 0, 5, 0); got != "10" {
		t.Errorf("8:2 row 5 = %s, want 10", got)
	}
	// Hierarchical modes: the row index runs colexicographically over mode 0.
	g = grid(t, "((2,2),3):((1,6),2)")
	if got := label(g, 0, 3, 2); got != "11" { // (1,1),2 -> 1 + 6 + 4
		t.Errorf("((2,2),3) cell (3,2) = %s, want 11", got)
	}
}

func TestHigherRankPanels(t *testing.T) {
	g := grid(t, "(2,3,(2,2)):(1,2,(6,12))")
	if g.Rows != 2 || g.Cols != 3 || g.Panels != 4 {
		t.Fatalf("got %dx%d x%d, want 2x3 x4", g.Rows, g.Cols, g.Panels)
	}
	// Panel k is index k of modes 2..: (1,1) is offset 18.
	if got := label(g, 3, 1, 2); got != strconv.Itoa(1+2*2+18) {
		t.Errorf("panel 3 cell (1,2) = %s, want 23", got)
	}
	if got := g.PanelLabel(3); got != "mode 2 = (1,1)" {
		t.Errorf("panel label %q", got)
	}
	if !strings.Contains(strings.Join(g.Notes, "\n"), "one panel per index of mode 2, as CuTe's print_tensor") {
		t.Errorf("notes do not say how the layout is folded: %q", g.Notes)
	}
	g = grid(t, "(2,2,2,3):(1,2,4,8)")
	if got := g.PanelLabel(5); got != "modes 2.. = (1,2)" || g.Panels != 6 {
		t.Errorf("rank 4: %d panels, panel 5 %q, want 6 and modes 2.. = (1,2)", g.Panels, got)
	}
}

// The swizzled offsets are the composed layout's own values: Sw<3,4,3>
// XORs bits 7..9 into bits 4..6.
func TestSwizzledOffsets(t *testing.T) {
	v := eval(t, "Sw<3,4,3> o 0 o (8,64):(64,1)")
	g, err := FromLayout(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		r, c int
		want string
	}{{0, 0, "0"}, {1, 0, "64"}, {2, 0, "144"}, {7, 16, "480"}, {7, 63, "463"}} {
		if got := label(g, 0, c.r, c.c); got != c.want {
			t.Errorf("cell (%d,%d) = %s, want %s", c.r, c.c, got, c.want)
		}
	}
	comp := v.(layout.Composed)
	for r := range 8 {
		for c := range 64 {
			want, _ := comp.Eval(int64(r + 8*c))
			if got := g.Offsets[g.cell(0, r, c)]; got != want {
				t.Fatalf("cell (%d,%d) = %d, composed layout gives %d", r, c, got, want)
			}
		}
	}
}

func TestBasisStrideCells(t *testing.T) {
	g := grid(t, "(2,3):(1@0,1@1)")
	if got := label(g, 0, 1, 2); got != "(1,2)" {
		t.Errorf("identity layout cell (1,2) = %q, want (1,2)", got)
	}
}

// SM80's 16x8 accumulator: thread t holds rows t/4 and t/4+8, columns
// 2(t%4) and 2(t%4)+1; value v is (column +v%2, row +8*(v/2)).
func TestTVSM80Accumulator(t *testing.T) {
	tv := eval(t, "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))").(*layout.Layout)
	g, err := FromTV(*tv, 16, 8)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for th := range 32 {
		for v := range 4 {
			m, n := th/4+8*(v/2), 2*(th%4)+v%2
			want := "T" + strconv.Itoa(th) + " V" + strconv.Itoa(v)
			if got := label(g, 0, m, n); got != want {
				t.Errorf("tile (%d,%d) = %q, want %q", m, n, got, want)
			}
			seen++
		}
	}
	if seen != g.Cells() {
		t.Errorf("%d pairs for %d cells", seen, g.Cells())
	}
	if g.Key[g.cell(0, 1, 0)] != 4 {
		t.Errorf("cells are coloured by thread: key %d at (1,0), want 4", g.Key[g.cell(0, 1, 0)])
	}
}

func TestTVBlankAndShared(t *testing.T) {
	// Two threads, two values, on a 4x2 tile: T0 and T1 both hold element 0 (broadcast).
	g, err := FromTV(*(eval(t, "(2,2):(0,2)").(*layout.Layout)), 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := label(g, 0, 0, 0); got != "T0 V0" {
		t.Errorf("first holder kept: %q", got)
	}
	if g.TV.Holders[g.cell(0, 0, 0)] != 2 || g.Label(g.cell(0, 1, 0)) != nil {
		t.Errorf("holders %v, blank label %q", g.TV.Holders, g.Label(g.cell(0, 1, 0)))
	}
	if n := strings.Join(g.Notes, "\n"); !strings.Contains(n, "6 tile elements held by no thread") || !strings.Contains(n, "2 tile elements held by more than one") {
		t.Errorf("notes: %q", n)
	}
}

func TestTVErrors(t *testing.T) {
	for _, c := range []struct {
		src   string
		m, n  int64
		error string
	}{
		{"8:1", 4, 2, "want rank 2"},
		{"(4,2):(1,4)", 4, 1, "outside the 4x1 tile"},
		{"(4,2):(1,4)", 0, 2, "must be positive"},
		{"(4,2):(1,4)", 4096, 4096, "pictures stop at"},
		{"(4,2):(1@0,1@2)", 4, 4, "maps to"}, {"(4,2):(1@0,1@1)", 4, 1, "outside the 4x1 tile"},
	} {
		_, err := FromTV(*(eval(t, c.src).(*layout.Layout)), c.m, c.n)
		if err == nil || !strings.Contains(err.Error(), c.error) {
			t.Errorf("%s over %dx%d: error %v, want %q", c.src, c.m, c.n, err, c.error)
		}
	}
}

// An 8-way conflict: lane t reads element (t%8, t/8) of a row-major 8x64
// fp16 tile, so the 8 lanes of each column hit one bank; the swizzle
// Sw<3,3,3> spreads them.
func TestBankPhase(t *testing.T) {
	v := eval(t, "bank_conflicts((8,64):(64,1), (32,8):(1,32), 16)").(analysis.BankValue)
	g, err := FromAccess(v.Access, v.Report, -1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Bank.Wavefronts != 8 || g.Bank.Phase != 0 {
		t.Fatalf("phase %d with %d wavefronts, want phase 0 with 8", g.Bank.Phase, g.Bank.Wavefronts)
	}
	for r := range 8 {
		for c := range 64 {
			i := g.cell(0, r, c)
			want := uint8(MarkNone)
			if c < 4 {
				want = MarkConflict
			}
			if g.Bank.Mark[i] != want {
				t.Errorf("cell (%d,%d) mark %d, want %d", r, c, g.Bank.Mark[i], want)
			}
		}
	}
	if lanes := g.Bank.CellLanes[g.cell(0, 3, 2)]; len(lanes) != 1 || lanes[0] != 19 {
		t.Errorf("cell (3,2) lanes %v, want [19]", lanes)
	}
	if got := label(g, 0, 0, 2); got != "2 b1" {
		t.Errorf("cell (0,2) = %q, want \"2 b1\" (16-bit element 2 is in word 1)", got)
	}
	v = eval(t, "bank_conflicts(Sw<3,3,3> o 0 o (8,64):(64,1), (32,8):(1,32), 16)").(analysis.BankValue)
	g, err = FromAccess(v.Access, v.Report, -1)
	if err != nil {
		t.Fatal(err)
	}
	touched := 0
	for _, m := range g.Bank.Mark {
		if m == MarkConflict {
			t.Fatal("a conflict-free access has a conflicting cell")
		}
		if m == MarkTouched {
			touched++
		}
	}
	if touched != 32 {
		t.Errorf("%d cells touched by one 32-lane phase of 2-byte loads, want 32", touched)
	}
	if _, err := FromAccess(v.Access, v.Report, 99); err == nil || !strings.Contains(err.Error(), "phases 0..") {
		t.Errorf("phase out of range: %v", err)
	}
}

func TestBankMapWithoutAccess(t *testing.T) {
	g, err := FromBanks(eval(t, "(2,4):(4,1)"), 64)
	if err != nil {
		t.Fatal(err)
	}
	if got := label(g, 0, 1, 1); got != "5 b10-11" {
		t.Errorf("64-bit element 5 = %q, want \"5 b10-11\"", got)
	}
	// Sub-byte elements share words: 4-bit element 8 starts bit 32 (word 1);
	// 6-bit element 16 starts bit 96 (word 3).
	g, err = FromBanks(eval(t, "32:1"), 4)
	if err != nil {
		t.Fatal(err)
	}
	if got, got7 := label(g, 0, 8, 0), label(g, 0, 7, 0); got != "8 b1" || got7 != "7 b0" {
		t.Errorf("4-bit elements 7 and 8 = %q, %q, want \"7 b0\", \"8 b1\"", got7, got)
	}
	g, _ = FromBanks(eval(t, "32:1"), 6)
	if got := label(g, 0, 16, 0); got != "16 b3" {
		t.Errorf("6-bit element 16 = %q, want \"16 b3\"", got)
	}
	if _, err := FromBanks(eval(t, "(2,4):(4,1)"), 12); err == nil {
		t.Error("12-bit elements accepted")
	}
	if _, err := FromBanks(eval(t, "(2,3):(1@0,1@1)"), 16); err == nil || !strings.Contains(err.Error(), "integer offsets") {
		t.Errorf("bank map of coordinates: %v", err)
	}
}

// The example of examples/tirx.cute: element (7,15) lives on lane 31,
// warps 6 and 10, register 1.
func TestTIRxOwners(t *testing.T) {
	v := eval(t, "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid").(tirx.Layout)
	g, err := FromTIRx(v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Rows != 8 || g.Cols != 16 {
		t.Fatalf("default shape %dx%d, want 8x16", g.Rows, g.Cols)
	}
	if got := label(g, 0, 7, 15); got != "L31 W6,10 m1" {
		t.Errorf("element (7,15) = %q, want \"L31 W6,10 m1\"", got)
	}
	if g.Key[g.cell(0, 7, 15)] != 31 {
		t.Errorf("coloured by lane: key %d", g.Key[g.cell(0, 7, 15)])
	}
	g, err = FromTIRx(v, []int64{2, 4, 16})
	if err != nil {
		t.Fatal(err)
	}
	if g.Panels != 2 || g.PanelLabel(1) != "leading modes = (1)" || label(g, 1, 3, 15) != "L31 W6,10 m1" {
		t.Errorf("(2,4,16): %d panels, %q, %q", g.Panels, g.PanelLabel(1), label(g, 1, 3, 15))
	}
	acc := eval(t, "S[(8192,1,2):(1@m,1@TLane,1@TCol)]").(tirx.Layout)
	if _, err := FromTIRx(acc, []int64{8192, 1, 2}); err == nil || !strings.Contains(err.Error(), "8192 panels") {
		t.Errorf("8192 panels: %v", err)
	}
	for _, shape := range [][]int64{{8, 8}, {-8, -16}, {}} {
		if _, err := FromTIRx(v, shape); err == nil {
			t.Errorf("shape %v accepted", shape)
		}
	}
}

func TestRefusals(t *testing.T) {
	for _, c := range []struct{ src, error string }{
		{"(2049,2048):(1,2049)", "pictures stop at 4194304"},
		{"(65536,65536,65536):(1,1,1)", "pictures stop at"},
		{"(2,3)", "not a layout"},
		{"(4,?):(1,4)", "mode 1"},
		{"(2,2,64,128):(1,2,4,256)", "8192 panels (one per index of modes 2..): pictures stop at 4096; group modes 1.. into the columns, e.g. group<1,4>(L)"},
	} {
		_, err := FromLayout(eval(t, c.src))
		if err == nil || !strings.Contains(err.Error(), c.error) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.error)
		}
	}
	g := grid(t, "(257,256):(256,1)")
	err := g.WriteSVG(io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cute-lsp html") {
		t.Errorf("257x256 SVG: %v, want a refusal pointing at the HTML page", err)
	}
	if err := grid(t, "(256,256):(256,1)").WriteSVG(io.Discard); err != nil {
		t.Errorf("256x256 SVG: %v", err)
	}
}

// Every SVG is XML that encoding/xml reads to the end.
func TestSVGWellFormed(t *testing.T) {
	tv, _ := FromTV(*(eval(t, "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))").(*layout.Layout)), 16, 8)
	bv := eval(t, "bank_conflicts((8,64):(64,1), (32,8):(1,32), 16)").(analysis.BankValue)
	bank, _ := FromAccess(bv.Access, bv.Report, -1)
	tirx, _ := FromTIRx(eval(t, "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid").(tirx.Layout), nil)
	for _, g := range []*Grid{grid(t, "Sw<3,4,3> o 0 o (8,64):(64,1)"), grid(t, "(2,3,2):(1,2,6)"), grid(t, "(2,3):(1@0,1@1)"), tv, bank, tirx} {
		var b bytes.Buffer
		if err := g.WriteSVG(&b); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(&b)
		elements := 0
		for {
			tok, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", g.Title, err)
			}
			if _, ok := tok.(xml.StartElement); ok {
				elements++
			}
		}
		if elements < g.Cells() {
			t.Errorf("%s: %d elements for %d cells", g.Title, elements, g.Cells())
		}
	}
}

func TestGoldenSVG(t *testing.T) {
	for name, src := range map[string]string{"small": "(2,3):(3,1)", "swizzled": "Sw<1,1,1> o 0 o (4,4):(4,1)"} {
		var b bytes.Buffer
		if err := grid(t, src).WriteSVG(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", name+".svg")
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./picture -run TestGoldenSVG -update writes it)", err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s: the SVG of %s differs from %s", name, src, path)
		}
	}
}

// Colours come from the key alone: the same layout draws the same bytes,
// and every fill has text of WCAG AA contrast (4.5:1) on it.
func TestColours(t *testing.T) {
	var a, b bytes.Buffer
	grid(t, "(8,8):(1,8)").WriteSVG(&a)
	grid(t, "(8,8):(1,8)").WriteSVG(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two drawings of one layout differ")
	}
	for _, p := range []Palette{NewRamp(100), NewCycle(32)} {
		for i, fill := range p.Fill {
			f, k := parseHex(fill), parseHex(p.Ink[i])
			l1, l2 := f.luminance(), k.luminance()
			ratio := (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
			if ratio < 4.5 {
				t.Errorf("fill %s ink %s: contrast %.2f < 4.5", fill, p.Ink[i], ratio)
			}
		}
	}
	if c := NewRamp(10); c.Colour(0) != 0 || c.Colour(10) != rampSteps-1 || c.Colour(-1) != -1 {
		t.Errorf("ramp ends: %d %d %d", c.Colour(0), c.Colour(10), c.Colour(-1))
	}
	if c := NewCycle(32); c.Colour(33) != 1 || c.Fill[0] == c.Fill[1] {
		t.Errorf("cycle: %d, %s %s", c.Colour(33), c.Fill[0], c.Fill[1])
	}
}

func parseHex(s string) rgb {
	v, _ := strconv.ParseUint(s[1:], 16, 32)
	return rgb{float64(v>>16) / 255, float64(v>>8&255) / 255, float64(v&255) / 255}
}

// The page embeds the grid as JSON, with nothing that could end its script.
func TestHTMLData(t *testing.T) {
	var b bytes.Buffer
	if err := grid(t, "Sw<3,4,3> o 0 o (8,64):(64,1)").WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if strings.Contains(s, dataMarker) || !strings.Contains(s, `"offsets":[0,1,`) || strings.Count(s, "</script>") != 1 {
		t.Error("page data not embedded once")
	}
	if !strings.Contains(s, `<title>Sw&lt;3,4,3&gt; o 0 o (8,64):(64,1)</title>`) || strings.Contains(s, "http://") || strings.Contains(s, "https://") {
		t.Error("title not escaped, or the page refers to the network")
	}
	if _, err := FromLayout(eval(t, "(2048,2048):(1,2048)")); err != nil {
		t.Errorf("a 2048x2048 grid, the largest page: %v", err)
	}
}
