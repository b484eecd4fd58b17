// Atoms and tiled atoms written as CuTe C++ (CUTLASS's tutorial sgemm_sm80.cu, gemm_tn): hover
// shows CuTe's print of the MMA_Atom, Copy_Atom, TiledMMA or TiledCopy, then what sheets' hover
// shows (threads, tile, thread-value tables); bound ones get inlay hints; no finding anywhere.
#include <cute/tensor.hpp>
using namespace cute;

template <class TA, class TB, class TC>
void gemm_tn(int m, int n, int k) {
  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, cute::half_t>{},
  // @hover("copyA") @hover("Copy_Atom")
                                    Layout<Shape<_16,_8>,Stride<_8,_1>>{},  // Thr layout 16x8 k-major
                                    Layout<Shape< _1,_8>>{});               // @inlay
  TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{},
  // @hover("mmaC") @hover("SM80_16x8x16_F16F16F16F16_TN")
                                 Layout<Shape<_2,_2>>{},    // 2x2x1 MMA Atoms
                                 Tile<_32,_32,_16>{});      // @inlay
  Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A;         // @hover("s2r_atom_A") @inlay
  auto s2r_copy_a = make_tiled_copy_A(s2r_atom_A, mmaC);    // @hover("make_tiled_copy_A") @inlay
  auto tvA = mmaC.get_layoutA_TV();                         // @hover("tvA") @inlay
  auto threads = size(mmaC);                                // @hover("size")
  using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x8_F32TF32TF32F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,Underscore>>;
  // @hover("TiledMMA")
  auto gmma = make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>{});  // @hover("gmma")
  // UniversalFMA's traits do not depend on its element types, template parameters included (sgemm_2.cu:297):
  TiledMMA fma = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Layout<Shape<_16,_16,_1>>{});  // @hover("fma") @inlay
  // No value (the element type is a template parameter), and no finding:
  TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, TB>{},
  // @hover("copyB") @hover("Copy_Atom")
                                    Layout<Shape<_32,_8>>{}, Layout<Shape< _4,_1>>{});  // @inlay
}
