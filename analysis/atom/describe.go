package atom

import (
	"fmt"
	"strings"
)

// Describe is a short text of the atom's facts, for hover: its tile, threads,
// types, instruction, registers and layouts as CuTe prints them.
func (a *MMA) Describe() string {
	var b strings.Builder
	threads, _ := a.Threads()
	fmt.Fprintf(&b, "%s: MMA atom, %d x %d x %d (M x N x K), %d thread(s)\n", a.Name, a.M(), a.N(), a.K(), threads)
	fmt.Fprintf(&b, "D = A * B + C with D %s, A %s, B %s, C %s\n", a.ValD.Name, a.ValA.Name, a.ValB.Name, a.ValC.Name)
	if a.PTX != "" {
		fmt.Fprintf(&b, "PTX: %s\n", a.PTX)
	}
	fmt.Fprintf(&b, "registers per thread: D %s, A %s, B %s, C %s\n", a.RegD, a.RegA, a.RegB, a.RegC)
	fmt.Fprintf(&b, "ThrID   %s\nALayout %s\nBLayout %s\nCLayout %s\n",
		a.ThrID.Format(true), a.ALayout.Format(true), a.BLayout.Format(true), a.CLayout.Format(true))
	return b.String()
}

// Describe is a short text of the copy atom's facts, for hover.
func (c *Copy) Describe() string {
	var b strings.Builder
	threads, _ := c.Threads()
	bits, _ := c.SrcLayout.Cosize()
	fmt.Fprintf(&b, "%s: copy atom, %d thread(s), %d bits a copy\n", c.Name, threads, bits)
	switch {
	case len(c.PTXByRank) > 0:
		fmt.Fprintf(&b, "PTX (rank 1..%d): %s\n", len(c.PTXByRank), strings.Join(c.PTXByRank, ", "))
	case c.PTX != "":
		fmt.Fprintf(&b, "PTX: %s\n", c.PTX)
	}
	if !c.RegS.None() || !c.RegD.None() {
		fmt.Fprintf(&b, "registers per thread: source %s, destination %s\n", c.RegS, c.RegD)
	}
	fmt.Fprintf(&b, "ThrID     %s\nSrcLayout %s (bits)\nDstLayout %s (bits)\nRefLayout %s\n",
		c.ThrID.Format(true), c.SrcLayout.Format(true), c.DstLayout.Format(true), c.RefLayout.Format(true))
	return b.String()
}

// String prints the registers as a C++ array type, uint32_t[4], or void.
func (r Registers) String() string {
	if r.None() {
		return "void"
	}
	return fmt.Sprintf("%s[%d]", r.Type, r.Count)
}
