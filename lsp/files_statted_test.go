//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadStattedFileInto: with the caller's stat of the file, the bytes
// are the file's, read into the buffer; a file that changed after that
// stat is read as it is now (the whole check), and a stat of what is not
// a regular file is refused without opening it.
func TestReadStattedFileInto(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.cu")
	if err := os.WriteFile(p, []byte("int a;"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 64)
	got, _, err := ReadStattedFileInto(p, info, MaxFileBytes, buf)
	if err != nil || string(got) != "int a;" || &got[:1][0] != &buf[:1][0] {
		t.Errorf("statted file: %q, %v", got, err)
	}
	if err := os.WriteFile(p, []byte("int longer;"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _, err := ReadStattedFileInto(p, info, MaxFileBytes, buf); err != nil || string(got) != "int longer;" {
		t.Errorf("a file changed after its stat: %q, %v; want what it holds now", got, err)
	}
	if _, _, err := ReadStattedFileInto(p, info, 3, buf); err == nil {
		t.Errorf("a file over the limit is read")
	}
	dirInfo, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadStattedFileInto(dir, dirInfo, MaxFileBytes, buf); err == nil {
		t.Errorf("a folder is read")
	} else if _, ok := err.(*SkipError); !ok {
		t.Errorf("a folder: %v, not a SkipError", err)
	}
	fifo := filepath.Join(dir, "fifo.cu")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	fifoInfo, err := os.Stat(fifo)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadStattedFileInto(fifo, fifoInfo, MaxFileBytes, buf); err == nil {
		t.Errorf("a FIFO is read")
	}
}
