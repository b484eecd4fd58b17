package analysis

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/source"
)

// callsOfFindingNames are the calls of the code read from src whose
// function is one of findingNames, by both C++ readers (or the Python one).
func callsOfFindingNames(lang Language, src []byte) []string {
	var files []*source.File
	switch lang {
	case LangCpp:
		files = []*source.File{source.ReadCpp(src), source.ReadCppForLint(src)}
	case LangPython:
		files = []*source.File{source.ReadPython(src)}
	}
	var out []string
	for _, f := range files {
		for _, root := range f.Roots {
			source.Inspect(root, func(n source.Node) bool {
				if call, ok := n.(*source.Call); ok && call.Fun != nil && findingNames().Contains(call.Fun.Name) {
					out = append(out, call.Fun.Full)
				}
				return true
			})
		}
	}
	return out
}

// TestFindingFilterOverCUTLASS: every C++/Python file of a CUTLASS
// checkout that lint leaves unread (source.MayCall over findingNames is
// false), read in full (ReadCode's reader, whether or not it names CuTe),
// calls nothing of findingNames, gives the same findings with its code as
// without, and holds no layout.
func TestFindingFilterOverCUTLASS(t *testing.T) {
	root := cutlassRoot()
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no CUTLASS checkout at %s (set CUTLASS): %v", root, err)
	}
	var files, refused, candidates, refusedCandidates int
	var bytes, refusedBytes int64
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		lang := LanguageOf(p)
		if lang != LangCpp && lang != LangPython {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		files++
		bytes += int64(len(src))
		candidate := source.CodeCandidate(src)
		if candidate {
			candidates++
		}
		if source.MayCall(src, findingNames()) {
			return nil
		}
		refused++
		if os.Getenv("LOGREFUSED") != "" && candidate {
			t.Logf("refused %d %s", len(src), p)
		}
		refusedBytes += int64(len(src))
		if candidate {
			refusedCandidates++
		}
		if calls := callsOfFindingNames(lang, src); len(calls) > 0 {
			t.Errorf("%s: refused, but the reader reads calls of %v", p, calls)
		}
		c := newCode(lang, src, source.ReadCpp)
		with := AnalyzeHostCode(p, src, c).Findings
		without := AnalyzeHostCode(p, src, nil).Findings
		if !reflect.DeepEqual(with, without) {
			t.Errorf("%s: refused, but its code adds findings: %v", p, with)
		}
		if n := c.Counts(); n.Layouts > 0 || n.Written > 0 {
			t.Errorf("%s: refused, but its code holds layouts: %+v", p, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d C++/Python files (%d bytes), %d naming CuTe; lint refuses %d (%d bytes), %d of those naming CuTe",
		files, bytes, candidates, refused, refusedBytes, refusedCandidates)
}

// findingFilterSeeds are texts where a call of findingNames hides behind
// what the tokenizers skip, and texts of inline assembly the filter refuses.
var findingFilterSeeds = []struct {
	src     string
	python  bool
	mayCall bool
}{
	{"auto x = get<1>(4);", false, true},
	{"auto x = size /* the size */ (L);", false, true},
	{"auto x = size\n#if 0\n#endif\n(L);", false, true},
	{"auto x = size\n#define A \\\n  B\n(L);", false, true},
	{"auto x = size // c\n(L);", false, true},
	{"auto x = cute::size\t\n(L);", false, true},
	{"auto x = size \\\n(L);", false, true},
	{"auto t = mma.get_layoutA_TV();", false, true},
	{"using X = Layout<Shape<_2>>;", false, true},
	{"auto a = Layout_K_SW128_Atom<half_t>{};", false, true},
	{"x = cute.make_layout(\n  (4, 8))", true, true},
	{"x = (cute.size # the size\n (L))", true, true},
	{"x = cute.size \\\n(L)", true, true},
	{"namespace cute {\nstruct SM90_64x8x16_F16F16F16_SS {\n  static void fma(uint64_t const& desc_a, uint32_t& d00)\n  {\n    asm volatile(\"wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0, %1}, %2;\"\n      : \"+r\"(d00) : \"l\"(desc_a));\n  }\n};\n} // the layout, its size\n", false, false},
	{"int size = 4; // the size of L\nint n = \"size\" [0] + L.rank;", false, false},
	{"x = 8  # cute.size of L\ny = 'cute.size' + L.rank", true, false},
}

func TestFindingFilterSeeds(t *testing.T) {
	for _, s := range findingFilterSeeds {
		if got := source.MayCall([]byte(s.src), findingNames()); got != s.mayCall {
			t.Errorf("MayCall(%q) = %v, want %v", s.src, got, s.mayCall)
		}
		lang := LangCpp
		if s.python {
			lang = LangPython
		}
		if !s.mayCall {
			if calls := callsOfFindingNames(lang, []byte(s.src)); len(calls) > 0 {
				t.Errorf("%q: refused, but the reader reads calls of %v", s.src, calls)
			}
		}
	}
}

// FuzzFindingFilter: on any text, where source.MayCall over findingNames
// says no, neither reader reads a call of findingNames (so no finding of
// code can come from it: see code_skip.go).
func FuzzFindingFilter(f *testing.F) {
	for _, s := range findingFilterSeeds {
		f.Add(s.src, s.python)
	}
	f.Add("auto L = make_layout(make_shape(_2{}, _4{}));\n// (_2,_4):(_1,_2)", false)
	f.Add("L = cute.make_layout((2, 4))  # (2,4):(1,2)\nM = cute.composition(L, 2)", true)
	f.Add("template <class T> CUTE_HOST_DEVICE void f(T const& size, int (*g)(int), Tensor<E, L> layout) {\n  asm volatile(\"mov %0;\" : \"+r\"(size));\n}", false)
	f.Add("namespace cute {\nstruct X { static constexpr int size = 4; using Shape = int; };\nauto y = X::size;\n}", false)
	f.Fuzz(func(t *testing.T, src string, python bool) {
		mayCall := source.MayCall([]byte(src), findingNames())
		if !python {
			// Lint's C++ files take MayCall's answer from the descriptor
			// scan (AnalyzeHostForFindings, host_calls.go).
			c := newCallScan([]byte(src), findingNames(), &fuzzAsmOperands)
			for range cppRegionScan(c.src, true, c) {
			}
			if got := c.mayCall(); got != mayCall {
				t.Errorf("%q: the descriptor scan's MayCall = %v, source.MayCall %v", src, got, mayCall)
			}
		}
		if mayCall {
			return
		}
		lang := LangCpp
		if python {
			lang = LangPython
		}
		if calls := callsOfFindingNames(lang, []byte(src)); len(calls) > 0 {
			t.Errorf("%q: refused, but the reader reads calls of %v", src, calls)
		}
		if c := newCode(lang, []byte(src), source.ReadCpp); c != nil {
			h := AnalyzeHostCode("f"+map[bool]string{false: ".cu", true: ".py"}[python], []byte(src), c)
			for _, fd := range h.Findings {
				if fd.Code == CodeStaleComment || strings.Contains(fd.Message, "static_assert") {
					t.Errorf("%q: refused, but its code finds %v", src, fd)
				}
			}
		}
	})
}
