package gmma

import (
	"fmt"
	"strings"
)

// Report is what the descriptor analysis says about a shared-memory tile:
// the canonical tiling it is (or why it is none), the block the first
// instruction reads, and that block's descriptor.
type Report struct {
	Arch       Arch
	Major      Major
	Tiling     *Tiling // nil when the layout is no tiling of a canonical atom
	NotTiling  string  // why, when Tiling is nil
	BlockShape [2]int64
	Block      Operand
	Desc       Descriptor
}

// InstructionK is the K extent, in elements of bits bits, that one dense
// GMMA or UMMA instruction reads per row: 32 bytes.
func InstructionK(bits int) int64 { return 256 / int64(bits) }

// Analyze is the descriptor of the tile's first instruction block: the
// whole M/N extent by InstructionK(bits) of K, at the tile's start, with
// the major-ness of the canonical atom the tile tiles (or, for a layout no
// atom tiles, of the mode with stride 1). The error, for a layout no
// descriptor describes, is a *NotCanonical naming the mode at fault.
// Law: Analyze(arch, op).Desc == MakeDesc(arch, major, Block(op, MN, InstructionK(bits), 0, 0)).
func Analyze(arch Arch, op Operand) (Report, error) {
	r := Report{Arch: arch}
	if err := checkBits(op.Bits); err != nil {
		return r, &NotCanonical{Arch: arch, Mode: -1, Cond: CondElementBits, Detail: err.Error()}
	}
	_, _, inner, err := parts(op.Smem)
	if err != nil {
		return r, &NotCanonical{Arch: arch, Mode: -1, Cond: CondValue, Detail: err.Error()}
	}
	if inner.Rank() != 2 {
		return r, &NotCanonical{Arch: arch, Mode: -1, Cond: CondRank,
			Detail: fmt.Sprintf("the layout %v has rank %d; a descriptor describes one (MN, K) block", inner, inner.Rank())}
	}
	t, terr := Recognize(arch, op)
	if terr == nil {
		r.Tiling = &t
		r.Major = t.Atom.Major
	} else {
		r.NotTiling = terr.Error()
		r.Major = majorsByHint(inner)[0]
	}
	m0, _ := inner.Get(0)
	m1, _ := inner.Get(1)
	mn, err := m0.Size()
	if err != nil {
		return r, err
	}
	k, err := m1.Size()
	if err != nil {
		return r, err
	}
	kb := InstructionK(op.Bits)
	if k < kb {
		return r, &NotCanonical{Arch: arch, Major: r.Major, Mode: 1, Cond: CondKSizeK,
			Detail: fmt.Sprintf("the tile's K extent is %d elements, less than the %d elements of %d bits (32 bytes) one instruction reads", k, kb, op.Bits)}
	}
	r.BlockShape = [2]int64{mn, kb}
	if r.Block, err = Block(op, mn, kb, 0, 0); err != nil {
		return r, err
	}
	r.Desc, err = MakeDesc(arch, r.Major, r.Block)
	return r, err
}

// String is the report as text: the tiling, the block and the descriptor, each field decoded.
func (r Report) String() string {
	var b strings.Builder
	if r.Tiling != nil {
		fmt.Fprintf(&b, "%v\n", *r.Tiling)
	} else if r.NotTiling != "" {
		fmt.Fprintf(&b, "not a tile_to_shape of a canonical atom: %s\n", r.NotTiling)
	}
	fmt.Fprintf(&b, "%v-major; first instruction block (%d,%d): %v\n", r.Major, r.BlockShape[0], r.BlockShape[1], r.Block.Smem)
	b.WriteString(r.Desc.String())
	return b.String()
}
