//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

const badSheet = "A = (2,2):(1\n"

// lintTree makes a folder with bad.cute (one error) and the entries named
// by the test beside it.
func lintTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.cute"), []byte(badSheet), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// checkSkipped runs lint on dir and wants bad.cute's error reported, exit
// 1, and a warning naming each skipped entry with its reason.
func checkSkipped(t *testing.T, dir string, reasons map[string]string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, "", "lint", dir)
	if code != 1 || !strings.Contains(stdout, "bad.cute:1:") {
		t.Errorf("exit %d, stdout %q; want 1 and bad.cute's error", code, stdout)
	}
	for name, reason := range reasons {
		want := "warning: " + filepath.Join(dir, name) + ": skipped: "
		i := strings.Index(stderr, want)
		if i < 0 || !strings.Contains(stderr[i:], reason) {
			t.Errorf("stderr %q lacks %q...%q", stderr, want, reason)
		}
	}
}

// TestLintSkipsSpecialFiles: a FIFO, a link to /dev/zero and a 1 GiB
// sparse file named like sheets are skipped at once with a warning, and
// the rest is linted. On main the FIFO hung lint, /dev/zero and the sparse
// file ran it out of memory.
func TestLintSkipsSpecialFiles(t *testing.T) {
	dir := lintTree(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "x.cute"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "z.cute"))
	f, err := os.Create(filepath.Join(dir, "sparse.cute"))
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(1 << 30)
	f.Close()
	checkSkipped(t, dir, map[string]string{
		"x.cute":      "not a regular file (a FIFO)",
		"z.cute":      "not a regular file (a character device)",
		"sparse.cute": "1073741824 bytes, over the limit",
	})
}

// TestLintSkipsBrokenEntries: a dangling link, a link to itself and an
// unreadable file are skipped; the run goes on. On main each one ended
// the run with exit 2 and no findings for bad.cute.
func TestLintSkipsBrokenEntries(t *testing.T) {
	dir := lintTree(t)
	os.Symlink(filepath.Join(dir, "missing.cute"), filepath.Join(dir, "dangling.cute"))
	os.Symlink("self.cute", filepath.Join(dir, "self.cute"))
	reasons := map[string]string{"dangling.cute": "no such file", "self.cute": "too many levels of symbolic links"}
	if os.Geteuid() != 0 {
		os.WriteFile(filepath.Join(dir, "locked.cute"), []byte(badSheet), 0o000)
		reasons["locked.cute"] = "permission denied"
	}
	checkSkipped(t, dir, reasons)
}

// TestLintFollowsLinkedFoldersOnce: a link to a folder is walked, a link
// back up (a loop) is not walked again. On main linked folders were not
// followed at all (so no loop either); this checks the loop guard.
func TestLintFollowsLinkedFoldersOnce(t *testing.T) {
	dir := lintTree(t)
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "other.cute"), []byte(badSheet), 0o644)
	os.Symlink(other, filepath.Join(dir, "linked"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink(dir, filepath.Join(dir, "sub", "loop"))
	code, stdout, stderr := runCLI(t, "", "lint", dir)
	if code != 1 || strings.Count(stdout, "bad.cute:1:") != 1 || strings.Count(stdout, "other.cute:1:") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want each file once", code, stdout, stderr)
	}
	if !strings.Contains(stderr, filepath.Join(dir, "sub", "loop")+": skipped: a folder already walked") {
		t.Errorf("stderr %q does not name the loop", stderr)
	}
}

// TestLintExitCodes: skips leave the exit code to the files read, unless
// nothing could be read at all (2).
func TestLintExitCodes(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.cute")
	os.WriteFile(good, []byte("A = (2,2):(1,2)\n"), 0o644)
	fifo := filepath.Join(dir, "x.cute")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	missing := filepath.Join(dir, "missing.cute")
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{good, fifo, missing}, 0},
		{[]string{dir}, 0},
		{[]string{fifo}, 2},
		{[]string{fifo, missing}, 2},
	} {
		if code, _, stderr := runCLI(t, "", append([]string{"lint"}, c.args...)...); code != c.want {
			t.Errorf("lint %v: exit %d, want %d (stderr %q)", c.args, code, c.want, stderr)
		}
	}
}

// TestLintSkipNotesInReports: JSON and SARIF carry a note per skipped
// entry; text output does not (stderr says it).
func TestLintSkipNotesInReports(t *testing.T) {
	dir := lintTree(t)
	os.Symlink("/dev/zero", filepath.Join(dir, "z.cute"))
	_, stdout, _ := runCLI(t, "", "lint", "--format", "json", dir)
	var findings []struct{ Path, Severity, Code, Message string }
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil || len(findings) != 2 {
		t.Fatalf("json: %v, %d findings:\n%s", err, len(findings), stdout)
	}
	if n := findings[1]; n.Code != "skipped" || n.Severity != "info" || !strings.HasSuffix(n.Path, "z.cute") || !strings.Contains(n.Message, "character device") {
		t.Errorf("json note %+v", n)
	}
	_, stdout, _ = runCLI(t, "", "lint", "--format", "sarif", dir)
	if !strings.Contains(stdout, `"ruleId": "skipped"`) || !strings.Contains(stdout, `"level": "note"`) {
		t.Errorf("sarif lacks the note:\n%s", stdout)
	}
	if _, stdout, _ = runCLI(t, "", "lint", dir); strings.Contains(stdout, "z.cute") {
		t.Errorf("text output names the skipped file: %q", stdout)
	}
}
