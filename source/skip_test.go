package source

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readCppWithoutSkipping is ReadCpp with every token read (dropInert off).
func readCppWithoutSkipping(src []byte) *File {
	dropInert = false
	defer func() { dropInert = true }()
	return ReadCpp(src)
}

// cppTokensReference is the tokenizer as it was before asm was skipped
// and it became a scanner (cppScanner): cppAllTokens must give the same tokens.
// It tokenizes C++/CUDA source, skipping whitespace, comments,
// string and character literals (raw strings included) and preprocessor
// lines (with their continuations). An unterminated comment or literal
// runs to the end of its line (literals) or of the file (comments). The
// tokens are appended to toks.
func cppTokensReference(src []byte, toks []token) []token {
	if toks == nil {
		// CuTe code is dense in tokens (_2,_2 is four in five bytes).
		toks = make([]token, 0, len(src)/3+16)
	}
	lineStart := true // only whitespace since the last newline
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = lineEnd(src, i)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return toks
			}
			i += 2 + end + 2
			continue
		case c == '#' && lineStart:
			i = directiveEndReference(src, i)
			continue
		}
		lineStart = false
		switch {
		case c == '"' || c == '\'':
			j := cppQuotedEnd(src, i+1, c)
			toks = append(toks, makeToken(tString, i, j, -1))
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && isLiteralPrefix(src[i:j]) {
				end := 0
				if src[j] == '"' && src[j-1] == 'R' {
					end = rawStringEnd(src, j)
				} else {
					end = cppQuotedEnd(src, j+1, src[j])
				}
				toks = append(toks, makeToken(tString, i, end, -1))
				i = end
				continue
			}
			toks = append(toks, makeToken(tIdent, i, j, -1))
			i = j
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := numberEnd(src, i, true)
			toks = append(toks, makeToken(tNumber, i, j, -1))
			i = j
		default:
			n := punctLen(src, i)
			if n == 2 && src[i] == '/' {
				n = 1
			}
			toks = append(toks, punctToken(src, i, n, -1))
			i += n
		}
	}
	return toks
}

// isLiteralPrefix reports whether p is a string or character literal's

// sameTokens fails t when cppAllTokens differs from cppTokensReference on src.
func sameTokens(t *testing.T, name string, src []byte) {
	t.Helper()
	got, want := cppAllTokens(src, nil), cppTokensReference(src, nil)
	if !slices.Equal(got, want) {
		t.Errorf("%s: the scanner's tokens differ from the reference tokenizer's (%d tokens, want %d)", name, len(got), len(want))
	}
}

// sameRead fails t when skipping changes anything ReadCpp finds in src.
func sameRead(t *testing.T, name string, src []byte) {
	t.Helper()
	got, want := ReadCpp(src), readCppWithoutSkipping(src)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the read with inert asm skipped differs from the full read:\n got %d bindings, %d roots, %d writes\nwant %d bindings, %d roots, %d writes",
			name, len(got.Bindings), len(got.Roots), len(got.Writes), len(want.Bindings), len(want.Roots), len(want.Writes))
		for i := range min(len(got.Bindings), len(want.Bindings)) {
			if !reflect.DeepEqual(got.Bindings[i], want.Bindings[i]) {
				t.Errorf("first differing binding: got %+v, want %+v", got.Bindings[i], want.Bindings[i])
				break
			}
		}
	}
}

func TestSkippingChangesNothing(t *testing.T) {
	src, err := os.ReadFile("testdata/skip.cu")
	if err != nil {
		t.Fatal(err)
	}
	sameRead(t, "skip.cu", src)
	sameTokens(t, "skip.cu", src)
	// The fixture's skippable statements are skipped, and only those.
	all := cppAllTokens(src, nil)
	kept := cppTokens(src, nil)
	dropped := map[int]bool{}
	k := 0
	for _, tok := range all {
		if k < len(kept) && kept[k].start == tok.start {
			k++
			continue
		}
		dropped[strings.Count(string(src[:tok.start]), "\n")+1] = true
	}
	var lines []int
	for l := range dropped {
		lines = append(lines, l)
	}
	want := map[int]bool{}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(line, "// skipped") {
			want[i+1] = true
		}
	}
	if !reflect.DeepEqual(dropped, want) {
		t.Errorf("dropped tokens on lines %v, want the asm blocks' lines %v", dropped, want)
	}
	for _, src := range []string{"asm(", "/* x", "a /", "#x\\\ny", "R\"x(", "u8'", "1e+5 0x1e+5 1'000", "asm volatile(\"\" :: \"r\"(x)", "{ asm(x) ; }", "asm asm(;", "; asm ( ) ;"} {
		sameRead(t, src, []byte(src))
		sameTokens(t, src, []byte(src))
	}
}

// TestSkippingChangesNothingInCUTLASS compares the two reads on every C++
// file of a CUTLASS checkout's CuTe parts (CUTLASS, default /work/cutlass;
// skipped without one).
func TestSkippingChangesNothingInCUTLASS(t *testing.T) {
	root := os.Getenv("CUTLASS")
	if root == "" {
		root = "/work/cutlass"
	}
	if _, err := os.Stat(filepath.Join(root, "include", "cute")); err != nil {
		t.Skipf("no CUTLASS checkout at %s (set CUTLASS)", root)
	}
	n := 0
	for _, dir := range []string{"include/cute", "examples", "test/unit/cute"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch filepath.Ext(p) {
			case ".cu", ".cuh", ".cpp", ".hpp", ".h":
			default:
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			n++
			sameRead(t, p, src)
			sameTokens(t, p, src)
			sameForLint(t, p, src)
			sameDisabled(t, p, src)
			return nil
		})
	}
	if n == 0 {
		t.Skip("no C++ files found")
	}
}

// FuzzSkipping: on any text, the read with inert asm skipped is the full read.
func FuzzSkipping(f *testing.F) {
	fuzzSeeds(f, ".cu")
	f.Add("{ asm volatile(\"\" : \"+r\"(a) : \"r\"(b)); }")
	f.Add("; asm(\"\" :: \"r\"(a & b)); int a = 1;")
	f.Add("int f(int a) { asm(\"\" :: \"r\"(a), \"n\"(sizeof(T))); auto x = make_layout(a); }")
	f.Add("constexpr int k = 2; void f(int k, int m = k) { asm(\"\"); } void g(int a) const { } auto x = make_layout(k);")
	f.Add("struct S { using X = Layout<_4>; };\nusing U = int;\nusing V = int;\nusing W = int;\nvoid g() { auto a = Layout<_8>{}; X a{}; auto r = size(a); }\ntemplate <class Q = A<B> using Z = int> struct R;\nauto z = take<1,2>(Z<3>{});\n")
	f.Add("namespace cute {\nusing A = Layout<Shape<_4,_3>>;\nstruct T { using X = Layout<_6>; };\nint k = 2;\nvoid f() { k = 3; }\nauto r = take<k,1>(A{});\nauto s = composition(T::X{}, A{});\n}\n")
	f.Add("#define A(x) \\\n  x / 2 /* a\nb */ \\\r\n  y \\\n#if a//b\\\nc\n#x /* open\n#y \\")
	f.Add("x = 1'000 + 2e+5 + 0x1e+5 - 1.5e-3 + 07'7; asm(\"\"); __asm__ volatile(\"\" : \"+r\"(a)); _asm a__asm __asmx u8\"s\" R\"d(x)d\" L'c' # y\n#define Z\n.5 a.b->c::d /* */ // e")
	f.Add("template <int N> using SM_L = Layout<Int<N>>; using SM_X<int> = a; using MX<int> b; template <class T> using MMA_64x8 = T; SM90_Y<a> b; template<> using u = v;")
	// Blocks that end with a compound statement (lint_runs.go's tails).
	f.Add("int k = 2;\ntemplate <class S> auto f() {\n  auto N = size<1>(S{});\n  if constexpr (N % 2 == 0) {\n    static_assert(size<2>(S{}) % 4 == 0);\n    if constexpr (N % 4 == 0) { return A<N>{}; } else if constexpr (N % 8) { k = 1; } else { return B{}; }\n  }\n  else { using X = int; X x = 1; for (;;) { x++; } }\n}\nauto r = take<k,1>(Layout<_4>{}, decltype(k){ B{2} });\nvoid g(int c) { if (c) size(c); else { c = 1; } while (c) { } }\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<14 {
			return
		}
		sameRead(t, "fuzz", []byte(src))
		sameTokens(t, "fuzz", []byte(src))
		sameForLint(t, "fuzz", []byte(src))
		sameDisabled(t, "fuzz", []byte(src))
		sameRuns(t, "fuzz", []byte(src))
		sameRunMarks(t, "fuzz", []byte(src))
		sameTemplateNames(t, "fuzz", []byte(src))
		sameReadAsReference(t, "fuzz", []byte(src))
		sameScan(t, "fuzz", []byte(src))
		sameDirectiveEnds(t, "fuzz", []byte(src))
		sameWithLintReaderOver(t, "fuzz", []byte(src))
		sameCallsIn(t, "fuzz", []byte(src))
	})
}

// sameCallsIn fails t when callsIn says src's tokens hold no call of
// runCalls and the full read makes one (a Call of runCalls not braced, in
// a root or a binding's value).
func sameCallsIn(t *testing.T, name string, src []byte) {
	t.Helper()
	if callsIn(src, cppTokens(src, nil), runCalls) {
		return
	}
	f := ReadCpp(src)
	nodes := slices.Clone(f.Roots)
	for _, b := range f.Bindings {
		if b.Value != nil {
			nodes = append(nodes, b.Value)
		}
	}
	for _, n := range nodes {
		Inspect(n, func(n Node) bool {
			if c, ok := n.(*Call); ok && c.Fun != nil && runCalls.Contains(c.Fun.Name) && !c.Braced {
				s, _ := c.Span()
				t.Errorf("%s: callsIn says no call, the read calls %s at %d", name, c.Fun.Name, s)
			}
			return true
		})
	}
}

// TestLintReadNoCallTokens: a text MayCall lets through (a name of
// FindingCalls before "(" in a comment, a string, a directive, after a
// longer name's end) whose tokens call none is read as nothing (Partial),
// small or large, as a text MayCall refuses is; one call among the tokens
// and it is read.
func TestLintReadNoCallTokens(t *testing.T) {
	defer func(calls *Names) { FindingCalls = calls }(FindingCalls)
	FindingCalls = runCalls
	quiet := "// size(x)\n#define S(x) size(x)\nauto s = \"take<1>(a)\";\nauto m = std::fsize(a) + b.xget<2>;\nusing L = Layout<Shape<_4>>;\n"
	calling := "auto n = cute::size<0>(L{});\n"
	large := strings.Repeat(quiet, LintRunsMinBytes/len(quiet)+1)
	for _, c := range []struct {
		name, src string
		read      bool
	}{{"small", quiet, false}, {"large", large, false}, {"small call", quiet + calling, true}, {"large call", large + calling, true}} {
		src := []byte(c.src)
		if !MayCall(src, runCalls) {
			t.Fatalf("%s: MayCall says no", c.name)
		}
		sameCallsIn(t, c.name, src)
		sameRuns(t, c.name, src)
		f := ReadCppForLint(src)
		if read := len(f.Bindings) > 0; read != c.read || f.Partial == c.read && c.name != "large call" || !f.ForLint {
			t.Errorf("%s: %d bindings, Partial %v, ForLint %v; want read %v", c.name, len(f.Bindings), f.Partial, f.ForLint, c.read)
		}
	}
}

// TestByteClass: the class table says what the predicates it replaced said.
func TestByteClass(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		start := b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
		ident := start || b >= '0' && b <= '9'
		space := b == ' ' || b == '\t' || b == '\r' || b == '\f' || b == '\v'
		if isIdentStart(b) != start || isIdentByte(b) != ident || (byteClass[b]&classSpace != 0) != space {
			t.Errorf("byte %#x: classes %b", b, byteClass[b])
		}
	}
}

// BenchmarkCppTokensReferenceCUTLASS is BenchmarkCppTokensCUTLASS with the
// tokenizer as it was (every token kept).
func BenchmarkCppTokensReferenceCUTLASS(b *testing.B) {
	files, size := cutlassCute(b)
	b.SetBytes(size)
	var toks []token
	for b.Loop() {
		for _, src := range files {
			toks = cppTokensReference(src, toks[:0])
		}
	}
}

// cutlassCute is the C++ files of CUTLASS's include/cute and examples/cute
// (CUTLASS, default /work/cutlass), for the benchmarks; they skip without it.
func cutlassCute(b testing.TB) (files [][]byte, size int64) {
	root := os.Getenv("CUTLASS")
	if root == "" {
		root = "/work/cutlass"
	}
	for _, dir := range []string{"include/cute", "examples/cute"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) != ".py" {
				if src, err := os.ReadFile(p); err == nil {
					files = append(files, src)
					size += int64(len(src))
				}
			}
			return nil
		})
	}
	if len(files) == 0 {
		b.Skipf("no CUTLASS checkout at %s (set CUTLASS)", root)
	}
	return files, size
}

// BenchmarkCppTokensCUTLASS tokenizes include/cute + examples/cute, asm's
// inert insides left out as ReadCpp leaves them.
func BenchmarkCppTokensCUTLASS(b *testing.B) {
	files, size := cutlassCute(b)
	b.SetBytes(size)
	var toks []token
	for b.Loop() {
		for _, src := range files {
			toks = cppTokens(src, toks[:0])
		}
	}
}

// BenchmarkReadCppCUTLASS reads include/cute + examples/cute as lint does.
func BenchmarkReadCppCUTLASS(b *testing.B) {
	files, size := cutlassCute(b)
	b.SetBytes(size)
	for b.Loop() {
		for _, src := range files {
			ReadCpp(src)
		}
	}
}

// sameForLint fails t when ReadCppForCounts differs from the full read in
// anything lint reads: the roots, the bindings with a value, the disabled
// and foreign ranges.
func sameForLint(t *testing.T, name string, src []byte) {
	t.Helper()
	got, want := ReadCppForCounts(src), readCppWithoutSkipping(src)
	valued := func(f *File) []Binding {
		var out []Binding
		for _, b := range f.Bindings {
			if b.Value != nil {
				out = append(out, b)
			}
		}
		return out
	}
	switch {
	case !reflect.DeepEqual(got.Roots, want.Roots):
		t.Errorf("%s: lint's read has %d roots, the full read %d (or they differ)", name, len(got.Roots), len(want.Roots))
	case !reflect.DeepEqual(valued(got), valued(want)):
		t.Errorf("%s: lint's read differs from the full read in the bindings with a value", name)
	case !reflect.DeepEqual(got.Disabled, want.Disabled) || !reflect.DeepEqual(got.Foreign, want.Foreign) || got.UsesCute != want.UsesCute:
		t.Errorf("%s: lint's read differs from the full read in disabled or foreign ranges", name)
	}
}

func TestLintReadKeepsWhatLintReads(t *testing.T) {
	src, err := os.ReadFile("testdata/skip.cu")
	if err != nil {
		t.Fatal(err)
	}
	sameForLint(t, "skip.cu", src)
	// Not vacuous: the parameters of fma, copy, fill, assign and launch
	// are left out, those of tile and shadow (whose bodies hold CuTe code)
	// kept; copy's and assign's parameters kBlock and kTile shadow the
	// constants of those names, fill's default reads kBlock and rebind
	// writes kTile (names bound outside, inside lists left out), so the read
	// is refused and made in full; without them, it stands.
	want := []string{"__device__ static void\n  fma", "template <class TS, class TD>\n  CUTE_HOST_DEVICE static void\n  copy",
		"CUTE_HOST_DEVICE static void\n  fill", "CUTE_HOST_DEVICE static void\n  assign", "void launch",
		"void rebind"}
	for _, c := range []struct {
		src    string
		stands bool
	}{{string(src), false}, {strings.NewReplacer("int kBlock,", "int kCount,", "int m = kBlock", "int m = 128", "int kTile = 3", "int kCount = 3", "decltype(kBlock) kTile = 3", "int kOther = 3").Replace(string(src)), true}} {
		src := []byte(c.src)
		sameForLint(t, "skip.cu", src)
		d := &paramDrops{}
		f := readCpp(src, d)
		var lists []string
		for _, r := range d.dropped {
			text := string(src[r.Start:r.End])
			lists = append(lists, text[:strings.IndexByte(text, '(')])
		}
		if !reflect.DeepEqual(lists, want) {
			t.Errorf("left out the parameters of %q, want %q", lists, want)
		}
		if d.verify(f, src) != c.stands {
			t.Errorf("verify = %v, want %v", !c.stands, c.stands)
		}
		lint := ReadCppForCounts(src)
		if !lint.ForLint {
			t.Error("ReadCppForCounts: File.ForLint not set")
		}
		lint.ForLint = false // the one field that tells the reads apart
		if full := readCppWithoutSkipping(src); c.stands == reflect.DeepEqual(lint, full) {
			t.Errorf("ReadCppForCounts equal to the full read: %v, want %v", !c.stands, !c.stands)
		}
	}
	for _, src := range []string{"void f(int a) {", "void f(int a) { x = 1; }", "int x = 1; void f(int x) { }", "}void f(int a)const{}", "f(a) {}", "void f(a; b) {}"} {
		sameForLint(t, src, []byte(src))
	}
}

// runCalls stand for FindingCalls in the tests of lint's runs (lint_runs.go).
var runCalls = NewNames("size", "select", "take", "composition", "logical_divide", "make_layout", "get", "shape", "coalesce", "upcast")

// readCppRuns is readCppRunsIn with a scratch of its own.
func readCppRuns(src []byte, calls *Names) *File {
	scratch := scratchPool.Get().(*readScratch)
	defer scratch.release()
	return readCppRunsIn(scratch, src, calls)
}

// sameRuns fails t when lint's read with runs left out (readCppRuns over
// runCalls) reads a call of runCalls other than the full read: the roots
// that hold one, the bindings of every name in them visible there, the
// structs they name, whether they are disabled or in a foreign namespace.
func sameRuns(t *testing.T, name string, src []byte) {
	t.Helper()
	got, want := readCppRuns(src, runCalls), ReadCpp(src)
	calling := func(f *File) []Node {
		var out []Node
		for _, r := range f.Roots {
			found := false
			Inspect(r, func(n Node) bool {
				if c, ok := n.(*Call); ok && runCalls.Contains(c.Fun.Name) && c.Recv == nil && (c.Paren || c.HasTArgs) {
					found = true
				}
				return !found
			})
			if found {
				out = append(out, r)
			}
		}
		return out
	}
	gr, wr := calling(got), calling(want)
	if !reflect.DeepEqual(gr, wr) {
		t.Errorf("%s: lint's runs read %d roots calling, the full read %d (or they differ)", name, len(gr), len(wr))
		return
	}
	if got.UsesCute != want.UsesCute {
		t.Errorf("%s: UsesCute %v, want %v", name, got.UsesCute, want.UsesCute)
	}
	visible := func(f *File, w string, at int) []Binding {
		var out []Binding
		for _, b := range f.Bindings {
			if b.Name == w && b.Visible.Start <= at && at < b.Visible.End {
				out = append(out, b)
			}
		}
		return out
	}
	scopes := func(f *File, w string) []Scope {
		var out []Scope
		for _, s := range f.Scopes {
			if s.Name == w {
				out = append(out, s)
			}
		}
		return out
	}
	for _, r := range wr {
		s, _ := r.Span()
		if got.DisabledAt(s) != want.DisabledAt(s) || got.CuteAt(s) != want.CuteAt(s) {
			t.Errorf("%s: at %d disabled or foreign differs", name, s)
		}
		Inspect(r, func(n Node) bool {
			if id, ok := n.(*Ident); ok {
				for _, w := range strings.FieldsFunc(id.Full, func(c rune) bool { return c == ':' || c == '.' }) {
					if g, x := visible(got, w, id.Start), visible(want, w, id.Start); !reflect.DeepEqual(g, x) {
						t.Errorf("%s: %s at %d: bindings %v, want %v", name, w, id.Start, g, x)
					}
					if g, x := scopes(got, w), scopes(want, w); !reflect.DeepEqual(g, x) {
						t.Errorf("%s: struct %s: %v, want %v", name, w, g, x)
					}
				}
			}
			return true
		})
	}
}

// TestLintRuns: lint's runs over CUTLASS's C++ (and the reader's fixture)
// read the calls as the full read does, and some are left out.
func TestLintRuns(t *testing.T) {
	src, err := os.ReadFile("testdata/skip.cu")
	if err != nil {
		t.Fatal(err)
	}
	sameRuns(t, "skip.cu", src)
	files, _ := cutlassCute(t)
	partial := 0
	for i, src := range files {
		sameRuns(t, "cutlass#"+strconv.Itoa(i), src)
		sameRunMarks(t, "cutlass#"+strconv.Itoa(i), src)
		sameTemplateNames(t, "cutlass#"+strconv.Itoa(i), src)
		sameReadAsReference(t, "cutlass#"+strconv.Itoa(i), src)
		sameScan(t, "cutlass#"+strconv.Itoa(i), src)
		sameDirectiveEnds(t, "cutlass#"+strconv.Itoa(i), src)
		if readCppRuns(src, runCalls).Partial {
			partial++
		}
	}
	if partial == 0 {
		t.Error("no file of CUTLASS was read with runs left out")
	}
}

// TestLintRunsDense: a file of denseMinTokens or more with a statement
// read every denseCalls tokens or fewer is read in full, without looking
// for runs (those between its calls would leave out three quarters of it
// here); with its calls fewer, runs are left out. Either read reads the
// calls as the full read does.
func TestLintRunsDense(t *testing.T) {
	var dense, sparse strings.Builder
	for i := 0; dense.Len() < 40<<10; i++ {
		// 18 tokens, one call.
		fmt.Fprintf(&dense, "using A%d = int;\nusing B%d = int;\nauto c%d = size(x);\n", i, i, i)
		fmt.Fprintf(&sparse, "using A%d = int;\nusing B%d = int;\nusing C%d = int;\n", i, i, i)
	}
	sparse.WriteString("auto c = size(x);\n")
	for _, c := range []struct {
		src     string
		partial bool
	}{{dense.String(), false}, {sparse.String(), true}} {
		src := []byte(c.src)
		if toks := cppTokens(src, nil); len(toks) < denseMinTokens {
			t.Fatalf("%d tokens, want %d or more", len(toks), denseMinTokens)
		}
		if got := readCppRuns(src, runCalls).Partial; got != c.partial {
			t.Errorf("Partial = %v, want %v", got, c.partial)
		}
		sameRuns(t, "dense", src)
	}
}

// TestLintRunsLeaveOut: what lint's runs leave out of a small file, and
// the reads that make them keep a statement: a binding a kept call reads,
// a struct whose member it reads, an assignment to a name it reads, an
// alias template declared in a struct body.
func TestLintRunsLeaveOut(t *testing.T) {
	src := []byte(`namespace cute {
using Unread = Layout<Shape<_4,_3>>;
using A = Layout<Shape<_4,_3>>;
struct Unused { using X = Layout<_2>; int f() { return 1; } };
template <class Q> struct Filler1 { using X = Layout<Shape<_1,_2,_3,_4>, Stride<_4,_3,_2,_1>>; using Y = Q; };
template <class Q> struct Filler2 { using X = Layout<Shape<_1,_2,_3,_4>, Stride<_4,_3,_2,_1>>; using Y = Q; };
template <class Q> struct Filler3 { using X = Layout<Shape<_1,_2,_3,_4>, Stride<_4,_3,_2,_1>>; using Y = Q; };
struct T { using X = Layout<_6>; using Y = Layout<_7>; };
struct U { template <int N> using Z = Layout<Int<N>>; };
int k = 2;
void g() { k = 3; }
void h() { int j = 0; j = 1; }
auto r = take<k,1>(A{});
auto s = composition(T::X{}, Z<4>{});
}
`)
	f := readCppRuns(src, runCalls)
	if !f.Partial {
		t.Fatal("nothing left out")
	}
	sameRuns(t, "runs", src)
	var read []string
	for _, b := range f.Bindings {
		read = append(read, b.Name)
	}
	want := []string{"A", "X", "N", "Z", "k", "r", "s"} // not T::Y, nor Filler*::X
	if !reflect.DeepEqual(read, want) {
		t.Errorf("bindings read %q, want %q", read, want)
	}
}

// TestLintRunsMinBytes: ReadCppForLint looks for runs to leave out in a
// file of LintRunsMinBytes or more, and reads a smaller one in full; lint
// reads the same calls either way.
func TestLintRunsMinBytes(t *testing.T) {
	defer func(calls *Names) { FindingCalls = calls }(FindingCalls)
	FindingCalls = runCalls
	filler := "template <class Q> struct Filler { using X = Layout<Shape<_1,_2,_3,_4>, Stride<_4,_3,_2,_1>>; using Y = Q; };\n"
	call := "using A = Layout<Shape<_4,_3>>;\nauto r = composition(A{}, make_layout(_2{}));\n"
	small := []byte("namespace cute {\n" + filler + call + "}\n")
	large := []byte("namespace cute {\n" + strings.Repeat(filler, LintRunsMinBytes/len(filler)+1) + call + "}\n")
	if len(small) >= LintRunsMinBytes || len(large) < LintRunsMinBytes {
		t.Fatalf("texts of %d and %d bytes, around %d", len(small), len(large), LintRunsMinBytes)
	}
	if f := ReadCppForLint(small); f.Partial || !f.Deferred || !f.ForLint {
		t.Errorf("small text: Partial %v, Deferred %v, ForLint %v; want a full read, deferred, for lint", f.Partial, f.Deferred, f.ForLint)
	}
	if f := ReadCppForLint(large); !f.Partial || !f.ForLint {
		t.Errorf("large text: Partial %v, ForLint %v; want the runs left out, for lint", f.Partial, f.ForLint)
	}
	sameRuns(t, "small", small)
	sameRuns(t, "large", large)
}

// TestLintRunsBlockTail: the if constexpr chains a selector function ends
// its blocks with (mma_sm90.hpp's ss_op_selector, a call of size<2> before
// each) are left out to the "}" that closes the block, and so are the
// statements before such a chain in a block that calls nothing; a chain
// that assigns a name a call reads is kept, as are an else, a braced list
// and a struct's member functions after its last ";".
func TestLintRunsBlockTail(t *testing.T) {
	chain := func(i int) string {
		return fmt.Sprintf(`      if constexpr (N %% 256 == 0) { return MMA_64x256_%d<A, B>{}; }
      else if constexpr (N %% 128 == 0) { return MMA_64x128_%d<A, B>{}; }
      else { static_assert(N %% 8 == 0, "N must be a multiple of 8."); }
`, i, i)
	}
	var b strings.Builder
	b.WriteString("namespace cute {\nint k = 2;\ntemplate <class T, class S>\nauto selector() {\n  auto N = size<1>(S{});\n")
	for i := range 40 {
		fmt.Fprintf(&b, "  if constexpr (is_same_v<T, T%d>) {\n    static_assert(size<2>(S{}) %% 16 == 0, \"K\");\n%s  }\n  else", i, chain(i))
	}
	b.WriteString(" {\n    using X = int; X x = 1;\n" + chain(99) + "  }\n}\n")
	// A chain that assigns k, which a later call reads; an else after a
	// call's statement; a braced list after ")" in a call.
	b.WriteString("void g(int c) {\n  auto r = size(c);\n  if (c) { k = 3; }\n}\nvoid h(int c) {\n  if (c) size(c); else { c = 1; }\n}\n")
	// A struct's member functions after its last ";" (no tail: a cost).
	b.WriteString("struct D { using R = int; R at(int i) const { return R(i); } };\n")
	b.WriteString("auto s = take<k,1>(Layout<_4>{}, decltype(k){ B{2} });\n}\n")
	src := []byte(b.String())
	toks := cppTokens(src, nil)
	f := readCppRuns(src, runCalls)
	if !f.Partial {
		t.Fatal("nothing left out")
	}
	sameRuns(t, "tail", src)
	read, structural, _ := runMarks(src, toks, runCalls, nil, nil, nil)
	d := dropRuns(src, toks, structural, read, nil)
	text := func(k int32) string { return string(src[toks[k].start:toks[k].end]) }
	in := func(at int) bool { // token at byte at left out?
		for _, r := range d.ranges {
			if toks[r[0]].start <= at && at < toks[r[1]].start {
				return true
			}
		}
		return false
	}
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("if constexpr (N % 256"))
		if j < 0 {
			break
		}
		i += j
		if !in(i) {
			t.Errorf("the chain at %d is read", i)
		}
		i++
	}
	for _, w := range []string{"k = 3", "B{2}", "R at("} {
		if at := bytes.Index(src, []byte(w)); in(at) != (w == "k = 3") {
			t.Errorf("%q at %d: left out %v", w, at, in(at))
		}
	}
	for _, r := range d.ranges {
		if w := text(r[0]); w == "else" || w == "{" {
			t.Errorf("a run from %q at %d, to %q", w, toks[r[0]].start, text(r[1]))
		}
	}
	var refused []int
	for _, k := range d.verify(src, toks, d.keptTokens(toks, nil), bindingCandidates(src, toks, nil)) {
		refused = append(refused, toks[k].start)
		if text(k) == "constexpr" {
			t.Errorf("verify refuses constexpr at %d (if constexpr (...) declares nothing)", toks[k].start)
		}
	}
	if at := bytes.Index(src, []byte("k = 3")); !slices.Contains(refused, at) {
		t.Errorf("verify refuses %v, not k at %d (assigned in g's if, read by take<k,1>)", refused, at)
	}
}
