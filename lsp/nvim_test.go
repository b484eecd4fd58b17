package lsp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nvimSheet has an unclosed bracket on line 2, after non-ASCII text, so the
// fix exercises the editor's UTF-16 positions.
const nvimSheet = "tile = (4,8):(1,4)\nthr = (\"é😀\", tile, (2,2) # threads\nval = tile\n"

// TestNeovimEndToEnd drives a real Neovim (headless) through the
// editors/nvim configuration: open a sheet, receive diagnostics, hover,
// apply the quick fix, and check the buffer.
func TestNeovimEndToEnd(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (make test installs Debian's neovim): skipping the editor end-to-end test")
	}
	dir := t.TempDir()
	bin := cuteLSPBinary(t)
	sheet := filepath.Join(dir, "tile.cute")
	if err := os.WriteFile(sheet, []byte(nvimSheet), 0o644); err != nil {
		t.Fatal(err)
	}
	nvimDir, _ := filepath.Abs("../editors/nvim")
	script, _ := filepath.Abs("testdata/nvim/e2e.lua")
	resultPath := filepath.Join(dir, "result.json")

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"CUTE_LSP_BIN="+bin, "CUTE_SHEET="+sheet, "CUTE_NVIM_DIR="+nvimDir, "CUTE_RESULT="+resultPath,
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
	var res struct {
		Steps       []string
		Error       *string
		Filetype    string
		Diagnostics []struct {
			Lnum, Col int
			Message   string
		}
		Hover   string
		Actions []string
		Lines   []string
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
	// Neovim reports byte columns: the '(' after "thr = " is byte 6.
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Lnum != 1 || res.Diagnostics[0].Col != 6 || !strings.Contains(res.Diagnostics[0].Message, "never closed") {
		t.Errorf("diagnostics = %+v, want one 'never closed' at line 1 column 6", res.Diagnostics)
	}
	if !strings.Contains(res.Hover, "tile = (4,8):(1,4)") {
		t.Errorf("hover = %q, want the binding of tile", res.Hover)
	}
	if len(res.Actions) != 1 || res.Actions[0] != "Insert the missing ')'" {
		t.Errorf("code actions offered = %q", res.Actions)
	}
	want := []string{"tile = (4,8):(1,4)", "thr = (\"é😀\", tile, (2,2)) # threads", "val = tile"}
	if strings.Join(res.Lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("buffer after the fix:\n%s\nwant:\n%s", strings.Join(res.Lines, "\n"), strings.Join(want, "\n"))
	}
}
