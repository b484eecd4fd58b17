// Names bound far above their use, asm blocks the reader skips and asm
// blocks it must read (lines marked "skipped" are skipped), macros: the reader's File is the same with and
// without skipping (TestSkippingChangesNothing).
#include <cute/tensor.hpp>
using namespace cute;

constexpr int kTile = 64;
using SmemShape = Shape<Int<kTile>, _8>;
#define ASM_MOV(d, s) asm volatile("mov.b32 %0, %1;" : "=r"(d) : "r"(s))

struct Traits {
  using ALayout = Layout<Shape<_32, _4>, Stride<_4, _1>>;
  using Shape_MNK = Shape<_64, _8, _16>;
};

template <class T, int N>
struct MMA_64x8x16 {
  using DRegisters = void;
  __device__ static void
  fma(uint32_t const& a0, uint32_t const& a1, uint64_t const& desc_b,
      uint32_t& d0, uint32_t& d1, int const scale_D = 1)
  {
#if defined(CUTE_ARCH_MMA_SM90A_ENABLED)
    asm volatile(
    "{\n"  // skipped
      ".reg .pred p;\n"  // skipped
      "setp.ne.b32 p, %4, 0;\n"  // skipped
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "  // skipped
      "{%0, %1}, {%2, %3}, p;\n"  // skipped
    "}\n"  // skipped
      : "+r"(d0), "+r"(d1)  // skipped
      :  "r"(a0),  "r"(a1), "l"(desc_b),  // skipped
         "r"(int32_t(scale_D)), "n"(int32_t(N)), "n"(sizeof(T)));  // skipped
#else
    CUTE_INVALID_CONTROL_PATH("no sm90a");
#endif
  }
};

__device__ void kernel(int m, uint32_t* p) {
  auto tile = make_layout(SmemShape{}, LayoutRight{});
  uint32_t x = 0, y = 1;
  asm volatile("" ::: "memory");  // skipped
  __asm__ __volatile__("add.u32 %0, %0, %1;" : "+r"(x) : "r"(y), "r"(p[0]), "r"(*p));  // skipped
  asm volatile("" :: "r"(static_cast<uint32_t>(m)));  // skipped
  // Read, not skipped: a CuTe call, a declaration, an assignment, ++, a
  // type before a name, a ";" inside, unbalanced brackets.
  asm volatile("" :: "r"(size(make_layout(Int<kTile>{}))));
  asm volatile("" :: "r"(int k));
  asm volatile("" :: "r"(x = 3));
  asm volatile("" :: "r"(y += 2));
  asm volatile("" :: "r"(++m));
  asm volatile("" :: "r"(m--));
  asm volatile("" :: "r"((int) m));
  asm volatile("" :: "r"([&] { return m; }()));
  asm volatile("" :: "r"(x) ; )
  asm volatile("" :: "r"(x]);
  ASM_MOV(x, y);
  auto used = composition(tile, make_layout(Int<kTile>{}));
  int after = m + kTile;
}

// After ")" (a declaration's asm label) or inside a braced list: read.
int renamed(int) asm("renamed_v2");
auto braced = Layout<Shape<_4>>{ asm("" : : "r"(kTile)) };
Traits::ALayout member{};

// Parameters lint leaves out (their bodies read nothing) and keeps; copy's
// kBlock shadows the constant, which makes lint read the file in full.
constexpr int kBlock = 128;
#define KERNEL_ARGS(T) T const* src, T* dst
struct Copier {
  using Tile = Layout<Shape<Int<kBlock>, _4>>;
  template <class TS, class TD>
  CUTE_HOST_DEVICE static void
  copy(TS const& src, TD& dst, int kBlock, uint32_t d0, uint32_t d1)
  {
    asm volatile("mov.b32 %0, %1;" : "=r"(d0) : "r"(d1));  // skipped
  }
  CUTE_HOST_DEVICE static void
  fill(uint32_t& x, int m = kBlock) { CUTE_INVALID_CONTROL_PATH("no"); }
  CUTE_HOST_DEVICE static auto
  tile(int m) { return make_layout(make_shape(m, Int<kBlock>{})); }
  CUTE_HOST_DEVICE static void
  shadow(int kTile) { auto l = make_layout(kTile); }
  CUTE_HOST_DEVICE static void
  assign(int kTile = 3) { }
};
void launch(KERNEL_ARGS(float)) { }
// Writes kTile (a declaration after a parenthesised type): far_use's
// Int<kTile> is then not sure, in lint as in the editor.
void rebind(decltype(kBlock) kTile = 3) { }
auto far_use = composition(Copier::Tile{}, make_layout(Int<kTile>{}, Int<kBlock>{}));
