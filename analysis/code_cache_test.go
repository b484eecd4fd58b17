package analysis

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cute-lsp/cute-lsp/source"
)

// cacheBases are the texts the cache's edit tests start from: alias
// templates, namespaces, parameters, reassigned names, shadowing, names
// bound in one block and used in another, and the DSL.
var cacheBases = []struct {
	lang Language
	text string
}{
	{LangCpp, `#include <cute/tensor.hpp>
using namespace cute;
constexpr int kBlockM = 64;
template <int N>
using Row = Layout<Shape<Int<N>,_8>, Stride<_8,_1>>;
using Atom = ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, Layout<Shape<_8,_64>,Stride<_64,_1>>>;
namespace other { using Coord = int; auto c = Coord{}; }
template <class TA, int K>
__global__ void kernel(TA const* A, int ldA, int M) {
  auto bM = Int<kBlockM>{};
  auto bK = Int<K>{};
  auto sA = make_layout(make_shape(bM, Int<8>{}));
  auto sB = make_layout(make_shape(bM, Int<8>{}), make_stride(Int<1>{}, bM + Int<1>{}));
  auto sw = composition(Swizzle<3,3,3>{}, make_layout(make_shape(Int<8>{}, Int<64>{}), make_stride(Int<64>{}, Int<1>{})));
  auto sK = tile_to_shape(sw, make_shape(bM, Int<64>{}));
  auto r = Row<16>{};
  auto t = logical_divide(sA, make_tile(Int<16>{}, Int<4>{}));
  int n = 8;
  n += 2;
  auto g = make_layout(make_shape(n, ldA));
  auto h = zipped_divide(sA, make_tile(_8{}, _2{}));
  for (int k = 0; k < size<1>(sA); ++k) { auto inner = make_layout(k); }
  CUTE_STATIC_ASSERT_V(size(sA) == size(sB));
}
Layout<Shape<_4,_2>> L2{};
auto sizeL2 = size(L2);
`},
	{LangCpp, `using namespace cute;
auto a = make_layout(Shape<_8,_8>{});
auto b = make_layout(Shape <Shape <_2, _2,_2>, Shape <_2,_2, _2>>{},
                     Stride<Stride<_1,_16,_4>, Stride<_8,_2,_32>>{});
auto layoutR = composition(a, b);
auto x = a;
auto y = x;
auto z = composition(y, x);
`},
	{LangCpp, `namespace cutlass {
auto a = make_layout(Shape<_4,_2>{});
auto a2 = a;
}
namespace cute {
auto b = make_layout(Shape<_4,_2>{});
}
auto c = make_layout(Shape<_4,_2>{});
auto d = cute::make_layout(Shape<_4,_2>{});
`},
	{LangPython, `import cutlass.cute as cute
from cutlass import cute as ct
L = cute.make_layout((4, 8), stride=(8, 1))
M = ct.make_layout((2, 2))
n = cute.size(L, mode=[0])
def f(k: int, t):
    A = cute.make_layout((k, 4))
    B = cute.composition(L, M)
    return A
C = cute.logical_divide(L, (2, 2))
`},
}

// cacheEdits are what the random edits insert: pieces of CuTe code, names
// of the bases, and brackets and punctuation that break it.
var cacheEdits = []string{
	"auto L = make_layout(make_shape(Int<8>{}, 4));\n", "Int<16>{}", "_4", "8", "2", "64", ",", "(", ")",
	"{", "}", ";", "<", ">", "= ", "bM", "sA", "sw", "x", "a", "L", "M", "n", "kBlockM", "Row<4>{}",
	"using namespace cute;\n", "namespace foo {", "template <int N>\nusing T = Layout<Shape<Int<N>,_2>>;\n",
	"T<4>{}", "n = 5;\n", "int M", "composition(", "Swizzle<3,3,3>{}", "cute::", " ", "\n", "//", "/*", "*/",
	"auto sA = sB;\n", "auto x = y;\n", "using X = X;\n", "auto q = q;\n",
	"L = cute.make_layout((4, 8), stride=(8, 1))\n", "import cutlass.cute as ct\n", "ct.", "cute.",
	"def g(n: int):\n    ", "    ", "(2, 2)", "mode=[1]",
}

// TestCodeCacheEqualsFresh: after each of a few thousand random edits, a
// Code that takes its values from a cache filled by the versions before
// gives what a fresh Code gives: every binding's value, every hover, every
// inlay hint, whatever the order it is asked in (a file that may use the
// cache evaluates to the same values in any order).
func TestCodeCacheEqualsFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 1))
	cache := NewCodeCache()
	usable := 0
	steps := 0
	for _, base := range cacheBases {
		text := base.text
		for range 300 {
			text = randomEdit(rng, text)
			if msg := compareCached(base.lang, text, cache, rng); msg != "" {
				t.Fatalf("%s\n--- text:\n%s", msg, text)
			}
			steps++
			if c := ReadCode(base.lang, []byte(text)); c != nil {
				c.UseCache(cache)
				c.InlayHints(0, len(text))
				if c.keys != nil && c.keys.usable {
					usable++
				}
			}
		}
	}
	// The edits must leave most versions using the cache, or this test
	// would compare nothing.
	if usable < steps/2 {
		t.Fatalf("only %d of %d versions used the cache", usable, steps)
	}
}

// TestCodeCacheRefusesDeepChains: a chain of names deeper than evaluation
// follows keeps a file off the cache; names that look circular but are not
// (a name is visible only after its declaration) do not.
func TestCodeCacheRefusesDeepChains(t *testing.T) {
	deep := "using namespace cute;\nauto x0 = Int<1>{};\n"
	for i := 1; i < 40; i++ {
		deep += fmt.Sprintf("auto x%d = x%d;\n", i, i-1)
	}
	for _, tc := range []struct {
		text   string
		usable bool
	}{
		{"using namespace cute;\nauto a = make_layout(Int<4>{});\nauto b = a;\n", true},
		{"using namespace cute;\nusing X = Y;\nusing Y = X;\n", true}, // Y is not visible before it is bound
		{"using namespace cute;\nstruct S { using X = Y; using Y = X; };\nauto q = q;\n", true},
		{"using namespace cute;\ntemplate <int N> using X = X<N>;\nauto a = X<2>{};\n", true},
		{deep, false},
	} {
		c := ReadCode(LangCpp, []byte(tc.text))
		c.UseCache(NewCodeCache())
		c.InlayHints(0, len(tc.text))
		if c.keys == nil || c.keys.usable != tc.usable {
			t.Errorf("usable = %v, want %v:\n%s", c.keys != nil && c.keys.usable, tc.usable, tc.text)
		}
		if msg := compareCached(LangCpp, tc.text, NewCodeCache(), rand.New(rand.NewPCG(1, 2))); msg != "" {
			t.Errorf("%s\n%s", msg, tc.text)
		}
	}
}

func randomEdit(rng *rand.Rand, text string) string {
	at := rng.IntN(len(text) + 1)
	switch rng.IntN(3) {
	case 0: // delete a short span
		end := min(len(text), at+1+rng.IntN(12))
		return text[:at] + text[end:]
	case 1: // change a digit, as an edit of a value does
		if i := strings.IndexAny(text[at:], "123456789"); i >= 0 {
			i += at
			return text[:i] + string(rune('1'+rng.IntN(9))) + text[i+1:]
		}
	}
	return text[:at] + cacheEdits[rng.IntN(len(cacheEdits))] + text[at:]
}

// compareCached compares a fresh Code of text with one that uses cache
// (asked in another order when the file may use the cache): "" when they agree.
func compareCached(lang Language, text string, cache *CodeCache, rng *rand.Rand) string {
	src := []byte(text)
	fresh, cached := ReadCode(lang, src), ReadCode(lang, src)
	if fresh == nil || cached == nil {
		if (fresh == nil) != (cached == nil) {
			return "one read, one not"
		}
		return ""
	}
	fresh.UseCache(nil)
	cached.UseCache(cache)
	// Hovers first, at line starts and random places: another way in.
	offsets := []int{0, len(src)}
	for range 12 {
		offsets = append(offsets, rng.IntN(len(src)+1))
	}
	for i := range src {
		if src[i] == '\n' && len(offsets) < 40 {
			offsets = append(offsets, i+1)
		}
	}
	hover := func(c *Code, offs []int) map[int]string {
		out := map[int]string{}
		for _, off := range offs {
			if cv, ok := c.At(off); ok {
				out[off] = fmt.Sprintf("%d-%d %s %s", cv.Start, cv.End, cv.Name, cv.Printed)
			}
		}
		return out
	}
	hFresh := hover(fresh, offsets)
	reorder := false // whether the file may use the cache
	if len(cached.File.Bindings) > 0 {
		cached.mu.Lock()
		_, reorder = cached.cacheID(0)
		cached.mu.Unlock()
	}
	shuffled := append([]int(nil), offsets...)
	if reorder {
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	}
	if hCached := hover(cached, shuffled); !reflect.DeepEqual(hFresh, hCached) {
		return fmt.Sprintf("hovers differ:\nfresh  %v\ncached %v", hFresh, hCached)
	}
	n := len(fresh.File.Bindings)
	order := rng.Perm(n)
	if !reorder {
		for i := range order {
			order[i] = i
		}
	}
	values := func(c *Code, order []int) []string {
		c.mu.Lock()
		defer c.mu.Unlock()
		out := make([]string, n)
		for _, i := range order {
			v, err := c.binding(i, 0)
			if err != nil {
				out[i] = "no value"
			} else {
				out[i] = fmt.Sprintf("%T %s", v, CuTePrint(v))
			}
		}
		return out
	}
	straight := make([]int, n)
	for i := range straight {
		straight[i] = i
	}
	vFresh, vCached := values(fresh, straight), values(cached, order)
	for i := range vFresh {
		if vFresh[i] != vCached[i] {
			return fmt.Sprintf("binding %s: fresh %s, cached %s", fresh.File.Bindings[i].Name, vFresh[i], vCached[i])
		}
	}
	if a, b := fresh.InlayHints(0, len(src)), cached.InlayHints(0, len(src)); !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("inlay hints differ:\nfresh  %v\ncached %v", a, b)
	}
	if a, b := fresh.Findings(), cached.Findings(); !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("findings differ:\nfresh  %v\ncached %v", a, b)
	}
	return ""
}

// TestCodeCacheTellsApart: versions of a file where a binding's text stays
// the same but its value does not (CuTe's names hidden by a namespace, a
// module imported under another name, braces for parentheses, a name
// assigned again, a name bound to something else), each read after the
// one before through one cache, give what fresh reads give.
func TestCodeCacheTellsApart(t *testing.T) {
	for _, versions := range []struct {
		lang  Language
		texts []string
	}{
		{LangCpp, []string{
			"auto L = make_layout(Shape<_4,_2>{});\n",
			"namespace cutlass {\nauto L = make_layout(Shape<_4,_2>{});\n}\n",
			"using namespace cute;\nnamespace cutlass {\nauto L = make_layout(Shape<_4,_2>{});\n}\n",
		}},
		{LangPython, []string{
			"import cutlass.cute as ct\nL = ct.make_layout((4, 8))\n",
			"import numpy as ct\nL = ct.make_layout((4, 8))\n",
		}},
		{LangCpp, []string{
			"using namespace cute;\nauto L = make_layout(Shape<_4,_2>{});\n",
			"using namespace cute;\nauto L = make_layout(Shape<_4,_2>());\n",
		}},
		{LangCpp, []string{
			"using namespace cute;\nint n = 8;\nauto L = make_layout(n);\n",
			"using namespace cute;\nint n = 8;\nauto L = make_layout(n);\nvoid f() { n += 2; }\n",
		}},
		{LangCpp, []string{ // a call CuTe rejects, then accepts, then rejects: its findings follow
			"using namespace cute;\nauto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));\nauto b = make_layout(Shape<_6>{});\nauto r = composition(a, b);\n",
			"using namespace cute;\nauto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));\nauto b = make_layout(Shape<_4>{});\nauto r = composition(a, b);\n",
			"using namespace cute;\nauto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));\nauto b = make_layout(Shape<_6>{});\nauto r = composition(a, b);\n",
			"using namespace cute;\nauto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));\nint b = 6;\nauto r = composition(a, b);\n",
			"using namespace cute;\nauto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));\nauto b = make_layout(Shape<_6>{});\nvoid f() {\nauto r = composition(a, b);\n}\n",
			"using namespace cute;\nauto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));\nauto b = make_layout(Shape<_6>{});\n#if 0\nauto r = composition(a, b);\n#endif\n",
			"using namespace cute;\nauto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));\nauto b = make_layout(Shape<_6>{});\nauto r = composition(a, b);\n",
		}},
		{LangCpp, []string{ // a member read from outside its struct follows its edits
			"using namespace cute;\nstruct T { using A = Layout<_4>; };\nauto L = composition(T::A{}, Layout<_2>{});\n",
			"using namespace cute;\nstruct T { using A = Layout<_8,_2>; };\nauto L = composition(T::A{}, Layout<_2>{});\n",
			"using namespace cute;\nstruct T { using A = Layout<_8,_2>; };\nstruct T { using A = Layout<_4>; };\nauto L = composition(T::A{}, Layout<_2>{});\n",
			"using namespace cute;\nstruct U { using A = Layout<_8,_2>; };\nauto L = composition(T::A{}, Layout<_2>{});\n",
		}},
		{LangCpp, []string{
			"using namespace cute;\nauto a = Int<4>{};\nauto L = make_layout(a);\n",
			"using namespace cute;\nauto a = Int<8>{};\nauto L = make_layout(a);\n",
			"using namespace cute;\nauto a = 8;\nauto L = make_layout(a);\n",
			"using namespace cute;\nauto L = make_layout(a);\n",
		}},
	} {
		cache := NewCodeCache()
		for _, text := range versions.texts {
			if msg := compareCached(versions.lang, text, cache, rand.New(rand.NewPCG(1, 2))); msg != "" {
				t.Errorf("%s\n%s", msg, text)
			}
		}
	}
}

// FuzzCodeCachedEdits: from any text, read as C++ and as Python, eight
// random edits, each version read through one cache, give what fresh
// reads give. (Each input reads 16 versions twice: an input that finds new
// code is minimized for up to -fuzzminimizetime, 60 s by default, before
// the count of executions moves; -fuzzminimizetime 5s keeps it going.)
func FuzzCodeCachedEdits(f *testing.F) {
	for _, b := range cacheBases {
		f.Add(b.text, uint64(1))
	}
	f.Add("using namespace cute;\nauto a = make_layout(Int<4>{});\nauto b = a;\nauto c = composition(b, a);\n", uint64(7))
	f.Add("using namespace cute;\nstruct T { using A = Layout<_8,_2>; static constexpr int k = 4; };\nauto L = composition(T::A{}, Layout<Int<T::k>>{});\n", uint64(11))
	f.Add("using namespace cute;\nauto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));\nauto b = make_layout(Shape<_6>{});\nauto r = composition(a, b);\n", uint64(9))
	// Atoms and tiled atoms, template parameters read in their clause, and the DSL's empty tuple argument.
	f.Add("using namespace cute;\nusing E = cutlass::half_t;\nauto m = make_tiled_mma(MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{}, Layout<Shape<_2,_2,_1>>{});\nauto c = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, E>{}, m);\nauto t = m.get_layoutA_TV();\n", uint64(13))
	f.Add("using namespace cute;\ntemplate <class TA, class TB, class TC, int N = 2>\nvoid f() { auto m = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Layout<Shape<Int<N*8>,_16,_1>>{}); auto n = size(m); }\n", uint64(17))
	f.Add("import cutlass.cute as cute\nlt = cute.make_layout(())\nx = ()\nn = cute.size(lt)\n", uint64(19))
	// Code the compiler does not see, or sees with another meaning: an
	// edit to a directive or an enum changes calls far from it.
	for i, c := range readGapShapes {
		f.Add("using namespace cute;\n"+c.src, uint64(23+i))
	}
	f.Fuzz(func(t *testing.T, src string, seed uint64) {
		if len(src) > 2048 {
			return
		}
		for _, lang := range []Language{LangCpp, LangPython} {
			rng := rand.New(rand.NewPCG(seed, 3))
			cache := NewCodeCache()
			text := "cute\n" + src
			for range 8 {
				done := make(chan string, 1)
				go func() { done <- compareCached(lang, text, cache, rng) }()
				select {
				case msg := <-done:
					if msg != "" {
						t.Fatalf("%s\n--- text:\n%s", msg, text)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("no answer in 10 s on %q", text)
				}
				text = randomEdit(rng, text)
			}
		}
	})
}

// TestCodeCacheStaysBounded: files with more distinct bindings than the
// cache holds empty it rather than grow it, and it still gives what fresh
// reads give.
func TestCodeCacheStaysBounded(t *testing.T) {
	cache := NewCodeCache()
	rng := rand.New(rand.NewPCG(4, 4))
	for f := range 3 * codeCacheKeys / 100 {
		var b strings.Builder
		b.WriteString("using namespace cute;\n")
		for i := range 100 {
			fmt.Fprintf(&b, "auto l%d = make_layout(Int<%d>{});\n", i, f*100+i+1)
		}
		if msg := compareCached(LangCpp, b.String(), cache, rng); msg != "" {
			t.Fatal(msg)
		}
		if len(cache.ids) > codeCacheKeys || len(cache.values) > codeCacheKeys {
			t.Fatalf("file %d: %d keys, %d values: more than %d", f, len(cache.ids), len(cache.values), codeCacheKeys)
		}
	}
}

// TestLintReadsWithoutCache: code read for lint is evaluated afresh, and
// keys nothing (Code.cacheUsable: the keys of every binding cost lint more
// than the values found under them save), whether lint's Code was given
// the shared cache (C++ read by source.ReadCppForLint) or not (Python,
// by ReadCodeForLint); the editor's reads key theirs.
func TestLintReadsWithoutCache(t *testing.T) {
	src := []byte("auto a = make_layout(make_shape(_4{}, _8{}));\nauto b = composition(a, make_layout(_6{}));\n")
	py := []byte("import cutlass.cute as cute\na = cute.make_layout((4, 8))\nb = cute.composition(a, cute.make_layout(6))\n")
	for _, c := range []*Code{readCode(LangCpp, src, source.ReadCppForLint), ReadCodeForLint(LangCpp, src), ReadCodeForLint(LangPython, py)} {
		c.Findings()
		c.Counts()
		if c.keys != nil {
			t.Fatalf("code read for lint (python %v): keyed for the cache", c.python)
		}
	}
	for _, c := range []*Code{ReadCode(LangCpp, src), ReadCode(LangPython, py)} {
		c.Findings()
		c.Counts()
		if c.keys == nil {
			t.Fatalf("ReadCode (python %v): no keys; the editor's reads keep values from one reading to the next", c.python)
		}
	}
}
