package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sm80C = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"

const (
	sm80Tiled = `make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((2,2,1)))`
	ldsmTiled = `make_tiled_copy(copy_atom("SM75_U32x4_LDSM_N", "half_t"), make_layout((32,4)), make_layout((1,8)))`
)

// wellFormed reads an SVG to its end with encoding/xml.
func wellFormed(t *testing.T, svg string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
	}
}

func TestSVGCommand(t *testing.T) {
	dir := t.TempDir()
	sheet := filepath.Join(dir, "tiles.cute")
	os.WriteFile(sheet, []byte("A = (4,8):(8,1)\nsA = composition(Sw<1,1,1>, A)\ntv = "+sm80C+"\n"), 0o644)
	notCute := filepath.Join(dir, "tiles.txt")
	os.WriteFile(notCute, []byte("A = 8:1\n"), 0o644)
	for _, tc := range []struct {
		args     []string
		code     int
		inStdout []string // each must appear
		inStderr string
	}{
		{[]string{"svg", "(2,3):(3,1)"}, 0, []string{"<?xml", "offsets: (2,3):(3,1)", ">5</text>"}, ""},
		{[]string{"svg", "Sw<3,4,3> o 0 o (8,64):(64,1)"}, 0, []string{"offsets after the swizzle", ">480</text>"}, ""},
		{[]string{"svg", "--tv", "--tile", "16,8", sm80C}, 0, []string{">T31</text>", ">V3</text>", "32 threads x 4 values"}, ""},
		{[]string{"svg", "--tv", `mma_atom("SM80_16x8x16_F32F16F16F32_TN")`}, 0, []string{"16x8 tile"}, ""},
		{[]string{"svg", "--tv", "--operand", "A", `mma_atom("SM80_16x8x16_F32F16F16F32_TN")`}, 0, []string{"16x16 tile"}, ""},
		{[]string{"svg", "bank_conflicts((8,64):(64,1), (32,8):(1,32), 16)"}, 0, []string{`class="conflict"`, "8-way bank conflict"}, ""},
		{[]string{"svg", "--phase", "1", "bank_conflicts((8,64):(64,1), (32,8):(1,32), 16)"}, 0, []string{"phase 1 of 8"}, ""},
		{[]string{"svg", "--elem-bits", "16", "(8,64):(64,1)"}, 0, []string{">b1</text>", "16-bit elements"}, ""},
		{[]string{"svg", "--shape", "2,4,16", "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"}, 0, []string{">L31</text>", "leading modes = (1)"}, ""},
		{[]string{"svg", sheet, "sA"}, 0, []string{"Sw&lt;1,1,1&gt; o 0 o (4,8):(8,1)"}, ""},
		{[]string{"svg", "--tv", "--tile", "16,8", sheet, "tv"}, 0, []string{">T5</text>"}, ""},
		{[]string{"html", "(4,4):(1,4)"}, 0, []string{"<canvas", `"offsets":[0,4,8,12,1,`}, ""},
		{[]string{"html", "--tv", "--tile", "16,8", sm80C}, 0, []string{`"tv":{"threads":32,"values":4`}, ""},
		{[]string{"svg", sm80Tiled}, 0, []string{">A (M x K)</text>", ">C (M x N)</text>", ">T127</text>"}, ""},
		{[]string{"svg", "--tv", sm80Tiled}, 0, []string{">B (N x K)</text>"}, ""},
		{[]string{"html", sm80Tiled}, 0, []string{`"blocks":[{"name":"A (M x K)","col0":0,"rows":32,"cols":16`}, ""},
		{[]string{"svg", ldsmTiled}, 0, []string{">S (M x N)</text>", ">D (M x N)</text>"}, ""},
		{[]string{"svg", "--tile", "4,4", sm80Tiled}, 1, nil, "drop --tile"},
		{[]string{"svg", "--tile", "4,4", ldsmTiled}, 1, nil, "drop --tile"},
		{[]string{"svg", `make_tiled_mma(mma_atom("SM80_16x8x16_F32F16F16F32_TN"), make_layout((16,32,1)))`}, 1, nil, "an SVG stops at"},

		{[]string{"svg"}, 2, nil, "usage: cute-lsp svg"},
		{[]string{"html", "--bogus", "8:1"}, 2, nil, "flag provided but not defined"},
		{[]string{"svg", "(257,256):(256,1)"}, 1, nil, "use the HTML page (cute-lsp html)"},
		{[]string{"html", "(2049,2048):(1,2049)"}, 1, nil, "pictures stop at 4194304"},
		{[]string{"svg", "(2,3)"}, 1, nil, "is not a layout"},
		{[]string{"svg", "nosuch(8:1)"}, 1, nil, "1:1: unknown operation nosuch"},
		{[]string{"svg", "--tv", "(4,2):(1,4)"}, 1, nil, "--tv needs --tile M,N"},
		{[]string{"svg", "--tv", "--tile", "4", "(4,2):(1,4)"}, 1, nil, "want 2 positive integers"},
		{[]string{"svg", "--tv", "--tile", "4,x", "(4,2):(1,4)"}, 1, nil, `"x" is not a positive integer`},
		{[]string{"svg", "--tile", "4,2", "8:1"}, 1, nil, "--tile goes with --tv"},
		{[]string{"svg", "--tv", "--tile", "4,1", "(4,2):(1,4)"}, 1, nil, "outside the 4x1 tile"},
		{[]string{"svg", "--tv", "--operand", "D", `mma_atom("SM80_16x8x16_F32F16F16F32_TN")`}, 1, nil, `--operand "D"`},
		{[]string{"svg", `mma_atom("SM80_16x8x16_F32F16F16F32_TN")`}, 1, nil, "add --tv"},
		{[]string{"svg", "--phase", "2", "(4,4):(4,1)"}, 1, nil, "--phase goes with a bank_conflicts"},
		{[]string{"svg", "--phase", "99", "bank_conflicts((8,64):(64,1), (32,8):(1,32), 16)"}, 1, nil, "phases 0..7"},
		{[]string{"svg", "--elem-bits", "12", "(4,4):(4,1)"}, 1, nil, "elements of 12 bits"},
		{[]string{"svg", "--shape", "8,8", "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]"}, 1, nil, "admitted"},
		{[]string{"svg", sheet}, 1, nil, "name a binding of the sheet"},
		{[]string{"svg", sheet, "nosuch"}, 1, nil, "in " + sheet},
		{[]string{"svg", filepath.Join(dir, "missing.cute"), "A"}, 1, nil, "no such file"},
		{[]string{"svg", notCute, "A"}, 1, nil, "a sheet must be a .cute file"},
		{[]string{"svg", "-o", filepath.Join(dir, "no", "such", "dir.svg"), "8:1"}, 1, nil, "no such file or directory"},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr)
			continue
		}
		for _, want := range tc.inStdout {
			if !strings.Contains(stdout, want) {
				t.Errorf("%v: stdout lacks %q", tc.args, want)
			}
		}
		if !strings.Contains(stderr, tc.inStderr) {
			t.Errorf("%v: stderr %q, want %q in it", tc.args, stderr, tc.inStderr)
		}
		if code == 0 && tc.args[0] == "svg" {
			wellFormed(t, stdout)
		}
	}
}

func TestPictureToFile(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"svg", "html"} {
		out := filepath.Join(dir, "p."+format)
		code, stdout, stderr := runCLI(t, "", format, "-o", out, "Sw<3,4,3> o 0 o (8,64):(64,1)")
		if code != 0 || stdout != "" || stderr != "" {
			t.Fatalf("%s -o: exit %d, stdout %q, stderr %q", format, code, stdout, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("Sw&lt;3,4,3&gt;")) && !bytes.Contains(b, []byte(`Sw\u003c3,4,3\u003e`)) {
			t.Errorf("%s: the file does not name the layout", format)
		}
	}
}
