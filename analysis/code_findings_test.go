package analysis

import (
	"strings"
	"testing"
)

// hostErrors analyzes src as a .cu file (.py when python) and returns its
// error findings.
func hostErrors(python bool, src string) []Finding {
	name := "f.cu"
	if python {
		name = "f.py"
	}
	var out []Finding
	for _, f := range AnalyzeHost(name, []byte(src)).Findings {
		if f.Severity == SeverityError {
			out = append(out, f)
		}
	}
	return out
}

// TestCodeStaticErrors: a call CuTe's static_asserts reject is an error at
// the call, with the algebra's explanation and CuTe's condition.
func TestCodeStaticErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, at, want string // at: the text the error's range starts with
		python              bool
	}{
		{"shape divisibility", "auto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));\nauto b = make_layout(Shape<_6>{});\nauto r = composition(a, b);",
			"composition(a, b)", "6 is not a multiple of 4, so they cannot continue evenly into A's next mode (Shape Divisibility Condition)", false},
		{"stride divisibility", "auto a = Layout<Shape<_4,_4>, Stride<_4,_1>>{};\nauto r = composition(a, Layout<_2,_6>{});",
			"composition(a, Layout", "Stride Divisibility Condition", false},
		// CuTe's weak divisibility check reads the static integers it meets
		// even beside run-time ones (the algebra's run-time path follows it).
		{"weak check on static modes", "int n = 16;\nauto a = make_layout(make_shape(_4{}, n), make_stride(_3{}, _1{}));\nauto r = composition(a, Layout<_6>{});",
			"composition", "Shape Divisibility Condition", false},
		{"non-injective complement", "auto r = complement(Layout<Shape<_2,_4>, Stride<_2,_1>>{}, _16{});",
			"complement", "Non-injective Layout detected in complement.", false},
		{"too many tiler modes", "auto r = logical_divide(Layout<Shape<_4,_4>>{}, make_tile(_2{}, _2{}, _2{}));",
			"logical_divide", "Too many modes in tiler", false},
		{"too many tiler modes, run-time shape", "int m = 8;\nauto L = make_layout(make_shape(m, 4));\nauto r = zipped_divide(L, make_tile(Layout<_2>{}, Layout<_2>{}, Layout<_1>{}));",
			"zipped_divide", "Too many modes in tiler", false},
		{"index out of range", "auto r = get<3>(make_shape(_4{}, _8{}));", "get<3>", "Index out of range", false},
		{"mode of a layout out of range", "auto L = Layout<Shape<_4,_8>>{};\nauto n = size<2>(L);", "size<2>", "Index out of range", false},
		{"take out of bounds", "auto r = take<1,4>(Layout<Shape<_4,_8>>{});", "take<1,4>", "take: range out of bounds", false},
		{"upcast divisibility", "auto r = upcast<4>(Layout<Shape<_4,_8>, Stride<_6,_1>>{});", "upcast<4>", "Divisibility condition", false},
		{"downcast without stride 1", "auto r = downcast<2>(Layout<Shape<_4,_8>, Stride<_8,_2>>{});", "downcast<2>", "Downcast requires adjacent elements", false},
		// upcast checks each static stride at compile time, whatever the others are.
		{"upcast of a static stride beside run-time ones", "int ld = 64;\nauto r = upcast<2>(make_layout(make_shape(_4{}, _8{}), make_stride(_5{}, ld)));", "upcast<2>", "stride 5 and N = 2: neither divides the other (Divisibility condition)", false},
		// tile_to_shape with a run-time target: CuTe skips its division check
		// but blocked_product's complement still checks the static strides.
		{"tile_to_shape with a run-time target", "auto atom = make_layout(Shape<_4,Int<4>>{}, Stride<_4,_8>{});\nint m = 14;\nauto sA = tile_to_shape(atom, make_shape(_16{}, m));",
			"tile_to_shape", "Non-injective Layout detected in complement.", false},
		// A static mode that is not a multiple beside a run-time one: CuTe
		// rounds it up and blocked_product's composition then fails.
		{"tile_to_shape rounding up into a stride check", "auto smem_atom = make_layout(Shape<_2,_2>{}, Stride<_4,_8>{});\nauto sA = tile_to_shape(smem_atom, make_shape(4, Int<11>{}), Step<_1,_0>{});",
			"tile_to_shape", "Stride Divisibility Condition", false},
		{"left inverse of run-time strides", "int ld = 64;\nauto r = left_inverse(make_layout(make_shape(_4{}, _8{}), make_stride(ld, _1{})));",
			"left_inverse", "Left inverse requires static strides.", false},
		{"dynamic-stride complement", "int ld = 64;\nauto r = complement(make_layout(make_shape(_4{}, _8{}), make_stride(ld, _1{})), 1024);",
			"complement", "Dynamic-stride complement only for rank-1 layouts", false},
		{"tile_to_shape", "auto atom = Layout<Shape<_8,_8>>{};\nauto r = tile_to_shape(atom, make_shape(_64{}, _12{}));",
			"tile_to_shape", "block shape does not divide the target shape", false},
		{"only the innermost call", "auto a = Layout<Shape<_4,_3>, Stride<_3,_1>>{};\nauto r = logical_divide(composition(a, Layout<_6>{}), _2{});",
			"composition", "Shape Divisibility Condition", false},
		{"dsl composition", "import cutlass.cute as cute\na = cute.make_layout((4, 3), stride=(3, 1))\nr = cute.composition(a, cute.make_layout(6))",
			"cute.composition", "Shape Divisibility Condition", true},
		// A member of a class does not shadow the file's name after the class.
		{"class member", "auto tile = make_tile(_2{}, _2{}, _2{});\nclass C { int tile = 3; };\nauto r = logical_divide(make_layout(make_shape(_8{}, _8{})), tile);",
			"logical_divide", "Too many modes in tiler", false},
		// Rebinding in another function does not reach this one's name.
		{"dsl separate functions", "import cutlass.cute as cute\ndef f():\n    tiler = (2, 2)\ndef g():\n    tiler = (2, 2, 2)\n    r = cute.logical_divide(cute.make_layout((8, 8)), tiler)",
			"cute.logical_divide", "Too many modes in tiler", true},
		{"dsl name imported from cute", "from cutlass.cute import make_layout, logical_divide\nr = logical_divide(make_layout((8, 8)), (2, 2, 2))",
			"logical_divide", "Too many modes in tiler", true},
		{"dsl divide by a tiler of too many modes", "import cutlass.cute as cute\nL = cute.make_layout((8, 8))\nr = cute.logical_divide(L, (2, 2, 2))",
			"cute.logical_divide", "Too many modes in tiler", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := hostErrors(tc.python, tc.src)
			if len(errs) != 1 {
				t.Fatalf("%d errors, want 1: %v", len(errs), errs)
			}
			f := errs[0]
			if f.Code != CodeAlgebra || !strings.Contains(f.Message, tc.want) {
				t.Errorf("finding %s %q, want precondition containing %q", f.Code, f.Message, tc.want)
			}
			if got := tc.src[f.Range.Pos.Offset:]; !strings.HasPrefix(got, tc.at) {
				t.Errorf("the error starts at %q, want %q", got, tc.at)
			}
		})
	}
}

// TestCodeNoStaticError: where CuTe's check is not a static_assert over
// these operands (a run-time integer, a value not known here), or the code
// is not followed, there is no error.
func TestCodeNoStaticError(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		python    bool
	}{
		// CuTe checks divisibility only where the integers it compares are static.
		{"run-time shapes", "int m = 4;\nauto a = make_layout(make_shape(m, 3), make_stride(3, 1));\nauto r = composition(a, Layout<_6>{});", false},
		{"run-time upcast stride", "int ld = 6;\nauto r = upcast<4>(make_layout(make_shape(_4{}, _8{}), make_stride(ld, _1{})));", false},
		{"run-time tile_to_shape target", "int n = 12;\nauto r = tile_to_shape(Layout<Shape<_8,_8>>{}, make_shape(_64{}, n));", false},
		// CuTe checks tile_to_shape's division only when the whole target is static.
		{"tile_to_shape division beside a run-time mode", "int n = 12;\nauto r = tile_to_shape(Layout<Shape<_8,_8>>{}, make_shape(_12{}, n));", false},
		{"template parameter", "template <int N>\nvoid f() { auto r = composition(Layout<Shape<Int<N>,_3>, Stride<_3,_1>>{}, Layout<_6>{}); }", false},
		{"function parameter", "void f(int n) { auto r = logical_divide(make_layout(make_shape(n, n)), make_tile(_2{}, _2{}, _2{})); }", false},
		{"name bound elsewhere", "auto r = composition(SmemLayoutAtom{}, Layout<_6>{});", false},
		{"not cute's namespace", "auto r = other::composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<_6>{});", false},
		{"in a comment", "// auto r = get<3>(make_shape(_4{}, _8{}));", false},
		{"in a string", "const char* s = \"get<3>(make_shape(_4{}, _8{}))\";", false},
		{"accepted", "auto r = composition(Layout<Shape<_4,_3>, Stride<_3,_1>>{}, Layout<_2>{});", false},
		{"coalesced first", "auto r = composition(make_layout(make_shape(_5{}, _4{})), Layout<_6>{});", false},
		{"dsl def parameter", "import cutlass.cute as cute\ndef f(n):\n    r = cute.logical_divide(cute.make_layout((n, n)), (2, 2, 2))", true},
		{"dsl run-time integer", "import cutlass\nimport cutlass.cute as cute\nm = cutlass.Int32(4)\nr = cute.composition(cute.make_layout((m, 3), stride=(3, 1)), cute.make_layout(6))", true},
		// A name bound again where the reader does not follow it: the value
		// it reads from the binding may not be the one at the use.
		{"range-for shadows", "auto tile = make_tile(_2{}, _2{}, _2{});\nvoid f() { for (auto tile : tiles) { auto r = logical_divide(make_layout(make_shape(_8{}, _8{})), tile); } }", false},
		{"structured binding shadows", "auto tile = make_tile(_2{}, _2{}, _2{});\nvoid f() { auto [x, tile] = foo(); auto r = logical_divide(make_layout(make_shape(_8{}, _8{})), tile); }", false},
		{"declaration with arguments shadows", "auto tile = make_tile(_2{}, _2{}, _2{});\nvoid f() { Foo tile(3); auto r = logical_divide(make_layout(make_shape(_8{}, _8{})), tile); }", false},
		{"declaration of a template type shadows", "auto tile = make_tile(_2{}, _2{}, _2{});\nvoid f() { std::tuple<int,int> tile; auto r = logical_divide(make_layout(make_shape(_8{}, _8{})), tile); }", false},
		{"decltype declaration shadows", "auto tile = make_tile(_2{}, _2{}, _2{});\nvoid f() { decltype(x) tile; auto r = logical_divide(make_layout(make_shape(_8{}, _8{})), tile); }", false},
		{"#if alternatives", "#if X\nauto tile = make_tile(_2{}, _2{});\n#else\nauto tile = make_tile(_2{}, _2{}, _2{});\n#endif\nauto r = logical_divide(make_layout(make_shape(_8{}, _8{})), tile);", false},
		{"through a binding", "#if X\nauto tile = make_tile(_2{}, _2{});\n#else\nauto tile = make_tile(_2{}, _2{}, _2{});\n#endif\nauto t2 = tile;\nauto r = logical_divide(make_layout(make_shape(_8{}, _8{})), t2);", false},
		{"dsl if overrides", "import cutlass.cute as cute\ntiler = (2, 2, 2)\nif c:\n    tiler = (2, 2)\nr = cute.logical_divide(cute.make_layout((8, 8)), tiler)", true},
		{"dsl rebound later (a loop)", "import cutlass.cute as cute\ntiler = (2, 2, 2)\nfor k in ks:\n    r = cute.logical_divide(cute.make_layout((8, 8)), tiler)\n    tiler = (2, 2)", true},
		{"dsl for target", "import cutlass.cute as cute\ntiler = (2, 2, 2)\nfor a, tiler in ts:\n    r = cute.logical_divide(cute.make_layout((8, 8)), tiler)", true},
		{"dsl with as", "import cutlass.cute as cute\ntiler = (2, 2, 2)\nwith f() as tiler:\n    r = cute.logical_divide(cute.make_layout((8, 8)), tiler)", true},
		{"dsl tuple target", "import cutlass.cute as cute\ntiler = (2, 2, 2)\na, tiler = f()\nr = cute.logical_divide(cute.make_layout((8, 8)), tiler)", true},
		{"dsl augmented", "import cutlass.cute as cute\ntiler = (2, 2, 2)\ntiler += (1,)\nr = cute.logical_divide(cute.make_layout((8, 8, 8, 8)), tiler)", true},
		{"dsl walrus", "import cutlass.cute as cute\ntiler = (2, 2, 2)\nif (tiler := (2, 2)):\n    r = cute.logical_divide(cute.make_layout((8, 8)), tiler)", true},
		{"dsl mutated list", "import cutlass.cute as cute\ntiler = [2, 2, 2]\ntiler.pop()\nr = cute.logical_divide(cute.make_layout((8, 8)), tiler)", true},
		{"dsl list passed to a function", "import cutlass.cute as cute\ntiler = [2, 2, 2]\ntrim(tiler)\nr = cute.logical_divide(cute.make_layout((8, 8)), tiler)", true},
		{"dsl subscript assignment", "import cutlass.cute as cute\nshape = [8, 8]\nshape[0] = 6\nr = cute.composition(cute.make_layout((4, 3), stride=(3, 1)), cute.make_layout(shape[0]))", true},
		{"dsl global", "import cutlass.cute as cute\ntiler = (2, 2, 2)\ndef f():\n    global tiler\n    tiler = (2, 2)\nf()\nr = cute.logical_divide(cute.make_layout((8, 8)), tiler)", true},
		{"dsl expected to raise", "import cutlass.cute as cute\nimport pytest\nwith pytest.raises(Exception):\n    r = cute.logical_divide(cute.make_layout((8, 8)), (2, 2, 2))", true},
		{"dsl name not imported from cute", "import cutlass.cute as cute\nfrom mylib import logical_divide\nr = logical_divide(cute.make_layout((8, 8)), (2, 2, 2))", true},
		{"dsl operand from a name not imported from cute", "import cutlass.cute as cute\nfrom mylib import make_layout\nr = cute.logical_divide(make_layout((8, 8)), (2, 2, 2))", true},
		{"if constexpr branch", "template <int N> void f() {\n  if constexpr (N == 3) { auto r = logical_divide(Layout<Shape<_4,_4>>{}, make_tile(_2{}, _2{}, _2{})); }\n}", false},
		{"#if 0", "#if 0\nauto r = logical_divide(Layout<Shape<_4,_4>>{}, make_tile(_2{}, _2{}, _2{}));\n#endif", false},
		{"#else of #if 1", "#if 1\nauto r = logical_divide(Layout<Shape<_4,_4>>{}, make_tile(_2{}, _2{}));\n#else\nauto r = logical_divide(Layout<Shape<_4,_4>>{}, make_tile(_2{}, _2{}, _2{}));\n#endif", false},
		{"suppressed", "auto a = Layout<Shape<_4,_3>, Stride<_3,_1>>{};\nauto r = composition(a, Layout<_6>{});  // cute-lsp: ignore[precondition]", false},
		{"suppressed on the line above", "auto a = Layout<Shape<_4,_3>, Stride<_3,_1>>{};\n// cute-lsp: ignore[precondition]\nauto r = composition(a, Layout<_6>{});", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if errs := hostErrors(tc.python, tc.src); len(errs) > 0 {
				t.Errorf("errors %v, want none", errs)
			}
		})
	}
}

// TestCodeStaticErrorRelated: the operands bound to names are shown beside
// the error with their values.
func TestCodeStaticErrorRelated(t *testing.T) {
	src := "auto a = Layout<Shape<_4,_3>, Stride<_3,_1>>{};\nauto b = Layout<_6>{};\nauto r = composition(a, b);"
	errs := hostErrors(false, src)
	if len(errs) != 1 {
		t.Fatalf("%d errors, want 1", len(errs))
	}
	var got []string
	for _, r := range errs[0].Related {
		got = append(got, r.Message)
	}
	if want := "a = (_4,_3):(_3,_1)|b = _6:_1"; strings.Join(got, "|") != want {
		t.Errorf("related %q, want %q", strings.Join(got, "|"), want)
	}
}
