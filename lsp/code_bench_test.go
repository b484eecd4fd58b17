package lsp

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

const kernelURI = "file:///tmp/cute-lsp-test/sgemm_like.cu"

// generatedKernel is a CUDA file of about n lines in the style of CuTe's
// GEMM tutorials (sgemm_sm80.cu is 717 lines): includes, a traits struct of
// layout aliases, kernels with CUDA qualifiers, shared-memory layouts built
// with make_layout, tile_to_shape and composition with a swizzle, divides
// and products, loops, and comments holding descriptors.
func generatedKernel(n int) string {
	var b strings.Builder
	b.WriteString("#include <cute/tensor.hpp>\n#include <cuda_runtime.h>\n\nusing namespace cute;\n\n")
	written := 5
	for i := 0; written < n; i++ {
		block := []string{
			fmt.Sprintf("// stage %d: (_128,_8):(_1,_128) tiles of A, padded smem for B", i),
			fmt.Sprintf("template <class ProblemShape, class CtaTiler, class TA>"),
			fmt.Sprintf("__global__ static __launch_bounds__(256) void gemm_device_%d(ProblemShape shape_MNK, CtaTiler cta_tiler, TA const* A, int ldA)", i),
			"{",
			fmt.Sprintf("  auto bM = Int<%d>{};", 64*(1+i%2)),
			"  auto bN = Int<128>{};",
			"  auto bK = Int<8>{};",
			"  auto bP = Int<3>{};",
			"  auto sA = make_layout(make_shape(bM, bK, bP));",
			"  auto sB = make_layout(make_shape(bN, bK, bP), make_stride(Int<1>{}, bN + Int<1>{}, (bN + Int<1>{}) * bK));",
			"  auto sC = make_layout(make_shape(bM, bN));",
			"  auto tA = make_layout(make_shape(Int<32>{}, Int<8>{}), LayoutRight{});",
			"  auto tB = make_layout(make_shape(Int<32>{}, Int<8>{}), LayoutRight{});",
			"  auto sw = composition(Swizzle<3,3,3>{}, make_layout(make_shape(Int<8>{}, Int<64>{}), make_stride(Int<64>{}, Int<1>{})));",
			"  auto sK = tile_to_shape(sw, make_shape(bM, Int<64>{}));",
			"  auto tiled = logical_divide(sC, make_tile(Int<32>{}, Int<32>{}));",
			"  auto zipped = zipped_divide(sC, make_tile(Int<16>{}, Int<8>{}));",
			"  auto blocked = blocked_product(tA, make_layout(make_shape(Int<2>{}, Int<2>{})));",
			"  int M = size<0>(shape_MNK);",
			"  auto gA = make_layout(make_shape(M, bK), make_stride(Int<1>{}, ldA));",
			"  __shared__ float smemA[cosize_v<decltype(sA)>];",
			"  for (int k = 0; k < size<2>(sA); ++k) {",
			"    // (_64,_8,_3):(_1,_64,_512) per stage",
			"    if (threadIdx.x == 0) { printf(\"%d\\n\", k); }",
			"    __syncthreads();",
			"  }",
			"  CUTE_STATIC_ASSERT_V(size(tA) == size(tB));",
			"}",
			"",
			fmt.Sprintf("struct Traits%d {", i),
			"  using SmemLayoutAtom = decltype(composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>, Stride<_32,_1>>{}));",
			"  using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtom{}, Shape<_128,_32>{}));",
			"  using ThrLayout = Layout<Shape<_16,_8>, Stride<_8,_1>>;",
			"};",
			"",
		}
		for _, l := range block {
			b.WriteString(l + "\n")
			written++
		}
	}
	return b.String()
}

func codeSession(b *testing.B) (*session, []string) {
	s := startSession(b, Options{Features: NewAnalyzed()})
	s.initialize()
	text := generatedKernel(720)
	s.open(kernelURI, text)
	s.diagnosticsFor(kernelURI, 1)
	return s, strings.Split(text, "\n")
}

// BenchmarkCodeHover: hover at random places of a 720-line CUDA file of
// CuTe code, each request answered before the next. Target: p99 <= 5 ms.
func BenchmarkCodeHover(b *testing.B) {
	s, lines := codeSession(b)
	r := rand.New(rand.NewPCG(3, 3))
	lat := make([]time.Duration, 0, b.N)
	cpu0 := processCPU()
	for b.Loop() {
		l := r.IntN(len(lines))
		c := r.IntN(len(lines[l]) + 1)
		start := time.Now()
		s.call("textDocument/hover", at(kernelURI, l, c), nil)
		lat = append(lat, time.Since(start))
	}
	reportLatency(b, lat, cpu0, processCPU)
}

// BenchmarkCodeActions: code actions at random places of the same file,
// as editors ask at every move of the cursor (the value as a comment, the
// Layout<...> / make_layout rewrites and coalesce advice, each read back
// before it is offered).
func BenchmarkCodeActions(b *testing.B) {
	s, lines := codeSession(b)
	r := rand.New(rand.NewPCG(4, 4))
	lat := make([]time.Duration, 0, b.N)
	cpu0 := processCPU()
	for b.Loop() {
		l := r.IntN(len(lines))
		c := r.IntN(len(lines[l]) + 1)
		start := time.Now()
		s.codeActions(kernelURI, lspRange{lspPos{l, c}, lspPos{l, c}})
		lat = append(lat, time.Since(start))
	}
	reportLatency(b, lat, cpu0, processCPU)
}

// BenchmarkCodeInlayHints: the inlay hints of the whole file, as an editor
// asks after each edit. Target: p99 <= 5 ms.
func BenchmarkCodeInlayHints(b *testing.B) {
	s, lines := codeSession(b)
	lat := make([]time.Duration, 0, b.N)
	cpu0 := processCPU()
	version := 1
	for b.Loop() {
		// A new version each time, so the hints are computed, not cached.
		b.StopTimer()
		version++
		s.change(kernelURI, version, lspPos{0, 0}, lspPos{0, 0}, "")
		b.StartTimer()
		start := time.Now()
		s.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": kernelURI},
			"range": lspRange{lspPos{0, 0}, lspPos{len(lines), 0}}}, nil)
		lat = append(lat, time.Since(start))
	}
	reportLatency(b, lat, cpu0, processCPU)
}

// BenchmarkCodeInlayHintsAfterValueEdit: as BenchmarkCodeInlayHints, but
// each edit changes a value (a kernel's Int<64> tile size to Int<128> and
// back), so that the names bound to it change their hints.
func BenchmarkCodeInlayHintsAfterValueEdit(b *testing.B) {
	s, lines := codeSession(b)
	type site struct{ line, col int }
	var sites []site
	for l, line := range lines {
		if i := strings.Index(line, "auto bM = Int<"); i >= 0 {
			sites = append(sites, site{l, i + len("auto bM = Int<")})
		}
	}
	values := make([]string, len(sites))
	for k, st := range sites {
		values[k] = lines[st.line][st.col : st.col+strings.IndexByte(lines[st.line][st.col:], '>')]
	}
	r := rand.New(rand.NewPCG(5, 5))
	lat := make([]time.Duration, 0, b.N)
	cpu0 := processCPU()
	version := 1
	for b.Loop() {
		b.StopTimer()
		version++
		k := r.IntN(len(sites))
		next := "128"
		if values[k] == "128" {
			next = "64"
		}
		st := sites[k]
		s.change(kernelURI, version, lspPos{st.line, st.col}, lspPos{st.line, st.col + len(values[k])}, next)
		values[k] = next
		b.StartTimer()
		start := time.Now()
		s.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": kernelURI},
			"range": lspRange{lspPos{0, 0}, lspPos{len(lines), 0}}}, nil)
		lat = append(lat, time.Since(start))
	}
	reportLatency(b, lat, cpu0, processCPU)
}

// BenchmarkCodeDiagnosticsAfterEdit: a one-line edit of the CUDA file, then
// the time until its diagnostics are published. Target: p99 <= 20 ms.
func BenchmarkCodeDiagnosticsAfterEdit(b *testing.B) {
	s, lines := codeSession(b)
	s.setCountOnly(true)
	_, cfg, _ := s.server.session()
	editLoop(b, s.testClient, kernelURI, len(lines)-1, cfg.DiagnosticsDelay, processCPU)
}

// TestGeneratedKernelIsEvaluated: the benchmarks' file is CuTe code the
// reader evaluates (hover on sK shows its value), so they measure the path
// a CUDA file takes, not a file read as plain text.
func TestGeneratedKernelIsEvaluated(t *testing.T) {
	s := startSession(t, Options{Features: NewAnalyzed()})
	s.initialize()
	text := generatedKernel(720)
	s.open(kernelURI, text)
	lines := strings.Split(text, "\n")
	for l, line := range lines {
		if i := strings.Index(line, "auto sK = tile_to_shape"); i >= 0 {
			var h struct{ Contents struct{ Value string } }
			s.call("textDocument/hover", at(kernelURI, l, i+len("auto sK = ")+2), &h)
			if !strings.Contains(h.Contents.Value, "Sw<3,3,3>") {
				t.Fatalf("hover on tile_to_shape: %q", h.Contents.Value)
			}
			return
		}
	}
	t.Fatal("no tile_to_shape line")
}
