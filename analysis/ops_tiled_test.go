package analysis

import (
	"strings"
	"testing"
)

// copy_atom's element type: a second argument or CuTe's Copy_Atom<Op, T>
// spelling; each wrong form is refused at the argument that is wrong.
func TestCopyAtomElementType(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`copy_atom("SM75_U32x4_LDSM_N", "half_t")`, `copy_atom("SM75_U32x4_LDSM_N", "half_t")`},
		{`copy_atom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>")`, `copy_atom("SM75_U32x4_LDSM_N", "half_t")`},
		{`copy_atom("cute::Copy_Atom<SM75_U32x4_LDSM_N, cutlass::half_t>", "cutlass::half_t")`, `copy_atom("SM75_U32x4_LDSM_N", "cutlass::half_t")`},
		{`copy_atom("SM75_U32x4_LDSM_N")`, `copy_atom("SM75_U32x4_LDSM_N")`},
	} {
		v, err := EvalString(tc.src)
		if err != nil || v.String() != tc.want {
			t.Errorf("%s = %v (%v), want %s", tc.src, v, err, tc.want)
		}
	}
	for _, tc := range []struct{ src, code, msg string }{
		{"a = copy_atom(\"SM75_U32x4_LDSM_N\", \"bf16\")\nassert a is a\n", CodeType, "\"bf16\" is not an element type"},
		{"a = copy_atom(\"SM75_U32x4_LDSM_N\", \"quarter_t\")\nassert a is a\n", CodeType, "not an element type CuTe's copies move"},
		{"a = copy_atom(\"SM75_U32x4_LDSM_N\", 16)\nassert a is a\n", CodeType, "quoted string such as \"half_t\""},
		{"a = copy_atom(\"Copy_Atom<SM75_U32x4_LDSM_N, half_t>\", \"float\")\nassert a is a\n", CodeType, "already gives the element type half_t"},
		{"a = copy_atom(\"Copy_Atom<SM75_U32x4_LDSM_N, quarter_t>\")\nassert a is a\n", CodeType, "the element type quarter_t"},
		{"a = copy_atom(\"SM75_U32x4_LDSM_N\", \"half_t\", \"x\")\nassert a is a\n", CodeType, "not 3 arguments"},
		{"m = make_tiled_copy(copy_atom(\"SM75_U32x4_LDSM_N\"), (32,4):(4,1))\nassert m is m\n", CodeType, "has no element type"},
		{"m = make_tiled_mma(copy_atom(\"SM75_U32x4_LDSM_N\", \"half_t\"))\nassert m is m\n", CodeType, "is a copy atom, not an MMA atom"},
		{"m = make_tiled_copy(mma_atom(\"SM80_16x8x16_F32F16F16F32_TN\"), (32,4):(4,1))\nassert m is m\n", CodeType, "is an MMA atom, not a copy atom"},
		{"m = make_tiled_copy(copy_atom(\"SM75_U32x4_LDSM_N\", \"half_t\"), (32,4):(4,1), (1,2):(0,1))\nassert m is m\n", CodeAlgebra, "TiledCopy uses too few vals for selected CopyAtom"},
	} {
		s := AnalyzeSheet("t.cute", []byte(tc.src))
		f, ok := findingWithCode(s, tc.code)
		if !ok || !strings.Contains(f.Message, tc.msg) {
			t.Errorf("%q: findings %v, want %s with %q", tc.src, findingsOfSheet(s), tc.code, tc.msg)
		}
	}
}

// Template parameters reach the operation as trailing arguments, and one
// that does not evaluate is an error at itself.
func TestTemplateParameters(t *testing.T) {
	v, err := EvalString(`tile_size<2>(make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((2,2,1))))`)
	if err != nil || v.String() != "16" {
		t.Fatalf("tile_size<2> = %v, %v", v, err)
	}
	if v, err := EvalString(`get<1>((2,(3,4)):(1,(2,6)))`); err != nil || v.String() != "(3,4):(2,6)" {
		t.Errorf("get<1> = %v, %v", v, err)
	}
	s := AnalyzeSheet("t.cute", []byte("x = tile_size<nope>(make_layout(4))\n"))
	f, ok := findingWithCode(s, CodeUndefined)
	if !ok || string(s.Src[f.Range.Pos.Offset:f.Range.End.Offset]) != "nope" {
		t.Errorf("findings %v, want undefined at nope", findingsOfSheet(s))
	}
}
