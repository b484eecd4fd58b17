package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestLintGCPercent: lint runs its files under lintGCPercentFor their
// total size (smallRunGCPercent for this one file) and gives the
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
		want := smallRunGCPercent
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

// TestLintGCPercentFor: a run whose files fit in half the huge-page block
// runs under smallRunGCPercent, whose floor (4 MiB x GOGC/100) lies below
// the block, so that the block is still collected at once (hugePageHeap);
// a bigger run under lintGCPercent.
func TestLintGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		total int64
		want  int
	}{{0, smallRunGCPercent}, {12 << 20, smallRunGCPercent}, {hugePageHeapBytes / 2, smallRunGCPercent},
		{hugePageHeapBytes/2 + 1, lintGCPercent}, {1 << 30, lintGCPercent}} {
		if got := lintGCPercentFor(c.total); got != c.want {
			t.Errorf("lintGCPercentFor(%d) = %d, want %d", c.total, got, c.want)
		}
	}
	if floor := 4 << 20 * smallRunGCPercent / 100; floor >= hugePageHeapBytes {
		t.Errorf("smallRunGCPercent's floor %d MiB is not below the huge-page block (%d MiB): the block would not be collected at once", floor>>20, hugePageHeapBytes>>20)
	}
}
