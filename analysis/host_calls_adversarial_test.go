package analysis

import (
	"reflect"
	"testing"
)

// TestCallScanApostropheOperand: an apostrophe is no asm operand's quote.
// The descriptor scan of lint's findings (AnalyzeHostForFindings, whose
// callScan passes over asm statements as it tests their openers) took
// 'r"(b) for an operand written "r"(b), passed over a statement the full
// scan finds unterminated, and so found descriptors the editor's read does
// not (a false error in the comment after it) or missed those it finds.
// FuzzCallScanIsMayCall found it (testdata seed 7c1401a58d0a1d4f).
func TestCallScanApostropheOperand(t *testing.T) {
	for _, src := range []string{
		"asm(\"\"'a\"())",
		"asm volatile(\"x\" : 'r\"(b)); // (4,3):(1,4,5)\n",
		"asm volatile(\"(4,3):(1,4,5)\" : 'r\"(b));\n",
		"asm volatile(\"(4,3):(1,4,5)\" 'r\"(b) );\nint x = '\"';\n",
		"asm volatile(\"x\" : '+r\"(b), \"=l\"(c)); /* (4,3):(1,4,5) */\n",
	} {
		sameCallScan(t, src, src)
		b := []byte("using namespace cute;\n" + src)
		full := AnalyzeHostCode("a.cu", b, ReadCode(LangCpp, b))
		for name, got := range map[string]*Host{
			"AnalyzeHostForFindings": AnalyzeHostForFindings("a.cu", b),
			"ReadCodeForFindings":    AnalyzeHostCode("a.cu", b, ReadCodeForFindings(LangCpp, b)),
		} {
			if !reflect.DeepEqual(got.Findings, full.Findings) || len(got.Descriptors) != len(full.Descriptors) {
				t.Errorf("%q: lint (%s) finds %d findings, %d descriptors; the full read %d, %d",
					src, name, len(got.Findings), len(got.Descriptors), len(full.Findings), len(full.Descriptors))
			}
		}
	}
}
