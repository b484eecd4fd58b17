//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// longSheet is n lines that fmt rewrites (spaces the canonical form drops).
func longSheet(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("A = (4, 8) : (1, 4)  # a line of a long sheet, rewritten by fmt\n")
	}
	return b.String()
}

// TestFmtWriteFailureLeavesFileWhole: a write that fails part way (a full
// disk) leaves the file as it was and no temporary file behind. On main
// (os.WriteFile truncating in place) the file kept only what was written.
func TestFmtWriteFailureLeavesFileWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.cute")
	src := longSheet(8000)
	os.WriteFile(path, []byte(src), 0o644)
	saved := writeTemp
	defer func() { writeTemp = saved }()
	writeTemp = func(f *os.File, data []byte) error {
		f.Write(data[:len(data)/3])
		return errors.New("no space left on device (simulated)")
	}
	code, _, errs := runCmd(t, "", "fmt", "-w", path)
	if code != 1 || !strings.Contains(errs, "no space left") {
		t.Errorf("code %d, stderr %q; want 1 and the write error", code, errs)
	}
	if got, _ := os.ReadFile(path); string(got) != src {
		t.Errorf("the file has %d bytes after a failed write, want its %d bytes untouched", len(got), len(src))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d entries after a failed write, want the file alone", len(entries))
	}
}

// TestFmtWriteOverFileSizeLimit is the failure of the test above made by
// the system: a child process whose file size limit (RLIMIT_FSIZE, as
// `ulimit -f 100`) is below the output runs fmt -w. On main the file was
// left with its first 102,400 of 512,000 bytes.
func TestFmtWriteOverFileSizeLimit(t *testing.T) {
	if path := os.Getenv("CUTE_FMT_FSIZE_CHILD"); path != "" {
		signal.Ignore(syscall.SIGXFSZ)
		lim := syscall.Rlimit{Cur: 100 << 10, Max: 100 << 10}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			os.Exit(3)
		}
		os.Exit(run([]string{"fmt", "-w", path}, nil, os.Stdout, os.Stderr))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.cute")
	src := longSheet(8000) // 512,000 bytes
	os.WriteFile(path, []byte(src), 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestFmtWriteOverFileSizeLimit$")
	cmd.Env = append(os.Environ(), "CUTE_FMT_FSIZE_CHILD="+path)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("child: %v, want exit 1\n%s", err, out)
	}
	if got, _ := os.ReadFile(path); string(got) != src {
		t.Errorf("the file has %d bytes after a write over the size limit, want its %d bytes untouched", len(got), len(src))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want the file alone", len(entries))
	}
}

// TestFmtKeepsLineEndsBOMAndMode: CRLF, a byte order mark and the file's
// mode come back as they were, on stdout and with -w. On main the BOM was
// dropped and the lines came back with mixed ends.
func TestFmtKeepsLineEndsBOMAndMode(t *testing.T) {
	src := "\ufeffA=(4, 8):(1, 4)\r\n# note\r\nB = 8:1\r\n"
	want := "\ufeffA = (4,8):(1,4)\r\n# note\r\nB = 8:1\r\n"
	if code, out, errs := runCmd(t, src, "fmt"); code != 0 || out != want {
		t.Errorf("stdin: code %d, %q (stderr %q), want %q", code, out, errs, want)
	}
	path := filepath.Join(t.TempDir(), "a.cute")
	os.WriteFile(path, []byte(src), 0o600)
	os.Chmod(path, 0o600)
	if code, _, errs := runCmd(t, "", "fmt", "-w", path); code != 0 {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
	got, _ := os.ReadFile(path)
	if string(got) != want {
		t.Errorf("-w wrote %q, want %q", got, want)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after -w, want 0600", info.Mode().Perm())
	}
	lf := "A=(4, 8):(1, 4)\nB = 8:1\n"
	if _, out, _ := runCmd(t, lf, "fmt"); out != "A = (4,8):(1,4)\nB = 8:1\n" {
		t.Errorf("LF file: %q", out)
	}
}

// TestFmtRefusesLinks: -w leaves a symbolic link and a file with several
// hard links alone unless --links; with it the link's target is rewritten
// (the link stays a link) and a hard-linked name gets a file of its own.
// On main -w wrote through both.
func TestFmtRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	src, want := "A=(4, 8):(1, 4)\n", "A = (4,8):(1,4)\n"
	target := filepath.Join(dir, "target.cute")
	link := filepath.Join(dir, "link.cute")
	hard := filepath.Join(dir, "hard.cute")
	other := filepath.Join(dir, "other.cute")
	os.WriteFile(target, []byte(src), 0o644)
	os.Symlink(target, link)
	os.WriteFile(hard, []byte(src), 0o644)
	if err := os.Link(hard, other); err != nil {
		t.Skipf("hard links: %v", err)
	}
	for _, name := range []string{link, hard} {
		code, _, errs := runCmd(t, "", "fmt", "-w", name)
		if code != 1 || !strings.Contains(errs, "--links") {
			t.Errorf("%s: code %d, stderr %q; want 1 and a hint at --links", filepath.Base(name), code, errs)
		}
	}
	for _, name := range []string{target, hard, other} {
		if got, _ := os.ReadFile(name); string(got) != src {
			t.Errorf("%s was written: %q", filepath.Base(name), got)
		}
	}
	if code, _, errs := runCmd(t, "", "fmt", "-w", "--links", link, hard); code != 0 {
		t.Fatalf("--links: code %d, stderr %q", code, errs)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced by a file")
	}
	for name, text := range map[string]string{target: want, hard: want, other: src} {
		if got, _ := os.ReadFile(name); string(got) != text {
			t.Errorf("--links: %s is %q, want %q", filepath.Base(name), got, text)
		}
	}
}

// TestFmtSpecialFiles: fmt neither hangs on a FIFO nor reads a device.
func TestFmtSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p.cute")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{{"fmt", fifo}, {"fmt", "-w", fifo}, {"fmt", "/dev/zero"}} {
		if code, _, errs := runCmd(t, "", args...); code != 1 || !strings.Contains(errs, "not a regular file") {
			t.Errorf("%v: code %d, stderr %q", args, code, errs)
		}
	}
}
