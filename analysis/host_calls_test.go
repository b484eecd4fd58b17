package analysis

import (
	"reflect"
	"slices"
	"testing"

	"github.com/cute-lsp/cute-lsp/source"
)

// callScanNames are the sets of names the scan's answer is checked with:
// lint's, and words of asm statements (int32_t, PTX's words, operand
// names), so that openers inside asm statements, in and out of their
// literals, are found to follow a name of the set.
var callScanNames = []*source.Names{
	findingNames,
	source.NewNames("int32_t", "uint32_t"),
	source.NewNames("r", "l", "n", "d0", "desc_a"),
	source.NewNames("f16", "f32", "p", "x", "a", "b", "asm", "volatile"),
}

// sameCallScan fails t where the descriptor scan with a callScan finds
// other regions than without, or answers otherwise than source.MayCall.
func sameCallScan(t *testing.T, name, src string) {
	t.Helper()
	b := []byte(src)
	want := slices.Collect(cppRegionSeq(b, true))
	for k, names := range callScanNames {
		c := newCallScan(b, names)
		if got := slices.Collect(cppRegionScan(b, true, c)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: names %d: the scan with calls gives %d regions, without %d", name, k, len(got), len(want))
		}
		if got, want := c.mayCall(), source.MayCall(b, names); got != want {
			t.Errorf("%s: names %d: the scan's MayCall = %v, source.MayCall %v", name, k, got, want)
		}
	}
}

var callScanSeeds = append(slices.Clone(jumpSeeds),
	"asm(\"{\\n\" : \"+r\"(d0) : \"n\"(int32_t(s)));",
	"asm volatile(\"x\" : : \"r\"(size(a)));",
	"asm volatile(\"x\" : : \"r\"(a)); make_layout(x);",
	"asm(\"size(\" \"p (\" \"\\{\" \"p\\\n(\" ); asm('<' \"x<\" : \"r\"(b<1>));",
	"asm(\"a\"\n#define X\n(b)); asm(\"a\" /\n(b)); asm(\"p\\\\\" (b) );",
	"asm volatile(\"f16 {%0}\" : \"+r\"(d0) \n : \"l\"(desc_a) {x}",
	"x asm(\"a\" : \"r\"(x)); y\n asm (\"b\" (x <y {z))) (",
	"asm(\"\\{\"); asm('\\(');",
	// Operands as operandEnd passes over them, and near misses.
	"asm(\"x\" : \"=r\"(d0), \"+f\"(d_1) : \"l\"(a)); asm(\"x\" : \"rr\"(d), \"R\"(e), \"r\"((f)), \"r\"(g h), \"+r\"(size), \"r\"(i",
	"asm(\"x\" : \"+r\"(d0)); asm(\"x\" : \"r\"(é)); asm(\"x\" : \"r\"(a)\"r\"(b)); asm(\"x\":\"r\"(", "asm(\"x\" : \"r\"(a) /* make_layout( */);",
)

func TestCallScanIsMayCall(t *testing.T) {
	for _, src := range callScanSeeds {
		sameCallScan(t, src, src)
	}
	eachCuteFile(func(p string, src []byte) { sameCallScan(t, p, string(src)) })
}

func FuzzCallScanIsMayCall(f *testing.F) {
	for _, src := range callScanSeeds {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) { sameCallScan(t, "fuzz", src) })
}

// AnalyzeHostForFindings is AnalyzeHostCode with ReadCodeForFindings's code.
func TestAnalyzeHostForFindings(t *testing.T) {
	for _, src := range append(slices.Clone(callScanSeeds),
		"auto l = make_layout(make_shape(2, 3), make_stride(4, 1)); // (2,3):(3,1)\nauto c = composition(l, make_layout(7));",
		"// cute\nasm(\"x\" : \"r\"(composition(make_layout(2), make_layout(3))));",
		"# cute\nx = cute.make_layout((2, 3), stride=(3, 2)) # (2,3):(1,2)\n",
	) {
		for _, file := range []string{"a.hpp", "a.py"} {
			got := AnalyzeHostForFindings(file, []byte(src))
			want := AnalyzeHostCode(file, []byte(src), ReadCodeForFindings(LanguageOf(file), []byte(src)))
			if !reflect.DeepEqual(got.Findings, want.Findings) || len(got.Descriptors) != len(want.Descriptors) {
				t.Errorf("%s %q: %d findings, %d descriptors; with ReadCodeForFindings %d, %d", file, src, len(got.Findings), len(got.Descriptors), len(want.Findings), len(want.Descriptors))
			}
		}
	}
}
