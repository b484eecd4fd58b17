// Runs one probe that `cute-lsp ptx --probe DIR` wrote: line INDEX (from 0)
// of DIR/probes.tsv (file, entry, threads, runs, bytes in per run, bytes
// out, probe key) names DIR/FILE.cubin (assembled by probe.sh) and
// DIR/FILE.in (the runs' inputs back to back). Each run launches ENTRY(in,
// out) on one block and prints "INDEX<TAB>RUN<TAB>hex of out", or
// "INDEX<TAB>RUN<TAB>ERROR ..." when a step fails. One probe per process,
// so a faulting kernel takes no other probe's context with it.
// Build: nvcc -o run_probe run_probe.cu -lcuda. Run: run_probe DIR INDEX.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
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
  if (argc != 3) { fprintf(stderr, "usage: run_probe DIR INDEX\n"); return 2; }
  std::string dir = argv[1];
  int index = atoi(argv[2]);
  std::ifstream manifest(dir + "/probes.tsv");
  std::string line;
  for (int i = 0; i <= index; i++) {
    if (!std::getline(manifest, line)) { printf("%d\t0\tERROR no line %d in probes.tsv\n", index, index); return 1; }
  }
  std::stringstream ls(line);
  std::string file, entry, field;
  std::getline(ls, file, '\t');
  std::getline(ls, entry, '\t');
  std::getline(ls, field, '\t'); unsigned threads = std::stoul(field);
  std::getline(ls, field, '\t'); int runs = std::stoi(field);
  std::getline(ls, field, '\t'); size_t nin = std::stoul(field);
  std::getline(ls, field, '\t'); size_t nout = std::stoul(field);
  CUdevice dev; CUcontext ctx;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
      cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
    printf("%d\t0\tERROR no CUDA device\n", index); return 1;
  }
  std::string data = slurp(dir + "/" + file + ".in");
  if (data.size() != nin * runs) { printf("%d\t0\tERROR input has %zu bytes\n", index, data.size()); return 1; }
  CUmodule mod; CUfunction fn;
  CUresult r = cuModuleLoad(&mod, (dir + "/" + file + ".cubin").c_str());
  if (r != CUDA_SUCCESS) { printf("%d\t0\tERROR load: %s\n", index, err_name(r)); return 1; }
  r = cuModuleGetFunction(&fn, mod, entry.c_str());
  if (r != CUDA_SUCCESS) { printf("%d\t0\tERROR function %s: %s\n", index, entry.c_str(), err_name(r)); return 1; }
  for (int run = 0; run < runs; run++) {
    CUdeviceptr in, out;
    std::vector<unsigned char> got(nout);
    r = cuMemAlloc(&in, nin);
    if (r == CUDA_SUCCESS) r = cuMemAlloc(&out, nout);
    if (r == CUDA_SUCCESS) r = cuMemcpyHtoD(in, data.data() + run * nin, nin);
    if (r == CUDA_SUCCESS) r = cuMemsetD8(out, 0xee, nout);
    void* args[2] = {&in, &out};
    if (r == CUDA_SUCCESS) r = cuLaunchKernel(fn, 1, 1, 1, threads, 1, 1, 0, 0, args, nullptr);
    if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
    if (r == CUDA_SUCCESS) r = cuMemcpyDtoH(got.data(), out, nout);
    if (r != CUDA_SUCCESS) { printf("%d\t%d\tERROR run: %s\n", index, run, err_name(r)); return 1; }
    printf("%d\t%d\t", index, run);
    for (size_t i = 0; i < nout; i++) printf("%02x", got[i]);
    printf("\n");
    cuMemFree(in); cuMemFree(out);
  }
  return 0;
}
