// CuTe C++ with run-time integers on the cases of runtime_cases.txt: the mean time per operation
// (composition, complement, logical_divide), to set beside cute-lsp's `make bench-ops` on the same
// cases (runtime_cases.json). Each layout is built from integers read at run time, so every leaf is
// a run-time int and no result can be folded at compile time.
// Build and run: bash cute_runtime_bench.sh (host g++ -O2, CuTe's headers; no GPU).
#include <cute/layout.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace cute;

namespace {

enum Op { Composition, Complement, LogicalDivide };

struct Case {
  Op op = Composition;
  int ra = 0, rb = 0;       // ranks of the first and second layout (1 or 2); rb 0: an integer
  int a[4] = {}, b[4] = {};  // shape then stride
  int n = 0;                 // complement's target
};

// Keeps the compiler from hoisting or dropping work on v.
template <class T>
inline void keep(T const& v) { asm volatile("" : : "r"(&v) : "memory"); }
inline void launder(int* p, int k) { asm volatile("" : : "r"(p), "r"(k) : "memory"); }

inline auto rank1(int const* x) { return make_layout(x[0], x[1]); }
inline auto rank2(int const* x) { return make_layout(make_shape(x[0], x[1]), make_stride(x[2], x[3])); }

// One call of c's operation on layouts built from its integers.
inline void run(Case& c) {
  launder(c.a, c.n);
  launder(c.b, c.n);
  // CuTe's complement of run-time strides takes rank 1 only, so complement's operand and
  // logical_divide's tiler are rank 1 (runtime_cases.py keeps only such cases).
  if (c.op == Complement) {
    keep(complement(rank1(c.a), c.n));
  } else if (c.op == LogicalDivide) {
    if (c.ra == 1) keep(logical_divide(rank1(c.a), rank1(c.b)));
    else keep(logical_divide(rank2(c.a), rank1(c.b)));
  } else {
    auto go = [](auto const& A, auto const& B) { keep(composition(A, B)); };
    if (c.ra == 1 && c.rb == 1) go(rank1(c.a), rank1(c.b));
    else if (c.ra == 1) go(rank1(c.a), rank2(c.b));
    else if (c.rb == 1) go(rank2(c.a), rank1(c.b));
    else go(rank2(c.a), rank2(c.b));
  }
}

std::vector<Case> load(char const* path) {
  std::vector<Case> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    Case c;
    std::string op;
    s >> op >> c.ra;
    c.op = op == "complement" ? Complement : op == "logical_divide" ? LogicalDivide : Composition;
    for (int i = 0; i < 2 * c.ra; ++i) s >> c.a[i];
    if (c.op == Complement) {
      std::string n;
      s >> n >> c.n;
    } else {
      s >> c.rb;
      for (int i = 0; i < 2 * c.rb; ++i) s >> c.b[i];
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  auto cases = load(argc > 1 ? argv[1] : "runtime_cases.txt");
  double seconds = argc > 2 ? std::atof(argv[2]) : 1.0;
  char const* names[] = {"composition", "complement", "logical_divide"};
  for (Op op : {Composition, Complement, LogicalDivide}) {
    std::vector<Case> mine;
    for (auto& c : cases) if (c.op == op) mine.push_back(c);
    if (mine.empty()) continue;
    using clock = std::chrono::steady_clock;
    long n = 0;
    auto t0 = clock::now();
    double elapsed = 0;
    do {
      for (int rep = 0; rep < 100; ++rep)
        for (auto& c : mine) run(c);
      n += 100 * long(mine.size());
      elapsed = std::chrono::duration<double>(clock::now() - t0).count();
    } while (elapsed < seconds);
    std::printf("cute-c++ %s: %zu inputs, %.2f ns/op\n", names[op], mine.size(), elapsed / n * 1e9);
  }
}
