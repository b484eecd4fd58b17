package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintCPUProfile: the hidden -cpuprofile flag writes a profile, says why
// when it cannot (exit 2), and stays out of the usage text.
func TestLintCPUProfile(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	if code, _, stderr := runCLI(t, "", "lint", "-cpuprofile", prof, "../../testdata/lint/good.cute"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if info, err := os.Stat(prof); err != nil || info.Size() == 0 {
		t.Errorf("no profile written: %v", err)
	}
	code, _, stderr := runCLI(t, "", "lint", "-cpuprofile", filepath.Join(t.TempDir(), "missing", "cpu.prof"), "../../testdata/lint/good.cute")
	if code != lintFatal || !strings.Contains(stderr, "cute-lsp lint: ") || !strings.Contains(stderr, "cpu.prof") {
		t.Errorf("unwritable profile: exit %d, stderr %q", code, stderr)
	}
	_, _, usage := runCLI(t, "", "lint")
	if strings.Contains(usage, "cpuprofile") || !strings.Contains(usage, "-hints") || !strings.Contains(usage, "-format string") {
		t.Errorf("usage text:\n%s", usage)
	}
}
