package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// applyRefactor applies the refactor of src (at the first occurrence of
// at) whose title contains title; ok is false when none is offered.
func applyRefactor(t *testing.T, python bool, src, at, title string) (string, bool) {
	t.Helper()
	lang := LangCpp
	if python {
		lang = LangPython
	}
	off := strings.Index(src, at)
	if off < 0 {
		t.Fatalf("no %q in the source", at)
	}
	for _, r := range ReadCode(lang, []byte(src)).Refactors(off) {
		if strings.Contains(r.Title, title) {
			out := src
			for k := len(r.Edits) - 1; k >= 0; k-- {
				e := r.Edits[k]
				out = out[:e.Range.Pos.Offset] + e.NewText + out[e.Range.End.Offset:]
			}
			return out, true
		}
	}
	return "", false
}

func TestCodeRefactors(t *testing.T) {
	for _, tc := range []struct {
		name, src, at, title, want string
		python                     bool
	}{
		{"value as a comment", "auto sA = make_layout(make_shape(_8{}, _4{}));\nauto x = 1;", "sA", "as a comment",
			"auto sA = make_layout(make_shape(_8{}, _4{}));  // (_8,_4):(_1,_8)\nauto x = 1;", false},
		{"value as a comment, cursor in the call", "auto sA = make_layout(make_shape(_8{}, _4{}));   ", "make_shape", "as a comment",
			"auto sA = make_layout(make_shape(_8{}, _4{}));  // (_8,_4):(_1,_8)", false},
		{"value as a comment, python", "import cutlass.cute as cute\nL = cute.make_layout((4, 8), stride=(8, 1))\n", "L =", "as a comment",
			"import cutlass.cute as cute\nL = cute.make_layout((4, 8), stride=(8, 1))  # (_4,_8):(_8,_1)\n", true},
		{"value as a comment, a using", "using L = Layout<Shape<_8,_4>, Stride<_4,_1>>;", "using", "as a comment",
			"using L = Layout<Shape<_8,_4>, Stride<_4,_1>>;  // (_8,_4):(_4,_1)", false},
		{"constructed type as a call", "auto sA = Layout<Shape<_8,Shape<_2,_2>>, Stride<_4,Stride<_1,_32>>>{};", "Layout", "make_layout call",
			"auto sA = make_layout(make_shape(_8{}, make_shape(_2{}, _2{})), make_stride(_4{}, make_stride(_1{}, _32{})));", false},
		{"type as decltype", "using L = cute::Layout<Shape<_11,_4>>;", "Layout", "decltype",
			"using L = decltype(cute::make_layout(cute::make_shape(Int<11>{}, _4{}), cute::make_stride(_1{}, Int<11>{})));", false},
		{"call as a type", "auto sA = make_layout(make_shape(_8{}, _4{}), LayoutRight{});", "make_layout", "Write as",
			"auto sA = Layout<Shape<_8,_4>, Stride<_4,_1>>{};", false},
		{"decltype as a type", "using L = decltype(make_layout(make_shape(_8{}, _4{})));", "make_layout", "the type",
			"using L = Layout<Shape<_8,_4>, Stride<_1,_8>>;", false},
		{"rank-1", "auto v = make_layout(_8{}, _m1{});", "make_layout", "Write as", "auto v = Layout<_8, _m1>{};", false},
		{"coalesce a call", "auto a = make_layout(make_shape(_8{}, make_shape(_2{}, _2{})), make_stride(_1{}, make_stride(_8{}, _16{})));", "make_layout", "Coalesce to",
			"auto a = make_layout(_32{}, _1{});", false},
		{"coalesce mode by mode", "auto a = make_layout(make_shape(_8{}, make_shape(_2{}, _2{})), make_stride(_1{}, make_stride(_8{}, _16{})));", "make_layout", "mode by mode",
			"auto a = make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, _8{}));", false},
		{"coalesce keeps Int<N> and cute::", "auto a = cute::make_layout(cute::make_shape(Int<4>{}, Int<8>{}, Int<3>{}), cute::make_stride(Int<1>{}, Int<4>{}, Int<64>{}));", "make_layout", "Coalesce to",
			"auto a = cute::make_layout(cute::make_shape(Int<32>{}, Int<3>{}), cute::make_stride(Int<1>{}, Int<64>{}));", false},
		{"coalesce keeps C<N>", "auto a = make_layout(make_shape(C<4>{}, C<8>{}));", "make_layout", "Coalesce to",
			"auto a = make_layout(C<32>{}, C<1>{});", false},
		{"coalesce keeps run-time integers", "auto a = make_layout(make_shape(_2{}, _4{}, 5), make_stride(_1{}, _2{}, _8{}));", "make_layout", "Coalesce to",
			"auto a = make_layout(make_shape(_8{}, 5), make_stride(_1{}, _8{}));", false},
		{"coalesce keeps Shape<...>{}", "auto a = make_layout(Shape<Shape<_2,_4>,_4>{}, Stride<Stride<_1,_2>,_8>{});", "make_layout", "mode by mode",
			"auto a = make_layout(Shape<_8,_4>{}, Stride<_1,_8>{});", false},
		{"coalesce keeps Shape<...>{}, whole", "auto a = make_layout(Shape<_8,_4>{});", "make_layout", "Coalesce to",
			"auto a = make_layout(_32{}, _1{});", false},
		{"coalesce a type", "using A = Layout<Shape<_8,_4>, Stride<_1,_8>>;", "Layout", "Coalesce to", "using A = Layout<_32, _1>;", false},
		{"coalesce a constructed type", "auto a = Layout<Shape<Int<8>,Int<4>>, Stride<Int<1>,Int<8>>>{};", "Layout", "Coalesce to", "auto a = Layout<Int<32>, Int<1>>{};", false},
		{"coalesce, python", "import cutlass.cute as cute\nL = cute.make_layout(((2, 4), 4), stride=((1, 2), 8))\n", "make_layout", "Coalesce to",
			"import cutlass.cute as cute\nL = cute.make_layout(32, stride=1)\n", true},
		{"coalesce mode by mode, python", "import cutlass.cute as cute\nL = cute.make_layout(((2, 4), 4), stride=((1, 2), 8))\n", "make_layout", "mode by mode",
			"import cutlass.cute as cute\nL = cute.make_layout((8, 4), stride=(1, 8))\n", true},
		{"coalesce, python, another alias", "import cutlass.cute as ct\nL = ct.make_layout(((2, 4), (3,)), stride=((1, 2), (16,)))\n", "make_layout", "Coalesce to",
			"import cutlass.cute as ct\nL = ct.make_layout((8, 3), stride=(1, 16))\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := applyRefactor(t, tc.python, tc.src, tc.at, tc.title)
			if !ok || got != tc.want {
				t.Errorf("got %q (offered %v), want %q", got, ok, tc.want)
			}
		})
	}
}

// TestCodeRefactorsNotOffered: no rewrite of what the code does not have
// for certain, nor one a type cannot hold, nor a comment where one is.
func TestCodeRefactorsNotOffered(t *testing.T) {
	for _, tc := range []struct {
		name, src, at, title string
		python               bool
	}{
		{"a comment already", "auto sA = make_layout(make_shape(_8{}, _4{}));  // smem", "sA", "as a comment", false},
		{"more code after", "auto sA = make_layout(make_shape(_8{}, _4{})); auto b = 2;", "sA", "as a comment", false},
		{"unknown value", "template <int N> void f() { auto sA = make_layout(make_shape(Int<N>{}, _4{})); }", "sA", "as a comment", false},
		{"not followed", "auto sA = make_layout(elsewhere);", "sA", "as a comment", false},
		{"run-time layout as a type", "int m = 8;\nauto sA = make_layout(make_shape(m, _4{}));", "make_layout", "Write as", false},
		{"a constructed layout", "Layout<Shape<int,int>> L{m, n};", "Layout", "make_layout", false},
		{"python has no Layout type", "import cutlass.cute as cute\nL = cute.make_layout((4, 8))", "make_layout", "Write as", true},
		{"shadowed name", "auto sA = make_layout(_8{});\nvoid f() { for (auto sA : xs) { auto t = sA; } }", "t =", "as a comment", false},
		{"coalesce: run-time modes do not merge in CuTe", "auto a = make_layout(make_shape(8, 4), make_stride(1, 8));", "make_layout", "Coalesce", false},
		{"coalesce: a name in the layout", "constexpr int k = 8;\nauto a = make_layout(make_shape(Int<k>{}, _4{}));", "make_layout", "Coalesce", false},
		{"coalesce: a name in the layout, python", "import cutlass.cute as cute\nk = 8\nL = cute.make_layout((k, 4))\n", "make_layout", "Coalesce", true},
		{"coalesce: already coalesced", "auto a = make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{}));", "make_layout", "Coalesce", false},
		{"coalesce: not congruent", "auto a = make_layout(make_shape(_8{}, _4{}), make_stride(_1{}));", "make_layout", "Coalesce", false},
		{"coalesce: python without CuTe's import", "L = make_layout((8, 4), stride=(1, 8))\n", "make_layout", "Coalesce", true},
		{"coalesce: a member call", "auto a = x.make_layout(make_shape(_8{}, _4{}));", "make_layout", "Coalesce", false},
		{"coalesce: another namespace's make_layout", "auto a = other::make_layout(make_shape(_8{}, _4{}));", "make_layout", "Coalesce", false},
		{"coalesce: a run-time type", "using A = Layout<Shape<int,_4>, Stride<_1,int>>;", "Layout", "Coalesce", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := applyRefactor(t, tc.python, tc.src, tc.at, tc.title); ok {
				t.Errorf("offered: %q", got)
			}
		})
	}
}

// TestReadsBackAs: a rewrite is offered only when its text reads back as
// the layout, static marks included.
func TestReadsBackAs(t *testing.T) {
	code := ReadCode(LangCpp, []byte("auto a = make_layout(make_shape(_8{}, 4));"))
	v, err := code.binding(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := v.(*layout.Layout)
	const header = "using namespace cute;\n"
	for _, tc := range []struct {
		lang        Language
		header      string
		text        string
		value, want bool
	}{
		{LangCpp, header, "make_layout(make_shape(_8{}, 4), make_stride(_1{}, _8{}))", true, true},
		{LangCpp, header, "make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, _8{}))", true, false}, // a static 4
		{LangCpp, header, "make_layout(make_shape(8, 4), make_stride(1, 8))", true, false},             // all run-time
		{LangCpp, header, "make_layout(make_shape(_8{}, 4), make_stride(_1{}, _4{}))", true, false},    // another function
		{LangCpp, header, "make_layout(make_shape(_8{}, 4)", true, false},                              // unbalanced
		{LangCpp, header, "Layout<Shape<_8,int>>", false, false},                                       // a type without values
		{LangCpp, header, "", true, false},
		{LangPython, "import cutlass.cute as cute\n", "cute.make_layout((8, 4), stride=(1, 8))", true, false}, // static 4
		{LangPython, "", "make_layout((8, 4))", true, false},                                                  // not CuTe's
	} {
		if got := readsBackAs(tc.lang, tc.header, tc.text, tc.value, *want); got != tc.want {
			t.Errorf("readsBackAs(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestStaticSpelling(t *testing.T) {
	for text, want := range map[string]string{
		"make_shape(Int<8>{}, _4{})": "Int", "make_shape(_8{}, Int<4>{})": "_", "make_shape(C<8>{})": "C",
		"make_shape(8, 4)": "_", "Layout<Shape<_m1>>": "_", "MyInt<8>{}": "_", "x_8": "_", "ABC<3>": "_",
	} {
		if got := staticSpelling(text); got != want {
			t.Errorf("staticSpelling(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestCodeCoalesceAdviceLaw: on random literal layouts, C++ and DSL, every
// coalesce rewrite offered reads back as a layout of the same size that
// maps every index to the same offset (the same function).
func TestCodeCoalesceAdviceLaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 6))
	offered := 0
	for range 300 {
		n := 2 + rng.IntN(3)
		shapes, strides := make([]int64, n), make([]int64, n)
		for i := range n {
			shapes[i] = int64(1 + rng.IntN(4))
			strides[i] = int64(rng.IntN(9))
		}
		// Half the time, strides that chain (so modes merge).
		if rng.IntN(2) == 0 {
			strides[0] = 1
			for i := 1; i < n; i++ {
				strides[i] = strides[i-1] * shapes[i-1]
			}
		}
		python := rng.IntN(2) == 0
		var src string
		if python {
			src = "import cutlass.cute as cute\nL = cute.make_layout(" + pyTuple(layout.Ints(shapes...)) + ", stride=" + pyTuple(layout.Ints(strides...)) + ")\n"
		} else {
			src = "auto L = make_layout(" + tupleCall("make_shape", layout.Ints(shapes...)) + ", " + tupleCall("make_stride", layout.Ints(strides...)) + ");"
		}
		want := layout.Make(layout.Ints(shapes...), layout.Ints(strides...))
		lang := LangCpp
		if python {
			lang = LangPython
		}
		for _, r := range ReadCode(lang, []byte(src)).Refactors(strings.Index(src, "make_layout")) {
			if !strings.HasPrefix(r.Title, "Coalesce") {
				continue
			}
			offered++
			e := r.Edits[0]
			out := src[:e.Range.Pos.Offset] + e.NewText + src[e.Range.End.Offset:]
			back := ReadCode(lang, []byte(out))
			v, err := back.binding(0, 0)
			got, ok := v.(*layout.Layout)
			if err != nil || !ok {
				t.Fatalf("%s -> %s: no layout (%v)", src, out, err)
			}
			size, _ := want.Size()
			if gs, _ := got.Size(); gs != size {
				t.Fatalf("%s -> %s: size %d, want %d", src, out, gs, size)
			}
			for i := range size {
				a, _ := want.Eval(i)
				b, _ := got.Eval(i)
				if a != b {
					t.Fatalf("%s -> %s: index %d maps to %d, want %d", src, out, i, b, a)
				}
			}
		}
	}
	if offered < 100 {
		t.Errorf("only %d rewrites offered", offered)
	}
}
