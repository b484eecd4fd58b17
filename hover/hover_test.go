package hover

import (
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/layout"
)

func mustEval(t *testing.T, src string) layout.Value {
	t.Helper()
	v, err := analysis.EvalString(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v
}

func TestTableRank2(t *testing.T) {
	got, err := Table(mustEval(t, "(2,(2,2)):(4,(2,1))"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"    0   1   2   3 \n" +
		"   +---+---+---+---+\n" +
		"0  | 0 | 2 | 1 | 3 |\n" +
		"   +---+---+---+---+\n" +
		"1  | 4 | 6 | 5 | 7 |\n" +
		"   +---+---+---+---+\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestTableRank1AndCut(t *testing.T) {
	got, err := Table(mustEval(t, "8:2"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "0  |  0 |  2 |  4 |  6 |  8 | 10 | 12 | 14 |") {
		t.Errorf("rank 1 is one row:\n%s", got)
	}
	got, err = Table(mustEval(t, "(64,32):(32,1)"), TableLimits{MaxRows: 4, MaxCols: 3, MaxSlices: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"... (3 of 32 columns)", "... (4 of 64 rows)", "3  | 96 | 97 | 98 |"} {
		if !strings.Contains(got, want) {
			t.Errorf("cut table lacks %q:\n%s", want, got)
		}
	}
}

func TestTableSlicesAndSwizzled(t *testing.T) {
	got, err := Table(mustEval(t, "(2,2,3):(1,2,4)"), TableLimits{MaxRows: 8, MaxCols: 8, MaxSlices: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"slice 1 of 3", "slice 2 of 3", "... 1 more slices not shown", "1  | 5 | 7 |"} {
		if !strings.Contains(got, want) {
			t.Errorf("sliced table lacks %q:\n%s", want, got)
		}
	}
	got, err = Table(mustEval(t, "Sw<1,0,1> o 0 o (2,2):(1,2)"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "1  | 1 | 2 |") {
		t.Errorf("swizzled table:\n%s", got)
	}
	if _, err := Table(mustEval(t, "Sw<3,4,3>"), DefaultLimits); err == nil {
		t.Errorf("a swizzle alone has no offset table")
	}
}

func TestValueFacts(t *testing.T) {
	got := Value(mustEval(t, "(2,4):(1,2)"), DefaultOptions)
	for _, want := range []string{"```cute\n(2,4):(1,2)\n```", "rank 2 · depth 1 · size 8 · cosize 8", "bijective onto [0, cosize)", "first 8 elements contiguous", "coalesced: `8:1`"} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
	got = Value(mustEval(t, "(4,2):(0,1)"), DefaultOptions)
	if !strings.Contains(got, "not injective") {
		t.Errorf("broadcast layout:\n%s", got)
	}
	got = Value(mustEval(t, "Sw<2,0,2>"), DefaultOptions)
	if !strings.Contains(got, "  1 |  1  0  3  2") {
		t.Errorf("swizzle permutation:\n%s", got)
	}
}

func TestTargetSteps(t *testing.T) {
	src := "A = (4,6):(1,4)\nB = logical_divide(A, 2:3)\nC = composition((8,8):(8,1), (2,2):(1,8))\nD = logical_product(4:1, 3:1)\n"
	s := analysis.AnalyzeSheet("t.cute", []byte(src))
	line := func(n int) int { return len(strings.Join(strings.Split(src, "\n")[:n-1], "\n")) + 1 }
	for _, tc := range []struct {
		off  int
		want []string
	}{
		{line(2) + 5, []string{"logical_divide(", "complement(B, size(A) = 24) = `(3,4):(1,6)`", "A o (B, complement)"}},
		{line(3) + 5, []string{"B mode 0 `2:1` → `2:8`", "B mode 1 `2:8` → `2:1`"}},
		{line(4) + 5, []string{"complement(A, size(A)·cosize(B) = 12) = `3:4`", "(A, complement o B) = `(4,3):(1,4)`"}},
		{line(2) + 20, []string{"**A** (bound on line 1)", "(4,6):(1,4)"}},
	} {
		tg, ok := s.TargetAt(tc.off)
		if !ok {
			t.Fatalf("no target at %d", tc.off)
		}
		got := Target(tg, DefaultOptions)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("hover at %d lacks %q:\n%s", tc.off, w, got)
			}
		}
	}
}

func TestDescriptorHover(t *testing.T) {
	got := Value(mustEval(t, "gmma_desc(tile_to_shape(Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1), (64,64)), 16)"), DefaultOptions)
	for _, want := range []string{"```cute\n0x", "GmmaDescriptor: 0x", "leading_byte_offset", "stride_byte_offset", "layout_type"} {
		if !strings.Contains(got, want) {
			t.Errorf("descriptor hover lacks %q:\n%s", want, got)
		}
	}
}

func TestAtomHover(t *testing.T) {
	got := Value(mustEval(t, `mma_atom("SM80_16x8x16_F32F16F16F32_TN")`), DefaultOptions)
	for _, want := range []string{"MMA atom, 16 x 8 x 16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "A (M x K): thread and value", "T0V0", "C (M x N)"} {
		if !strings.Contains(got, want) {
			t.Errorf("MMA hover lacks %q:\n%s", want, got)
		}
	}
	got = Value(mustEval(t, `copy_atom("SM75_U32x4_LDSM_N")`), DefaultOptions)
	for _, want := range []string{"copy atom", "ldmatrix", "source (16-bit elements)", "destination (16-bit elements)"} {
		if !strings.Contains(got, want) {
			t.Errorf("copy hover lacks %q:\n%s", want, got)
		}
	}
}

func TestMemoryFacts(t *testing.T) {
	v := mustEval(t, "tile_to_shape(Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1), (64,64))")
	got := Value(v, DefaultOptions)
	for _, want := range []string{"spans 8192 bytes of half_t", "as a SM90 operand of half_t: tile_to_shape(Layout_K_SW128_Atom<16b>", "descriptor 0x"} {
		if !strings.Contains(got, want) {
			t.Errorf("hover lacks %q:\n%s", want, got)
		}
	}
	f32, _ := ElementNamed("float")
	got = Value(mustEval(t, "(8,64):(64,1)"), Options{Limits: DefaultLimits, Element: f32, Arch: "sm80"})
	if !strings.Contains(got, "spans 2048 bytes of float") || strings.Contains(got, "operand") {
		t.Errorf("float, sm80:\n%s", got)
	}
	if _, ok := ElementNamed("quux"); ok {
		t.Errorf("an unknown type has no width")
	}
}

// TestHoverShowsTheOffsetTable: a layout's hover ends with its offset
// table, as CuTe's print_layout arranges it, in a text block: on a value,
// on a sheet's binding, and cut to the editor's tableCap. Checked to fail
// with the table left out of valueWith.
func TestHoverShowsTheOffsetTable(t *testing.T) {
	const table = "```text\n" +
		"    0   1   2   3 \n" +
		"   +---+---+---+---+\n" +
		"0  | 0 | 2 | 1 | 3 |\n" +
		"   +---+---+---+---+\n" +
		"1  | 4 | 6 | 5 | 7 |\n" +
		"   +---+---+---+---+\n" +
		"```\n"
	if got := Value(mustEval(t, "(2,(2,2)):(4,(2,1))"), DefaultOptions); !strings.HasSuffix(got, "\n"+table) {
		t.Errorf("value hover does not end with the offset table:\n%s\nwant it to end with\n%s", got, table)
	}
	src := "L = (2,(2,2)):(4,(2,1))\n"
	tg, ok := analysis.AnalyzeSheet("t.cute", []byte(src)).TargetAt(0)
	if !ok {
		t.Fatal("no target on the binding's name")
	}
	if got := Target(tg, DefaultOptions); !strings.HasSuffix(got, "\n"+table) {
		t.Errorf("binding hover does not end with the offset table:\n%s", got)
	}
	capped := DefaultOptions
	capped.Limits.MaxRows, capped.Limits.MaxCols = 2, 3
	got := Value(mustEval(t, "(64,32):(32,1)"), capped)
	for _, want := range []string{"```text\n     0    1    2   ... (3 of 32 columns)\n", "1  | 32 | 33 | 34 |", "... (2 of 64 rows)"} {
		if !strings.Contains(got, want) {
			t.Errorf("capped hover lacks %q:\n%s", want, got)
		}
	}
}

// TestCodeHoverSteps: a hover on a call in code shows the steps a sheet's
// call shows, from the call's operation and operands; none without them.
func TestCodeHoverSteps(t *testing.T) {
	a := layout.Make(layout.Ints(8, 4), layout.Ints(4, 1))
	b := layout.Make(layout.Ints(4, 2), layout.Ints(1, 8))
	v, err := layout.Composition(&a, &b)
	if err != nil {
		t.Fatal(err)
	}
	base := analysis.CodeHover{CodeValue: analysis.CodeValue{Value: v, Printed: v.Format(true)}}
	with := base
	with.Op, with.Args = "composition", []layout.Value{layout.Box(a), layout.Box(b)}
	if got := Code(with, DefaultOptions); !strings.Contains(got, "**Steps** (A o B") || !strings.Contains(got, "B mode 1 `2:8` → `2:1`") {
		t.Errorf("no steps:\n%s", got)
	}
	for _, h := range []analysis.CodeHover{base,
		{CodeValue: base.CodeValue, Op: "composition", Args: []layout.Value{layout.Int(3), layout.Box(b)}}, // not a layout
		{CodeValue: base.CodeValue, Op: "composition", Args: []layout.Value{layout.Box(a)}},                // one operand
		{CodeValue: base.CodeValue, Op: "coalesce", Args: []layout.Value{layout.Box(a), layout.Box(b)}},    // no steps for it
	} {
		if got := Code(h, DefaultOptions); strings.Contains(got, "Steps") {
			t.Errorf("steps for %s%v:\n%s", h.Op, h.Args, got)
		}
	}
	noted := base
	noted.Note = "the value at this point"
	if got := Code(noted, DefaultOptions); !strings.Contains(got, "```\n\nthe value at this point\n") {
		t.Errorf("no note after the value:\n%s", got)
	}
}
