package main

import (
	"math"
	"runtime"
	"testing"
)

// The server's soft memory limit is a quarter of the machine, never below
// the floor that holds a large sheet's analysis, and absent where the
// machine's memory is unknown (a fixed 64 MiB limit made the collector run
// almost constantly from 5,000 lines on).
func TestServeMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		physical uint64
		want     int64
	}{
		{24 << 30, 6 << 30},
		{1 << 30, 256 << 20},
		{0, math.MaxInt64},
	} {
		if got := serveMemoryLimit(c.physical); got != c.want {
			t.Errorf("serveMemoryLimit(%d) = %d, want %d", c.physical, got, c.want)
		}
	}
	if runtime.GOOS == "linux" {
		if got := serveMemoryLimit(physicalMemory()); got < 256<<20 || got == math.MaxInt64 {
			t.Errorf("on this Linux machine the limit is %d, want at least 256 MiB and known", got)
		}
	}
}
