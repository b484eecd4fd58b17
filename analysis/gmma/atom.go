// Package gmma reads shared-memory layouts the way Hopper's warpgroup MMA
// (GMMA, SM90) and Blackwell's UMMA (SM100) read them: through a 64-bit
// matrix descriptor that names one of a few canonical swizzled layouts and
// two byte strides. It recognises a layout as a tiling of one of CuTe's
// canonical atoms, computes the descriptor CuTe's make_gmma_desc and
// make_umma_desc compute, decodes every field, and where a layout is not
// canonical, says which mode breaks it and why, in the layout's own numbers.
//
// Layouts here are in element units with the swizzle acting on element
// offsets (CuTe's position-independent form, "Sw<3,3,3> o 0 o L" for 16-bit
// elements); ElementSwizzle converts the byte-address swizzle CuTe prints
// with a smem_ptr stage ("Sw<3,4,3> o smem_ptr[16b](unset) o L").
package gmma

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// Major says which mode of an (MN, K) operand is contiguous in memory:
// K-major rows run along K, MN-major columns along M (or N).
type Major int

const (
	MajorK  Major = iota // mode 1 (K) is the contiguous one
	MajorMN              // mode 0 (M or N) is the contiguous one
)

func (m Major) String() string {
	if m == MajorMN {
		return "MN"
	}
	return "K"
}

// Arch is the MMA generation whose descriptor format applies.
type Arch int

const (
	SM90  Arch = iota // Hopper GMMA: GmmaDescriptor
	SM100             // Blackwell UMMA: SmemDescriptor
)

func (a Arch) String() string {
	if a == SM100 {
		return "SM100"
	}
	return "SM90"
}

// Kind is the swizzle family of a canonical layout: how many 16-byte chunks
// one swizzle row spans (W) and which byte-address swizzle permutes them.
type Kind int

const (
	Interleave   Kind = iota // no swizzle; 8x16-byte core matrices
	SW32                     // Swizzle<1,4,3> on bytes: rows of 32 bytes
	SW64                     // Swizzle<2,4,3> on bytes: rows of 64 bytes
	SW128                    // Swizzle<3,4,3> on bytes: rows of 128 bytes
	SW128Base32B             // Swizzle<2,5,2> on bytes: 128-byte rows of 32-byte units (SM100, MN-major only)
)

var kindNames = [...]string{"INTER", "SW32", "SW64", "SW128", "SW128_32B"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Width is W, the number of 16-byte chunks in one row of the kind's swizzle
// atom (1 for Interleave, 8 for the 128-byte kinds).
func (k Kind) Width() int64 {
	switch k {
	case SW32:
		return 2
	case SW64:
		return 4
	case SW128, SW128Base32B:
		return 8
	}
	return 1
}

// ByteSwizzle is the swizzle the kind applies to byte addresses.
func (k Kind) ByteSwizzle() layout.Swizzle {
	switch k {
	case SW32:
		return layout.Swizzle{B: 1, M: 4, S: 3}
	case SW64:
		return layout.Swizzle{B: 2, M: 4, S: 3}
	case SW128:
		return layout.Swizzle{B: 3, M: 4, S: 3}
	case SW128Base32B:
		return layout.Swizzle{B: 2, M: 5, S: 2}
	}
	return layout.Swizzle{B: 0, M: 4, S: 3}
}

// kindOfByteSwizzle is the kind whose byte swizzle is sw, as CuTe's
// layout_type reads it for arch; an identity swizzle is Interleave.
func kindOfByteSwizzle(arch Arch, sw layout.Swizzle) (Kind, error) {
	if sw.B == 0 {
		return Interleave, nil
	}
	if sw.M == 4 && sw.S == 3 && sw.B >= 1 && sw.B <= 3 {
		return [...]Kind{Interleave, SW32, SW64, SW128}[sw.B], nil
	}
	if arch == SM100 && sw.M == 5 && sw.B == 2 && sw.S == 2 {
		return SW128Base32B, nil
	}
	want := "Swizzle<1,4,3>, Swizzle<2,4,3> or Swizzle<3,4,3>"
	if arch == SM100 {
		want += ", or Swizzle<2,5,2>"
	}
	return 0, fmt.Errorf("the swizzle acts on byte addresses as Swizzle<%d,%d,%d>; %s descriptors know only %s (none: INTERLEAVE)",
		sw.B, sw.M, sw.S, arch, want)
}

// Atom is one of CuTe's canonical layout atoms (GMMA::Layout_{MN,K}_{INTER,
// SW32,SW64,SW128}_Atom<T>, and on SM100 UMMA::Layout_MN_SW128_32B_Atom<T>)
// for elements of Bits bits, in element units: a K-major atom is 8 rows of
// W*16 bytes, (8, W*128/Bits):(W*128/Bits, 1); an MN-major one is its
// transpose, 8 columns along K (4 for SW128_32B).
type Atom struct {
	Major Major
	Kind  Kind
	Bits  int
}

// Name is CuTe's name of the atom, with the element width: Layout_K_SW128_Atom<16b>.
func (a Atom) Name() string {
	return fmt.Sprintf("Layout_%v_%v_Atom<%db>", a.Major, a.Kind, a.Bits)
}

// ElementsPer16B is T, the number of elements in 16 bytes (one uint128_t).
func (a Atom) ElementsPer16B() int64 { return 128 / int64(a.Bits) }

// Layout is the atom in element units with its swizzle on element offsets
// (a plain layout for Interleave), as CuTe's
// as_position_independent_swizzle_layout prints it: for 16-bit K-major
// SW128, Sw<3,3,3> o 0 o (8,64):(64,1).
// Law: evaluated at every coordinate, it is the element offset whose byte
// address Kind.ByteSwizzle() maps the unswizzled address to.
func (a Atom) Layout() (layout.Value, error) {
	if err := checkBits(a.Bits); err != nil {
		return nil, err
	}
	if a.Kind == SW128Base32B && a.Major != MajorMN {
		return nil, fmt.Errorf("%v: the SW128_32B atom exists only MN-major", a.Name())
	}
	w := a.Kind.Width() * a.ElementsPer16B() // elements along the contiguous mode
	rows := int64(8)
	if a.Kind == SW128Base32B {
		rows = 4
	}
	var inner layout.Layout
	if a.Major == MajorK {
		inner = layout.Make(layout.Ints(rows, w), layout.Ints(w, 1))
	} else {
		inner = layout.Make(layout.Ints(w, rows), layout.Ints(1, w))
	}
	if a.Kind == Interleave {
		return layout.Box(inner), nil
	}
	sw, err := ElementSwizzle(a.Kind.ByteSwizzle(), a.Bits)
	if err != nil {
		return nil, err
	}
	return layout.Composed{Outer: sw, Offset: layout.Int(0), Inner: inner}, nil
}

// Atoms is every canonical atom for arch and element width bits, K-major
// first, in CuTe's order INTER, SW32, SW64, SW128 (then SW128_32B on SM100).
func Atoms(arch Arch, bits int) []Atom {
	var out []Atom
	for _, m := range []Major{MajorK, MajorMN} {
		for k := Interleave; k <= SW128; k++ {
			out = append(out, Atom{Major: m, Kind: k, Bits: bits})
		}
		if arch == SM100 && m == MajorMN {
			out = append(out, Atom{Major: m, Kind: SW128Base32B, Bits: bits})
		}
	}
	return out
}

// checkBits accepts the element widths CuTe's atoms allow: a power of two
// from 1 to 128 bits, so that a whole number of elements fills 16 bytes.
func checkBits(bits int) error {
	if bits < 1 || bits > 128 || bits&(bits-1) != 0 {
		return fmt.Errorf("element width %d bits: a canonical layout needs a power of two from 1 to 128 bits, so that 16 bytes hold a whole number of elements", bits)
	}
	return nil
}

// ElementSwizzle converts a swizzle on byte addresses (the one CuTe keeps
// with a smem_ptr stage) to the same swizzle on element offsets for
// elements of bits bits, as CuTe's recast_layout<uint8_t, T> does.
// Law: ByteSwizzle(ElementSwizzle(sw, bits), bits) == sw whenever sw moves
// whole elements.
func ElementSwizzle(sw layout.Swizzle, bits int) (layout.Swizzle, error) {
	if err := checkBits(bits); err != nil {
		return layout.Swizzle{}, err
	}
	if bits >= 8 {
		return layout.UpcastSwizzle(sw, int64(bits/8))
	}
	return layout.DowncastSwizzle(sw, int64(8/bits))
}

// ByteSwizzle converts a swizzle on element offsets (elements of bits bits)
// to the same permutation of byte addresses. It fails where the swizzle
// would move parts of an element (its M is too small for bits).
func ByteSwizzle(sw layout.Swizzle, bits int) (layout.Swizzle, error) {
	if err := checkBits(bits); err != nil {
		return layout.Swizzle{}, err
	}
	if sw.B == 0 {
		return layout.Swizzle{B: 0, M: 4, S: 3}, nil
	}
	if bits >= 8 {
		return layout.DowncastSwizzle(sw, int64(bits/8))
	}
	n := 8 / bits
	lg := 0
	for 1<<lg < n {
		lg++
	}
	if sw.M < lg {
		return layout.Swizzle{}, fmt.Errorf("the swizzle %v on %d-bit elements permutes bits within a byte (M = %d < %d): no byte-address swizzle does that", sw, bits, sw.M, lg)
	}
	return layout.UpcastSwizzle(sw, int64(n))
}

// FromPointerForm reads a layout CuTe prints with a smem_ptr stage
// ("Sw<3,4,3> o smem_ptr[16b](unset) o L", the swizzle on byte addresses;
// pass it as a Composed with that swizzle) as this package reads layouts:
// the swizzle moved to element offsets of bits-bit elements, as CuTe's
// as_position_independent_swizzle_layout does. A plain layout is unchanged.
// Law: for the atoms, FromPointerForm(pointer form) == Atom.Layout().
func FromPointerForm(v layout.Value, bits int) (layout.Value, error) {
	c, ok := v.(layout.Composed)
	if !ok {
		return v, nil
	}
	sw, err := ElementSwizzle(c.Outer, bits)
	if err != nil {
		return nil, err
	}
	if sw.B == 0 {
		if off, known := c.Offset, !c.Offset.IsTuple() && !c.Offset.IsUnknown(); known && off.Value() == 0 {
			return layout.Box(c.Inner), nil
		}
	}
	return layout.Composed{Outer: sw, Offset: c.Offset, Inner: c.Inner}, nil
}
