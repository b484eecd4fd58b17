// Runs the lowered mma.sync kernels on the GPU: for each line of runs.tsv
// (ptx file, fragment file, threads, bytes of A, B, C, D, atom), loads the
// module, launches cute_mma(a, b, c, d) on one warp with the reference
// fragments and compares D with the CPU's, bit for bit.
// Build: nvcc -o run_mma run_mma.cu -lcuda. Run: run_mma DIR > results.
#include <cuda.h>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

static const char* err_name(CUresult r) {
  const char* s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "unknown error";
}

int main(int argc, char** argv) {
  if (argc != 2) { fprintf(stderr, "usage: run_mma DIR\n"); return 2; }
  std::string dir = argv[1];
  CUdevice dev; CUcontext ctx;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
      cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
    fprintf(stderr, "no CUDA device\n"); return 1;
  }
  std::ifstream runs(dir + "/runs.tsv");
  std::string line;
  int failed = 0, passed = 0;
  while (std::getline(runs, line)) {
    std::stringstream ls(line);
    std::string ptx, frag, name, field;
    size_t threads, na, nb, nc, nd;
    std::getline(ls, ptx, '\t'); std::getline(ls, frag, '\t');
    std::getline(ls, field, '\t'); threads = std::stoul(field);
    std::getline(ls, field, '\t'); na = std::stoul(field);
    std::getline(ls, field, '\t'); nb = std::stoul(field);
    std::getline(ls, field, '\t'); nc = std::stoul(field);
    std::getline(ls, field, '\t'); nd = std::stoul(field);
    std::getline(ls, name);
    std::string text = slurp(dir + "/" + ptx), data = slurp(dir + "/" + frag);
    if (data.size() != na + nb + nc + nd) { printf("%s\tfragment file has %zu bytes\n", name.c_str(), data.size()); failed++; continue; }
    CUmodule mod; CUfunction fn;
    CUresult r = cuModuleLoadData(&mod, text.c_str());
    if (r != CUDA_SUCCESS) { printf("%s\tload: %s\n", name.c_str(), err_name(r)); failed++; continue; }
    r = cuModuleGetFunction(&fn, mod, "cute_mma");
    CUdeviceptr buf[4]; size_t sizes[4] = {na, nb, nc, nd}; size_t off = 0;
    for (int i = 0; i < 4; i++) {
      cuMemAlloc(&buf[i], sizes[i]);
      if (i < 3) cuMemcpyHtoD(buf[i], data.data() + off, sizes[i]);
      else cuMemsetD8(buf[i], 0xff, sizes[i]);
      off += sizes[i];
    }
    void* args[4] = {&buf[0], &buf[1], &buf[2], &buf[3]};
    if (r == CUDA_SUCCESS) r = cuLaunchKernel(fn, 1, 1, 1, (unsigned)threads, 1, 1, 0, 0, args, nullptr);
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    std::vector<unsigned char> got(nd);
    if (r == CUDA_SUCCESS) r = cuMemcpyDtoH(got.data(), buf[3], nd);
    if (r != CUDA_SUCCESS) {
      printf("%s\tlaunch: %s\n", name.c_str(), err_name(r)); failed++;
    } else {
      const unsigned char* want = (const unsigned char*)data.data() + na + nb + nc;
      size_t bad = 0, first = nd;
      for (size_t i = 0; i < nd; i++) if (got[i] != want[i]) { if (first == nd) first = i; bad++; }
      if (bad == 0) { printf("%s\tok\n", name.c_str()); passed++; }
      else { printf("%s\tD differs in %zu of %zu bytes, first at byte %zu\n", name.c_str(), bad, nd, first); failed++; }
    }
    for (int i = 0; i < 4; i++) cuMemFree(buf[i]);
    cuModuleUnload(mod);
  }
  fprintf(stderr, "run_mma: %d ok, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
