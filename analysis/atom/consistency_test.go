package atom

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis/prop"
	"github.com/cute-lsp/cute-lsp/layout"
)

func modeSize(t *testing.T, l layout.Layout, i int) int64 {
	t.Helper()
	m, err := l.Get(i)
	if err != nil {
		t.Fatal(err)
	}
	n, err := m.Size()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestMMAConsistent checks each MMA atom's layouts against its shape, its
// thread count and its registers: the thread mode has ThrID's size; every
// element of each tile is held, by the same number of (thread, value) pairs
// (one for register operands, every thread for an operand read through a
// shared-memory descriptor); a register operand's values fill its registers.
func TestMMAConsistent(t *testing.T) {
	checked := map[string]int{}
	for i := range MMAs() {
		a := &MMAs()[i]
		threads, err := a.Threads()
		if err != nil {
			t.Fatal(err)
		}
		ops := []struct {
			op   Operand
			tv   layout.Layout
			val  ValType
			regs Registers
		}{{'A', a.ALayout, a.ValA, a.RegA}, {'B', a.BLayout, a.ValB, a.RegB}, {'C', a.CLayout, a.ValC, a.RegC}}
		for _, o := range ops {
			if got := modeSize(t, o.tv, 0); got != threads {
				t.Errorf("%s %c: thread mode of size %d, ThrID %d", a.Name, o.op, got, threads)
			}
			// Many atoms share a layout and tile: check each combination once.
			key := fmt.Sprintf("%c %v %v %v", o.op, o.tv, a.ShapeMNK, a.ThrID)
			holders, seen := checked[key]
			if !seen {
				holders = checkCover(t, a, o.op, o.tv, threads)
				checked[key] = holders
			}
			// Registers: a thread's values of a register operand fill its registers exactly.
			descriptor := o.regs.Type == "uint64_t" && o.val.Bits != 64
			if holders == 1 && threads >= 32 && !descriptor && !o.regs.None() {
				vals := modeSize(t, o.tv, 1)
				if vals*int64(o.val.Bits) != int64(o.regs.Count*o.regs.Bits) {
					t.Errorf("%s %c: %d values of %d bits, registers %d x %d bits", a.Name, o.op, vals, o.val.Bits, o.regs.Count, o.regs.Bits)
				}
			}
		}
		// Complex MMAs are several real ones; UniversalFMA is C++'s fma.
		if a.PTX == "" && !strings.Contains(a.Name, "C64") && !strings.HasPrefix(a.Name, fmaFamily+"<") {
			t.Errorf("%s: no PTX instruction", a.Name)
		}
	}
}

// checkCover checks that every element of the operand's tile is held by the
// same number of (thread, value) pairs, one or every thread, and returns it.
func checkCover(t *testing.T, a *MMA, op Operand, tv layout.Layout, threads int64) int {
	g, err := a.Grid(op)
	if err != nil {
		t.Errorf("%s %c: %v", a.Name, op, err)
		return 0
	}
	holders := len(g.Cells[0])
	for e, hs := range g.Cells {
		if len(hs) != holders {
			t.Errorf("%s %c: element %d held %d times, element 0 %d times", a.Name, op, e, len(hs), holders)
			break
		}
	}
	if holders != 1 && int64(holders) != threads {
		t.Errorf("%s %c: each element held %d times, neither once nor by all %d threads", a.Name, op, holders, threads)
	}
	size, _ := tv.Size()
	if int64(holders)*g.Rows*g.Cols != size {
		t.Errorf("%s %c: %d pairs for %d elements held %d times", a.Name, op, size, g.Rows*g.Cols, holders)
	}
	return holders
}

// TestCopyConsistent checks each copy atom: the thread modes have ThrID's
// size, source and destination cover the same bits, the reference layout is
// one of them, and register sides fill their registers.
func TestCopyConsistent(t *testing.T) {
	for i := range Copies() {
		c := &Copies()[i]
		threads, err := c.Threads()
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []layout.Layout{c.SrcLayout, c.DstLayout} {
			if got := modeSize(t, l, 0); got != threads {
				t.Errorf("%s: thread mode %d, ThrID %d", c.Name, got, threads)
			}
		}
		si, err := prop.Image(layout.Box(c.SrcLayout))
		if err != nil {
			t.Fatal(err)
		}
		di, err := prop.Image(layout.Box(c.DstLayout))
		if err != nil {
			t.Fatal(err)
		}
		if !sameIntervals(si, di) {
			t.Errorf("%s: source covers bits %v, destination %v", c.Name, si, di)
		}
		if ref := c.RefLayout.Format(true); ref != c.SrcLayout.Format(true) && ref != c.DstLayout.Format(true) {
			t.Errorf("%s: RefLayout %v is neither side", c.Name, c.RefLayout)
		}
		for _, side := range []struct {
			l    layout.Layout
			regs Registers
		}{{c.SrcLayout, c.RegS}, {c.DstLayout, c.RegD}} {
			if side.regs.None() {
				continue
			}
			if bits := modeSize(t, side.l, 1); bits != int64(side.regs.Count*side.regs.Bits) {
				t.Errorf("%s: %d bits a thread, registers %d x %d", c.Name, bits, side.regs.Count, side.regs.Bits)
			}
		}
	}
}

func sameIntervals(a, b []layout.Interval) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
