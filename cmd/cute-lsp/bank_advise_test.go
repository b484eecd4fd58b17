package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBankAdvise(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		inStdout []string
		inStderr string
	}{
		{[]string{"bank", "--smem", "(8,64):(64,1)", "--access", "((8,4),1):((1,64),0)", "--elem-bits", "32", "--advise"}, 1,
			[]string{"wavefronts 8, ideal 1", "advice: use Sw<3,0,6> o 0 o (8,64):(64,1): 1 wavefronts, the ideal (now 8), at 4 bytes per lane\nalso conflict-free:\n  (8,64):(65,1) (rows of 64 padded by 1: 7 more elements)\n"}, ""},
		{[]string{"bank", "--smem", "(128,64):(64,1)", "--access", "((16,2),8,(8,4)):((1,1024),128,(16,2048))", "--elem-bits", "16", "--op", "ldmatrix", "--advise"}, 1,
			[]string{"advice: use Sw<3,3,3> o 0 o (128,64):(64,1): 128 wavefronts, the ideal (now 1024), at 16 bytes per lane"}, ""},
		{[]string{"bank", "--smem", "Sw<3,3,3> o 0 o (128,64):(64,1)", "--access", "((16,2),8):((1,1024),128)", "--elem-bits", "16", "--op", "ldmatrix", "--advise"}, 0,
			[]string{"advice: Sw<3,3,3> o 0 o (128,64):(64,1) is already free of bank conflicts at 16 bytes per lane"}, ""},
		{[]string{"bank", "--smem", "48:1", "--access", "((16,2),1):((1,32),0)", "--elem-bits", "32", "--advise"}, 1,
			[]string{"advice: no swizzle or padding makes the access conflict-free: none of"}, ""},
		{[]string{"bank", "--smem", "(2048,4096):(4096,1)", "--access", "32:1", "--elem-bits", "32", "--advise"}, 1,
			nil, "cute-lsp bank: --advise: bank: shared-memory layout of 8388608 elements"},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		ok := code == tc.code && strings.Contains(stderr, tc.inStderr)
		for _, want := range tc.inStdout {
			ok = ok && strings.Contains(stdout, want)
		}
		if !ok {
			t.Errorf("%v: exit %d (want %d), stdout %q (want %q in it), stderr %q (want %q in it)", tc.args, code, tc.code, stdout, tc.inStdout, stderr, tc.inStderr)
		}
	}
}

func TestBankAdviseJSON(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "bank", "--json", "--advise", "--smem", "(8,64):(64,1)", "--access", "((8,4),1):((1,64),0)", "--elem-bits", "32")
	var out bankJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 1 {
		t.Fatalf("exit %d, %v, stderr %q", code, err, stderr)
	}
	a := out.Advice
	if a == nil || a.Already || a.VectorBytes != 4 || len(a.Candidates) != 2 || a.Reason != "" {
		t.Fatalf("advice %+v", a)
	}
	if c := a.Candidates[0]; c.Layout != "Sw<3,0,6> o 0 o (8,64):(64,1)" || c.Wavefronts != 1 || c.Ideal != 1 || c.Pad != 0 {
		t.Errorf("best %+v", c)
	}
	if c := a.Candidates[1]; c.Layout != "(8,64):(65,1)" || c.Pad != 1 || c.Row != 64 || c.ExtraElems != 7 {
		t.Errorf("padding %+v", c)
	}
	if !strings.Contains(stdout, `"layout":"Sw<3,0,6> o 0 o (8,64):(64,1)"`) {
		t.Errorf("swizzles are escaped: %s", stdout)
	}
	// Without --advise there is no advice field.
	_, stdout, _ = runCLI(t, "", "bank", "--json", "--smem", "(8,64):(64,1)", "--access", "((8,4),1):((1,64),0)", "--elem-bits", "32")
	if strings.Contains(stdout, `"advice"`) {
		t.Errorf("advice without --advise: %s", stdout)
	}
}
