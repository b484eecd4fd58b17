// Errors in CuTe C++ code where CuTe's own static_asserts reject a call at compile time.
#include <cute/tensor.hpp>
using namespace cute;

auto a = make_layout(make_shape(_4{}, _3{}), make_stride(_3{}, _1{}));  // @nodiag
auto b = make_layout(Shape<_6>{});
auto bad = composition(a, b);  // @diag("composition", "precondition", "Shape Divisibility Condition")
auto again = logical_divide(bad, _2{});  // @nodiag (its operand is already in error)
auto sC = make_layout(make_shape(_8{}, _8{}));
auto tiled = logical_divide(sC, make_tile(_2{}, _2{}, _2{}));  // @diag("logical_divide", "precondition", "Too many modes in tiler")
auto holes = complement(Layout<Shape<_2,_4>, Stride<_2,_1>>{}, _16{});  // @diag("complement", "precondition", "Non-injective")
auto mode = size<2>(sC);  // @diag("size<2>", "precondition", "Index out of range")
auto up = upcast<4>(Layout<Shape<_4,_8>, Stride<_6,_1>>{});  // @diag("upcast", "precondition", "Divisibility condition")
auto atom = Layout<Shape<_8,_8>>{};
auto sA = tile_to_shape(atom, make_shape(_64{}, _12{}));  // @diag("tile_to_shape", "precondition", "does not divide")
// CuTe checks divisibility only where the integers are static: none here.
int M = 4;
auto dyn = composition(make_layout(make_shape(M, 3), make_stride(3, 1)), b);  // @nodiag @hover("composition")
// but ranks are static: too many tiler modes with a run-time shape is an error
auto dyn_tiled = zipped_divide(make_layout(make_shape(M, M)), make_tile(_2{}, _2{}, _2{}));  // @diag("zipped_divide", "precondition", "Too many modes")
template <int N>
void kernel(int k) {
  auto t = composition(Layout<Shape<Int<N>,_3>, Stride<_3,_1>>{}, b);  // @nodiag (N is not known)
  auto u = logical_divide(make_layout(make_shape(k, k)), make_tile(_2{}, _2{}, _2{}));  // @nodiag (k is not known)
}
auto quiet = composition(a, b);  // cute-lsp: ignore[precondition] @nodiag
// Layout comments beside code: a comment that states another layout is stale.
auto sK = make_layout(make_shape(_8{}, _4{}));  // (_8,_4):(_4,_1)
// @diag("(_8,_4)", "stale-comment", "the comment says (_8,_4):(_4,_1) but sK is (_8,_4):(_1,_8)") @fix("(_8,_4)", "Write")
auto sV = make_layout(make_shape(_8{}, _4{}));  // (8,4):(1,8) @nodiag (static marks may be left out)
// (_16,_2):(_2,_1)
auto sQ = make_layout(make_shape(_16{}, _2{}), LayoutRight{});  // @nodiag
// (_16,_2):(_2,_1)  @diag("(_16", "stale-comment", "sO is (_16,_2):(_1,_16)") @fix("(_16", "Write")
auto sO = make_layout(make_shape(_16{}, _2{}));  // @inlay
