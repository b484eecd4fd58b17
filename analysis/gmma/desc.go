package gmma

import (
	"fmt"
	"strings"
)

// Descriptor is a shared-memory matrix descriptor with its fields unpacked:
// CuTe's GmmaDescriptor (SM90) or UMMA::SmemDescriptor (SM100). Addresses
// and offsets are in 16-byte units (the hardware drops the 4 low bits).
//
// Bit layout of the 64-bit value:
//
//	[0,14)  StartAddress   byte address >> 4
//	[16,30) LeadingOffset  leading dimension byte offset >> 4 (LBO)
//	[32,46) StrideOffset   stride dimension byte offset >> 4 (SBO)
//	[46,48) Version        SM100 only: 1 on Blackwell
//	[49,52) BaseOffset     swizzle pattern phase of the start address (CuTe writes 0)
//	[52,53) LBOMode        SM100 only: 0 legacy (LBO as a byte offset)
//	[62,64) LayoutType     SM90: 0 INTERLEAVE, 1 B128, 2 B64, 3 B32
//	[61,64) LayoutType     SM100: 0 SWIZZLE_NONE, 1 SWIZZLE_128B_BASE32B, 2 SWIZZLE_128B, 4 SWIZZLE_64B, 6 SWIZZLE_32B
type Descriptor struct {
	Arch          Arch
	StartAddress  uint16 // 14 bits
	LeadingOffset uint16 // 14 bits
	StrideOffset  uint16 // 14 bits
	Version       uint8  // 2 bits, SM100
	BaseOffset    uint8  // 3 bits
	LBOMode       uint8  // 1 bit, SM100
	LayoutType    uint8  // 2 bits (SM90) or 3 bits (SM100)
}

const field14 = 1<<14 - 1

// Encode packs d into the 64-bit descriptor value, each field truncated to
// its width as a C bit-field assignment does.
// Law: Decode(d.Arch, d.Encode()) == d for every d whose fields fit their widths.
func (d Descriptor) Encode() uint64 {
	v := uint64(d.StartAddress&field14) |
		uint64(d.LeadingOffset&field14)<<16 |
		uint64(d.StrideOffset&field14)<<32 |
		uint64(d.BaseOffset&7)<<49
	if d.Arch == SM100 {
		v |= uint64(d.Version&3)<<46 | uint64(d.LBOMode&1)<<52 | uint64(d.LayoutType&7)<<61
	} else {
		v |= uint64(d.LayoutType&3) << 62
	}
	return v
}

// Decode unpacks a 64-bit descriptor value of arch; bits outside the
// arch's fields are ignored (the hardware reserves them).
// Law: Decode(a, v).Encode() == v & mask(a), mask(a) the bits of a's fields.
func Decode(arch Arch, v uint64) Descriptor {
	d := Descriptor{
		Arch:          arch,
		StartAddress:  uint16(v & field14),
		LeadingOffset: uint16(v >> 16 & field14),
		StrideOffset:  uint16(v >> 32 & field14),
		BaseOffset:    uint8(v >> 49 & 7),
	}
	if arch == SM100 {
		d.Version = uint8(v >> 46 & 3)
		d.LBOMode = uint8(v >> 52 & 1)
		d.LayoutType = uint8(v >> 61 & 7)
	} else {
		d.LayoutType = uint8(v >> 62 & 3)
	}
	return d
}

// layoutTypeCode is the descriptor's layout_type for a swizzle kind.
func layoutTypeCode(arch Arch, k Kind) uint8 {
	if arch == SM100 {
		return [...]uint8{0, 6, 4, 2, 1}[k]
	}
	return [...]uint8{0, 3, 2, 1, 0}[k]
}

// LayoutTypeName is CuTe's name of a layout_type code: B128 or SWIZZLE_128B, ...
func LayoutTypeName(arch Arch, code uint8) string {
	if arch == SM100 {
		switch code {
		case 0:
			return "SWIZZLE_NONE"
		case 1:
			return "SWIZZLE_128B_BASE32B"
		case 2:
			return "SWIZZLE_128B"
		case 4:
			return "SWIZZLE_64B"
		case 6:
			return "SWIZZLE_32B"
		}
		return fmt.Sprintf("reserved (%d)", code)
	}
	return [...]string{"INTERLEAVE", "B128", "B64", "B32"}[code&3]
}

// Kind is the swizzle kind the descriptor's layout_type names; ok is false
// for a reserved SM100 code.
func (d Descriptor) Kind() (Kind, bool) {
	for k := Interleave; k <= SW128Base32B; k++ {
		if (d.Arch == SM100 || k != SW128Base32B) && layoutTypeCode(d.Arch, k) == d.LayoutType {
			return k, true
		}
	}
	return 0, false
}

// Field is one descriptor field, decoded.
type Field struct {
	Name    string // CuTe's bit-field name: start_address, leading_byte_offset, ...
	Lo, Hi  int    // bit range [Lo, Hi) in the 64-bit value
	Raw     uint64 // the field's bits
	Meaning string // the value in words, with the byte count it stands for
}

// Fields lists the descriptor's fields in bit order, each decoded.
func (d Descriptor) Fields() []Field {
	b16 := func(v uint16) string { return fmt.Sprintf("%d x 16 B = %d bytes", v, int(v)*16) }
	fs := []Field{
		{"start_address", 0, 14, uint64(d.StartAddress), fmt.Sprintf("shared-memory byte address 0x%x", int(d.StartAddress)*16)},
		{"leading_byte_offset", 16, 30, uint64(d.LeadingOffset), b16(d.LeadingOffset)},
		{"stride_byte_offset", 32, 46, uint64(d.StrideOffset), b16(d.StrideOffset)},
	}
	if d.Arch == SM100 {
		fs = append(fs, Field{"version", 46, 48, uint64(d.Version), versionMeaning(d.Version)})
	}
	fs = append(fs, Field{"base_offset", 49, 52, uint64(d.BaseOffset), fmt.Sprintf("swizzle pattern phase %d", d.BaseOffset)})
	if d.Arch == SM100 {
		mode := "legacy: LBO is a byte offset"
		if d.LBOMode == 1 {
			mode = "absolute"
		}
		fs = append(fs, Field{"lbo_mode", 52, 53, uint64(d.LBOMode), mode})
		fs = append(fs, Field{"layout_type", 61, 64, uint64(d.LayoutType), LayoutTypeName(d.Arch, d.LayoutType)})
	} else {
		fs = append(fs, Field{"layout_type", 62, 64, uint64(d.LayoutType), LayoutTypeName(d.Arch, d.LayoutType)})
	}
	return fs
}

func versionMeaning(v uint8) string {
	if v == 1 {
		return "1 (Blackwell)"
	}
	return fmt.Sprintf("%d (Blackwell needs 1)", v)
}

// String is the 64-bit value and every field decoded, one per line, in the
// order CuTe's print(GmmaDescriptor) uses.
func (d Descriptor) String() string {
	var b strings.Builder
	name := "GmmaDescriptor"
	if d.Arch == SM100 {
		name = "UMMA::SmemDescriptor"
	}
	fmt.Fprintf(&b, "%s: 0x%016x\n", name, d.Encode())
	for _, f := range d.Fields() {
		fmt.Fprintf(&b, "  %-20s [%2d,%2d) = %d: %s\n", f.Name, f.Lo, f.Hi, f.Raw, f.Meaning)
	}
	return b.String()
}
