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

// PTXType is the PTX type of one register of the array, for lowering to
// inline assembly: b32 for 32-bit integer registers (which also carry packed
// 16- and 8-bit values), f32, f64, and b64 for 64-bit ones (shared-memory
// descriptors, addresses). It is empty for void and for types no single
// PTX register holds (uint128_t: ldmatrix's 16-byte row in shared memory;
// complex values).
func (r Registers) PTXType() string {
	switch r.Type {
	case "uint32_t", "int32_t":
		return "b32"
	case "float":
		return "f32"
	case "double":
		return "f64"
	case "uint64_t", "int64_t":
		return "b64"
	case "uint16_t", "int16_t":
		return "b16"
	case "uint8_t", "int8_t":
		return "b8"
	}
	return ""
}

// Constraint is the inline-assembly operand constraint CUDA uses for one
// register of the array: r (32-bit), l (64-bit), f (float), d (double),
// h (16-bit); empty where PTXType is.
func (r Registers) Constraint() string {
	switch r.PTXType() {
	case "b32":
		return "r"
	case "b64":
		return "l"
	case "f32":
		return "f"
	case "f64":
		return "d"
	case "b16":
		return "h"
	}
	return ""
}
