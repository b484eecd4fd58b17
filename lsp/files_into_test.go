package lsp

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadRegularFileInto: the bytes are the file's, read into the buffer
// where they fit (the same memory), into a new one where they do not; a
// refusal or an error is ReadRegularFile's.
func TestReadRegularFileInto(t *testing.T) {
	dir := t.TempDir()
	small, big := filepath.Join(dir, "a.cu"), filepath.Join(dir, "b.cu")
	if err := os.WriteFile(small, []byte("int a;"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 64)
	got, _, err := ReadRegularFileInto(small, MaxFileBytes, buf)
	if err != nil || string(got) != "int a;" || &got[:1][0] != &buf[:1][0] {
		t.Errorf("small file: %q, %v, read into the buffer: %v", got, err, err == nil && &got[:1][0] == &buf[:1][0])
	}
	got, _, err = ReadRegularFileInto(big, MaxFileBytes, buf)
	if err != nil || len(got) != 100 || &got[:1][0] == &buf[:1][0] {
		t.Errorf("big file: %d bytes, %v, a buffer of its own: %v", len(got), err, err == nil && &got[:1][0] != &buf[:1][0])
	}
	if _, _, err := ReadRegularFileInto(big, 10, buf); err == nil {
		t.Errorf("a file over the limit is read")
	} else if _, ok := err.(*SkipError); !ok {
		t.Errorf("a file over the limit: %v, not a SkipError", err)
	}
	if _, _, err := ReadRegularFileInto(filepath.Join(dir, "missing.cu"), MaxFileBytes, buf); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
	if _, _, err := ReadRegularFileInto(dir, MaxFileBytes, buf); err == nil {
		t.Errorf("a folder is read")
	}
}
