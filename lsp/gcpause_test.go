package lsp

import (
	"math"
	"runtime/debug"
	"testing"
)

// gcPercent is the current GC percent (debug.SetGCPercent, put back).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestPauseGC: the collector is off while a paused analysis runs, back at
// its percent after the last of two nested ones, and left alone without a
// memory limit to bound the heap. Checked: resuming after the first of the
// two fails it.
func TestPauseGC(t *testing.T) {
	limit := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(limit)
	defer debug.SetGCPercent(debug.SetGCPercent(77))

	debug.SetMemoryLimit(math.MaxInt64)
	resume := pauseGC()
	if p := gcPercent(); p != 77 {
		t.Fatalf("no memory limit: GC percent %d while paused, want it left at 77", p)
	}
	resume()

	debug.SetMemoryLimit(1 << 30)
	outer := pauseGC()
	inner := pauseGC()
	if p := gcPercent(); p != -1 {
		t.Fatalf("GC percent %d while paused, want -1 (off)", p)
	}
	inner()
	if p := gcPercent(); p != -1 {
		t.Fatalf("GC percent %d after the inner pause ended, want -1 until the outer one ends", p)
	}
	outer()
	if p := gcPercent(); p != 77 {
		t.Fatalf("GC percent %d after both pauses, want 77 back", p)
	}
}

// TestResumeGCLater: the pause of a first analysis outlasts it until the
// next analysis begins (resumeGC), and ends once. Checked: resuming in
// resumeGCLater itself fails it.
func TestResumeGCLater(t *testing.T) {
	limit := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(limit)
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	debug.SetMemoryLimit(1 << 30)

	a := NewAnalyzed()
	a.resumeGCLater(pauseGC())
	if p := gcPercent(); p != -1 {
		t.Fatalf("GC percent %d after the first analysis, want -1 until the next one", p)
	}
	a.resumeGC()
	if p := gcPercent(); p != 77 {
		t.Fatalf("GC percent %d at the next analysis, want 77 back", p)
	}
	a.resumeGC()
	if p := gcPercent(); p != 77 || gcPause.n != 0 {
		t.Fatalf("GC percent %d, %d pauses after resuming twice, want 77 and none", p, gcPause.n)
	}
}
