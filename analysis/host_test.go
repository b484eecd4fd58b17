package analysis

import (
	"fmt"
	"strings"
	"testing"
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
	if len(h.Findings) != 1 || h.Findings[0].Code != CodeSyntax || h.Findings[0].Range.Pos.Line != 4 {
		t.Errorf("findings %v, want the one syntax error on line 4", findingsOfHost(h))
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
		"# ((2,2),4):((1,4),2)", "'''(4,8):(1,4)'''", "!cute.layout<\"(4,8):(1,4)\">", "// [4:1;8:1] o",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, name := range []string{"k.cu", "k.py", "k.mlir"} {
			h := AnalyzeHost(name, []byte(src))
			for _, d := range h.Descriptors {
				if d.Range.Pos.Offset < 0 || d.Range.End.Offset > len(src) || d.Range.Pos.Offset > d.Range.End.Offset {
					t.Fatalf("%s: descriptor range %+v outside the text", name, d.Range)
				}
			}
		}
	})
}
