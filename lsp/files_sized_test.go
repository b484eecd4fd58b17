package lsp

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadSized: the buffer sized from the file's size when opened holds a
// file that kept its size, one that shrank, and one that grew (read on, to
// limit+1 bytes, so that the caller sees it pass the limit); a read error
// is returned.
func TestReadSized(t *testing.T) {
	text := strings.Repeat("0123456789", 100)
	for _, c := range []struct {
		name        string
		size, limit int64
		want        int
	}{
		{"same size", 1000, 4096, 1000},
		{"shrank", 5000, 8192, 1000},
		{"grew", 10, 4096, 1000},
		{"grew past the limit", 10, 500, 501},
		{"empty", 0, 4096, 1000},
	} {
		got, err := readSized(iotest.HalfReader(strings.NewReader(text)), c.size, c.limit)
		if err != nil || len(got) != c.want || !bytes.Equal(got, []byte(text[:c.want])) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", c.name, len(got), err, c.want)
		}
	}
	boom := errors.New("boom")
	if _, err := readSized(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 3, 100); err != boom {
		t.Errorf("a failing read gives %v, want %v", err, boom)
	}
}
