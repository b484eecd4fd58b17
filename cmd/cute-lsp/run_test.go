package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const runSheetSrc = `tile = (4,8):(1,4)
x = colaesce(tile)
z = x
assert size(tile) == 33
assert coalesce(tile) is 32:1
sel = select<1,0>(tile)
m = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
size(tile)
`

// TestEvalFileRunsTheSheet: eval FILE.cute (and run FILE, and eval --file)
// prints every binding's value and every assert's result in order, errors
// in their place with "did you mean", and exits 1 on a failed assert.
func TestEvalFileRunsTheSheet(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.cute")
	if err := os.WriteFile(path, []byte(runSheetSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"tile = (4,8):(1,4)",
		"x = error: 2:5: unknown operation colaesce (did you mean coalesce?)",
		"z = error: 3:5: x has no value: its definition failed",
		"assert size(tile) == 33: FAILED: 4:1: assert failed: 32 != 33",
		"assert coalesce(tile) is 32:1: ok",
		"sel = (8,4):(4,1)",
		"m = SM80_16x8x16_F32F16F16F32_TN: MMA atom, 16 x 8 x 16 (M x N x K), 32 thread(s); D = A * B + C",
		"size(tile) = 32",
	}
	for _, args := range [][]string{{"eval", path}, {"run", path}, {"eval", "--file", path}} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1 (stderr %q)", args, code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if len(lines) != len(want) {
			t.Fatalf("%v: %d lines, want %d:\n%s", args, len(lines), len(want), stdout)
		}
		for i, w := range want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("%v: line %d %q, want it to start %q", args, i+1, lines[i], w)
			}
		}
	}
}

// TestRunPassingSheetExitsZero: a sheet whose asserts hold exits 0, every
// assert reported ok (the project's own example).
func TestRunPassingSheetExitsZero(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "run", "../../examples/tiles.cute")
	if code != 0 || !strings.Contains(stdout, "assert coalesce((2,4):(1,2)) is 8:1: ok\n") || strings.Contains(stdout, "FAILED") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestEvalFileErrors: a sheet file name that is no file is said to be
// one (not read as a division), and an unreadable file is exit 2.
func TestEvalFileErrors(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "eval", "no/such/tiles.cute")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "no/such/tiles.cute: no such sheet file") {
		t.Errorf("eval: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = runCLI(t, "", "run", "no/such/tiles.cute")
	if code != 2 || !strings.Contains(stderr, "no/such/tiles.cute: no such file") {
		t.Errorf("run: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "run")
	if code != 2 || !strings.Contains(stderr, "usage: cute-lsp run") {
		t.Errorf("run alone: exit %d, stderr %q", code, stderr)
	}
}

// TestDidYouMeanInCLIErrors: misspelt subcommands, operations and names
// are answered with the nearest one.
func TestDidYouMeanInCLIErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"evl", "8:1"}, `unknown command "evl"; did you mean eval?`},
		{[]string{"lnt"}, "did you mean lint?"},
		{[]string{"eval", "colaesce(8:1)"}, "unknown operation colaesce (did you mean coalesce?)"},
		{[]string{"eval", "make_layout((4,8), LayoutRigth)"}, "(did you mean LayoutRight?)"},
		{[]string{"table", "colaesce(8:1)"}, "(did you mean coalesce?)"},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code == 0 || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// TestEvalSummarizesAtomsAndDescriptors: eval prints an atom and a GMMA
// descriptor as hover describes them, on one line, not as the atom's own
// call or a bare hex value.
func TestEvalSummarizesAtomsAndDescriptors(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want []string
	}{
		{`mma_atom("SM80_16x8x16_F32F16F16F32_TN")`, []string{"MMA atom, 16 x 8 x 16 (M x N x K)", "PTX: mma.sync.aligned.m16n8k16"}},
		{`copy_atom("SM75_U32x4_LDSM_N")`, []string{"copy atom, 32 thread(s)", "ldmatrix"}},
		{"gmma_desc(tile_to_shape(Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1), (64,64)), 16)",
			[]string{"GmmaDescriptor 0x4000004000010000: start_address = ", "stride_byte_offset = 1024 bytes", "layout_type = B128", "K-major"}},
	} {
		code, stdout, _ := runCLI(t, "", "eval", tc.expr)
		if code != 0 || strings.Count(stdout, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, want one line", tc.expr, code, stdout)
		}
		for _, w := range tc.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: %q lacks %q", tc.expr, stdout, w)
			}
		}
	}
}
