package analysis

import (
	"strings"
	"testing"
)

// codeAt evaluates the code of src (a .cu file, or .py when python) at the
// first occurrence of marker on its last line holding it.
func codeAt(t *testing.T, python bool, src, marker string) (CodeValue, bool) {
	t.Helper()
	lang := LangCpp
	if python {
		lang = LangPython
	}
	at := strings.LastIndex(src, marker)
	if at < 0 {
		t.Fatalf("no %q in the source", marker)
	}
	c := ReadCode(lang, []byte(src))
	if c == nil {
		return CodeValue{}, false
	}
	return c.At(at)
}

func TestCodeValues(t *testing.T) {
	for _, tc := range []struct {
		name, src, at, want string
		python              bool
	}{
		{"default stride", "auto L = Layout<Shape<_8,_4>>{};", "Layout", "(_8,_4):(_1,_8)", false},
		{"negative static", "auto L = make_layout(Shape<_4>{}, Stride<_m1>{});", "make_layout", "(_4):(_-1)", false},
		{"run-time shape", "int M = 256;\nauto L = make_layout(make_shape(M, _8{}));", "make_layout", "(256,_8):(_1,256)", false},
		{"size of run-time", "auto L = make_layout(make_shape(12, _4{}));\nauto n = size(L);", "size", "48", false},
		{"size of static", "auto L = make_layout(make_shape(_12{}, _4{}));\nauto n = size(L);", "size", "_48", false},
		{"template int parameter", "template <int N>\nstruct S { using L = Layout<Shape<Int<N>, _4>>; };", "Layout", "(?,_4):(_1,?)", false},
		{"alias template", "template <int N>\nusing L = Layout<Shape<Int<N/8>, _2>>;\nusing L64 = L<64>;", "L<64>", "(_8,_2):(_1,_8)", false},
		{"tile", "auto t = make_tile(Layout<_2,_4>{}, _8{});", "make_tile", "(_2:_4,_8)", false},
		{"upcast", "auto u = upcast<2>(Layout<Shape<_8,_4>, Stride<_4,_1>>{});", "upcast", "(_8,_2):(_2,_1)", false},
		{"using namespace cute inside cutlass", "namespace cutlass {\nusing namespace cute;\nusing L = Layout<Shape<_2,_2>>;\n}", "Layout", "(_2,_2):(_1,_2)", false},
		{"python tuple of tuples", "L = cute.make_layout(((2, 2), 4), stride=((1, 8), 2))", "make_layout", "((_2,_2),_4):((_1,_8),_2)", true},
		{"reassigned run-time integer", "int M = 256;\nM = 512;\nauto L = make_layout(make_shape(M, _8{}));", "make_layout", "(?,_8):(_1,?)", false},
		{"compound assignment", "int M = 256;\nM += 2;\nauto s = make_shape(M, _8{});", "make_shape", "(?,_8)", false},
		{"reassigned static stays", "auto k = _8{};\nk = _8{};\nauto s = make_shape(k, 4);", "make_shape", "(_8,4)", false},
		{"python floor division and modulo", "a = -7 // 2\nb = -7 % 3\ns = cute.make_layout((b, 4), stride=(a, 1))", "make_layout", "(_2,_4):(_-4,_1)", true},
		// CuTe's left_inverse(4:-1): a negative size, shown as CuTe prints it (hover's table says why it has none).
		{"negative shape", "auto l = make_layout(Shape<_4>{}, Stride<Int<-1>>{});\nauto inv = left_inverse(l);", "left_inverse", "(_-1,_4):(_0,_1)", false},
		// An empty tuple written as an argument is CuTe's () (fmha.py's cute.make_layout(())).
		{"python empty tuple argument", "lt = cute.make_layout(())", "make_layout", "():()", true},
		{"python from import", "from cutlass import cute as ct\nL = ct.make_layout(8)", "make_layout", "_8:_1", true},
		{"python attribute", "L = cute.make_layout((4, 8))\ns = L.shape", "L.shape", "(_4,_8)", true},
		// CuTe keeps the run-time modes composition cannot prove away.
		{"run-time composition", "auto a = make_layout(make_shape(12,3), make_stride(1,24));\nauto b = make_layout(Shape<_4>{}, Stride<_1>{});\nauto r = composition(a, b);", "composition", "((4,1)):((1,24))", false},
		{"run-time complement", "auto a = make_layout(make_shape(3,6), make_stride(_1{},_9{}));\nauto r = complement(a, 108);", "complement", "(3,2):(3,54)", false},
		// The oracle's values (CuTe C++ 4.x, host build): named atoms, their
		// tiling, make_composed_layout, append<N>/prepend<N> with a mode, and
		// the DSL's make_swizzle, group_modes and mode= keywords.
		{"GMMA atom", "auto atom = GMMA::Layout_K_SW128_Atom<bfloat16_t>{};", "Layout_K", "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", false},
		{"GMMA atom alias", "using A = cute::GMMA::Layout_MN_INTER_Atom<cutlass::half_t>;", "Layout_MN", "Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_1,_8)", false},
		{"UMMA atom", "auto a = UMMA::Layout_MN_SW128_32B_Atom<float>{};", "Layout_MN", "Sw<2,5,2> o smem_ptr[32b](unset) o (_32,_4):(_1,_32)", false},
		{"UMMA atom tiled", "auto a = tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<half_t>{}, make_shape(_128{}, _16{}));", "tile_to_shape", "Sw<2,5,2> o smem_ptr[16b](unset) o ((_64,_2),(_4,_4)):((_1,_256),(_64,_512))", false},
		{"GMMA atom of an aliased type", "using ElementA = cutlass::half_t;\nusing TA = ElementA;\nauto a = GMMA::Layout_K_INTER_Atom<TA>{};", "Layout_K", "Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_8,_1)", false},
		{"GMMA atom tiled", "auto sA = tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(Int<64>{}, C<64>{}));", "tile_to_shape", "Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_1),(_8,_8)):((_1,_0),(_64,_512))", false},
		{"run-time tile_to_shape", "auto atom = make_layout(make_shape(_8{}, _4{}), make_stride(_1{}, _8{}));\nint K = 12;\nauto sA = tile_to_shape(atom, make_shape(_16{}, K), Step<_1,_0>{});", "tile_to_shape", "((_8,_2),(_4,3)):((_1,96),(_8,_32))", false},
		{"make_composed_layout", "auto s = make_composed_layout(Swizzle<2,1,-3>{}, Int<0>{}, Layout<Shape<_16,_64>, Stride<_64,Int<1>>>{});", "make_composed", "Sw<2,1,-3> o _0 o (_16,_64):(_64,_1)", false},
		{"append to rank", "auto l = make_layout(Shape<_8,_2>{}, Stride<_2,_2>{});\nauto m = Layout<Int<1>, _1>{};\nauto r = append<3>(l, m);", "append", "(_8,_2,_1):(_2,_2,_1)", false},
		{"prepend to rank", "auto l = make_layout(make_shape(_4{}, Int<4>{}));\nauto m = Layout<Shape<_2>>{};\nauto r = prepend<3>(l, m);", "prepend", "((_2),_4,_4):((_1),_1,_4)", false},
		{"python make_swizzle", "outer = cute.make_layout((8, 64), stride=(64, 1))\nsw = cute.make_swizzle(3, 0, 3)\nt = cute.make_composed_layout(sw, 0, outer)", "make_composed", "Sw<3,0,3> o _0 o (_8,_64):(_64,_1)", true},
		{"python group_modes", "layout = cute.make_layout((2, (8, 7), 6))\nL = cute.group_modes(layout, 2, 3)", "group_modes", "(_2,(_8,_7),(_6)):(_1,(_2,_16),(_112))", true},
		{"python get mode", "layout = cute.make_layout((6, (6,), 5))\nL = cute.get(layout, mode=[2])", "get(", "_5:_36", true},
		{"run-time upcast", "auto l = make_layout(make_shape(4, Int<4>{}), make_stride(1, _4{}));\nauto r = upcast<2>(l);", "upcast", "(4,_4):(0,_2)", false},
		{"run-time downcast", "auto l = make_layout(make_shape(Int<1>{}, 4), make_stride(Int<1>{}, _1{}));\nauto r = downcast<2>(l);", "downcast", "(_2,8):(_1,_1)", false},
		{"run-time filter", "int ldA = 0;\nauto l = make_layout(make_shape(Int<4>{}, 2), make_stride(ldA, 16));\nauto r = filter(l);", "filter", "(_4,2):(0,16)", false},
		{"select of a shape", "auto s = make_shape(C<31>{}, C<27>{}, C<17>{});\nauto l = make_layout(select<0, 2>(s));", "make_layout", "(_31,_17):(_1,_31)", false},
		{"run-time right_inverse", "int m = 10;\nauto tv = make_layout(make_shape(make_shape(m)));\nauto r = right_inverse(tv);", "right_inverse", "10:_1", false},
		{"run-time right_inverse stops at a run-time size", "auto tv = make_layout(make_shape(Int<16>{}, 8, _1{}), make_stride(_8{}, _1{}, 8));\nauto r = right_inverse(tv);", "right_inverse", "8:_16", false},
		{"run-time left_inverse", "int n = 1;\nauto l = make_layout(make_shape(make_shape(_2{}, _2{}, _2{}), n));\nauto r = left_inverse(l);", "left_inverse", "(_8,1):(_1,_8)", false},
		{"struct member alias", "struct Traits {\n  static constexpr int kBlockM = 128;\n  using Atom = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}));\n  using SmemLayoutA = decltype(tile_to_shape(Atom{}, make_shape(Int<kBlockM>{}, _64{})));\n};\nusing X = typename Traits::SmemLayoutA;", "typename", "Sw<3,3,3> o _0 o ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))", false},
		{"struct member constructed", "struct Traits { using TileShape = Shape<_128,_64,_32>; };\nauto m = shape<0>(Traits::TileShape{});", "shape<", "_128", false},
		{"struct member integer", "struct Traits { static constexpr int kBlockM = 128; };\nauto g = make_layout(make_shape(Int<Traits::kBlockM>{}, 8), LayoutRight{});", "make_layout", "(_128,8):(8,_1)", false},
		{"integer cast is run-time", "static constexpr auto C = Int<8>{};\nauto l = make_layout(make_shape(_128{}, int32_t(C)));", "make_layout", "(_128,8):(_1,_128)", false},
		{"basis strides", "auto l = make_layout(Shape<_4,_4>{}, Stride<E<1>,E<0,1>>{});", "make_layout", "(_4,_4):(_1@1,_1@1@0)", false},
		{"composition with basis strides", "auto a = make_layout(Shape<_4,Shape<_2,_3>>{}, Stride<_6,Stride<_3,_1>>{});\nauto b = make_layout(Shape<_2,_4>{}, Stride<E<1,1>,E<0>>{});\nauto r = composition(a, b);", "composition", "(_2,_4):(_1,_6)", false},
		{"recast_layout of types", "auto L = make_layout(make_shape(_8{}, _16{}), make_stride(_16{}, _1{}));\nauto a = recast_layout<uint8_t, half_t>(L);", "recast_layout", "(_8,_8):(_8,_1)", false},
		{"run-time recast_layout", "auto D = make_layout(make_shape(8, _16{}), make_stride(16, _1{}));\nauto e = recast_layout<uint32_t, half_t>(D);", "recast_layout", "(8,_32):(32,_1)", false},
		{"upcast of a pointer-composed layout", "using Bits = ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag, Layout<Shape<_1024,_8>,Stride<_1,_1024>>>;\nusing A = decltype(upcast<sizeof_bits_v<half_t>>(Bits{}));", "upcast", "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)", false},
		{"alias template of an element type", "using Bits = ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag, Layout<Shape<_1024,_8>,Stride<_1,_1024>>>;\ntemplate <class T>\nusing Atom = decltype(upcast<sizeof_bits_v<T>>(Bits{}));\nusing A = Atom<float>;", "Atom<float>", "Sw<3,4,3> o smem_ptr[32b](unset) o (_32,_8):(_1,_32)", false},
		{"downcast of a named atom", "auto d = downcast<2>(GMMA::Layout_K_SW128_Atom<half_t>{});", "downcast", "Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)", false},
		{"sizeof_bits_v in Int", "auto l = make_layout(Int<sizeof_bits_v<float>>{});", "make_layout", "_32:_1", false},
		{"domain_distribute", "auto shape_a = Shape<Shape<_64,_3>,Shape<_8,_8>>{};\nauto shape_b = _128{} * _8{};\nauto r = domain_distribute(shape(shape_a), shape(shape_b));", "domain_distribute", "(_64,_16):(_1,_192)", false},
		{"tile_to_shape rounds up beside a run-time mode", "auto a = tile_to_shape(make_layout(Shape<_4,_3>{}), make_shape(Int<10>{}, 7, Int<4>{}), Step<_2,_1,_3>{});", "tile_to_shape", "((_4,_3),(_3,3),(_1,_4)):((_1,36),(_4,_12),(_0,108))", false},
		{"abs of an integer", "constexpr int S = -16;\nauto l = make_layout(Int<abs(S)>{});", "make_layout", "_16:_1", false},
		{"python select mode", "layout = cute.make_layout((11, (2,), 11))\nL = cute.select(layout, mode=[0, 1, 2])", "select", "(_11,(_2),_11):(_1,(_11),_22)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cv, ok := codeAt(t, tc.python, tc.src, tc.at)
			if !ok || cv.Printed != tc.want {
				t.Errorf("value = %q (%v), want %q", cv.Printed, ok, tc.want)
			}
		})
	}
}

// TestCodeNoValue: code this evaluator cannot follow has no value, never a
// wrong one.
func TestCodeNoValue(t *testing.T) {
	for _, tc := range []struct {
		name, src, at string
		python        bool
	}{
		// A scaled-basis stride beside a run-time integer: the algebra's
		// run-time path takes plain integers only.
		{"run-time composition with a basis", "auto a = make_layout(make_shape(12,3), make_stride(E<0>{},E<1>{}));\nauto b = make_layout(Shape<_4>{}, Stride<_1>{});\nauto r = composition(a, b);", "composition", false},
		{"cutlass Coord", "#include <cute/tensor.hpp>\nusing S = cutlass::Coord<2>;", "Coord", false},
		{"inside another namespace", "#include <cute/layout.hpp>\nnamespace cutlass { namespace layout {\nusing Stride = Coord<3>;\n} }", "Coord", false},
		{"unknown name", "auto L = make_layout(shape_from_elsewhere);", "make_layout", false},
		{"type parameter", "template <class Shape_>\nvoid f(Shape_ s) { auto L = make_layout(s); }", "make_layout", false},
		{"in a comment", "// auto L = make_layout(Shape<_8>{});\n", "make_layout", false},
		{"in a string", "const char* s = \"make_layout(Shape<_8>{})\";", "make_layout", false},
		{"half typed", "auto L = make_layout(make_shape(_8{}, ", "make_layout", false},
		{"constructed from arguments", "Layout<Shape<int,int>> L{m, n};\nauto x = L;", "L;", false},
		{"literal", "int k = 8;", "8", false},
		{"python empty tuple bound", "import cutlass.cute as cute\nx = ()\ny = cute.size(x)", "()", true},
		{"GMMA atom of a type parameter", "template <class T> void f() { auto a = GMMA::Layout_K_SW128_Atom<T>{}; }", "Layout_K", false},
		{"SW128_32B is UMMA's only", "auto a = GMMA::Layout_MN_SW128_32B_Atom<half_t>{};", "Layout_MN", false},
		{"a type is not a value", "template <class T>\nusing Same = T;\nusing X = Same<half_t>;", "Same<half_t>", false},
		{"a longer qualifier", "struct Traits { using L = Layout<_4>; };\nauto x = other::Traits::L{};", "Traits::L", false},
		// CuTe's int overflows: size is 2^36 here, and CuTe prints 0.
		{"past int", "auto sw = make_layout(make_shape(Int<16>{}, Int<65536>{}, Int<65536>{}));\nauto n = size(sw);", "size", false},
		{"struct defined twice", "struct T { using L = Layout<_4>; };\nstruct T { using L = Layout<_8>; };\nauto x = T::L{};", "T::L", false},
		{"not a direct member", "struct T { void f() { using L = Layout<_4>; } };\nauto x = T::L{};", "T::L", false},
		{"member of a type parameter", "template <class T>\nvoid f() { auto x = typename T::L{}; }\nstruct S { using L = Layout<_4>; };", "T::L", false},
		{"parameter shadows a file-scope name", "auto layout = make_layout(Shape<_8>{});\ntemplate <class L>\nvoid f(L const& layout) { auto c = coalesce(layout); }", "coalesce", false},
		{"template parameter shadows a file-scope name", "using SmemLayout = Layout<Shape<_8>>;\ntemplate <class SmemLayout>\nstruct K { using L = decltype(coalesce(SmemLayout{})); };", "coalesce", false},
		{"python strings are not dropped", "L = cute.make_layout((4, \"x\"))", "make_layout", true},
		{"python untyped parameter", "def f(t):\n    L = cute.make_layout(t)", "make_layout", true},
		{"python member of a parameter", "def f(t: cutlass.Int32):\n    s = t.shape", "t.shape", true},
		{"python true division", "s = cute.make_layout((8 / 2, 4))", "make_layout", true},
		{"nested name of decltype", "auto a = make_layout(Shape<_8>{});\nusing S = decltype(a)::shape_type;\nauto x = make_layout(S{});", "make_layout(S", false},
		{"python other module", "L = numpy.make_layout((4, 8))", "make_layout", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if cv, ok := codeAt(t, tc.python, tc.src, tc.at); ok {
				t.Errorf("value %q at %q, want none", cv.Printed, tc.at)
			}
		})
	}
}

// TestCodeLintQuiet: code never yields findings (no false errors): a
// host file whose code CuTe would reject still has only the findings of
// its comments and strings.
func TestCodeLintQuiet(t *testing.T) {
	src := "auto L = make_layout(Shape<_4,_2>{}, Stride<_1>{});\nauto C = composition(Layout<_4,_3>{}, Layout<_8,_2>{});\n"
	if f, _ := Analyze("k.cu", []byte(src)); len(f) != 0 {
		t.Errorf("findings %v, want none", f)
	}
}

func TestCodeInlayHints(t *testing.T) {
	src := "int M = 8;\nauto L = make_layout(make_shape(M, _4{}));\nauto n = size(L);\nLayout<Shape<_2,_2>> T{};\n"
	c := ReadCode(LangCpp, []byte(src))
	hints := c.InlayHints(0, len(src))
	var got []string
	for _, h := range hints {
		got = append(got, h.Label+"@"+strings.Split(src[h.At.Offset:], "\n")[0])
	}
	want := []string{" = (8,_4):(_1,8)@;", " = (_2,_2):(_1,_2)@{};"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("hints = %q, want %q", got, want)
	}
	if h := c.InlayHints(0, 5); len(h) != 0 {
		t.Errorf("hints outside the range: %v", h)
	}
}

// TestCodeConcurrent: an editor's requests on one snapshot share its Code
// (run with -race).
func TestCodeConcurrent(t *testing.T) {
	src := "auto A = make_layout(Shape<_8,_4>{});\nauto B = coalesce(A);\nauto C = composition(A, B);\n"
	c := ReadCode(LangCpp, []byte(src))
	done := make(chan bool)
	for range 4 {
		go func() {
			c.At(strings.Index(src, "composition"))
			c.InlayHints(0, len(src))
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
}

// TestLayoutCensus: the census counts the layouts code writes (types and
// calls of the operations that make one), not the shapes and integers
// around them, and says which of those have a value.
func TestLayoutCensus(t *testing.T) {
	src := []byte(`#include <cute/tensor.hpp>
using namespace cute;
void f(int m) {
  auto a = make_layout(make_shape(Int<8>{}, Int<4>{}));
  using B = Layout<Shape<_8,_4>, Stride<_4,_1>>;
  auto c = composition(a, B{});
  auto d = make_layout(make_shape(m, T{}));
  auto s = make_shape(Int<2>{}, Int<3>{});
}
`)
	c := ReadCode(LangCpp, src)
	if n := c.Counts(); n.Written != 4 || n.WrittenValued != 3 {
		t.Errorf("Counts = %d written, %d valued; want 4, 3", n.Written, n.WrittenValued)
	}
	if n := (*Code)(nil).Counts(); n != (CodeCounts{}) {
		t.Errorf("nil code: %+v", n)
	}
}
