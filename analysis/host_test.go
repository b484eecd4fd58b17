package analysis

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/grammar"
)

func descriptorsOf(h *Host) []string {
	var out []string
	for _, d := range h.Descriptors {
		text := string(h.Src[d.Range.Pos.Offset:d.Range.End.Offset])
		if d.Err != nil {
			out = append(out, fmt.Sprintf("%d:%d %s = error", d.Range.Pos.Line, d.Range.Pos.Column, text))
		} else {
			out = append(out, fmt.Sprintf("%d:%d %s = %v", d.Range.Pos.Line, d.Range.Pos.Column, text, d.Value))
		}
	}
	return out
}

func TestHostCpp(t *testing.T) {
	src := `// Shared memory tile: (_8,_4):(_4,_1), swizzled as Sw<3,4,3> o _0 o (8,64):(64,1).
auto s = make_layout(make_shape(_8{}, _4{}));   // f(x) and (1, 2) are prose
/* block: ((2,2),4):((1,4),2)
   and a typo: (4,2:(1,4) */
const char* l = "(4,8):(1,4)";
const char* notes = "see (a, b): nothing here";
char c = '(';
auto r = R"x((16,8):(8,1))x";
// bases: (1@0, 8@1) and a tiler [4:1;8:1]; µ (4,8):(1,4) after non-ASCII
`
	h := AnalyzeHost("k.cu", []byte(src))
	want := []string{
		"1:24 (_8,_4):(_4,_1) = (8,4):(4,1)",
		"1:53 Sw<3,4,3> o _0 o (8,64):(64,1) = Sw<3,4,3> o 0 o (8,64):(64,1)",
		"3:11 ((2,2),4):((1,4),2) = ((2,2),4):((1,4),2)",
		"5:18 (4,8):(1,4) = (4,8):(1,4)",
		"8:14 (16,8):(8,1) = (16,8):(8,1)",
		"9:11 (1@0, 8@1) = (1@0,8@1)",
		"9:34 [4:1;8:1] = [4:1;8:1]",
		"9:47 (4,8):(1,4) = (4,8):(1,4)",
	}
	if got := descriptorsOf(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("descriptors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(h.Findings) != 1 || h.Findings[0].Code != CodeSyntax || h.Findings[0].Range.Pos.Line != 4 || h.Findings[0].Severity != SeverityError {
		t.Errorf("findings %v, want the one syntax error (a typo that ends its line after ':') on line 4", findingsOfHost(h))
	}
}

func TestHostPython(t *testing.T) {
	src := `# tv layout: ((32,4),(4,2)):((4,1),(128,512))
layout = cute.make_layout((4, 8), stride=(1, 4))
s = "(4, 8):(1, 4)"
doc = """A docstring with (2,4):(1,2) inside
and Sw<3,3,3> too."""
bad = '(4,8):(1,(2,3))'
plain = "8:1"
words = "time 10:30 (approx)"
`
	h := AnalyzeHost("k.py", []byte(src))
	want := []string{
		"1:14 ((32,4),(4,2)):((4,1),(128,512)) = ((32,4),(4,2)):((4,1),(128,512))",
		"3:6 (4, 8):(1, 4) = (4,8):(1,4)",
		"4:27 (2,4):(1,2) = (2,4):(1,2)",
		"5:5 Sw<3,3,3> = Sw<3,3,3>",
		"6:8 (4,8):(1,(2,3)) = error",
		"7:10 8:1 = 8:1",
	}
	if got := descriptorsOf(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("descriptors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(h.Findings) != 1 || h.Findings[0].Code != CodeIncongruent {
		t.Errorf("findings %v, want one incongruent", findingsOfHost(h))
	}
}

func TestHostMLIR(t *testing.T) {
	src := `func.func @k(%a: !cute.layout<"(4,8):(1,4)">) {
  %0 = cute.make_layout() : !cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)">
  // !cute.layout<"(9,9):(1,9)"> in a comment is not code
  %1 = cute.get() : !cute.tile<"[4:1;8:1]">
  %2 = foo() : !cute.layout<"(4,8:(1,4)">
}
`
	h := AnalyzeHost("k.mlir", []byte(src))
	want := []string{
		`1:18 !cute.layout<"(4,8):(1,4)"> = (4,8):(1,4)`,
		`2:29 !cute.composed_layout<"S<3,4,3> o 0 o (8,64):(64,1)"> = Sw<3,4,3> o 0 o (8,64):(64,1)`,
		`4:21 !cute.tile<"[4:1;8:1]"> = [4:1;8:1]`,
	}
	if got := descriptorsOf(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("descriptors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(h.Findings) != 1 || h.Findings[0].Code != CodeSyntax || h.Findings[0].Range.Pos.Line != 5 {
		t.Errorf("findings %v, want the syntax error on line 5", findingsOfHost(h))
	}
}

// TestHostMLIRAttributes: #cute.* attributes are read like types, types that
// are not descriptors are passed over, and a misspelt kind is reported.
func TestHostMLIRAttributes(t *testing.T) {
	src := "%0 = cute.x() {l = #cute.layout<\"(4,8):(1,4)\">} : !cute.ptr<f16, smem>\n" +
		"  // #cute.layout<\"(9,9):(1,9)\">\n" +
		"  %1 = cute.y : !cute.layuot<\"8:1\">, !cute.tile<[4:1;8:1]>\n"
	h := AnalyzeHost("k.mlir", []byte(src))
	want := []string{
		`1:20 #cute.layout<"(4,8):(1,4)"> = (4,8):(1,4)`,
		`3:38 !cute.tile<[4:1;8:1]> = [4:1;8:1]`,
	}
	if got := descriptorsOf(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("descriptors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f := findingsOfHost(h); len(f) != 1 || !strings.HasPrefix(f[0], "3:23 syntax: unknown CuTe type !cute.layuot") {
		t.Errorf("findings %v, want the misspelt kind on line 3", f)
	}
}

func TestHostUnterminated(t *testing.T) {
	for _, src := range []string{"/* (4,2):(1,2)", "const char* s = \"(4,2):(1,2)", "x = R\"(abc", "// (4,", "'"} {
		h := AnalyzeHost("k.cpp", []byte(src))
		_ = descriptorsOf(h)
	}
	for _, src := range []string{"'''(4,2):(1,2)", "\"(4,2", "#"} {
		AnalyzeHost("k.py", []byte(src))
	}
	if h := AnalyzeHost("k.txt", []byte("(4,2):(1,2)")); len(h.Descriptors) != 0 {
		t.Errorf("a .txt file is not read")
	}
}

func findingsOfHost(h *Host) []string {
	var out []string
	for _, f := range h.Findings {
		out = append(out, fmt.Sprintf("%d:%d %s: %s", f.Range.Pos.Line, f.Range.Pos.Column, f.Code, f.Message))
	}
	return out
}

// FuzzAnalyzeHost: any text, in any host language, is scanned without a
// panic, and every descriptor's range lies inside the text.
func FuzzAnalyzeHost(f *testing.F) {
	for _, seed := range []string{
		"// (4,8):(1,4)\n", "\"(4,2:(1,4)\"", "/* Sw<3,4,3> o (8,64):(64,1) */", "R\"x((16,8):(8,1))x\"",
		"// mA: gmem_ptr[16b](GMEM_ADDR_A + off) o (512,256):(256,_1)", "# Sw<3,4,3>_smem_ptr[16b](X) o 8:1, ArithTuple(_0,0) o (4,8):(1@0,1@1)",
		"// tmem_[32b](0x0000.0000 o (4,8", "# bits [15:0] and [31:16], arr((i, j))[0:4], (192, 1, 1): 6 warps", "/* S<3,4,3> o 0 o 8:1 */",
		"# ((2,2),4):((1,4),2)", "'''(4,8):(1,4)'''", "!cute.layout<\"(4,8):(1,4)\">", "// [4:1;8:1] o",
		"#include <cute/tensor.hpp>\nauto a = Layout<Shape<_4,_3>, Stride<_3,_1>>{};  // (_4,_3):(_1,_4)\nauto r = composition(a, Layout<_6>{});\n",
		"import cutlass.cute as cute\n# (8,8):(8,1)\nL = cute.make_layout((8, 8))\nr = cute.logical_divide(L, (2, 2, 2))\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, name := range []string{"k.cu", "k.py", "k.mlir"} {
			h := AnalyzeHost(name, []byte(src))
			sameCommentLayouts(t, name, h)
			for _, d := range h.Descriptors {
				if d.Range.Pos.Offset < 0 || int(d.Range.End.Offset) > len(src) || d.Range.Pos.Offset > d.Range.End.Offset {
					t.Fatalf("%s: descriptor range %+v outside the text", name, d.Range)
				}
			}
			for _, f := range h.Findings {
				if f.Range.Pos.Offset < 0 || int(f.Range.End.Offset) > len(src) || f.Range.Pos.Offset > f.Range.End.Offset {
					t.Fatalf("%s: finding range %+v outside the text", name, f.Range)
				}
			}
		}
	})
}

// TestHostProse: brackets of prose are not descriptors. Each line is one
// CUTLASS taught (a tuple and a colon of prose, bit ranges, a Python slice
// after a call, a range of values from zero in float8.h), beside the descriptors that must still be read.
func TestHostProse(t *testing.T) {
	src := `# - block=(192, 1, 1): 6 warps × 32 threads/warp = 192 threads
# - (8, 8, 2): 8 tiles in M, 8 tiles in K, 2 batches = 128 total tiles
# - (128, 64): One tile of A
# [15:0] for column index and [31:16] for lane/row index
# For 32-bit inputs, returns bits [63:32]. For 64-bit inputs, returns bits [127:64].
# Bits [31:24] are ignored.
# a vector slice: ` + "``arr.subview((i, j, k, l, 0))[0:4]``" + `
# (_8,_4):(_4,_1)
# ((_2,_2),_8):((_1,_16),_2)
s = "(4,8):(1,4)"
# layout: (4,8):(8,1)
# tiler [32:1] and [8:1;4:8], a spaced stride (4,8) : (1,4)
# an arbitrary tiler [16:2]
# the bitfield [7:4]
#   Range: [0:448]
#   [-8:8] and "[0:1]"
`
	h := AnalyzeHost("k.py", []byte(src))
	want := []string{
		"8:3 (_8,_4):(_4,_1) = (8,4):(4,1)",
		"9:3 ((_2,_2),_8):((_1,_16),_2) = ((2,2),8):((1,16),2)",
		"10:6 (4,8):(1,4) = (4,8):(1,4)",
		"11:11 (4,8):(8,1) = (4,8):(8,1)",
		"12:9 [32:1] = [32:1]",
		"12:20 [8:1;4:8] = [8:1;4:8]",
		"12:47 (4,8) : (1,4) = (4,8):(1,4)",
		"13:22 [16:2] = [16:2]",
	}
	if got := descriptorsOf(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("descriptors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(h.Findings) != 0 {
		t.Errorf("findings %v, want none", findingsOfHost(h))
	}
}

// TestHostSeverity: a descriptor that fails is an error where it stands
// alone (a whole string, a descriptor that ends its comment line with
// nothing or an introduction ending in ':' before it), a warning inside a
// sentence.
func TestHostSeverity(t *testing.T) {
	src := `// (4,8):(1,4,2)
// mA: gmem_ptr[16b](A) o (4,8):(1,4,2)
/* tile:
 * (4,8):(1,(2,3)).
 */
const char* s = "(4,8):(1,4,2)";
// the layout (4,8):(1,4,2) is wrong
// and a typo (4,2:(1,4)
// (4,2:(1,4)
const char* p = "see (4,8):(1,4,2) here";
`
	h := AnalyzeHost("k.cu", []byte(src))
	want := []string{
		"1:4 error incongruent",
		"2:27 error incongruent",
		"4:4 error incongruent",
		"6:18 error incongruent",
		"7:15 warning incongruent",
		"8:19 warning syntax",
		"9:8 error syntax",
		"10:22 warning incongruent",
	}
	var got []string
	for _, f := range h.Findings {
		got = append(got, fmt.Sprintf("%d:%d %v %s", f.Range.Pos.Line, f.Range.Pos.Column, f.Severity, f.Code))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHostTensorPrints: CuTe C++ tensor prints in comments are read whole,
// their layout evaluated; a swizzled pointer means CuTe's composed form.
func TestHostTensorPrints(t *testing.T) {
	src := `// mA:   gmem_ptr[16b](GMEM_ADDR_A) o (512,256):(256,_1)
// tCsA:   Sw<3,4,3>_smem_ptr[16b](SMEM_ADDR_A) o ((_128,_16),_1,_4):((_64,_1),_0,_16)
// tCtAcc: tmem_[32b](TMEM_ADDR) o ((_128,_256),_1,_1):((_65536,_1),_0,_0)
// gA:   ArithTuple(_0,0) o (_128,_64,4):(_1@1,_1@0,_64@0)
// host:	ptr[16b](ADDR_A) o (512,256):(256,_1), rmem_ptr[32b](0x7ffd2c1e0a40) o (_4,_8):(_1,_4)
// sub: subptr[4b](0x7f00.3) o (_32):(_1) and a pointer alone: gmem_ptr[16b](A), f(x) o y
// sA_layout:   Sw<3,4,3> o smem_ptr[16b](unset) o ((_128,_16),_1,_4):((_64,_1),_0,_16)
`
	h := AnalyzeHost("k.cu", []byte(src))
	want := []string{
		"1:10 gmem_ptr[16b](GMEM_ADDR_A) o (512,256):(256,_1) = (512,256):(256,1)",
		"2:12 Sw<3,4,3>_smem_ptr[16b](SMEM_ADDR_A) o ((_128,_16),_1,_4):((_64,_1),_0,_16) = Sw<3,3,3> o 0 o ((128,16),1,4):((64,1),0,16)",
		"3:12 tmem_[32b](TMEM_ADDR) o ((_128,_256),_1,_1):((_65536,_1),_0,_0) = ((128,256),1,1):((65536,1),0,0)",
		"4:10 ArithTuple(_0,0) o (_128,_64,4):(_1@1,_1@0,_64@0) = (128,64,4):(1@1,1@0,64@0)",
		"5:10 ptr[16b](ADDR_A) o (512,256):(256,_1) = (512,256):(256,1)",
		"5:49 rmem_ptr[32b](0x7ffd2c1e0a40) o (_4,_8):(_1,_4) = (4,8):(1,4)",
		"6:9 subptr[4b](0x7f00.3) o (_32):(_1) = (32):(1)",
		"7:17 Sw<3,4,3> o smem_ptr[16b](unset) o ((_128,_16),_1,_4):((_64,_1),_0,_16) = Sw<3,3,3> o 0 o ((128,16),1,4):((64,1),0,16)",
	}
	if got := descriptorsOf(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("descriptors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(h.Findings) != 0 {
		t.Errorf("findings %v, want none", findingsOfHost(h))
	}
}

// commentLayoutsReference is commentLayouts as it was before the scan
// kept each descriptor's region: the file split into comments and literals
// again (cppRegions, which passes over no asm statement; pythonRegions),
// each descriptor given to the region its offset lies in.
func (h *Host) commentLayoutsReference() []commentLayout {
	var regions []region
	switch h.Language {
	case LangCpp:
		regions = cppRegions(h.Src)
	case LangPython:
		regions = pythonRegions(h.Src)
	default:
		return nil
	}
	var out []commentLayout
	k := 0
	for _, r := range regions {
		var in []*Descriptor
		for k < len(h.Descriptors) && int(h.Descriptors[k].Range.Pos.Offset) < r.end {
			if int(h.Descriptors[k].Range.Pos.Offset) >= r.start {
				in = append(in, h.Descriptors[k])
			}
			k++
		}
		if r.literal || len(in) != 1 || in[0].Err != nil {
			continue
		}
		switch in[0].Node.(type) {
		case *grammar.Layout, *grammar.Composed:
			out = append(out, commentLayout{d: in[0], region: r})
		}
	}
	return out
}

// sameCommentLayouts fails t where commentLayouts, which takes each
// descriptor's comment from the scan, differs from the reference, which
// splits the file again.
func sameCommentLayouts(t *testing.T, name string, h *Host) {
	t.Helper()
	got, want := h.commentLayouts(), h.commentLayoutsReference()
	if reflect.DeepEqual(got, want) {
		return
	}
	t.Errorf("%s: commentLayouts gives %d comments, the reference %d", name, len(got), len(want))
	for i := range max(len(got), len(want)) {
		if i < len(got) {
			t.Logf("  got  %d: %+v", i, got[i].region)
		}
		if i < len(want) {
			t.Logf("  want %d: %+v", i, want[i].region)
		}
	}
}

// TestCommentLayoutsAsBefore: commentLayouts over the descriptor scan's
// seeds, asm statements it passes over, and CuTe's files (as the editor
// and lint scan them: AnalyzeHost, AnalyzeHostForFindings) is the
// reference's.
func TestCommentLayoutsAsBefore(t *testing.T) {
	seeds := append(slices.Clone(callScanSeeds),
		"auto a = make_layout(x); // (4,8):(1,4)\n// (2,2):(1,2) and (4,4):(1,4)\n/* (8,8):(8,1) */ \"(4,4):(4,1)\"",
		"asm(\"(4,8):(1,4)\" : \"r\"(x)); // (4,8):(1,4)\nasm(\"x\" /* (2,2):(1,2) */);\nasm(R\"((2,2):(1,2))\"); // (2,2):(1,2)",
		"# (8,8):(8,1)\nL = cute.make_layout((8, 8))  # (8,8):(8,1)\n'''(4,8):(1,4)'''\n\"\"\"(2,2):(1,2)\"\"\"",
	)
	for _, src := range seeds {
		for _, name := range []string{"k.cu", "k.py"} {
			sameCommentLayouts(t, name+": "+src, AnalyzeHost(name, []byte(src)))
		}
		sameCommentLayouts(t, "lint: "+src, AnalyzeHostForFindings("k.cu", []byte(src)))
	}
	n := 0
	eachCuteFile(func(p string, src []byte) {
		h := AnalyzeHost(p, src)
		n += len(h.commentLayouts())
		sameCommentLayouts(t, p, h)
		sameCommentLayouts(t, "lint: "+p, AnalyzeHostForFindings(p, src))
	})
	if n == 0 && cutlassRoot() != "" {
		t.Log("no comment layout in CuTe's files (no checkout?)")
	}
	if testing.Verbose() {
		t.Logf("%d comment layouts in CuTe's files", n)
	}
}
