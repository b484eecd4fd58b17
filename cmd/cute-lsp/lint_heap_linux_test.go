package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
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

// TestHugePageBuffers: the block has the size asked for, room for no more
// (the buffers carved from it must not overlap what follows), is
// writable to its end, and where huge pages are given on request starts
// on a huge page and lies in a mapping marked for them. Sizes around a
// huge page's, and with an allocation's start anywhere relative to one
// (several of each, whose starts differ): the block once ran past its
// allocation where the start and the size both needed rounding.
func TestHugePageBuffers(t *testing.T) {
	onRequest := hugePagesOnRequest()
	var keep [][]byte // so that each allocation starts elsewhere
	for _, size := range []int{0, 1, 4095, hugePageSize - 1, hugePageSize, hugePageSize + 1, 5_718_000, 3*hugePageSize + 12345} {
		for round := 0; round < 4; round++ {
			keep = append(keep, make([]byte, 8192*(round+1)))
			b, advised := hugePageBuffers(size)
			if len(b) != size || cap(b) != size {
				t.Fatalf("size %d: len %d cap %d", size, len(b), cap(b))
			}
			for i := range b {
				b[i] = byte(i)
			}
			if size > 0 && b[size-1] != byte(size-1) {
				t.Fatalf("size %d: the block does not hold what was written", size)
			}
			if advised != (onRequest && size > 0) {
				t.Errorf("size %d: advised %v, huge pages on request %v", size, advised, onRequest)
			}
			if advised {
				start := uintptr(unsafe.Pointer(&b[0]))
				if start%hugePageSize != 0 {
					t.Errorf("size %d: the block starts at %#x, not on a huge page", size, start)
				}
				if !hugePageMapping(t, start) {
					t.Errorf("size %d: the mapping at %#x is not marked for huge pages", size, start)
				}
			}
		}
	}
	_ = keep
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
