package probe

import (
	"fmt"
	"io"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
)

// kernelSpec is one kernel of the probe program: one op, width, matrix count.
type kernelSpec struct {
	in bank.Instruction // Op, Width, Matrices, Trans
}

func allKernels() []kernelSpec {
	var ks []kernelSpec
	for _, op := range []bank.Op{bank.Load, bank.Store} {
		for _, w := range []int{1, 2, 4, 8, 16} {
			ks = append(ks, kernelSpec{bank.Instruction{Op: op, Width: w}})
		}
	}
	for _, op := range []bank.Op{bank.LdMatrix, bank.StMatrix} {
		for _, n := range []int{1, 2, 4} {
			for _, t := range []bool{false, true} {
				ks = append(ks, kernelSpec{bank.Instruction{Op: op, Width: 16, Matrices: n, Trans: t}})
			}
		}
	}
	return ks
}

func (k kernelSpec) name() string {
	in := k.in
	if in.Op.IsMatrix() {
		t := ""
		if in.Trans {
			t = "_trans"
		}
		return fmt.Sprintf("probe_%s_x%d%s", in.Op, in.Matrices, t)
	}
	return fmt.Sprintf("probe_%s_%d", in.Op, in.Width)
}

// body is the inline PTX of one instruction at shared address p; x0..x3
// are 32-bit values (stores) or accumulators (loads), h a 16-bit one.
func (k kernelSpec) body() string {
	in := k.in
	regs := func(n int, first int) string {
		var r []string
		for i := 0; i < n; i++ {
			r = append(r, fmt.Sprintf("%%%d", first+i))
		}
		return "{" + strings.Join(r, ",") + "}"
	}
	outs := func(n int) string {
		var r []string
		for i := 0; i < n; i++ {
			r = append(r, fmt.Sprintf(`"=r"(y%d)`, i))
		}
		return strings.Join(r, ", ")
	}
	ins := func(n int) string {
		var r []string
		for i := 0; i < n; i++ {
			r = append(r, fmt.Sprintf(`"r"(x%d)`, i))
		}
		return strings.Join(r, ", ")
	}
	trans := ""
	if in.Trans {
		trans = ".trans"
	}
	// ld and st run under a predicate: lanes whose address is 0xffffffff
	// in the input are off (on == 0).
	const pred = "{.reg .pred q; setp.ne.u32 q, %%%d, 0; @q "
	switch in.Op {
	case bank.Load:
		switch in.Width {
		case 1, 2:
			return fmt.Sprintf(`asm volatile("`+pred+`ld.shared.u%d %%0, [%%1];}" : "+h"(h) : "r"(p), "r"(on) : "memory"); x0 += h;`, 2, in.Width*8)
		case 4:
			return fmt.Sprintf(`asm volatile("`+pred+`ld.shared.u32 %%0, [%%1];}" : "+r"(y0) : "r"(p), "r"(on) : "memory"); x0 += y0;`, 2)
		case 8:
			return fmt.Sprintf(`asm volatile("`+pred+`ld.shared.v2.u32 {%%0,%%1}, [%%2];}" : "+r"(y0), "+r"(y1) : "r"(p), "r"(on) : "memory"); x0 += y0; x1 += y1;`, 3)
		case 16:
			return fmt.Sprintf(`asm volatile("`+pred+`ld.shared.v4.u32 {%%0,%%1,%%2,%%3}, [%%4];}" : "+r"(y0), "+r"(y1), "+r"(y2), "+r"(y3) : "r"(p), "r"(on) : "memory"); x0 += y0; x1 += y1; x2 += y2; x3 += y3;`, 5)
		}
	case bank.Store:
		switch in.Width {
		case 1, 2:
			return fmt.Sprintf(`asm volatile("`+pred+`st.shared.u%d [%%0], %%2;}" :: "r"(p), "r"(on), "h"(h) : "memory");`, 1, in.Width*8)
		case 4:
			return fmt.Sprintf(`asm volatile("`+pred+`st.shared.u32 [%%0], %%2;}" :: "r"(p), "r"(on), "r"(x0) : "memory");`, 1)
		case 8:
			return fmt.Sprintf(`asm volatile("`+pred+`st.shared.v2.u32 [%%0], {%%2,%%3};}" :: "r"(p), "r"(on), "r"(x0), "r"(x1) : "memory");`, 1)
		case 16:
			return fmt.Sprintf(`asm volatile("`+pred+`st.shared.v4.u32 [%%0], {%%2,%%3,%%4,%%5};}" :: "r"(p), "r"(on), "r"(x0), "r"(x1), "r"(x2), "r"(x3) : "memory");`, 1)
		}
	case bank.LdMatrix:
		n := in.Matrices
		s := fmt.Sprintf(`asm volatile("ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 %s, [%%%d];" : %s : "r"(p) : "memory");`,
			n, trans, regs(n, 0), n, outs(n))
		for i := 0; i < n; i++ {
			s += fmt.Sprintf(" x%d += y%d;", i, i)
		}
		return s
	case bank.StMatrix:
		n := in.Matrices
		return fmt.Sprintf(`asm volatile("stmatrix.sync.aligned.m8n8.x%d%s.shared.b16 [%%0], %s;" :: "r"(p), %s : "memory");`,
			n, trans, regs(n, 1), ins(n))
	}
	panic("probe: no body for " + k.name())
}

// WriteCUDA writes the probe program. Build it for Hopper and run it under
// Nsight Compute:
//
//	nvcc -O2 -arch=sm_90a -o bankprobe bankprobe.cu
//	ncu --csv --metrics <Metrics...> ./bankprobe cases.bin
func WriteCUDA(w io.Writer) error {
	var b strings.Builder
	b.WriteString(cudaHead)
	ks := allKernels()
	for _, k := range ks {
		fmt.Fprintf(&b, `
__global__ void %s(const uint32_t* __restrict__ addrs, int per_warp, uint32_t* sink) {
  extern __shared__ unsigned char smem[];
  uint32_t base = ((uint32_t)__cvta_generic_to_shared(smem) + 1023u) & ~1023u;
  const uint32_t* a = addrs + (size_t)(threadIdx.x / 32) * per_warp * 32 + threadIdx.x %% 32;
  uint32_t x0 = threadIdx.x, x1 = x0 * 3u, x2 = x0 * 5u, x3 = x0 * 7u, y0 = 0, y1 = 0, y2 = 0, y3 = 0;
  unsigned short h = (unsigned short)x0;
  for (int i = 0; i < per_warp; ++i) {
    uint32_t off = a[i * 32];
    uint32_t on = off != 0xffffffffu;
    uint32_t p = base + (on ? off : 0u);
    (void)on;
    %s
  }
  sink[threadIdx.x] = x0 ^ x1 ^ x2 ^ x3 ^ h;
}
`, k.name(), k.body())
	}
	b.WriteString("\nstatic Kernel kernel_for(uint32_t code) {\n  switch (code) {\n")
	for _, k := range ks {
		fmt.Fprintf(&b, "    case %d: return %s;\n", opCode(&k.in), k.name())
	}
	b.WriteString("  }\n  return nullptr;\n}\n")
	b.WriteString(cudaMain)
	_, err := io.WriteString(w, b.String())
	return err
}

const cudaHead = `// Shared-memory bank-conflict probe, written by cute-lsp (codegen/probe).
// Reads cases from a binary file (see probe.WriteInput) and launches one
// thread block per case; every warp runs its instructions at the given lane
// byte addresses of a 1024-byte aligned dynamic shared-memory buffer.
// Nothing else in a kernel touches shared memory, so Nsight Compute's
// per-launch shared-memory wavefront counters are the case's cost.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

typedef void (*Kernel)(const uint32_t*, int, uint32_t*);
`

const cudaMain = `
int main(int argc, char** argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s cases.bin\n", argv[0]); return 2; }
  FILE* f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  char magic[8];
  uint32_t count = 0;
  if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "CUTEBNK1", 8) != 0 || fread(&count, 4, 1, f) != 1) {
    fprintf(stderr, "%s: not a probe input\n", argv[1]); return 2;
  }
  const int max_smem = 227 * 1024;
  uint32_t *d_addrs = nullptr, *d_sink = nullptr;
  cudaMalloc(&d_addrs, 32u * 32u * 4096u * 4u);
  cudaMalloc(&d_sink, 1024 * 4);
  std::vector<uint32_t> addrs;
  for (uint32_t n = 0; n < count; ++n) {
    uint32_t hdr[6];
    if (fread(hdr, 4, 6, f) != 6) { fprintf(stderr, "case %u: short header\n", n); return 1; }
    uint32_t code = hdr[0], warps = hdr[1], per_warp = hdr[2], bytes = hdr[3] + 1024;
    size_t k = (size_t)warps * per_warp * 32;
    if (warps < 1 || warps > 32 || per_warp < 1 || per_warp > 4096 || bytes > (uint32_t)max_smem) {
      fprintf(stderr, "case %u: bad header\n", n); return 1;
    }
    addrs.resize(k);
    if (fread(addrs.data(), 4, k, f) != k) { fprintf(stderr, "case %u: short addresses\n", n); return 1; }
    Kernel kern = kernel_for(code);
    if (!kern) { fprintf(stderr, "case %u: no kernel for code %u\n", n, code); return 1; }
    cudaFuncSetAttribute((const void*)kern, cudaFuncAttributeMaxDynamicSharedMemorySize, max_smem);
    cudaMemcpy(d_addrs, addrs.data(), k * 4, cudaMemcpyHostToDevice);
    kern<<<1, warps * 32, bytes>>>(d_addrs, (int)per_warp, d_sink);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "case %u: %s\n", n, cudaGetErrorString(e)); return 1; }
  }
  fprintf(stderr, "ran %u cases\n", count);
  return 0;
}
`
