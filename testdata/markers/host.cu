// Descriptors in C++/CUDA comments and string literals.
#include <cute/tensor.hpp>

// smem tile: (_8,_64):(_64,_1)
// @hover("(_8")
static const char* kTile = "(4,8):(1,4)";   // @hover("(4,8)")
// broken: (4,2):(1,(2,3))
// @diag("(4,2)", "incongruent", "not congruent") @hover("(4,2)")
// swizzled: Sw<3,4,3> o _0 o (8,64):(64,1)
// @hover("Sw")
// bad swizzle: Sw<3,2,1> o _0 o (8,8):(8,1)
// @diag("Sw<3,2,1>", "invalid-swizzle", "")
// 共享内存 tile — (2,4):(4,1) ✓
// @hover("(2,4)")
int main() { return 0; }  // @nodiag
// Prose is not a descriptor: Returns (M, N): the tile sizes; see step (2).
// @nodiag @hover("(M, N)") @hover("(2)")
// A time 10:30 or a ratio 16:9 reads as a layout; it is harmless (no finding).
// @nodiag @hover("10:30")
const char* msg = "error: (%d, %d) out of range";  // @nodiag @hover("(%d")
// TMA coordinates: (4,8):(1@0,1@1), a broken one: (4,8):(1@0,1@1
// @hover("(4,8):(1@0,1@1)") @diag(re`1@1()$`, "syntax", "expected") @fix(re`1@1()$`, "Insert")
// A tensor as CuTe prints it: mA: gmem_ptr[32b](GMEM_ADDR_A) o (8,4):(4,_1)
// @hover("gmem_ptr")
// sA: Sw<3,4,3>_smem_ptr[16b](SMEM_ADDR_A) o (8,64):(64,_1)
// @hover("Sw<3,4,3>_smem")
// CuTe C++ code: hover shows the value as CuTe prints it, bound layouts get inlay hints; code
// errors only where CuTe's static_asserts fail (code_findings.cu), not on the last line here.
using namespace cute;
constexpr int kBlockM = 64;
auto sA = make_layout(make_shape(Int<kBlockM>{}, 256));  // @hover("make_layout") @hover("kBlockM") @inlay
using SW128 = ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<16>, Layout<Shape<_8,_64>,Stride<_64,_1>>>;
// @hover("ComposedLayout")
auto tiled = logical_divide(sA, Layout<_2>{});  // @nodiag @hover("logical_divide")
auto wrong = make_layout(Shape<_4,_2>{}, Stride<_1>{});  // @nodiag @hover("make_layout") @inlay
