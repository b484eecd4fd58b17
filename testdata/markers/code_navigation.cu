// Go to definition in CuTe C++ code: a name goes to the binding visible where it is used.
#include <cute/tensor.hpp>
using namespace cute;

constexpr int kBlockM = 64;  // @loc(kdef, "kBlockM")
using Atom = Layout<Shape<_8,_64>, Stride<_64,_1>>;  // @loc(atomdef, "Atom")
auto sA = tile_to_shape(Atom{}, make_shape(Int<kBlockM>{}, _64{}));  // @loc(sadef, "sA") @def("Atom", atomdef) @def("kBlockM", kdef) @loc(atomuse, re`\((Atom)`)
// @refs(atomdef, atomdef, atomuse) @refs(re`(kBlockM)>`, kdef, re`<(kBlockM)>`, kinner)
template <class T>
void kernel(T const* ptr, int ldA) {  // @loc(lddef, "ldA")
  auto sA = make_layout(make_shape(Int<kBlockM>{}, ldA));  // @loc(inner, "sA") @def("ldA", lddef) @def("kBlockM", kdef) @loc(kinner, "kBlockM")
  auto t = logical_divide(sA, _2{});  // @def("sA", inner) @loc(innert, "sA") @refs("sA", inner, innert, innerp)
  print(sA);  // @def("sA", inner) @loc(innerp, "sA")
}
auto sB = coalesce(sA);  // @def("sA", sadef) @def("sB", re"(sB)") @refs("sA", sadef, re`\((sA)`)
// A name in a comment, a qualified name and CuTe's own names have none.
