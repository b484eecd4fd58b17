package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestHugePageHeap: where the kernel gives huge pages on request, the
// range hugePageHeap advises is a mapping of the process marked for them
// (VmFlags "hg" in /proc/self/smaps), and memory allocated after it is
// usable; elsewhere it advises nothing.
func TestHugePageHeap(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	start, end := hugePageHeap(8 << 20)
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		if start != 0 || end != 0 {
			t.Fatalf("huge pages not given on request here (%q), and hugePageHeap advised %#x-%#x", mode, start, end)
		}
		t.Skipf("huge pages not given on request here: %q", mode)
	}
	if end-start != 8<<20 {
		t.Fatalf("advised %#x-%#x, want 8 MiB", start, end)
	}
	if !hugePageMapping(t, start) {
		t.Errorf("the mapping at %#x is not marked for huge pages", start)
	}
	b := make([]byte, 4<<20)
	for i := range b {
		b[i] = byte(i)
	}
	if b[len(b)-1] != byte(len(b)-1) {
		t.Error("memory allocated after hugePageHeap does not hold what was written")
	}
}

// hugePageMapping reports whether the mapping of the process holding addr
// has the flag hg (MADV_HUGEPAGE).
func hugePageMapping(t *testing.T, addr uintptr) bool {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.Contains(" "+line[len("VmFlags:"):]+" ", " hg ")
		}
	}
	return false
}
