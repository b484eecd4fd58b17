package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type bankCase struct {
	ID         int    `json:"id"`
	Smem       string `json:"smem"`
	Access     string `json:"access"`
	ElemBits   int    `json:"elem_bits"`
	Op         string `json:"op"`
	Matrices   int    `json:"matrices"`
	Trans      bool   `json:"trans"`
	VecBytes   int    `json:"vec_bytes"`
	Wavefronts int    `json:"ncu_wavefronts"`
}

// TestBankCommandMeasured runs the command on every measured case written
// as layouts, public and our own, from the printed notation through the
// parser, the binder and the model, and compares with the hardware.
func TestBankCommandMeasured(t *testing.T) {
	sets := map[string]string{
		"public":  filepath.Join("..", "..", "..", "shared", "gpu", "bank_truth.json"),
		"layouts": filepath.Join("..", "..", "testdata", "gpu", "layouts.json"),
	}
	n := 0
	for name, path := range sets {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var cs []bankCase
		if err := json.Unmarshal(data, &cs); err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			args := []string{"bank", "--json", "--smem", c.Smem, "--access", c.Access, "--elem-bits", fmt.Sprint(c.ElemBits)}
			if c.Op != "" {
				args = append(args, "--op", c.Op)
			}
			if c.Matrices != 0 {
				args = append(args, "--matrices", fmt.Sprint(c.Matrices))
			}
			if c.Trans {
				args = append(args, "--trans")
			}
			code, stdout, stderr := runCLI(t, "", args...)
			var out bankJSON
			if err := json.Unmarshal([]byte(stdout), &out); err != nil || code == 2 {
				t.Fatalf("%s case %d: exit %d, %v, stderr %q", name, c.ID, code, err, stderr)
			}
			if out.Wavefronts != c.Wavefronts {
				t.Errorf("%s case %d (%s, %s): %d wavefronts, measured %d", name, c.ID, c.Smem, c.Access, out.Wavefronts, c.Wavefronts)
			}
			if c.VecBytes != 0 && out.VectorBytes != c.VecBytes {
				t.Errorf("%s case %d: %d-byte accesses, the hardware ran %d", name, c.ID, out.VectorBytes, c.VecBytes)
			}
			if (code == 1) != (len(out.Findings) > 0) {
				t.Errorf("%s case %d: exit %d with %d findings", name, c.ID, code, len(out.Findings))
			}
			n++
		}
	}
	if n != 540 {
		t.Errorf("%d cases run, want 540", n)
	}
}

func TestBankCommand(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		inStdout string
		inStderr string
	}{
		{[]string{"bank", "--smem", "Sw<3,3,4> o 0 o (128,128):(128,1)", "--access", "((8,16),8,16):((1,1024),128,8)", "--elem-bits", "16"}, 0,
			"wavefronts 256, ideal 256 (no bank conflict)", ""},
		{[]string{"bank", "--smem", "(128,128):(128,1)", "--access", "((8,16),8,16):((1,1024),128,8)", "--elem-bits", "16"}, 1,
			"8-way worst bank conflict", ""},
		{[]string{"bank", "--smem", "(8,64):(68,1)", "--access", "((8,4),8):((64,1),8)", "--elem-bits", "16", "--vector-bits", "128"}, 1,
			"vector-width: 128-bit accesses asked for", ""},
		{[]string{"bank", "--smem", "Sw<3,3,3> o 0 o (16,64):(64,1)", "--access", "((16,2),8):((1,128),16)", "--elem-bits", "16", "--op", "ldmatrix", "--matrices", "4", "--trans"}, 0,
			"ldmatrix: 1 warp(s) x 1 instruction(s)", ""},
		{[]string{"bank", "--smem", "(8,8):(1,8)"}, 2, "", "usage: cute-lsp bank"},
		{[]string{"bank", "--smem", "8:1", "--access", "32:1", "--elem-bits", "16", "--op", "lds"}, 2, "", "unknown shared-memory op"},
		{[]string{"bank", "--smem", "(8,8:(1,8)", "--access", "32:1", "--elem-bits", "16"}, 1, "", "--smem: 1:"},
		{[]string{"bank", "--smem", "64:1", "--access", "(4,8)", "--elem-bits", "16"}, 1, "", "is not a layout"},
		{[]string{"bank", "--smem", "64:1", "--access", "48:1", "--elem-bits", "16"}, 1, "", "whole number of warps"},
		{[]string{"bank", "--bogus"}, 2, "", "flag provided but not defined"},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stdout, tc.inStdout) || !strings.Contains(stderr, tc.inStderr) {
			t.Errorf("%v: exit %d (want %d), stdout %q (want %q in it), stderr %q (want %q in it)", tc.args, code, tc.code, stdout, tc.inStdout, stderr, tc.inStderr)
		}
	}
}
