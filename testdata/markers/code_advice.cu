// Coalesce advice in CuTe C++ code: a layout written with literals, coalesced in its own spelling.
#include <cute/tensor.hpp>
using namespace cute;

auto sA = make_layout(make_shape(_8{}, make_shape(_2{}, _2{})), make_stride(_1{}, make_stride(_8{}, _16{})));
// @refactor("make_layout", "Coalesce to") @refactor("make_layout", "mode by mode")
auto sB = cute::make_layout(cute::make_shape(Int<4>{}, Int<8>{}, 5), cute::make_stride(Int<1>{}, Int<4>{}, Int<64>{}));
// @refactor("make_layout", "Coalesce to")
using SmemLayout = Layout<Shape<_8,_4>, Stride<_1,_8>>;
// @refactor(re`= (Layout)`, "Coalesce to")
auto sE = make_layout(Shape<Shape<_2,_4>,_4>{}, Stride<Stride<_1,_2>,_8>{});
// @refactor("make_layout", "mode by mode")
// Run-time modes, which CuTe does not merge: no advice.
auto sC = make_layout(make_shape(8, 4), make_stride(1, 8));
// @refactor("make_layout", "as a comment")
// A name in the layout: no advice.
constexpr int kM = 8;
auto sD = make_layout(make_shape(Int<kM>{}, _4{}));
// @refactor("make_layout", "as a comment")
