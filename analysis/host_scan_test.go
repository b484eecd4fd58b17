package analysis

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/grammar"
)

// The reference version of newLineIndex, as it was before it passed over
// bytes in bulk: the fast one must give the same line starts (and the scan
// the regions of cppRegionSeqReference, host_scan_jump_test.go).

func newLineIndexReference(text string) *lineIndex {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{text: text, starts: starts}
}

func sameHostScan(t *testing.T, name, src string) {
	t.Helper()
	if got, want := cppRegions(src), slices.Collect(cppRegionSeqReference(src, false)); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: cppRegions gives %d regions, the reference %d", name, len(got), len(want))
	}
	if got, want := lineStartOffsets(src), newLineIndexReference(src).starts; !reflect.DeepEqual(got, want) {
		t.Errorf("%s: lineStartOffsets gives %d line starts, the reference %d", name, len(got), len(want))
	}
	sameScanOfBytes(t, name, src)
}

// sameScanOfBytes fails t when scanning src in place, as a []byte (what
// AnalyzeHost does, see hostText), finds other regions, line starts or
// positions than scanning it as a string.
func sameScanOfBytes(t *testing.T, name, src string) {
	t.Helper()
	b := []byte(src)
	for _, skipAsm := range []bool{false, true} {
		if got, want := slices.Collect(cppRegionSeq(b, skipAsm)), slices.Collect(cppRegionSeq(src, skipAsm)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: cppRegionSeq(skipAsm %v) of bytes gives %d regions, of the string %d", name, skipAsm, len(got), len(want))
		}
	}
	python := pythonRegions(src)
	if got := pythonRegions(b); !reflect.DeepEqual(got, python) {
		t.Errorf("%s: pythonRegions of bytes gives %d regions, of the string %d", name, len(got), len(python))
	}
	if got, want := lineStartOffsets(b), lineStartOffsets(src); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: lineStartOffsets of bytes gives %d line starts, of the string %d", name, len(got), len(want))
	}
	ofBytes, ofString := newLineIndexOfBytes(b), newLineIndex(src)
	// In order, then once backwards (the index of line starts).
	offsets := []int{}
	for _, r := range append(cppRegions(src), python...) {
		offsets = append(offsets, r.start, r.end)
	}
	offsets = append(offsets, len(src), 0, len(src)/2)
	for _, off := range offsets {
		if got, want := ofBytes.position(off), ofString.position(off); got != want {
			t.Errorf("%s: position(%d) of bytes is %v, of the string %v", name, off, got, want)
			return
		}
	}
	for _, r := range cppRegions(src) {
		if got, want := mayHoldDescriptor(b[r.start:r.end], r.literal), mayHoldDescriptor(src[r.start:r.end], r.literal); got != want {
			t.Errorf("%s: mayHoldDescriptor of bytes %v, of the string %v", name, got, want)
		}
		if got, want := inLineComment(b, r.start), inLineComment(src, r.start); got != want {
			t.Errorf("%s: inLineComment of bytes %v, of the string %v", name, got, want)
		}
	}
}

func TestHostScanMatchesReference(t *testing.T) {
	for _, src := range []string{"", "\n", "a\n", "x // (2,2):(1,2)\n/* (4,8) */ \"(8,4)\" 'c' R\"d((2,3))d\" uR\"(x)\"", "/* open", "\"open", "R\"x(open", "'\\''"} {
		sameHostScan(t, src, src)
	}
	root := cutlassRoot()
	filepath.WalkDir(filepath.Join(root, "include", "cute"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if src, err := os.ReadFile(p); err == nil {
				sameHostScan(t, p, string(src))
			}
		}
		return nil
	})
}

func FuzzHostScanMatchesReference(f *testing.F) {
	f.Add("x // (2,2):(1,2)\n/* (4,8) */ \"(8,4)\" 'c' R\"d((2,3))d\"")
	f.Fuzz(func(t *testing.T, src string) { sameHostScan(t, "fuzz", src) })
}

// sameDescriptorsWithoutAsm fails t when leaving asm statements' strings
// out of the descriptor scan changes what it finds in src: the regions it
// leaves out are literals, each inside an asm statement's parentheses, and
// the descriptors and findings of the two scans are the same.
func sameDescriptorsWithoutAsm(t *testing.T, name, src string) {
	t.Helper()
	if onlyAsmLeftOut(t, name, src) {
		all, kept := cppRegions(src), slices.Collect(cppRegionSeq(src, true))
		scan := func(regions []region) *Host {
			h := &Host{Src: []byte(src), Language: LangCpp}
			lines := newLineIndex(src)
			for _, r := range regions {
				h.scanRegion(h.Src, r, lines)
			}
			return h
		}
		if got, want := scan(kept), scan(all); !reflect.DeepEqual(got.Descriptors, want.Descriptors) || !reflect.DeepEqual(got.Findings, want.Findings) {
			t.Errorf("%s: %d descriptors and %d findings without the asm strings, %d and %d with them", name, len(got.Descriptors), len(got.Findings), len(want.Descriptors), len(want.Findings))
		}
	}
}

// onlyAsmLeftOut fails t (and is false) when cppRegionSeq with skipAsm
// leaves out anything but literals inside asm statements' parentheses.
func onlyAsmLeftOut(t *testing.T, name, src string) bool {
	t.Helper()
	all, kept := cppRegions(src), slices.Collect(cppRegionSeq(src, true))
	k := 0
	for _, r := range all {
		if k < len(kept) && kept[k] == r {
			k++
			continue
		}
		if !r.literal || !insideAsm(src, r.start) {
			t.Errorf("%s: the region %d-%d %q is left out, and it is not a literal of an asm statement", name, r.start, r.end, src[r.start:r.end])
			return false
		}
	}
	if k != len(kept) {
		t.Errorf("%s: %d regions not in cppRegions", name, len(kept)-k)
		return false
	}
	return true
}

// insideAsm reports whether offset at is inside the parentheses of an
// asm statement (a test's reckoning: an asm word before at whose
// parentheses, counted outside quotes, are open at at).
func insideAsm(src string, at int) bool {
	for k := at; ; {
		if k = strings.LastIndex(src[:k], "asm"); k < 0 {
			return false
		}
		start, end := k, k+3
		for start > 0 && isIdentByte(src[start-1]) {
			start--
		}
		for end < len(src) && isIdentByte(src[end]) {
			end++
		}
		if w := src[start:end]; (w == "asm" || w == "__asm" || w == "__asm__") && openAt(src, end, at) {
			return true
		}
	}
}

// openAt reports whether a parenthesis opened from offset from is open at at.
func openAt(src string, from, at int) bool {
	depth := 0
	for j := from; j < at; j++ {
		switch c := src[j]; c {
		case '(':
			depth++
		case ')':
			depth--
		case '"', '\'':
			if j = quotedEnd(src, j+1, c); j >= at {
				return depth > 0
			}
		}
	}
	return depth > 0
}

// TestDescriptorScanSkipsAsm: the literals of asm statements are left out
// of the descriptor scan, and nothing else is: a statement holding a
// comment or a raw string, or not closed, is scanned whole; over CUTLASS's
// C++ the scan finds the same descriptors and findings either way.
func TestDescriptorScanSkipsAsm(t *testing.T) {
	src := `// (2,2):(1,2)
asm volatile("mma.sync [%0], {%1};\n" : "=r"(d) : "r"(a), "n"(sizeof(T)));
auto s = "(4,8):(1,4)";
__asm__ __volatile__("ld.shared %0, [%1];" :: "r"(x));
asm("(8,4):(4,1)" /* kept: a comment inside */);
asm(R"(raw (2,2):(1,2))");
masm("(3,3):(1,3)"); my_asm("x"); asm_x("(5,5):(1,5)");
asm("open (6,6):(1,6)"`
	want := []string{" (2,2):(1,2)", "(4,8):(1,4)", "(8,4):(4,1)", " kept: a comment inside ", "raw (2,2):(1,2)", "(3,3):(1,3)", "x", "(5,5):(1,5)", "open (6,6):(1,6)"}
	var got []string
	for r := range cppRegionSeq(src, true) {
		got = append(got, src[r.start:r.end])
	}
	if !slices.Equal(got, want) {
		t.Errorf("regions %q\nwant %q", got, want)
	}
	sameDescriptorsWithoutAsm(t, "fixture", src)
	for _, s := range []string{"asm", "asm(", "asm(\"", "asm volatile", "asm(')')", "asm(\"\\\")\")", "__asm(\"x\")\"y\""} {
		sameDescriptorsWithoutAsm(t, s, s)
	}
	root := cutlassRoot()
	for _, dir := range []string{"include", "examples", "test/unit/cute"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && LanguageOf(p) == LangCpp {
				if src, err := os.ReadFile(p); err == nil {
					sameDescriptorsWithoutAsm(t, p, string(src))
				}
			}
			return nil
		})
	}
}

// FuzzDescriptorScanSkipsAsm: on any text, only literals of asm statements
// are left out. (What they would give is not compared: a PTX string such
// as "(0000:0" read as a layout with a mistake is what leaving them out is for.)
func FuzzDescriptorScanSkipsAsm(f *testing.F) {
	f.Add("asm volatile(\"mma [%0];\" : \"=r\"(d)); // (2,2):(1,2)\n\"(4,8):(1,4)\"")
	f.Add("asm(\"(8,4):(4,1)\" /* c */); asm(R\"(x)\"); asm(\"open")
	f.Fuzz(func(t *testing.T, src string) { onlyAsmLeftOut(t, "fuzz", src) })
}

// TestMayHoldDescriptor: a region that mayHoldDescriptor passes over gives
// nothing when scanned (the fixtures and every comment and literal of
// CUTLASS's C++), and the regions it keeps are scanned as before.
func TestMayHoldDescriptor(t *testing.T) {
	same := func(name, src string) {
		t.Helper()
		lines, bytes := newLineIndex(src), []byte(src)
		for r := range cppRegionSeq(src, false) {
			body := src[r.start:r.end]
			if mayHoldDescriptor(body, r.literal) {
				continue
			}
			h := &Host{Src: bytes, Language: LangCpp}
			h.scanRegionAll(src, r, lines)
			if len(h.Descriptors) > 0 || len(h.Findings) > 0 {
				t.Errorf("%s: %q is passed over, and it holds %d descriptors and %d findings", name, body, len(h.Descriptors), len(h.Findings))
			}
		}
	}
	for _, src := range []string{`"8:1" "_8:_1" "SW_128" "1@0" "<>" // 8:1 SW_128 gmem_ptr[16b](0) ArithTuple(0) Sw<3,4,3> S<3,4,3> (0000:0`, "// plain words, 8:1 and 1@0",
		`"Attempting to use SM90::GMMA::X without Y" "Words 8:1" "word\t(4,8):(1,4)" " Sw<3,4,3> o 8:1" // SPARSE S32+=S8*U8 S<3,4,3> Swizzle<3,4,3>`} {
		same(src, src)
	}
	root := cutlassRoot()
	for _, dir := range []string{"include/cute", "examples", "test/unit/cute"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && LanguageOf(p) == LangCpp {
				if src, err := os.ReadFile(p); err == nil {
					same(p, string(src))
				}
			}
			return nil
		})
	}
}

func FuzzMayHoldDescriptor(f *testing.F) {
	f.Add("8:1", true)
	f.Add(" SW_128 gmem_ptr[16b](0) S<3,4,3> (4,8):(1,4) 1@0", false)
	f.Add("Attempting to use SM90::GMMA::MMA_64x8x16 without S<3 Swizzle<1,2,3> x_Sw<3,4,3>", true)
	f.Add("  SW_3_4_3 o 8:1 ", true)
	f.Add("Sw <3,4,3> o 8:1\u00a0", true)
	f.Fuzz(func(t *testing.T, body string, literal bool) {
		if mayHoldDescriptor(body, literal) {
			return
		}
		h := &Host{Src: []byte(body), Language: LangCpp}
		h.scanRegionAll(body, region{start: 0, end: len(body), literal: literal}, newLineIndex(body))
		if len(h.Descriptors) > 0 || len(h.Findings) > 0 {
			t.Errorf("%q (literal %v) is passed over, and it holds %d descriptors and %d findings", body, literal, len(h.Descriptors), len(h.Findings))
		}
	})
}

// TestIsIdentByte: the table isIdentByte reads says of every byte what
// its definition says: a letter, a digit or '_'.
func TestIsIdentByte(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		want := b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
		if isIdentByte(b) != want {
			t.Errorf("isIdentByte(%q) = %v, want %v", b, !want, want)
		}
	}
}

// TestScanRegionKeepsNoView: scanRegion reads a []byte text's comments and
// literals in place, and lint reuses those bytes for the next file; the
// descriptors, findings and prose memo of a file must not change when its
// bytes do (what they keep is copied).
func TestScanRegionKeepsNoView(t *testing.T) {
	src := []byte("// a tile (_96,_40):(_40,_1) of the MMA; the bad one (4,8):(1,)\n" +
		"auto s = \"(_160,88):(88,_1)\";\n" +
		"// a sentence (of words, which parse): not kept\n")
	snapshot := func(h *Host) []string {
		var out []string
		for _, d := range h.Descriptors {
			out = append(out, grammar.Print(d.Node, grammar.Cute), fmt.Sprint(d.Err))
			grammar.Inspect(d.Node, func(n grammar.Node) bool {
				if i, ok := n.(*grammar.Int); ok {
					out = append(out, i.Text) // the spelling, a part of the parsed text
				}
				return true
			})
		}
		for _, f := range h.Findings {
			out = append(out, f.Message)
		}
		for i := range out {
			out[i] = strings.Clone(out[i]) // what is compared later must not change with src
		}
		return out
	}
	proseMemo.reset()
	h := AnalyzeHost("a.cu", src)
	want := snapshot(h)
	if len(h.Descriptors) < 2 {
		t.Fatalf("descriptors %q: want the comment's and the literal's", want)
	}
	for i := range src {
		src[i] = 'x'
	}
	if got := snapshot(h); !slices.Equal(got, want) {
		t.Errorf("after the text changed:\n got %q\nwant %q", got, want)
	}
	for k := range proseMemo.m {
		if strings.Contains(k, "xxx") {
			t.Errorf("prose memo keeps a view of the text: %q", k)
		}
	}
}
