package main

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
)

// TestFirstBuffers: the buffers of the workers' first files are as many as
// the workers (or the files), the k-th with room for order[k]'s bytes and
// one more (none for a file that cannot be stat'ed or is over the limit),
// and do not overlap: each can be filled to its capacity without touching
// another's bytes.
func TestFirstBuffers(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, n := range []int{5000, 3000, 0, 100, 7000} {
		p := filepath.Join(dir, "f"+string(rune('a'+i))+".cu")
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	paths = append(paths, filepath.Join(dir, "missing.cu"))
	order, infos, _ := biggestFirst(paths)
	for _, workers := range []int{1, 3, 6, 8} {
		bufs := firstBuffers(order, infos, workers)
		if len(bufs) != min(workers, len(paths)) {
			t.Fatalf("%d workers: %d buffers", workers, len(bufs))
		}
		for k, b := range bufs {
			want := 0
			if info := infos[order[k]]; info != nil {
				want = int(info.Size()) + 1
			}
			if len(b) != 0 || cap(b) != want {
				t.Errorf("%d workers: buffer %d (%s): len %d cap %d, want 0 and %d", workers, k, filepath.Base(paths[order[k]]), len(b), cap(b), want)
			}
			b = b[:cap(b)]
			for i := range b {
				b[i] = byte(k + 1)
			}
		}
		for k, b := range bufs {
			for i, c := range b[:cap(b)] {
				if c != byte(k+1) {
					t.Fatalf("%d workers: buffer %d byte %d is %d: another buffer overlaps it", workers, k, i, c)
				}
			}
		}
	}
}

// TestLintFilesHugePageBuffers: a run over files that total at least
// hugePageMinBytes, read into the buffers of firstBuffers and then into
// the ones the workers keep, reports what each file gives read alone.
func TestLintFilesHugePageBuffers(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, n := range []int{1_900_000, 1_500_000, 700_000, 300_000, 20, 90_000, 1_200_000} {
		// A descriptor with a mistake at the end of each file: the
		// finding's position says that the whole file was read.
		body := strings.Repeat("// padding padding padding padding\n", n/35) + "// (4,8):(1,4,2)\n"
		p := filepath.Join(dir, "f"+string(rune('a'+i))+".hpp")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if _, _, total := biggestFirst(paths); total < hugePageMinBytes {
		t.Fatalf("the files total %d bytes, under hugePageMinBytes", total)
	}
	configs, err := findConfigs(paths)
	if err != nil {
		t.Fatal(err)
	}
	got := lintFiles(paths, configs, lintOptions{})
	for i, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := lintSource(p, src, configs, lintOptions{}, new(analysis.FindingsReader))
		if len(want.file.Findings) == 0 {
			t.Fatalf("%s: no finding read alone", p)
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("%s: lintFiles gives %+v, read alone %+v", p, got[i].file.Findings, want.file.Findings)
		}
	}
}

// TestLintWorkerFilesAlone: one worker lints file after file with one
// buffer and one reader of code (analysis.FindingsReader), and each file's
// report is the file's alone, as lintSource reads it afresh: the biggest
// file first binds the names the next ones call with, and those hold the
// algebra's mistakes and a stale comment. Checked to fail with the
// reader's Bindings appended after the last file's (source.readTokens
// without m.bindings[:0]).
func TestLintWorkerFilesAlone(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	dir := t.TempDir()
	binds := "#include <cute/tensor.hpp>\nusing namespace cute;\nusing A = Layout<Shape<_4,_3>>;\nauto B = make_layout(make_shape(_2{}, _8{}));\n" +
		strings.Repeat("auto C = composition(A{}, B); // (4,3):(1,4)\n", 40)
	texts := []string{
		binds,
		"#include <cute/tensor.hpp>\nusing namespace cute;\nauto s = composition(A{}, B) + logical_divide(B, A{});\nauto t = select<3>(make_layout(make_shape(_2{}, _3{})));\n",
		"#include <cute/tensor.hpp>\nusing namespace cute;\nauto L = make_layout(make_shape(_4{}, _2{})); // (4,2):(1,8)\n",
		"int main() { return 0; }\n",
		"#include <cute/tensor.hpp>\nusing namespace cute;\nauto u = upcast<3>(make_layout(make_shape(_4{}, _2{})));\n",
	}
	var paths []string
	for i, text := range texts {
		p := filepath.Join(dir, "f"+string(rune('a'+i))+".cu")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	configs, err := findConfigs(paths)
	if err != nil {
		t.Fatal(err)
	}
	got := lintFiles(paths, configs, lintOptions{hints: true})
	n := 0
	for i, p := range paths {
		want := lintSource(p, []byte(texts[i]), configs, lintOptions{hints: true}, new(analysis.FindingsReader))
		n += len(want.file.Findings)
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("%s: after the files before it, lintFiles gives %+v; alone %+v", p, got[i].file.Findings, want.file.Findings)
		}
	}
	if n < 3 {
		t.Errorf("%d findings in all, want the algebra's mistakes and the stale comment", n)
	}
}
