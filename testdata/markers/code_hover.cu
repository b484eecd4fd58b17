// Hover in CuTe C++ code: the steps of compositions, divides and products, and names bound again.
#include <cute/tensor.hpp>
using namespace cute;

auto A = make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{}));
auto B = make_layout(make_shape(_4{}, _2{}), make_stride(_1{}, _8{}));
auto C = composition(A, B);
// @hover("composition")
auto D = logical_divide(make_layout(make_shape(_16{}, 4)), make_layout(_4{}, _2{}));
// @hover("logical_divide")
auto E = zipped_product(make_layout(make_shape(_2{}, _2{})), make_layout(_3{}));
// @hover("zipped_product")
auto F = coalesce(A);
// @hover("coalesce")

void f() {
  auto L = make_layout(_8{});
  auto x = size(L);
  // @hover(re`(L)\)`)
#if USE_WIDE
  auto L = make_layout(_16{});
#endif
  auto y = cosize(L);
  // @hover(re`(L)\)`) @hover("cosize")
  auto P = make_layout(_4{});
  auto p = size(P);
  // @hover(re`(P)\)`)
  for (auto P : parts) {
  }
}
