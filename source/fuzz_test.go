package source

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fuzzSeeds are the project's own code cases and a few CuTe snippets.
func fuzzSeeds(f *testing.F, ext string) {
	names, _ := filepath.Glob(filepath.Join("testdata", "*"+ext))
	for _, name := range names {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(string(data))
		}
	}
}

// fuzzRead runs read on src with a deadline and checks every range.
func fuzzRead(t *testing.T, src string, read func([]byte) *File) {
	if len(src) > 1<<16 {
		return
	}
	done := make(chan *File, 1)
	go func() { done <- read([]byte(src)) }()
	select {
	case f := <-done:
		checkRanges(t, src, f)
	case <-time.After(10 * time.Second):
		t.Fatalf("no answer in 10 s on %q", src)
	}
}

// FuzzReadCpp: any text is read as C++ without a panic or a hang, and
// every node and binding lies inside the text.
func FuzzReadCpp(f *testing.F) {
	fuzzSeeds(f, ".cu")
	f.Add("using namespace cute;\nauto L = make_layout(make_shape(Int<8>{}, 4), LayoutRight{});\n")
	f.Add("template <int N>\nusing X = Layout<Shape<Int<N/8>,_2>>;\nusing Y = X<64>;\n")
	f.Add("auto s = R\"d(make_layout)d\"; // make_layout(\n#define X(a) \\\n a\nLayout<Shape<_8>> x{};\n")
	f.Add("void f(int m) { auto a = composition(Swizzle<3,4,3>{}, make_layout(m)); }")
	f.Add("auto x = make_tile(_2{});\nvoid f() { for (auto& x : xs) {} auto [y, x] = g(); Foo x(3); decltype(a) x; }")
	f.Add("#if 0\nx\n#elif 1\ny\n#else\nz\n#endif\ntemplate <int N> void f() { if constexpr (N) a; else if (b) { c; } else if constexpr (d) e; }")
	f.Fuzz(func(t *testing.T, src string) { fuzzRead(t, src, ReadCpp) })
}

// FuzzReadPython: the same for the CuTe DSL reader.
func FuzzReadPython(f *testing.F) {
	fuzzSeeds(f, ".py")
	f.Add("import cutlass.cute as cute\nL = cute.make_layout((4, 8), stride=(8, 1))\n")
	f.Add("def f(m: cutlass.Int32, t):\n    x = cute.size(t, mode=[0])\n    return x\n")
	f.Add("s = '''make_layout(\n'''\nL = cute.make_layout((\n  2, 3)\n")
	f.Add("x = cute.make_layout(8)\nfor a, x in xs: x += (1,)\nx[0] = 1; x.pop(); a, x = f(x=1)\nwith g() as x: del x\n")
	f.Fuzz(func(t *testing.T, src string) { fuzzRead(t, src, ReadPython) })
}
