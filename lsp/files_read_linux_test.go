package lsp

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadUnchanged: readRegular's four-call read takes a file that is as
// stat'ed (into the buffer where it fits, an empty file too) and leaves to
// the full check a file that grew, shrank or was replaced since its stat,
// one over the limit, and a /proc file (which claims a size of 0).
func TestReadUnchanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.cu")
	write := func(s string) os.FileInfo {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	buf := make([]byte, 0, 64)
	info := write("int a;")
	if data, ok := readUnchanged(path, info, MaxFileBytes, 0, buf); !ok || string(data) != "int a;" || &data[:1][0] != &buf[:1][0] {
		t.Errorf("unchanged file: %q, %v", data, ok)
	}
	if data, ok := readUnchanged(path, info, 5, 0, buf); ok {
		t.Errorf("a file over the limit read: %q", data)
	}
	if data, ok := readUnchanged(path, write(""), MaxFileBytes, 0, buf); !ok || len(data) != 0 {
		t.Errorf("empty file: %q, %v", data, ok)
	}
	for _, change := range []string{"int a; int b;", "int", "int b;"} {
		info := write("int a;")
		if err := os.WriteFile(path, []byte(change), 0o644); err != nil {
			t.Fatal(err)
		}
		// The same size written again may keep the modification time (a
		// coarse clock): the full check reads it then, as it would. What
		// is read goes out with the stat (readRegular returns both).
		if data, ok := readUnchanged(path, info, MaxFileBytes, 0, buf); ok && (string(data) != change || int64(len(data)) != info.Size()) {
			t.Errorf("file changed to %q since its stat (size %d): read %q", change, info.Size(), data)
		}
	}
	info = write("int a;")
	os.Remove(path)
	write("int a;")
	if data, ok := readUnchanged(path, info, MaxFileBytes, 0, buf); ok {
		t.Errorf("a file replaced since its stat read through the old stat: %q", data)
	}
	if info, err := os.Stat("/proc/self/status"); err == nil {
		if data, ok := readUnchanged("/proc/self/status", info, MaxFileBytes, 0, buf); ok {
			t.Errorf("/proc/self/status (size %d) read as unchanged: %d bytes", info.Size(), len(data))
		}
	}
	if data, _, err := ReadRegularFile("/proc/self/status", MaxFileBytes); err == nil && len(data) == 0 {
		t.Errorf("/proc/self/status read empty")
	}
}
