package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPTXCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"ptx", "SM80_16x8x8_F32BF16BF16F32_TN"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	if !strings.Contains(out.String(), "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%d0, %d1, %d2, %d3}") {
		t.Errorf("output:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	if rc := run([]string{"ptx", "SM80_16x8x8_F32BF16BF16F32_NN"}, nil, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "did you mean SM80_16x8x8_F32BF16BF16F32_TN") {
		t.Errorf("unknown atom: rc %d, %q", rc, errb.String())
	}
	errb.Reset()
	if rc := run([]string{"ptx", "UniversalCopy<uint32_t>"}, nil, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "not lowered") {
		t.Errorf("skipped atom: rc %d, %q", rc, errb.String())
	}
	if rc := run([]string{"ptx"}, nil, &out, &errb); rc != 2 {
		t.Errorf("no name: rc %d", rc)
	}
}

func TestPTXAll(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if rc := run([]string{"ptx", "--all", dir}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(manifest)), "\n")
	first := strings.Split(lines[0], "\t")
	if len(first) != 3 {
		t.Fatalf("manifest line %q", lines[0])
	}
	if _, err := os.Stat(filepath.Join(dir, first[0])); err != nil {
		t.Error(err)
	}
}

func TestPTXProbeFlags(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if rc := run([]string{"ptx", "--probe", dir}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "probes.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(manifest), "SM75_U16x8_LDSM_T") || !strings.Contains(string(manifest), "SM90_64x16x16_F32F16F16_SS\tC\tMN,MN") {
		t.Errorf("probes.tsv:\n%.500s", manifest)
	}
	raw := filepath.Join(dir, "raw.tsv")
	if err := os.WriteFile(raw, []byte("0\t0\tERROR load: CUDA_ERROR_INVALID_PTX\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if rc := run([]string{"ptx", "--probe-results", raw}, nil, &out, &errb); rc != 0 || !strings.HasPrefix(out.String(), "SM75_U32x1_LDSM_N\tD\t\tnot run: ERROR load: CUDA_ERROR_INVALID_PTX") {
		t.Errorf("rc %d, %.200q", rc, out.String())
	}
	errb.Reset()
	if rc := run([]string{"ptx", "--probe-results", filepath.Join(dir, "missing")}, nil, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "no such file") {
		t.Errorf("missing file: rc %d, %q", rc, errb.String())
	}
}
