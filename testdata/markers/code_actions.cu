// Code actions in CuTe C++ code: the value as a comment, Layout<...> types <-> make_layout calls.
#include <cute/tensor.hpp>
using namespace cute;

auto sA = make_layout(make_shape(_8{}, _4{}), LayoutRight{});
// @refactor("sA", "as a comment") @refactor("make_layout", "Write as")
auto sB = Layout<Shape<_8,_4>, Stride<_1,_8>>{};
// @refactor("Layout", "make_layout call")
using SmemLayout = Layout<Shape<_64,_8>>;
// @refactor(re`= (Layout)`, "decltype")
using Atom = decltype(make_layout(make_shape(_8{}, _64{}), LayoutRight{}));
// @refactor("make_layout", "the type")
