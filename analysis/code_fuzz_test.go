package analysis

import (
	"fmt"
	"testing"
	"time"
)

// FuzzCode: any text read as C++ (and as Python) is evaluated at every line
// start and a few offsets without a panic or a hang, and every value's
// range lies inside the text.
func FuzzCode(f *testing.F) {
	f.Add("using namespace cute;\nauto L = make_layout(make_shape(Int<8>{}, 4), LayoutRight{});\nauto C = composition(Swizzle<3,4,3>{}, L);\n")
	f.Add("template <int N>\nusing X = Layout<Shape<Int<N/8>,_2>>;\nusing Y = X<64>;\nauto z = tile_to_shape(Y{}, Shape<_64,_64>{});\n")
	f.Add("import cutlass.cute as cute\nL = cute.make_layout((4, 8), stride=(8, 1))\nn = cute.size(L, mode=[0])\n")
	f.Add("auto a = make_layout(Shape<Int<1000000>, Int<1000000>, Int<1000000>>{});\nauto b = cosize(a) * cosize(a);\n")
	// Calls CuTe rejects (findings) and a layout comment beside its binding.
	f.Add("auto a = Layout<Shape<_4,_3>, Stride<_3,_1>>{};\nauto r = logical_divide(composition(a, Layout<_6>{}), make_tile(_2{}, _2{}, _2{}));\nauto n = size<3>(a);  // (_4,_3):(_3,_1)\n")
	f.Add("auto a = Layout<Shape<_8,Shape<_2,_2>>, Stride<_4,Stride<_1,_32>>>{};\nusing T = decltype(cute::make_layout(make_shape(_11{}, _4{})));  \r\nusing U = Layout<_8, _m1>;\n")
	f.Add("import cutlass.cute as cute\nL = cute.make_layout((8, 8))  # (8,8):(8,1)\nr = cute.logical_divide(L, (2, 2, 2))\nc = cute.complement(cute.make_layout((2, 4), stride=(2, 1)), 16)\n")
	// Named atoms, struct members, run-time inverses and casts, bases, the DSL's swizzles.
	f.Add("struct T { using A = GMMA::Layout_K_SW128_Atom<half_t>; static constexpr int k = 2; };\nauto s = tile_to_shape(T::A{}, make_shape(_64{}, Int<T::k * 32>{}, 4));\nauto r = right_inverse(make_layout(make_shape(8, int32_t(Int<4>{})), make_stride(E<0>{}, _8{})));\nauto u = recast_layout<uint8_t, half_t>(upcast<2>(make_layout(16, 2)));\n")
	f.Add("import cutlass.cute as cute\nsw = cute.make_swizzle(3, 4, 3)\nL = cute.make_composed_layout(sw, 0, cute.make_layout((8, 64), stride=(64, 1)))\ng = cute.group_modes(cute.make_layout((2, 3, 4)), 0, 2)\ns = cute.select(g, mode=[1, 0])\n")
	// Template parameters read in their clause, UniversalFMA, the DSL's empty tuple argument.
	f.Add("template <class TA, class TB, class TC>\nvoid g() { TiledMMA mmaC = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Layout<Shape<_16,_16,_1>>{}); }\n")
	f.Add("import cutlass.cute as cute\nlt = cute.make_layout(())\nc = cute.coalesce(lt)\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		done := make(chan string, 1)
		go func() { done <- fuzzCode(src) }()
		select {
		case msg := <-done:
			if msg != "" {
				t.Fatal(msg)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer in 10 s on %q", src)
		}
	})
}

func fuzzCode(src string) string {
	for _, lang := range []Language{LangCpp, LangPython} {
		c := ReadCode(lang, []byte("cute\n"+src))
		if c == nil {
			return "a text naming cute was not read"
		}
		n := len(src) + 5
		offsets := []int{0, n / 3, n / 2, n}
		for i := range n {
			if (i == 0 || c.src[i-1] == '\n') && len(offsets) < 40 {
				offsets = append(offsets, i)
			}
		}
		for _, off := range offsets {
			cv, ok := c.At(off)
			if ok && (cv.Start < 0 || cv.End > n || cv.Start > cv.End) {
				return fmt.Sprintf("value at [%d,%d) outside %d bytes", cv.Start, cv.End, n)
			}
			if h, ok := c.HoverAt(off); ok != (cv.Printed != "") || ok && (h.Start != cv.Start || h.End != cv.End || h.Op != "" && len(h.Args) == 0) {
				return fmt.Sprintf("hover at %d: %+v, value %+v", off, h, cv)
			}
			def, hasDef := c.Definition(off)
			if hasDef && (def.Start < 0 || def.End > n || def.Start >= def.End) {
				return fmt.Sprintf("definition at [%d,%d) outside %d bytes", def.Start, def.End, n)
			}
			refs := c.References(off, true)
			if hasDef != (len(refs) > 0) {
				return fmt.Sprintf("at %d: definition %v (%v) but %d references", off, def, hasDef, len(refs))
			}
			for _, r := range refs {
				if d, ok := c.Definition(r.Start); !ok || d != def {
					return fmt.Sprintf("reference [%d,%d) to %v has the definition %v", r.Start, r.End, def, d)
				}
			}
			for _, r := range c.Refactors(off) {
				for _, e := range r.Edits {
					if e.Range.Pos.Offset < 0 || int(e.Range.End.Offset) > n || e.Range.Pos.Offset > e.Range.End.Offset {
						return fmt.Sprintf("refactor %q edits [%d,%d) outside %d bytes", r.Title, e.Range.Pos.Offset, e.Range.End.Offset, n)
					}
				}
			}
		}
		c.Counts()
		for _, f := range c.Findings() {
			if f.Range.Pos.Offset < 0 || int(f.Range.End.Offset) > n || f.Range.Pos.Offset > f.Range.End.Offset {
				return fmt.Sprintf("finding at [%d,%d) outside %d bytes", f.Range.Pos.Offset, f.Range.End.Offset, n)
			}
		}
	}
	return ""
}
