package analysis

import (
	"fmt"
	"github.com/cute-lsp/cute-lsp/grammar"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The descriptor scan as it was before it jumped between the bytes that
// start something (regionStarts, quotedEnd eight bytes at a time, the
// line index counted forward, asmParensEnd's table): the scan must give
// the same regions, ends and positions. It is the one reference of the
// scan's tests (with skipAsm off, the scan before asm statements were left
// out); an asm statement's end is asmStatementEndReference's, byte by byte.

func cppRegionSeqReference(s string, skipAsm bool) iter.Seq[region] {
	return func(yield func(region) bool) {
		for i := 0; i < len(s); {
			switch {
			case strings.HasPrefix(s[i:], "//"):
				end := strings.IndexByte(s[i:], '\n')
				if end < 0 {
					end = len(s) - i
				}
				if !yield(region{start: i + 2, end: i + end}) {
					return
				}
				i += end
			case strings.HasPrefix(s[i:], "/*"):
				end := strings.Index(s[i+2:], "*/")
				if end < 0 {
					yield(region{start: i + 2, end: len(s)})
					return
				}
				if !yield(region{start: i + 2, end: i + 2 + end}) {
					return
				}
				i += 2 + end + 2
			case s[i] == 'R' && strings.HasPrefix(s[i+1:], "\"") && (i == 0 || !isIdentByte(s[i-1])):
				// R"delim( ... )delim"
				open := strings.IndexByte(s[i+2:], '(')
				if open < 0 {
					i++
					continue
				}
				delim := s[i+2 : i+2+open]
				bodyStart := i + 2 + open + 1
				end := strings.Index(s[bodyStart:], ")"+delim+"\"")
				if end < 0 {
					return
				}
				if !yield(region{start: bodyStart, end: bodyStart + end, literal: true}) {
					return
				}
				i = bodyStart + end + len(delim) + 2
			case s[i] == '"':
				end := quotedEndReference(s, i+1, '"')
				if !yield(region{start: i + 1, end: end, literal: true}) {
					return
				}
				i = end + 1
			case s[i] == '\'':
				i = quotedEndReference(s, i+1, '\'') + 1
			case skipAsm && (s[i] == 'a' || s[i] == '_') && (i == 0 || !isIdentByte(s[i-1])):
				if end, ok := asmStatementEndReference(s, i); ok {
					i = end
					continue
				}
				i++
			default:
				// Only these bytes start a comment or a literal (or, with
				// skipAsm, an asm statement): the rest is passed over
				// without the checks above.
				start := &cppRegionStartReference
				if skipAsm {
					start = &cppRegionOrAsmStartReference
				}
				for i++; i < len(s) && !start[s[i]]; i++ {
				}
			}
		}
	}
}

var cppRegionStartReference = [256]bool{'/': true, 'R': true, '"': true, '\'': true}

var cppRegionOrAsmStartReference = [256]bool{'/': true, 'R': true, '"': true, '\'': true, 'a': true, '_': true}

// asmStatementEndReference is asmStatementEnd walking the statement byte
// by byte, its literals' ends quotedEndReference's.
func asmStatementEndReference(s string, i int) (end int, ok bool) {
	word := func(j int) int {
		k := j
		for k < len(s) && isIdentByte(s[k]) {
			k++
		}
		return k
	}
	j := word(i)
	switch s[i:j] {
	case "asm", "__asm", "__asm__":
	default:
		return 0, false
	}
	for {
		j = skipBlanks(s, j)
		k := word(j)
		switch s[j:k] {
		case "volatile", "__volatile__", "__volatile", "inline", "__inline__", "goto":
			j = k
			continue
		}
		break
	}
	if j >= len(s) || s[j] != '(' {
		return 0, false
	}
	depth := 0
	for j < len(s) {
		switch c := s[j]; c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j + 1, true
			}
		case '"', '\'':
			if c == '"' && j > 0 && s[j-1] == 'R' {
				return 0, false
			}
			j = quotedEndReference(s, j+1, c)
			if j >= len(s) || s[j] != c {
				return 0, false
			}
		case '/':
			if j+1 < len(s) && (s[j+1] == '/' || s[j+1] == '*') {
				return 0, false
			}
		}
		j++
	}
	return 0, false
}

func quotedEndReference(s string, i int, quote byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case quote, '\n':
			return i
		}
	}
	return len(s)
}

// sameJumps fails t where the scan's regions (with and without asm
// statements' literals), a literal's end from any offset, or a position
// (asked in increasing order, then in any) differ from the reference's.
func sameJumps(t *testing.T, name, src string) {
	t.Helper()
	for _, skipAsm := range []bool{false, true} {
		got, want := slices.Collect(cppRegionSeq(src, skipAsm)), slices.Collect(cppRegionSeqReference(src, skipAsm))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: skipAsm %v: %d regions, the reference %d", name, skipAsm, len(got), len(want))
			for k := range min(len(got), len(want)) {
				if got[k] != want[k] {
					t.Errorf("first difference: %+v, the reference %+v", got[k], want[k])
					break
				}
			}
		}
	}
	// Every offset of a short text; of a long one, every offset where a
	// literal or an asm word may start, and every 61st.
	b := []byte(src)
	for i := 0; i <= len(src); i++ {
		if len(src) > 4096 && i%61 != 0 && (i == len(src) || !strings.ContainsRune("\"'a_", rune(src[i]))) {
			continue
		}
		for _, q := range []byte{'"', '\''} {
			if got, want := quotedEnd(src, i, q), quotedEndReference(src, i, q); got != want {
				t.Errorf("%s: quotedEnd(%d, %c) = %d, the reference %d", name, i, q, got, want)
			}
			if got, want := quotedEnd(b, i, q), quotedEndReference(src, i, q); got != want {
				t.Errorf("%s: quotedEnd of bytes (%d, %c) = %d, the reference %d", name, i, q, got, want)
			}
		}
		if i < len(src) {
			wantEnd, wantOK := asmStatementEndReference(src, i)
			if end, ok := asmStatementEnd(src, i); end != wantEnd || ok != wantOK {
				t.Errorf("%s: asmStatementEnd(%d) = %d, %v, the reference %d, %v", name, i, end, ok, wantEnd, wantOK)
			}
			if end, ok := asmStatementEnd(b, i); end != wantEnd || ok != wantOK {
				t.Errorf("%s: asmStatementEnd of bytes (%d) = %d, %v, the reference %d, %v", name, i, end, ok, wantEnd, wantOK)
			}
		}
	}
	ref := &lineIndex{text: src, starts: newLineIndexReference(src).starts}
	forward := newLineIndex(src)
	step := max(1, len(src)/5000)
	for off := 0; off <= len(src); off += step {
		if got, want := forward.position(off), ref.position(off); got != want {
			t.Fatalf("%s: position(%d) asked in order = %+v, the reference %+v", name, off, got, want)
		}
	}
	back, ref := newLineIndex(src), &lineIndex{text: src, starts: newLineIndexReference(src).starts}
	for k, off := range []int{len(src), len(src) / 2, len(src) / 3, 0, len(src) / 2, len(src)} {
		if got, want := back.position(off), ref.position(off); got != want {
			t.Fatalf("%s: position %d (%d) = %+v, the reference %+v", name, k, off, got, want)
		}
	}
}

var jumpSeeds = []string{
	"", "\n", "a\n", "/", "R", "R\"", "'", "\"", "\\", "\"\\", "\"a\\\nb\"", "'\\''",
	"x // (2,2):(1,2)\n/* (4,8) */ \"(8,4)\" 'c' R\"d((2,3))d\" uR\"(x)\" u8R\"(y)\"",
	"asm volatile(\"mma %0;\\n\" : \"+r\"(d) : \"r\"(a)); __asm__(\"x\"); __asm(\"y\"); ___asm(\"z\"); basm(\"w\"); _asm(\"v\")",
	"asm (\"open", "asm(\"a\" /* c */ ); asm(R\"(x)\"); asmx(\"(2,2):(1,2)\")", "a/b/c // d\n'\\n' \"é(2,2)\" é // é(4,4):(1,4)",
	// Literals longer than a word, escapes at and across word edges, a
	// line end inside, a backslash last.
	"asm volatile(\"wgmma.mma_async.sync.aligned.m64n8k16 {%0, %1},\\n\" \" %2;\\n\" : \"+r\"(d0), \"+r\"(d1) : \"l\"(a), \"n\"(int32_t(s)));",
	"asm(\"1234567\\\"9abcdef\\\\\" \"0123456789abcdef0123\nx\"); asm(\"ab\\", "asm(\"(((\" ')' \"\\\\\"); asm(\"abcdefgh\\\nijk\")",
}

func TestDescriptorScanJumpsAsBefore(t *testing.T) {
	for _, src := range jumpSeeds {
		sameJumps(t, src, src)
	}
	eachCuteFile(func(p string, src []byte) { sameJumps(t, p, string(src)) })
}

func FuzzDescriptorScanJumpsAsBefore(f *testing.F) {
	for _, src := range jumpSeeds {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) { sameJumps(t, "fuzz", src) })
}

var _ iter.Seq[region] = cppRegionSeqReference("", false)
var _ = strings.Index

// scanRegionAllReference is scanRegionAll as it was before mayBeDescriptor
// passed over candidates without parsing them and nextCandidate jumped
// from stop to stop.
func (h *Host) scanRegionAllReference(text string, r region, lines *lineIndex) {
	body := text[r.start:r.end]
	if r.literal {
		trimmed := strings.TrimSpace(body)
		lead := strings.Index(body, trimmed)
		if trimmed != "" && looksLikeDescriptor(trimmed) {
			if n, err := grammar.ParseExprAt(trimmed, lines.position(r.start+lead)); err == nil && notProse(n) {
				h.add(n, true, r)
				return
			}
		}
	}
	bits := -1 // whether body speaks of bits, once a bit range asks (-1: not yet known)
	aboutBits := func() bool {
		if bits < 0 {
			bits = 0
			if speaksOfBits(body) {
				bits = 1
			}
		}
		return bits == 1
	}
	for i := 0; i < len(body); {
		start, end, ok := nextCandidateReference(body, i)
		if !ok {
			return
		}
		cand := body[start:end]
		n, err := grammar.ParseExprAt(cand, lines.position(r.start+start))
		switch {
		case err == nil && notProse(n) && !(bitRange(n) && aboutBits()):
			h.add(n, standsAlone(body, start, end), r)
		case err != nil && malformedLayout(cand):
			h.Findings = append(h.Findings, inProse(syntaxFinding(err), standsAlone(body, start, end)))
		}
		i = end
	}
}

// sameCandidates fails t where scanning body with mayBeDescriptor's
// shortcut finds other descriptors or findings than parsing every
// candidate does.
func sameCandidates(t *testing.T, name, body string, literal bool) {
	t.Helper()
	r := region{start: 0, end: len(body), literal: literal}
	got, want := &Host{Src: []byte(body), Language: LangCpp}, &Host{Src: []byte(body), Language: LangCpp}
	got.scanRegionAll(body, r, newLineIndex(body))
	want.scanRegionAllReference(body, r, newLineIndex(body))
	if !reflect.DeepEqual(got.Descriptors, want.Descriptors) || !reflect.DeepEqual(got.Findings, want.Findings) {
		t.Errorf("%s: %q: %d descriptors and %d findings, parsing every candidate %d and %d",
			name, body, len(got.Descriptors), len(got.Findings), len(want.Descriptors), len(want.Findings))
	}
	// Again, with the texts found to be prose the first time in proseMemo.
	again := &Host{Src: []byte(body), Language: LangCpp}
	again.scanRegionAll(body, r, newLineIndex(body))
	if !reflect.DeepEqual(again.Descriptors, want.Descriptors) || !reflect.DeepEqual(again.Findings, want.Findings) {
		t.Errorf("%s: %q scanned again: %d descriptors and %d findings, parsing every candidate %d and %d",
			name, body, len(again.Descriptors), len(again.Findings), len(want.Descriptors), len(want.Findings))
	}
}

// nextCandidateReference is nextCandidate as it was, byte by byte: every
// word start is tried as an iterator.
func nextCandidateReference(body string, i int) (start, end int, ok bool) {
	for ; i < len(body); i++ {
		c := body[i]
		if i > 0 && isIdentByte(body[i-1]) {
			continue // inside a word: f(x), vec[i]
		}
		switch {
		case c == '[' && i > 0 && (body[i-1] == ')' || body[i-1] == ']'):
			continue // a subscript: arr((i, j))[0:4]
		case c == '(' || c == '[':
			end := groupEnd(body, i)
			end = extendLayout(body, end)
			end = extendComposed(body, end)
			return i, end, true
		case c == 'S' && (strings.HasPrefix(body[i:], "Sw<") || strings.HasPrefix(body[i:], "Swizzle<") || strings.HasPrefix(body[i:], "SW_") ||
			strings.HasPrefix(body[i:], "S<") && i+2 < len(body) && body[i+2] >= '0' && body[i+2] <= '9'):
			end := i + strings.IndexAny(body[i:]+" ", " \t\n,;")
			if gt := strings.IndexByte(body[i:], '>'); gt >= 0 && !strings.HasPrefix(body[i:], "SW_") {
				end = i + gt + 1
				if strings.HasPrefix(body[end:], "{}") {
					end += 2
				} else if p, ok := iteratorEnd(body, end); ok && body[end] == '_' {
					end = p
				}
			}
			return i, extendComposed(body, end), true
		case isIdentByte(c):
			if p, ok := iteratorEnd(body, i); ok {
				if end := extendComposed(body, p); end > p {
					return i, end, true
				}
				i = p - 1
			}
		}
	}
	return 0, 0, false
}

// sameCandidateStarts fails t where nextCandidate, asked from every
// offset of body, gives another candidate than nextCandidateReference.
func sameCandidateStarts(t *testing.T, name, body string) {
	t.Helper()
	for from := 0; from <= len(body); from++ {
		s, e, ok := nextCandidate(body, from)
		ws, we, wok := nextCandidateReference(body, from)
		if s != ws || e != we || ok != wok {
			t.Errorf("%s: %q: nextCandidate from %d = %d, %d, %v; the reference %d, %d, %v", name, body, from, s, e, ok, ws, we, wok)
			return
		}
	}
}

var candidateSeeds = []string{
	"(4,8):(1,4) (M,N,K) (i.e. a tile) Sw<3,4,3> o (8,64):(64,1) SW_3_4_3 S<3,4,3> (1@0,1@1) (1/2@0)",
	"!cute.layout<\"(4,8):(1,4)\"> S[(8,2):(4@laneid,1)] + R[2:4@warpid] [8:1;4:1] (2,2) o (3,3)",
	"Sw<3,4,3>_smem_ptr[16b](A) gmem_ptr[16b](0) o (4,8):(1,4) ArithTuple(_0,0) o (4,8):(1@0,1@1) (4,8):(1,4 (4,8:(1,4)",
	"(2, (3, 4)) [1, 2] (_8,_4) (-1,2) (E<0>) (1 o 2) (x:y) (2,2):(1,_2)",
	"Attempting to use SM90::GMMA::MMA_64x8x16_F16F16F16_SS without CUTE_ARCH_MMA_SM90A_ENABLED",
	"SW_3_4_3 o (4,8):(1,4)", "S <3,4,3>", "Sw <3,4,3> o 0 o (8,64):(64,1)", "ArithTuple (0,1) o (4,8):(1@0,1@1)",
	"gmem_ptr [16b](0) o (4,8):(1,4)", "o (4,8):(1,4)", "L 8:1", "x\t(2,2):(1,2)", "tile 2 o (2,2):(1,2)",
	"(Layout T = Row-Major) [clear accumulators] (foo) (a o b) (_8o (2,2):(1,2)) (2,2)o(1,1) (-8o 4)",
	"MyS[16b](x) o (4,8):(1,4) Sx[16b](y) o (2,2):(1,2) abc[16](x) y[16[8b](z) o (1,2):(2,1) xArithTuple(0) o 2:1",
	"counting_iter(3) o 4:1 ArithTuple(_0,0) (4,8):(1,4) gmem_ptr[16b](A) S[16b](B) o 8:1 S<3,4>",
}

func TestCandidatesParsedAsBefore(t *testing.T) {
	for _, body := range candidateSeeds {
		sameCandidates(t, "seed", body, false)
		sameCandidates(t, "seed", body, true)
		sameCandidateStarts(t, "seed", body)
	}
	root := cutlassRoot()
	for _, dir := range []string{"include/cute", "examples/cute", "test/unit/cute"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || LanguageOf(p) != LangCpp {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			text := string(src)
			for r := range cppRegionSeq(text, false) {
				if body := text[r.start:r.end]; mayHoldDescriptor(body, r.literal) {
					sameCandidates(t, p, body, r.literal)
					if len(body) < 4096 {
						sameCandidateStarts(t, p, body)
					}
				}
			}
			return nil
		})
	}
}

// TestProseMemo: a text parsed to nothing is remembered, and the memo
// stays within its bounds: no text longer than proseMemoTextBytes, at most
// textMemoMax texts.
func TestProseMemo(t *testing.T) {
	h := &Host{Language: LangCpp}
	body := "[P o L] (x o y)"
	h.scanRegionAll(body, region{end: len(body)}, newLineIndex(body))
	if !knownProse("[P o L]") || !knownProse("(x o y)") {
		t.Errorf("texts parsed to nothing are not remembered")
	}
	long := "(" + strings.Repeat("a o ", proseMemoTextBytes) + ")"
	rememberProse(long)
	if knownProse(long) {
		t.Errorf("a text of %d bytes is remembered", len(long))
	}
	for i := range 2 * textMemoMax {
		rememberProse(fmt.Sprintf("(%d o x)", i))
		if n := proseMemo.len(); n > textMemoMax {
			t.Fatalf("%d texts remembered, more than %d", n, textMemoMax)
		}
	}
}

func FuzzCandidatesParsedAsBefore(f *testing.F) {
	for _, body := range candidateSeeds {
		f.Add(body, false)
	}
	f.Fuzz(func(t *testing.T, body string, literal bool) {
		sameCandidates(t, "fuzz", body, literal)
		sameCandidateStarts(t, "fuzz", body)
	})
}

// pythonRegionsReference is pythonRegions as it was, byte by byte.
func pythonRegionsReference(s string) []region {
	var out []region
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '#':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			out = append(out, region{start: i + 1, end: i + end})
			i += end
		case c == '"' || c == '\'':
			triple := strings.Repeat(string(c), 3)
			if strings.HasPrefix(s[i:], triple) {
				end := strings.Index(s[i+3:], triple)
				if end < 0 {
					out = append(out, region{start: i + 3, end: len(s), literal: true})
					return out
				}
				out = append(out, region{start: i + 3, end: i + 3 + end, literal: true})
				i += 3 + end + 3
				continue
			}
			end := quotedEndReference(s, i+1, c)
			out = append(out, region{start: i + 1, end: end, literal: true})
			i = end + 1
		default:
			i++
		}
	}
	return out
}

func samePythonRegions(t *testing.T, name, src string) {
	t.Helper()
	if got, want := pythonRegions(src), pythonRegionsReference(src); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: pythonRegions gives %d regions, the reference %d", name, len(got), len(want))
	}
}

var pythonSeeds = []string{"", "#", "'", "\"", "'''", "\"\"\"x", "x = 'a' # c\ny = \"\"\"(4,8):(1,4)\n\"\"\" + '''z''' + \"q\\\"r\"", "s = 'open\nt = \"x\"", "a#b'c\"d"}

func TestPythonRegionsAsBefore(t *testing.T) {
	for _, src := range pythonSeeds {
		samePythonRegions(t, src, src)
	}
	root := cutlassRoot()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && LanguageOf(p) == LangPython {
			if src, err := os.ReadFile(p); err == nil {
				samePythonRegions(t, p, string(src))
			}
		}
		return nil
	})
}

func FuzzPythonRegionsAsBefore(f *testing.F) {
	for _, src := range pythonSeeds {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) { samePythonRegions(t, "fuzz", src) })
}
