package analysis

import (
	"strings"
	"testing"
)

func TestGmmaDescOp(t *testing.T) {
	// The SW128 K-major atom for 16-bit elements, tiled to 64x64, as CuTe prints it.
	v, err := EvalString("gmma_desc(tile_to_shape(Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1), (64,64)), 16)")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := v.(DescValue)
	if !ok {
		t.Fatalf("%T, want a DescValue", v)
	}
	if !strings.HasPrefix(v.String(), "0x") || !strings.Contains(d.Report.String(), "layout_type") {
		t.Errorf("descriptor %v, report:\n%s", v, d.Report)
	}
	if d.Report.Desc.Encode()>>62 != 1 {
		t.Errorf("layout_type bits %d, want 1 (SWIZZLE_128B on SM90)", d.Report.Desc.Encode()>>62)
	}
	s := AnalyzeSheet("t.cute", []byte("sA = tile_to_shape(Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1), (64,64))\nd = gmma_desc(sA, 16)\nassert d == "+d.Plain().String()+"\nu = gmma_desc(sA, 16, sm100)\nassert u is u\n"))
	if len(s.Findings) != 0 {
		t.Errorf("findings: %v", findingsOfSheet(s))
	}
	for _, tc := range []struct{ src, code, msg string }{
		{"x = gmma_desc((64,64):(72,1), 16)\nassert x is x\n", CodeNotCanonical, "gmma_desc: "},
		{"x = gmma_desc((64,64):(64,1))\nassert x is x\n", CodeType, "takes (smem, bits"},
		{"x = gmma_desc(8, 16)\nassert x is x\n", CodeType, "must be a layout"},
		{"x = gmma_desc((64,64):(64,1), (1,2))\nassert x is x\n", CodeType, "number of bits"},
		{"x = gmma_desc((64,64):(64,1), 16, sm70)\nassert x is x\n", CodeUndefined, "undefined: sm70"},
		{"x = gmma_desc((64,64):(64,1), 16, 7)\nassert x is x\n", CodeType, "sm90 or sm100"},
	} {
		s := AnalyzeSheet("t.cute", []byte(tc.src))
		f, ok := findingWithCode(s, tc.code)
		if !ok || !strings.Contains(f.Message, tc.msg) {
			t.Errorf("%q: findings %v, want %s containing %q", tc.src, findingsOfSheet(s), tc.code, tc.msg)
		}
	}
}
