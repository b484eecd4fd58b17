package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nvimSheet has a call left open on line 2 (the analyzer offers to insert
// the ')'); nvimHost has a malformed descriptor after non-ASCII text in a
// comment, so its diagnostic's column goes through UTF-16 and back, and
// CuTe C++ code the server evaluates for hover.
const (
	nvimSheet = "tile = (4,8):(1,4) # é😀\nthr = composition(tile, (2,2):(1,2) # é😀 threads\nval = thr\n"
	nvimHost  = "// é😀 tile: (4,8):(1,4)\n// é😀 bad: (4,8):(1,4,5)\n__global__ void k() {\n  auto sA = make_layout(make_shape(Int<8>{}, Int<4>{}));\n}\n"
)

// TestNeovimEndToEnd drives a real Neovim (headless) through the
// editors/nvim configuration: open a sheet, receive diagnostics, hover,
// apply the quick fix, and check the buffer.
func TestNeovimEndToEnd(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		// CI must run every editor test: a missing editor there is a failure,
		// not a silent skip (make test installs it; see the Makefile).
		if os.Getenv("CI") != "" {
			t.Fatal("nvim is not installed and CI is set: make test installs Debian's neovim; the editor end-to-end test must run in CI")
		}
		t.Skip("nvim is not installed (make test installs Debian's neovim): skipping the editor end-to-end test")
	}
	dir := t.TempDir()
	bin := cuteLSPBinary(t)
	sheet := filepath.Join(dir, "tile.cute")
	host := filepath.Join(dir, "kernel.cu")
	if err := os.WriteFile(sheet, []byte(nvimSheet), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(host, []byte(nvimHost), 0o644); err != nil {
		t.Fatal(err)
	}
	nvimDir, _ := filepath.Abs("../editors/nvim")
	script, _ := filepath.Abs("testdata/nvim/e2e.lua")
	resultPath := filepath.Join(dir, "result.json")
	// Where e2e.lua hovers in the host: on make_layout, as a 1-based row
	// and 0-based byte column (nvim_win_set_cursor's convention).
	hostLines := strings.Split(nvimHost, "\n")
	hostHoverAt := ""
	for i, l := range hostLines {
		if c := strings.Index(l, "make_layout"); c >= 0 {
			hostHoverAt = fmt.Sprintf("%d,%d", i+1, c)
			break
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"CUTE_LSP_BIN="+bin, "CUTE_SHEET="+sheet, "CUTE_HOST="+host, "CUTE_NVIM_DIR="+nvimDir, "CUTE_RESULT="+resultPath,
		"CUTE_HOST_HOVER_AT="+hostHoverAt,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("nvim did not finish in time; output:\n%s", out)
	}
	if err != nil {
		t.Logf("nvim: %v\n%s", err, out)
	}
	data, err := os.ReadFile(resultPath)
	if err != nil {
		t.Fatalf("no result from nvim (%v); output:\n%s", err, out)
	}
	type diagnostic struct {
		Lnum, Col int
		Message   string
	}
	var res struct {
		Steps           []string
		Error           *string
		Filetype        string
		Diagnostics     []diagnostic
		HostDiagnostics []diagnostic `json:"host_diagnostics"`
		Hover           string
		HostHover       string `json:"host_hover"`
		Actions         []string
		Lines           []string
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("result %s: %v", data, err)
	}
	t.Logf("steps: %v", res.Steps)
	if res.Error != nil {
		t.Fatalf("nvim session failed after %v: %s\nresult: %s\noutput:\n%s", res.Steps, *res.Error, data, out)
	}
	if res.Filetype != "cute" {
		t.Errorf("filetype = %q, want cute", res.Filetype)
	}
	// Neovim reports byte columns: the error is where the ')' is missing.
	line := strings.Split(nvimSheet, "\n")[1]
	wantCol := strings.Index(line, " #")
	atFix := false
	for _, d := range res.Diagnostics {
		atFix = atFix || d.Lnum == 1 && d.Col == wantCol
	}
	if !atFix {
		t.Errorf("errors = %+v, want one at line 1 column %d", res.Diagnostics, wantCol)
	}
	if !strings.Contains(res.Hover, "(4,8):(1,4)") {
		t.Errorf("hover = %q, want the value of tile", res.Hover)
	}
	if len(res.Actions) == 0 || res.Actions[0] != "Insert ')'" {
		t.Errorf("code actions offered = %q, want \"Insert ')'\" first", res.Actions)
	}
	want := []string{"tile = (4,8):(1,4) # é😀", "thr = composition(tile, (2,2):(1,2)) # é😀 threads", "val = thr"}
	if strings.Join(res.Lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("buffer after the fix:\n%s\nwant:\n%s", strings.Join(res.Lines, "\n"), strings.Join(want, "\n"))
	}
	hostLine := strings.Split(nvimHost, "\n")[1]
	if len(res.HostDiagnostics) != 1 || res.HostDiagnostics[0].Lnum != 1 || res.HostDiagnostics[0].Col != strings.Index(hostLine, "(") {
		t.Errorf("host errors = %+v, want one at line 1 byte column %d", res.HostDiagnostics, strings.Index(hostLine, "("))
	}
	// The server evaluates the CuTe C++ expression under the cursor.
	if !strings.Contains(res.HostHover, "(_8,_4):(_1,_8)") {
		t.Errorf("host hover on make_layout = %q, want (_8,_4):(_1,_8)", res.HostHover)
	}
}
