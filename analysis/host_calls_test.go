package analysis

import (
	"hash/maphash"
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
	findingNames(),
	source.NewNames("int32_t", "uint32_t"),
	source.NewNames("r", "l", "n", "d0", "desc_a"),
	source.NewNames("f16", "f32", "p", "x", "a", "b", "asm", "volatile"),
}

// sameCallScan fails t where the descriptor scan with a callScan finds
// other regions than without, or answers otherwise than source.MayCall:
// without a memo of operand lists, with a new one, and with one that
// scanned every text checked before (sharedAsmOperands, as a lint
// worker's scans file after file).
func sameCallScan(t *testing.T, name, src string) {
	t.Helper()
	b := []byte(src)
	want := slices.Collect(cppRegionSeq(b, true))
	for k, names := range callScanNames {
		for m, operands := range []*asmOperands{nil, new(asmOperands), &sharedAsmOperands[k]} {
			c := newCallScan(b, names, operands)
			if got := slices.Collect(cppRegionScan(b, true, c)); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: names %d, memo %d: the scan with calls gives %d regions, without %d", name, k, m, len(got), len(want))
			}
			if got, want := c.mayCall(), source.MayCall(b, names); got != want {
				t.Errorf("%s: names %d, memo %d: the scan's MayCall = %v, source.MayCall %v", name, k, m, got, want)
			}
		}
	}
}

// sharedAsmOperands are memos of operand lists used for every text
// checked, one per set of callScanNames; fuzzAsmOperands,
// FuzzFindingFilter's.
var (
	sharedAsmOperands [4]asmOperands
	fuzzAsmOperands   asmOperands
)

var callScanSeeds = append(append(slices.Clone(jumpSeeds), operandListSeeds()...),
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
	// Operand lists the memo (asmOperands) meets again where other bytes
	// surround them (operandListSeeds).
)

// operandListSeeds are texts where an operand list the memo of operand
// lists (asmOperands) knows from the statement before is met again where
// the memo must not answer for it, or where it answers something else
// (and the same list after, to be looked up):
// after a line join (an opener first on a line of the list looks back
// across it), at depth 2, after a literal a backslash continues, at the
// text's end, after its ';'; a list whose ';' is in a literal, or that
// does not close before it; and another list after it.
func operandListSeeds() []string {
	const (
		list  = "  : \"+r\"(d000), \"+r\"(d001), \"+r\"(d002), \"+r\"(d003), \"+r\"(d004), \"+r\"(d005),\n"
		tail  = "\n#x\n#y\n#z\n"
		close = "  : \"l\"(a)), \"l\"(size(b));"
	)
	return []string{
		"asm(\"x\"\n" + list + "  (q) \"l\"(a));" + tail + "asm(\"x\" \\\n" + list + "  (q) \"l\"(a));" + tail,
		"asm(\"x\"\n" + list + close + tail + "asm(\"x\" (\n" + list + close + tail,
		"asm(\"x\"\n" + list + "  : \"l\"(a) \" size(b) );" + tail + "asm(\"x \\\n" + list + "  : \"l\"(a) \" size(b) );" + tail,
		"asm(\"x\"\n" + list + "  : \"l\"(a)); \"r\"(b) // x" + tail + "asm(\"x\"\n" + list + "  : \"l\"(a)); \"r\"(c)" + tail,
		"asm(\"x\"\n" + list + "  : \"l\"(a));" + tail + "asm(\"x\"\n" + list + "  : \"l\"(a));\n#x",
		"asm(\"x\"\n" + list + "  : \"l\"(a), \"l\"(\";\"));" + tail + "asm(\"x\"\n" + list + "  : \"l\"(a), \"l\"(\";\"));" + tail,
		"asm(\"x\"\n" + list + "  : \"l\"(\";\"), \"r\"(x));" + tail + "asm(\"x\"\n" + list + "  : \"l\"(\";\"), \"r\"(y), \"r\"(size(z)));" + tail,
		"asm(\"x\"\n" + list + "  : \"l\"(a) \"\");" + tail + "asm(\"x\"\n" + list + "  : \"l\"(a) \"\");",
		"asm(\"x\"\n" + list + "  : \"l\"(a));" + tail + "asm(\"x\"\n" + list + "  : \"l\"(size(b)), \"l\"(c));" + tail,
		"asm(\"x\"\n" + list + "  : \"l\"(a)) ; (size(b));" + tail + "asm((\"x\"\n" + list + "  : \"l\"(a)) ; (size(b));" + tail,
	}
}

// A memo of operand lists answers for a list of the hash of one it knows
// only where their bytes are the same: with every list of the same hash,
// the scan is still MayCall.
func TestAsmOperandsOfOneHash(t *testing.T) {
	defer func(h func(maphash.Seed, []byte) uint64) { hashOperandList = h }(hashOperandList)
	hashOperandList = func(maphash.Seed, []byte) uint64 { return 1 }
	for _, src := range operandListSeeds() {
		sameCallScan(t, src, src)
	}
}

// A memo of operand lists answers for the text and the set of names of
// its scan alone: the same lists scanned for another set, or in another
// text written in the same buffer, are walked again.
func TestAsmOperandsOfOtherNames(t *testing.T) {
	src := []byte("asm volatile(\"x\"\n  : \"+r\"(d000), \"+r\"(d001), \"+r\"(d002), \"+r\"(d003)\n  : \"r\"(int32_t(a)), \"r\"(b));\n#endif\n")
	var operands asmOperands
	for _, names := range []*source.Names{findingNames(), source.NewNames("int32_t"), findingNames()} {
		c := newCallScan(src, names, &operands)
		for range cppRegionScan(src, true, c) {
		}
		if got, want := c.mayCall(), source.MayCall(src, names); got != want {
			t.Errorf("the scan's MayCall = %v, source.MayCall %v", got, want)
		}
	}
}

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
