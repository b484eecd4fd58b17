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

// TestLintWalkRealPaths: the real path the walk checks each folder with
// (derived from its parent's for a plain folder) is the one
// filepath.EvalSymlinks gives, for plain folders under a named folder,
// under a link to a folder, and under a relative name. (Checked failing:
// deriving a plain folder's from its parent's path instead of its real
// path gives link/sub the path through the link.)
func TestLintWalkRealPaths(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"real/sub/deeper", "real/other", "plain/x"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../real/other", filepath.Join(dir, "plain/x/rel")); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	for _, root := range []string{filepath.Join(dir, "link"), "plain", "./link/sub"} {
		w := &lintWalk{visited: map[fileID]bool{}, reals: map[string]string{}}
		info, err := os.Stat(root)
		if err != nil {
			t.Fatal(err)
		}
		w.dir(root, "", info, 0)
		if len(w.reals) < 2 {
			t.Errorf("%s: %d folders walked: %v", root, len(w.reals), w.reals)
		}
		for path, real := range w.reals {
			want, err := filepath.EvalSymlinks(path)
			if err != nil || real != want {
				t.Errorf("%s: real path %q, want %q (%v)", path, real, want, err)
			}
		}
	}
}
