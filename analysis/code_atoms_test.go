package analysis

import (
	"strings"
	"testing"
)

// codeValueAt is the value the code shows one byte into the first
// occurrence of marker in src.
func codeValueAt(t *testing.T, src, marker string) (string, bool) {
	t.Helper()
	c := ReadCode(LangCpp, []byte(src))
	at := strings.Index(src, marker)
	if at < 0 {
		t.Fatalf("no %q in the source", marker)
	}
	cv, ok := c.At(at + 1)
	return cv.Printed, ok
}

// atomsSrc is CUTLASS's tutorial sgemm_sm80.cu's atoms (gemm_tn), with
// the forms CuTe code writes them in besides.
const atomsSrc = `#include <cute/tensor.hpp>
using namespace cute;
using ElementA = cutlass::half_t;
template <class TA, class TB, class TC>
void gemm_tn() {
  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, cute::half_t>{},
                                    Layout<Shape<_16,_8>,Stride<_8,_1>>{},  // Thr layout 16x8 k-major
                                    Layout<Shape< _1,_8>>{});               // Val layout  1x8 k-major
  TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{},
                                 Layout<Shape<_2,_2>>{},    // 2x2x1 MMA Atoms
                                 Tile<_32,_32,_16>{});      // 32x32x16 Tiled MMA for LDSM
  Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A;
  auto s2r = make_tiled_copy_A(s2r_atom_A, mmaC);
  auto n = size(mmaC);
  auto ts = tile_size<0>(mmaC);
  auto la = mmaC.get_layoutA_TV();
  auto ls = copyA.get_layoutS_TV();
  auto ncopy = size(copyA);
  using TM = TiledMMA<MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>;
  using TM2 = decltype(make_tiled_mma(MMA_Atom<MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>>{}));
  auto d = Copy_Atom<DefaultCopy, float>{};
  auto u = Copy_Atom<UniversalCopy<uint128_t>, ElementA>{};
  auto m = MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{};
  auto fma = make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>>{});
  TiledMMA mmaT = make_tiled_mma(UniversalFMA<TC,TA,TB>{},
                                 Layout<Shape<_16,_16,_1>>{});  // sgemm_2.cu:297
  auto fmaAtom = MMA_Atom<UniversalFMA<typename TA::value_type>>{};
  // none:
  auto param = Copy_Atom<UniversalCopy<uint128_t>, TA>{};
  auto unknownType = Copy_Atom<UniversalCopy<uint128_t>, my_type>{};
  auto copyOp = SM75_U32x4_LDSM_N{};
  using Rank2 = TiledMMA<MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>, Layout<Shape<_2,_2>>>;
  auto other = MMA_Atom<other::SM80_16x8x16_F16F16F16F16_TN>{};
  auto misspelt = MMA_Atom<SM80_16x8x16_F16F16F16F16_NT>{};
}
`

// TestCodeAtoms checks atoms, TiledMMAs and TiledCopys written as CuTe
// code against CuTe C++'s print of them (g++ host build of the same
// statements against CUTLASS 4.x, the command in testdata/code/atoms/gen.py).
func TestCodeAtoms(t *testing.T) {
	mmaAtom16x8x16F16 := `MMA_Atom
  ThrID:      _32:_1
  Shape_MNK:  (_16,_8,_16)
  LayoutA_TV: ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))
  LayoutB_TV: ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))
  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))`
	ldsm := `Copy_Atom
  ThrID:        _32:_1
  ValLayoutSrc: (_32,_8):(_8,_1)
  ValLayoutDst: (_32,(_2,_4)):(_2,(_1,_64))
  ValLayoutRef: (_32,(_2,_4)):(_2,(_1,_64))
  ValueType:    16b`
	cpAsync := `Copy_Atom
  ThrID:        _1:_0
  ValLayoutSrc: (_1,_8):(_0,_1)
  ValLayoutDst: (_1,_8):(_0,_1)
  ValLayoutRef: (_1,_8):(_0,_1)
  ValueType:    16b`
	fmaAtom := `MMA_Atom
  ThrID:      _1:_0
  Shape_MNK:  (_1,_1,_1)
  LayoutA_TV: (_1,_1):(_0,_0)
  LayoutB_TV: (_1,_1):(_0,_0)
  LayoutC_TV: (_1,_1):(_0,_0)`
	universalFMA16x16 := "TiledMMA\n  ThrLayoutVMNK:  (_1,_16,_16,_1):(_0,_1,_16,_0)\n  PermutationMNK: (_,_,_)\n" + fmaAtom
	tiledMMA := "TiledMMA\n  ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_0)\n  PermutationMNK: (_32,_32,_16)\n" + mmaAtom16x8x16F16
	for _, c := range []struct{ marker, want string }{
		{"copyA =", "TiledCopy\n  Tiler_MN:       (_16,_64)\n  TiledLayout_TV: ((_8,_16),_8):((_128,_1),_16)\n" + cpAsync},
		{"mmaC =", tiledMMA},
		{"s2r_atom_A;", ldsm},
		{"s2r =", "TiledCopy\n  Tiler_MN:       (_32,_16)\n  TiledLayout_TV: ((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))\n" + ldsm},
		{"n =", "_128"},
		{"ts =", "_32"},
		{"la =", "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))"},
		{"ls =", "((_8,_16),(_8,_1)):((_128,_1),(_16,_0))"},
		{"ncopy =", "_128"},
		{"TM =", tiledMMA},
		{"TM2 =", "TiledMMA\n  ThrLayoutVMNK:  (_32,_1,_1,_1):(_1,_0,_0,_0)\n  PermutationMNK: (_,_,_)\n" + mmaAtom16x8x16F16},
		{"d =", "Copy_Atom\n  ThrID:        _1:_0\n  ValLayoutSrc: (_1,_1):(_0,_0)\n  ValLayoutDst: (_1,_1):(_0,_0)\n  ValLayoutRef: (_1,_1):(_0,_0)\n  ValueType:    32b"},
		{"u =", cpAsync},
		{"m =", mmaAtom16x8x16F16}, // F32 accumulators: the same thread-value layouts
		// UniversalFMA's traits do not depend on its element types, template parameters included.
		{"fma =", universalFMA16x16},
		{"mmaT =", universalFMA16x16},
		{"fmaAtom =", fmaAtom},
	} {
		got, ok := codeValueAt(t, atomsSrc, c.marker)
		if !ok || got != c.want {
			t.Errorf("%s: got (%v)\n%s\nwant\n%s", c.marker, ok, got, c.want)
		}
	}
	for _, marker := range []string{"param =", "unknownType =", "copyOp =", "Rank2 =", "other =", "misspelt ="} {
		if got, ok := codeValueAt(t, atomsSrc, marker); ok {
			t.Errorf("%s: no value expected, got\n%s", marker, got)
		}
	}
	if fs := ReadCode(LangCpp, []byte(atomsSrc)).Findings(); len(fs) > 0 {
		t.Errorf("findings in code CuTe accepts: %v", fs)
	}
}

// TestCodeAtomInlayHints: a bound atom or tiled atom gets an inlay hint,
// the head of CuTe's print on one line.
func TestCodeAtomInlayHints(t *testing.T) {
	c := ReadCode(LangCpp, []byte(atomsSrc))
	var labels []string
	for _, h := range c.InlayHints(0, len(atomsSrc)) {
		labels = append(labels, h.Label)
	}
	all := strings.Join(labels, "\n")
	for _, want := range []string{
		" = TiledCopy Tiler_MN: (_16,_64), TiledLayout_TV: ((_8,_16),_8",
		" = TiledMMA ThrLayoutVMNK: (_32,_2,_2,_1):(_1,_32,_64,_0), Per",
		" = Copy_Atom ThrID: _32:_1, ValLayoutSrc: (_32,_8):(_8,_1)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no hint %q among\n%s", want, all)
		}
	}
}

// TestCodeAtomNoValueComment: CuTe prints an atom on several lines, which
// a one-line comment cannot hold; no "value as a comment" action is offered.
func TestCodeAtomNoValueComment(t *testing.T) {
	c := ReadCode(LangCpp, []byte(atomsSrc))
	at := strings.Index(atomsSrc, "s2r =")
	for _, r := range c.Refactors(at + 1) {
		if strings.Contains(r.Fix.Title, "as a comment") {
			t.Errorf("offered %q", r.Fix.Title)
		}
	}
	at = strings.Index(atomsSrc, "la =")
	found := false
	for _, r := range c.Refactors(at + 1) {
		found = found || strings.Contains(r.Fix.Title, "as a comment")
	}
	if !found {
		t.Errorf("no value comment for a layout get_layoutA_TV gives")
	}
}

// TestCodeAtomCensus: the layouts written in a tiled atom's arguments
// (the atom's call is the root that holds them) count in Counts as the layouts of other roots do.
func TestCodeAtomCensus(t *testing.T) {
	src := "using namespace cute;\nauto c = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},\n  Layout<Shape<_16,_8>>{}, Layout<Shape<_1,_8>>{});\nusing TM = TiledMMA<MMA_Atom<SM80_16x8x8_F16F16F16F16_TN>, Layout<Shape<_2,_2,_1>>>;\n"
	c := ReadCode(LangCpp, []byte(src))
	if got, want := c.Counts(), (CodeCounts{Roots: 5, Evaluated: 5, Layouts: 3, Written: 3, WrittenValued: 3}); got != want {
		t.Errorf("Counts = %+v, want %+v", got, want)
	}
}

// TestUniversalFMASheet: sheets name UniversalFMA with its element types
// as CuTe writes them; without any, the finding says what it takes.
func TestUniversalFMASheet(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`mma_atom("UniversalFMA<float,float,float>")`, `mma_atom("UniversalFMA<float,float,float>")`},
		{`size(make_tiled_mma(mma_atom("UniversalFMA<half_t>"), make_layout((16,16,1))))`, "256"},
		// CuTe (testdata/code/atoms, A0031): (_128,(_1,(_1,_1))):(_1,(_0,(_0,_0)))
		{`get_layoutC_TV(make_tiled_mma(mma_atom("UniversalFMA<float>"), make_layout((16,8,1))))`, "(128,(1,(1,1))):(1,(0,(0,0)))"},
	} {
		v, err := EvalString(tc.src)
		if err != nil || v.String() != tc.want {
			t.Errorf("%s = %v (%v), want %s", tc.src, v, err, tc.want)
		}
	}
	s := AnalyzeSheet("t.cute", []byte("a = mma_atom(\"UniversalFMA\")\nassert a is a\n"))
	if f, ok := findingWithCode(s, CodeUnknownAtom); !ok || !strings.Contains(f.Message, "UniversalFMA takes the element types") {
		t.Errorf("findings %v", findingsOfSheet(s))
	}
}

// TestUniversalFMATemplateParamsTrusted: UniversalFMA<TC,TA,TB>'s
// template parameters are declared once, by their clause, so its hover
// carries no "may not be the value here" note.
func TestUniversalFMATemplateParamsTrusted(t *testing.T) {
	c := ReadCode(LangCpp, []byte(atomsSrc))
	h, ok := c.HoverAt(strings.Index(atomsSrc, "mmaT =") + 1)
	if !ok || h.Note != "" {
		t.Errorf("hover %v, note %q", ok, h.Note)
	}
}
