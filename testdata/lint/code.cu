#include <cute/layout.hpp>
using namespace cute;
auto a = make_layout(Shape<_8,_4>{});
auto b = composition(a, Layout<_4,_3>{});
// CuTe rejects this at compile time, but code never yields a finding:
auto c = make_layout(Shape<_4,_2>{}, Stride<_1>{});
