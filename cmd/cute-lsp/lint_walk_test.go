//go:build linux

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLintPathsSystemFolders: /proc, /sys and /dev are not walked, whether
// named, reached through a link, or met as a plain folder of a walked one
// (the real path of a plain folder is its parent's and its name, without
// resolving it again); the files of a tree reached through a link are
// found under the link's name.
func TestLintPathsSystemFolders(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	for _, d := range []string{"real/sub/deeper", "real/other"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"real/sub/a.cu", "real/sub/deeper/b.cute", "real/other/c.py"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("// (4,8):(1,4)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{"real/sub/proc": "/proc", "real/other/dev": "/dev", "link": real, "sys": "/sys"}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	files, skips := lintPaths([]string{filepath.Join(dir, "link"), filepath.Join(dir, "sys"), "/sys/kernel"})
	link := filepath.Join(dir, "link")
	want := []string{filepath.Join(link, "other/c.py"), filepath.Join(link, "sub/a.cu"), filepath.Join(link, "sub/deeper/b.cute")}
	if !slices.Equal(files, want) {
		t.Errorf("files %q, want %q", files, want)
	}
	skipped := map[string]string{}
	for _, s := range skips {
		skipped[s.Path] = s.Reason
	}
	for _, p := range []string{filepath.Join(link, "sub/proc"), filepath.Join(link, "other/dev"), filepath.Join(dir, "sys"), "/sys/kernel"} {
		if skipped[p] != "a system folder" {
			t.Errorf("%s: skipped %q, want \"a system folder\" (skips %v)", p, skipped[p], skipped)
		}
	}
}
