package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestFmtStdin(t *testing.T) {
	code, out, errs := runCmd(t, "A = (4, 8) : (1, 4)  # tile\n\n\n\nB=composition(A,Swizzle<3,4,3>{})\n", "fmt")
	want := "A = (4,8):(1,4)  # tile\n\nB = composition(A, Sw<3,4,3>)\n"
	if code != 0 || out != want || errs != "" {
		t.Fatalf("code %d, stdout %q, stderr %q; want 0, %q", code, out, errs, want)
	}
}

func TestFmtStyles(t *testing.T) {
	src := "A = (_4,_8):(_1,_4)\nS = Sw<3,4,3> o _0 o (8,64):(64,1)\n"
	for style, want := range map[string]string{
		"cute":   "A = (_4,_8):(_1,_4)\nS = Sw<3,4,3> o _0 o (8,64):(64,1)\n",
		"pycute": "A = (4, 8):(1, 4)\nS = SW_3_4_3 o 0 o (8, 64):(64, 1)\n",
		"mlir":   "A = !cute.layout<\"(4,8):(1,4)\">\nS = !cute.composed_layout<\"S<3,4,3> o 0 o (8,64):(64,1)\">\n",
	} {
		code, out, errs := runCmd(t, src, "fmt", "--style", style)
		if code != 0 || out != want || errs != "" {
			t.Errorf("--style %s: code %d, stdout %q, stderr %q; want %q", style, code, out, errs, want)
		}
	}
}

func TestFmtParseErrors(t *testing.T) {
	src := "A = (4:8)\nB = 8:1\nC = composition(A, B\n"
	code, out, errs := runCmd(t, src, "fmt")
	if code != 1 {
		t.Fatalf("code %d, want 1", code)
	}
	wantErr := "<stdin>:1:7: error: expected ',' or ')' after 4, found ':'\n" +
		"<stdin>:3:21: error: expected ',' or ')' after B, found end of line\n"
	if errs != wantErr {
		t.Errorf("stderr %q, want %q", errs, wantErr)
	}
	if out != src {
		t.Errorf("statements that do not parse must come back unchanged: got %q", out)
	}
}

func TestFmtBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"fmt", "--style", "latex"},
		{"fmt", "--nosuchflag"},
		{"fmt", "-w"},
	} {
		code, _, errs := runCmd(t, "", args...)
		if code != 2 || errs == "" {
			t.Errorf("%v: code %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
}

func TestFmtWrite(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.cute")
	bad := filepath.Join(dir, "bad.cute")
	os.WriteFile(good, []byte("A=(4, 8):(1, 4)\n"), 0o644)
	os.WriteFile(bad, []byte("A=(4, 8):(1, 4)\nB = (4:8)\n"), 0o644)
	code, out, errs := runCmd(t, "", "fmt", "-w", good, bad)
	if code != 1 {
		t.Fatalf("code %d, want 1 (bad.cute does not parse)", code)
	}
	if out != "" {
		t.Errorf("-w printed %q", out)
	}
	if !strings.Contains(errs, bad+":2:7: error: expected ',' or ')' after 4, found ':'") {
		t.Errorf("stderr %q lacks the error of bad.cute", errs)
	}
	if got, _ := os.ReadFile(good); string(got) != "A = (4,8):(1,4)\n" {
		t.Errorf("good.cute is %q after -w", got)
	}
	if got, _ := os.ReadFile(bad); string(got) != "A=(4, 8):(1, 4)\nB = (4:8)\n" {
		t.Errorf("bad.cute was changed to %q although it does not parse", got)
	}
}

func TestFmtMissingFile(t *testing.T) {
	code, _, errs := runCmd(t, "", "fmt", filepath.Join(t.TempDir(), "absent.cute"))
	if code != 1 || !strings.Contains(errs, "absent.cute") {
		t.Errorf("code %d, stderr %q; want 1 naming the file", code, errs)
	}
}
