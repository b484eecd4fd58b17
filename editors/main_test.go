// Package editors holds the tests of the editor configurations beside it:
// Neovim (nvim/), Emacs (emacs/) and Helix (helix/), each driven headless
// against the server built from this checkout where the editor can run
// without a terminal. The VS Code extension has its own tests (vscode/,
// npm test).
package editors

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// serverBinary is cute-lsp built from this checkout by TestMain.
var serverBinary string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cute-editors-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	serverBinary = filepath.Join(dir, "cute-lsp")
	build := exec.Command("go", "build", "-o", serverBinary, "../cmd/cute-lsp")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building cute-lsp: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// lookEditor finds an editor's binary. Outside CI a missing editor skips
// the test with a message; in CI (CI set, as .ci/run does) it fails: make
// test installs every editor these tests drive.
func lookEditor(t *testing.T, name, debianPackages string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed and CI is set: make test installs Debian's %s; the editor test must run in CI", name, debianPackages)
	}
	t.Skipf("%s is not installed (make test installs Debian's %s): skipping", name, debianPackages)
	return ""
}

// isolatedEnv keeps an editor away from the user's configuration and state.
func isolatedEnv(dir string, extra ...string) []string {
	env := append(os.Environ(),
		"HOME="+filepath.Join(dir, "home"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	return append(env, extra...)
}

// probe is a place in a sheet and the highlight expected there.
type probe struct {
	line   int    // 1-based
	needle string // the text at the place; its first occurrence on the line
	skip   int    // bytes into the needle
	want   string
}

// column is the 1-based byte column of the probe in the sheet.
func (p probe) column(t *testing.T, sheet string) int {
	t.Helper()
	lines := strings.Split(sheet, "\n")
	i := strings.Index(lines[p.line-1], p.needle)
	if i < 0 {
		t.Fatalf("probe %q is not on line %d: %q", p.needle, p.line, lines[p.line-1])
	}
	return i + p.skip + 1
}
