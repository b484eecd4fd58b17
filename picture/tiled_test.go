package picture

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
)

const sm80MMA = `make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((2,2,1)))`

// blockLabel is the label of element (r, c) of block b.
func blockLabel(g *Grid, b, r, c int) string { return label(g, 0, r, g.Blocks[b].Col0+c) }

// TestTiledMMASingleAtomByHand: one SM80 16x8x16 atom, the C fragment as
// the PTX ISA draws it (T = 4*groupID + thread in group; c0,c1 in row
// groupID, c2,c3 eight rows down; columns 2*t+v%2).
func TestTiledMMASingleAtomByHand(t *testing.T) {
	g, err := FromTiledMMA(eval(t, `make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((1,1,1)))`).(tiled.TiledMMA))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Blocks) != 3 || g.Blocks[0].Name != "A (M x K)" || g.Blocks[1].Name != "B (N x K)" || g.Blocks[2].Name != "C (M x N)" {
		t.Fatalf("blocks %+v", g.Blocks)
	}
	if b := g.Blocks; b[0].Rows != 16 || b[0].Cols != 16 || b[1].Rows != 8 || b[1].Cols != 16 || b[2].Rows != 16 || b[2].Cols != 8 || b[1].Col0 != 17 || b[2].Col0 != 34 {
		t.Fatalf("block sizes %+v", b)
	}
	if g.Rows != 16 || g.Cols != 16+1+16+1+8 {
		t.Fatalf("grid %dx%d", g.Rows, g.Cols)
	}
	for th := range 32 {
		for v := range 4 {
			m, n := th/4+8*(v/2), 2*(th%4)+v%2
			if got, want := blockLabel(g, 2, m, n), "T"+strconv.Itoa(th)+" V"+strconv.Itoa(v); got != want {
				t.Errorf("C (%d,%d) = %q, want %q", m, n, got, want)
			}
		}
	}
	// A: a0,a1 row groupID columns 2t+v; a2,a3 eight rows down; a4..a7 eight columns right.
	for th := range 32 {
		for v := range 8 {
			m, k := th/4+8*(v/2%2), 2*(th%4)+v%2+8*(v/4)
			if got, want := blockLabel(g, 0, m, k), "T"+strconv.Itoa(th)+" V"+strconv.Itoa(v); got != want {
				t.Errorf("A (%d,%d) = %q, want %q", m, k, got, want)
			}
		}
	}
	// B (N x K): b0,b1 at n = groupID, k = 2t+v; b2,b3 eight k further.
	if got := blockLabel(g, 1, 1, 2); got != "T5 V0" {
		t.Errorf("B (1,2) = %q, want T5 V0", got)
	}
	if got := blockLabel(g, 1, 0, 9); got != "T0 V3" {
		t.Errorf("B (0,9) = %q, want T0 V3", got)
	}
	// The gap columns and the rows below B are blank.
	for _, c := range []int{16, 33} {
		if g.BlockAt(0, c) >= 0 || g.Label(g.cell(0, 0, c)) != nil || g.KeyOf(g.cell(0, 0, c)) != -1 {
			t.Errorf("gap column %d is not blank", c)
		}
	}
	if g.BlockAt(8, 17) >= 0 || g.Label(g.cell(0, 8, 17)) != nil {
		t.Errorf("row 8 under B (8 rows) is not blank")
	}
}

// TestTiledMMAAgreesWithLayoutTV: every element of A, B and C of a 2x2
// TiledMMA shows the first (thread, value), threads outer, that
// get_layoutX_TV, evaluated by the sheet, sends there.
func TestTiledMMAAgreesWithLayoutTV(t *testing.T) {
	g, err := FromTiledMMA(eval(t, sm80MMA).(tiled.TiledMMA))
	if err != nil {
		t.Fatal(err)
	}
	for b, x := range []struct{ name, tileR, tileC string }{{"A", "0", "2"}, {"B", "1", "2"}, {"C", "0", "1"}} {
		tv := eval(t, "get_layout"+x.name+"_TV("+sm80MMA+")").(*layout.Layout)
		M := eval(t, "tile_size<"+x.tileR+">("+sm80MMA+")").(layout.IntTuple).Value()
		N := eval(t, "tile_size<"+x.tileC+">("+sm80MMA+")").(layout.IntTuple).Value()
		if blk := g.Blocks[b]; int64(blk.Rows) != M || int64(blk.Cols) != N {
			t.Fatalf("%s: block %dx%d, tile %dx%d", x.name, blk.Rows, blk.Cols, M, N)
		}
		T, _ := layout.Size(tv.Shape.At(0))
		V, _ := layout.Size(tv.Shape.At(1))
		want := map[[2]int64]string{}
		for th := range T {
			for v := range V {
				r, err := tv.EvalCoord(layout.Tup(layout.Int(th), layout.Int(v)))
				if err != nil {
					t.Fatal(err)
				}
				i := r.Value()
				at := [2]int64{i % M, i / M}
				if _, ok := want[at]; !ok {
					want[at] = "T" + strconv.FormatInt(th, 10) + " V" + strconv.FormatInt(v, 10)
				}
			}
		}
		if int64(len(want)) != M*N {
			t.Fatalf("%s: %d of %d elements held", x.name, len(want), M*N)
		}
		for at, w := range want {
			if got := blockLabel(g, b, int(at[0]), int(at[1])); got != w {
				t.Errorf("%s (%d,%d) = %q, want %q", x.name, at[0], at[1], got, w)
			}
		}
	}
	if !strings.Contains(strings.Join(g.Notes, "\n"), "A: 512 tile elements held by more than one") {
		t.Errorf("notes do not say A is shared across the N threads: %q", g.Notes)
	}
}

// TestTiledCopySides: S and D of an ldmatrix copy, checked against get_layoutS/D_TV.
func TestTiledCopySides(t *testing.T) {
	const src = `make_tiled_copy(copy_atom("SM75_U32x4_LDSM_N", "half_t"), make_layout((32,4)), make_layout((1,8)))`
	g, err := FromTiledCopy(eval(t, src).(tiled.TiledCopy))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Blocks) != 2 || !strings.HasPrefix(g.Blocks[0].Name, "S ") || !strings.HasPrefix(g.Blocks[1].Name, "D ") {
		t.Fatalf("blocks %+v", g.Blocks)
	}
	for b, side := range []string{"S", "D"} {
		tv := eval(t, "get_layout"+side+"_TV("+src+")").(*layout.Layout)
		M := int64(g.Blocks[b].Rows)
		T, _ := layout.Size(tv.Shape.At(0))
		V, _ := layout.Size(tv.Shape.At(1))
		seen := map[int64]bool{}
		for th := range T {
			for v := range V {
				r, _ := tv.EvalCoord(layout.Tup(layout.Int(th), layout.Int(v)))
				i := r.Value()
				if seen[i] {
					continue
				}
				seen[i] = true
				want := "T" + strconv.FormatInt(th, 10) + " V" + strconv.FormatInt(v, 10)
				if got := blockLabel(g, b, int(i%M), int(i/M)); got != want {
					t.Errorf("%s (%d,%d) = %q, want %q", side, i%M, i/M, got, want)
				}
			}
		}
	}
	// D of this copy is the (32,4) threads x 8 values laid out plainly: T1 V0 at (1,0).
	if got := blockLabel(g, 1, 1, 0); got != "T1 V0" {
		t.Errorf("D (1,0) = %q, want T1 V0", got)
	}
}

func TestTiledSVGAndPage(t *testing.T) {
	g, err := FromTiledMMA(eval(t, sm80MMA).(tiled.TiledMMA))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := g.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	d := xml.NewDecoder(strings.NewReader(svg))
	rects := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := tok.(xml.StartElement); ok && s.Name.Local == "rect" {
			rects++
		}
	}
	cells := 0
	for _, blk := range g.Blocks {
		cells += blk.Rows * blk.Cols
	}
	if rects != cells+1 { // the background, and no rectangle in the gaps
		t.Errorf("%d rectangles, want %d cells + the background", rects, cells)
	}
	for _, name := range []string{">A (M x K)<", ">B (N x K)<", ">C (M x N)<"} {
		if !strings.Contains(svg, name) {
			t.Errorf("SVG has no heading %s", name)
		}
	}
	b.Reset()
	if err := g.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	_, data, _ := strings.Cut(b.String(), "const D = ")
	data, _, _ = strings.Cut(data, "\n")
	var page struct {
		Blocks []pageBlock `json:"blocks"`
	}
	if err := json.Unmarshal([]byte(data), &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Blocks) != 3 || page.Blocks[2].Col0 != g.Blocks[2].Col0 || page.Blocks[1].RowName != "n" {
		t.Errorf("page blocks %+v", page.Blocks)
	}
}

func TestTiledRefusals(t *testing.T) {
	big := eval(t, `make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((256,128,1)))`).(tiled.TiledMMA)
	if _, err := FromTiledMMA(big); err == nil || !strings.Contains(err.Error(), "pictures stop at") {
		t.Errorf("a 4096x1024 tiled MMA: %v, want the cell bound", err)
	}
	g, err := FromTiledMMA(eval(t, sm80MMA).(tiled.TiledMMA))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.CheckSVG(); err != nil {
		t.Errorf("a 32x50 picture fits an SVG: %v", err)
	}
	mid, err := FromTiledMMA(eval(t, `make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((16,32,1)))`).(tiled.TiledMMA))
	if err != nil {
		t.Fatal(err)
	}
	if err := mid.WriteSVG(io.Discard); err == nil || !strings.Contains(err.Error(), "an SVG stops at") {
		t.Errorf("a 256x290 tiled MMA as SVG: %v, want the SVG bound", err)
	}
	if _, err := FromTVOperands("x", nil); err == nil {
		t.Error("no operands: want an error")
	}
	if _, err := FromTVOperands("x", []TVOperand{{Name: "A", TV: *(eval(t, "(2,2):(1,2)").(*layout.Layout)), M: 2, N: 0}}); err == nil || !strings.Contains(err.Error(), "both extents must be positive") {
		t.Errorf("empty tile: %v", err)
	}
	if _, err := FromTVOperands("x", []TVOperand{{Name: "A", TV: *(eval(t, "(2,2):(1,8)").(*layout.Layout)), M: 2, N: 2}}); err == nil || !strings.Contains(err.Error(), "outside the 2x2 tile") {
		t.Errorf("out of the tile: %v", err)
	}
}
