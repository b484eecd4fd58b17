package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestLintGCPercent: lint runs its files under lintGCPercent and gives the
// collector's setting back when done; a GOGC in the environment is left
// alone.
func TestLintGCPercent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.cute")
	if err := os.WriteFile(p, []byte("A = (4,8):(1,4)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(123))
	for _, gogc := range []string{"", "50"} {
		t.Setenv("GOGC", gogc)
		seen := -2
		lintFilesHook = func() { seen = debug.SetGCPercent(-1); debug.SetGCPercent(seen) }
		lintFiles([]string{p}, &configs{}, lintOptions{})
		lintFilesHook = nil
		want := lintGCPercent
		if gogc != "" {
			want = 123
		}
		if seen != want {
			t.Errorf("GOGC=%q: lint ran with GC percent %d, want %d", gogc, seen, want)
		}
		if got := debug.SetGCPercent(123); got != 123 {
			t.Errorf("GOGC=%q: GC percent %d after lint, want 123 back", gogc, got)
		}
	}
}
