package editors

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

// emacsFaces name the face expected at each place of highlightSheet
// (nvim_test.go) in cute-mode.
var emacsFaces = []probe{
	{1, "# a comment", 0, "font-lock-comment-delimiter-face"},
	{1, "a comment", 0, "font-lock-comment-face"},
	{2, "tile", 0, "font-lock-variable-name-face"},
	{2, "(2,", 1, "cute-number-face"},
	{2, "// nested", 3, "font-lock-comment-face"},
	{3, "_8", 0, "cute-static-face"},
	{3, "_64)", 1, "cute-static-face"},
	{4, "1@0", 0, "cute-basis-face"},
	{4, "3@1@0", 4, "cute-basis-face"},
	{5, "Sw<3", 0, "font-lock-type-face"},
	{5, " o ", 1, "cute-operator-face"},
	{5, "smem_ptr", 0, "font-lock-type-face"},
	{6, "logical_divide", 0, "font-lock-function-name-face"},
	{7, "assert", 0, "font-lock-keyword-face"},
	{7, "coalesce", 0, "font-lock-function-name-face"},
	{7, " is ", 1, "cute-operator-face"},
	{8, "!cute", 1, "font-lock-type-face"},
	{8, `"(4`, 0, "font-lock-string-face"},
	{9, "S[", 0, "font-lock-type-face"},
	{9, "4@laneid", 2, "cute-basis-face"},
	{10, "?{i64}", 2, "cute-dynamic-face"},
	{11, "# not", 0, "font-lock-string-face"},
}

type emacsDiagnostic struct {
	Line     int
	Text     string
	Code     string // lsp-mode only
	Severity int    // lsp-mode only: 1 is an error
}

type emacsResult struct {
	Error        *string
	Compiled     bool
	Mode         string
	CommentStart string `json:"comment_start"`
	Faces        []string
	Diagnostics  []emacsDiagnostic
	Hover        string
	Workspaces   []string
}

// TestEmacsFontLock opens a sheet in emacs --batch with cute-mode.el (no
// server): the mode from auto-mode-alist, comment-start, the face at each
// probe, and a clean byte-compilation (warnings are errors).
func TestEmacsFontLock(t *testing.T) {
	emacs := lookEditor(t, "emacs", "emacs-nox")
	res := runEmacs(t, emacs, "tiles.cute", highlightSheet, "", "")
	if res.Error != nil {
		t.Fatalf("emacs: %s", *res.Error)
	}
	if !res.Compiled {
		t.Error("cute-mode.el does not byte-compile cleanly (warnings are errors)")
	}
	if res.Mode != "cute-mode" || res.CommentStart != "# " {
		t.Errorf("major mode %q, comment-start %q: want cute-mode and \"# \"", res.Mode, res.CommentStart)
	}
	if len(res.Faces) != len(emacsFaces) {
		t.Fatalf("%d faces for %d probes", len(res.Faces), len(emacsFaces))
	}
	for i, p := range emacsFaces {
		if res.Faces[i] != p.want {
			t.Errorf("line %d at %q+%d: face %q, want %q", p.line, p.needle, p.skip, res.Faces[i], p.want)
		}
	}
}

// TestEmacsEglot connects eglot (Debian's elpa-eglot) to the built server
// through cute-mode.el's registration: diagnostics arrive, hover has the
// offset table.
func TestEmacsEglot(t *testing.T) {
	emacs := lookEditor(t, "emacs", "emacs-nox and elpa-eglot")
	requireElisp(t, emacs, "eglot", "elpa-eglot")
	checkServerSession(t, runEmacs(t, emacs, "tiles.cute", commandsSheet, "eglot", "(4,8)"))
}

// TestEmacsLspMode starts lsp-mode (Debian's elpa-lsp-mode) with cute-lsp
// registered as an add-on server by cute-mode.el.
func TestEmacsLspMode(t *testing.T) {
	emacs := lookEditor(t, "emacs", "emacs-nox and elpa-lsp-mode")
	requireElisp(t, emacs, "lsp-mode", "elpa-lsp-mode")
	res := runEmacs(t, emacs, "tiles.cute", commandsSheet, "lsp-mode", "(4,8)")
	checkServerSession(t, res)
	if len(res.Workspaces) != 1 || !strings.Contains(res.Workspaces[0], "cute-lsp") {
		t.Errorf("lsp-mode workspaces %q, want the one of cute-lsp", res.Workspaces)
	}
}

// cudaSource is a CUDA file with a layout descriptor alone in a comment
// (incongruent: shape (4,2), stride (1,(2,3))) and CuTe C++ code whose
// layout the server evaluates.
const cudaSource = `#include <cute/tensor.hpp>
using namespace cute;

// (4,2):(1,(2,3))

__global__ void kernel() {
  auto sA = make_layout(make_shape(Int<8>{}, Int<4>{}));
}
`

// TestEmacsLspModeCuda opens a .cu file in c++-mode with cute-lsp
// registered as lsp-mode's add-on server (cute-mode.el's setup for clangd
// users; clangd itself need not be installed): the descriptor in a comment
// gets its diagnostic, and hover on make_layout shows the layout of the C++.
func TestEmacsLspModeCuda(t *testing.T) {
	emacs := lookEditor(t, "emacs", "emacs-nox and elpa-lsp-mode")
	requireElisp(t, emacs, "lsp-mode", "elpa-lsp-mode")
	res := runEmacs(t, emacs, "kernel.cu", cudaSource, "lsp-mode", "make_layout")
	if res.Error != nil {
		t.Fatalf("emacs: %s\nresult: %+v", *res.Error, res)
	}
	if res.Mode != "c++-mode" {
		t.Errorf("major mode %q, want c++-mode", res.Mode)
	}
	if len(res.Workspaces) != 1 || !strings.Contains(res.Workspaces[0], "cute-lsp") {
		t.Errorf("lsp-mode workspaces %q, want the one of cute-lsp", res.Workspaces)
	}
	found := false
	for _, d := range res.Diagnostics {
		found = found || d.Line == 4 && d.Code == "incongruent" && d.Severity == 1
	}
	if !found {
		t.Errorf("diagnostics %+v, want an incongruent error on line 4", res.Diagnostics)
	}
	if !strings.Contains(res.Hover, "(_8,_4):(_1,_8)") {
		t.Errorf("hover on make_layout:\n%s\nwant (_8,_4):(_1,_8)", res.Hover)
	}
}

// lineColumn is the 1-based line and 0-based byte column of needle's first
// occurrence in text.
func lineColumn(t *testing.T, text, needle string) [2]int {
	t.Helper()
	if needle == "" {
		return [2]int{1, 0}
	}
	at := strings.Index(text, needle)
	if at < 0 {
		t.Fatalf("%q is not in the text", needle)
	}
	line := strings.Count(text[:at], "\n") + 1
	return [2]int{line, at - (strings.LastIndex(text[:at], "\n") + 1)}
}

func checkServerSession(t *testing.T, res emacsResult) {
	t.Helper()
	if res.Error != nil {
		t.Fatalf("emacs: %s\nresult: %+v", *res.Error, res)
	}
	found := false
	for _, d := range res.Diagnostics {
		found = found || d.Line == 4 && strings.Contains(d.Text, "nosuch")
	}
	if !found {
		t.Errorf("diagnostics %+v, want one on line 4 about nosuch", res.Diagnostics)
	}
	// session.el sets cute-server-settings to tableCap 2: the table is cut
	// only if the registration sends the settings as initializationOptions.
	rows := strings.Split(res.Hover, "\n")
	if !strings.Contains(res.Hover, "(4,8):(1,4)") || !containsRow(rows, "1", "1 | 5") || containsRow(rows, "2", "2") ||
		!strings.Contains(res.Hover, "(2 of 4 rows)") {
		t.Errorf("hover:\n%s\nwant (4,8):(1,4) and its offset table cut at 2 rows (tableCap 2)", res.Hover)
	}
}

// requireElisp skips (or, in CI, fails) when a library is not installed.
func requireElisp(t *testing.T, emacs, feature, debianPackage string) {
	t.Helper()
	err := exec.Command(emacs, "--batch", "-q", "--eval", "(require '"+feature+")").Run()
	if err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("Emacs cannot load %s and CI is set: make test installs Debian's %s", feature, debianPackage)
	}
	t.Skipf("Emacs cannot load %s (make test installs Debian's %s): skipping", feature, debianPackage)
}

// runEmacs runs testdata/emacs/session.el on a file named name holding
// text: font-lock probes for a sheet without a client, else a server session
// with client ("eglot", "lsp-mode") that hovers at the first hoverNeedle.
// -q keeps Debian's site-start, which puts the elpa-* packages on the load
// path; HOME is a fresh directory, so no user configuration is read.
func runEmacs(t *testing.T, emacs, name, sheetText, client, hoverNeedle string) emacsResult {
	t.Helper()
	dir := t.TempDir()
	// A VC root, so that project.el (eglot) and lsp-mode find the project
	// without asking.
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sheet := filepath.Join(dir, name)
	if err := os.WriteFile(sheet, []byte(sheetText), 0o644); err != nil {
		t.Fatal(err)
	}
	var at [][2]int
	if client == "" {
		for _, p := range emacsFaces {
			at = append(at, [2]int{p.line, p.column(t, sheetText) - 1})
		}
	}
	probes, _ := json.Marshal(at)
	emacsDir, _ := filepath.Abs("emacs")
	script, _ := filepath.Abs("testdata/emacs/session.el")
	resultPath := filepath.Join(dir, "result.json")
	hoverAt, _ := json.Marshal(lineColumn(t, sheetText, hoverNeedle))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, emacs, "--batch", "-q", "-l", script)
	cmd.Dir = dir
	cmd.Env = isolatedEnv(dir, "CUTE_EMACS_DIR="+emacsDir, "CUTE_SHEET="+sheet, "CUTE_PROBES="+string(probes),
		"CUTE_RESULT="+resultPath, "CUTE_LSP_BIN="+serverBinary, "CUTE_CLIENT="+client, "CUTE_HOVER_AT="+string(hoverAt))
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("emacs did not finish in time; output:\n%s", out)
	}
	if err != nil {
		t.Logf("emacs: %v\n%s", err, out)
	}
	data, err := os.ReadFile(resultPath)
	if err != nil {
		t.Fatalf("no result from emacs (%v); output:\n%s", err, out)
	}
	var res emacsResult
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("result %s: %v", data, err)
	}
	return res
}
