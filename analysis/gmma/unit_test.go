package gmma

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// TestEncodeDecode is the law Decode(a, d.Encode()) == d over random
// in-range descriptors, and Decode(a, v).Encode() == v on a's field bits.
func TestEncodeDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	masks := map[Arch]uint64{
		SM90:  0x3fff | 0x3fff<<16 | 0x3fff<<32 | 7<<49 | 3<<62,
		SM100: 0x3fff | 0x3fff<<16 | 0x3fff<<32 | 3<<46 | 7<<49 | 1<<52 | 7<<61,
	}
	for range 10000 {
		for _, a := range []Arch{SM90, SM100} {
			d := Descriptor{Arch: a, StartAddress: uint16(rng.IntN(1 << 14)), LeadingOffset: uint16(rng.IntN(1 << 14)),
				StrideOffset: uint16(rng.IntN(1 << 14)), BaseOffset: uint8(rng.IntN(8))}
			if a == SM100 {
				d.Version, d.LBOMode, d.LayoutType = uint8(rng.IntN(4)), uint8(rng.IntN(2)), uint8(rng.IntN(8))
			} else {
				d.LayoutType = uint8(rng.IntN(4))
			}
			if got := Decode(a, d.Encode()); got != d {
				t.Fatalf("Decode(Encode(%+v)) = %+v", d, got)
			}
			v := rng.Uint64()
			if got := Decode(a, v).Encode(); got != v&masks[a] {
				t.Fatalf("%v: Decode(0x%x).Encode() = 0x%x, want 0x%x", a, v, got, v&masks[a])
			}
		}
	}
}

// TestFieldPacking pins each field's bit position against hand-packed values.
func TestFieldPacking(t *testing.T) {
	cases := []struct {
		d    Descriptor
		want uint64
	}{
		{Descriptor{Arch: SM90, StartAddress: 1}, 1},
		{Descriptor{Arch: SM90, LeadingOffset: 1}, 1 << 16},
		{Descriptor{Arch: SM90, StrideOffset: 1}, 1 << 32},
		{Descriptor{Arch: SM90, BaseOffset: 1}, 1 << 49},
		{Descriptor{Arch: SM90, LayoutType: 1}, 1 << 62},
		{Descriptor{Arch: SM100, Version: 1}, 1 << 46},
		{Descriptor{Arch: SM100, LBOMode: 1}, 1 << 52},
		{Descriptor{Arch: SM100, LayoutType: 1}, 1 << 61},
		{Descriptor{Arch: SM90, StartAddress: 0xffff}, 0x3fff}, // truncated as a 14-bit field is
	}
	for _, c := range cases {
		if got := c.d.Encode(); got != c.want {
			t.Errorf("%+v: 0x%x, want 0x%x", c.d, got, c.want)
		}
	}
}

func TestDescriptorText(t *testing.T) {
	d := Descriptor{Arch: SM90, StartAddress: 0x300, LeadingOffset: 1, StrideOffset: 64, LayoutType: 1}
	s := d.String()
	for _, want := range []string{"GmmaDescriptor: 0x4000004000010300", "start_address", "0x3000", "64 x 16 B = 1024 bytes", "B128"} {
		if !strings.Contains(s, want) {
			t.Errorf("text lacks %q:\n%s", want, s)
		}
	}
	u := Descriptor{Arch: SM100, Version: 1, LayoutType: 2}
	for _, want := range []string{"UMMA::SmemDescriptor", "version", "1 (Blackwell)", "lbo_mode", "SWIZZLE_128B"} {
		if !strings.Contains(u.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, u.String())
		}
	}
	if n := LayoutTypeName(SM100, 3); !strings.Contains(n, "reserved") {
		t.Errorf("code 3 on SM100: %s", n)
	}
	if _, ok := (Descriptor{Arch: SM100, LayoutType: 5}).Kind(); ok {
		t.Error("layout type 5 on SM100 is reserved")
	}
	if v := versionMeaning(0); !strings.Contains(v, "needs 1") {
		t.Error(v)
	}
}

// TestSwizzleUnits is the law ByteSwizzle(ElementSwizzle(sw, b), b) == sw for the canonical swizzles.
func TestSwizzleUnits(t *testing.T) {
	for k := SW32; k <= SW128Base32B; k++ {
		for bits := 1; bits <= 128; bits *= 2 {
			e, err := ElementSwizzle(k.ByteSwizzle(), bits)
			if err != nil {
				t.Fatalf("%v %db: %v", k, bits, err)
			}
			b, err := ByteSwizzle(e, bits)
			if err != nil || b != k.ByteSwizzle() {
				t.Errorf("%v %db: element %v back to bytes %v, %v", k, bits, e, b, err)
			}
		}
	}
	if _, err := ByteSwizzle(layout.Swizzle{B: 1, M: 0, S: 3}, 4); err == nil {
		t.Error("a swizzle inside a byte has no byte form")
	}
	for _, bits := range []int{0, 3, 6, 256} {
		if _, err := ElementSwizzle(layout.Swizzle{B: 3, M: 4, S: 3}, bits); err == nil {
			t.Errorf("%d bits accepted", bits)
		}
		if _, err := ByteSwizzle(layout.Swizzle{B: 3, M: 4, S: 3}, bits); err == nil {
			t.Errorf("%d bits accepted", bits)
		}
	}
}

func TestAtoms(t *testing.T) {
	if n := len(Atoms(SM90, 16)); n != 8 {
		t.Errorf("SM90 has %d atoms, want 8", n)
	}
	if n := len(Atoms(SM100, 16)); n != 9 {
		t.Errorf("SM100 has %d atoms, want 9", n)
	}
	if _, err := (Atom{Major: MajorK, Kind: SW128Base32B, Bits: 16}).Layout(); err == nil {
		t.Error("K-major SW128_32B accepted")
	}
	if _, err := (Atom{Major: MajorK, Kind: SW128, Bits: 12}).Layout(); err == nil {
		t.Error("12-bit atom accepted")
	}
	if s := Kind(9).String(); !strings.Contains(s, "9") {
		t.Error(s)
	}
	if got := (Atom{Major: MajorK, Kind: SW128, Bits: 16}).Name(); got != "Layout_K_SW128_Atom<16b>" {
		t.Error(got)
	}
}

func sw128(l layout.Layout) layout.Composed {
	return layout.Composed{Outer: layout.Swizzle{B: 3, M: 3, S: 3}, Offset: layout.Int(0), Inner: l}
}

func mustLayout(t *testing.T, s string) layout.Layout {
	t.Helper()
	l, err := parseLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestMakeDescErrors covers the checks CuTe does not make at compile time
// (addresses, field widths, values) and the inputs it cannot take.
func TestMakeDescErrors(t *testing.T) {
	good := sw128(mustLayout(t, "(64,16):(64,1)"))
	cases := []struct {
		name string
		op   Operand
		cond string
		text string
	}{
		{"element width", Operand{Smem: good, Bits: 12}, CondElementBits, "12 bits"},
		{"not a layout", Operand{Smem: layout.Int(3), Bits: 16}, CondValue, "not a layout"},
		{"no layout", Operand{Bits: 16}, CondValue, "no shared-memory layout"},
		{"tuple offset", Operand{Smem: layout.Composed{Outer: layout.Swizzle{B: 3, M: 3, S: 3}, Offset: layout.Ints(1, 2), Inner: good.Inner}, Bits: 16}, CondValue, "offset"},
		{"misaligned base", Operand{Smem: good, Bits: 16, Base: 512}, CondAddress, "1024-byte boundary"},
		{"unaligned start", Operand{Smem: layout.Composed{Outer: good.Outer, Offset: layout.Int(4), Inner: good.Inner}, Bits: 16}, CondAddress, "16-byte boundary"},
		{"address past the field", Operand{Smem: good, Bits: 16, Base: 1 << 18}, CondAddress, "14-bit"},
		{"SBO past the field", Operand{Smem: layout.Box(mustLayout(t, "((8,8),(8,2)):((8,131072),(1,64))")), Bits: 16}, CondFieldRange, "stride_byte_offset"},
		{"negative SBO", Operand{Smem: layout.Box(mustLayout(t, "((8,8),(8,2)):((8,-64),(1,64))")), Bits: 16}, CondFieldRange, "stride_byte_offset"},
	}
	for _, c := range cases {
		_, err := MakeDesc(SM90, MajorK, c.op)
		var nc *NotCanonical
		if !errors.As(err, &nc) || nc.Cond != c.cond || !strings.Contains(nc.Error(), c.text) {
			t.Errorf("%s: %v, want %s mentioning %q", c.name, err, c.cond, c.text)
		}
	}
}

func TestBlockErrors(t *testing.T) {
	if _, err := Block(Operand{Smem: layout.Int(1), Bits: 16}, 8, 8, 0, 0); err == nil {
		t.Error("block of a non-layout")
	}
	if _, err := Block(Operand{Smem: layout.Box(mustLayout(t, "(64,16):(16,1)")), Bits: 16}, 8, 8, 0, 0); err != nil {
		t.Error(err)
	}
	if _, err := Block(Operand{Smem: layout.Box(mustLayout(t, "(64,16):(16,1)")), Bits: 16}, 0, 8, 0, 0); err == nil {
		t.Error("zero-extent block")
	}
}

func TestRecognizeErrors(t *testing.T) {
	cases := []struct {
		name string
		op   Operand
		text string
	}{
		{"bits", Operand{Smem: layout.Box(mustLayout(t, "(64,16):(16,1)")), Bits: 5}, "5 bits"},
		{"not a layout", Operand{Smem: layout.Int(4), Bits: 16}, "not a layout"},
		{"rank", Operand{Smem: layout.Box(mustLayout(t, "(64,16,2):(16,1,1024)")), Bits: 16}, "rank 3"},
		{"byte swizzle inside a byte", Operand{Smem: layout.Composed{Outer: layout.Swizzle{B: 1, M: 0, S: 1}, Offset: layout.Int(0), Inner: mustLayout(t, "(64,64):(64,1)")}, Bits: 4}, "within a byte"},
		{"unsupported swizzle", Operand{Smem: layout.Composed{Outer: layout.Swizzle{B: 3, M: 2, S: 3}, Offset: layout.Int(0), Inner: mustLayout(t, "(64,64):(64,1)")}, Bits: 16}, "Swizzle<3,3,3>"},
		{"sizes", Operand{Smem: sw128(mustLayout(t, "(60,64):(64,1)")), Bits: 16}, "does not divide"},
		{"padded", Operand{Smem: sw128(mustLayout(t, "(64,64):(72,1)")), Bits: 16}, "at (MN,K) = (1,0) the layout gives offset 72"},
		{"too large", Operand{Smem: layout.Box(mustLayout(t, "(4096,2048):(2048,1)")), Bits: 16}, "more than"},
	}
	for _, c := range cases {
		_, err := Recognize(SM90, c.op)
		if err == nil || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %v, want an error mentioning %q", c.name, err, c.text)
		}
	}
	if _, err := TileToShape(Atom{Major: MajorK, Kind: SW128, Bits: 16}, 60, 64, ColMajor); err == nil {
		t.Error("tile_to_shape to a shape the atom does not divide")
	}
}

func TestAnalyze(t *testing.T) {
	// A tiling: K-major SW128 half, 128 x 64.
	tv, err := TileToShape(Atom{Major: MajorK, Kind: SW128, Bits: 16}, 128, 64, ColMajor)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(SM90, Operand{Smem: tv, Bits: 16})
	if err != nil {
		t.Fatal(err)
	}
	if r.Tiling == nil || r.Desc.Encode() != 0x4000004000010000 || r.BlockShape != [2]int64{128, 16} {
		t.Errorf("report:\n%v", r)
	}
	if s := r.String(); !strings.Contains(s, "Layout_K_SW128_Atom<16b>") || !strings.Contains(s, "0x4000004000010000") {
		t.Errorf("text:\n%s", s)
	}
	// Not a tiling, still canonical: two SW128 atoms along MN, hand-written.
	hand := sw128(mustLayout(t, "((64,2),16):((1,2048),64)"))
	r, err = Analyze(SM90, Operand{Smem: hand, Bits: 16})
	if err != nil || r.Tiling != nil || r.Major != MajorMN || r.Desc.LeadingOffset != 256 {
		t.Errorf("hand-written MN layout: %v\n%v", err, r)
	}
	if !strings.Contains(r.String(), "not a tile_to_shape") {
		t.Errorf("text:\n%s", r.String())
	}
	// Errors.
	bad := []struct {
		name string
		op   Operand
		cond string
	}{
		{"bits", Operand{Smem: hand, Bits: 7}, CondElementBits},
		{"value", Operand{Smem: layout.Int(1), Bits: 16}, CondValue},
		{"rank", Operand{Smem: layout.Box(mustLayout(t, "(64,16,2):(16,1,1024)")), Bits: 16}, CondRank},
		{"K too short", Operand{Smem: sw128(mustLayout(t, "(64,8):(64,1)")), Bits: 16}, CondKSizeK},
		{"padded rows", Operand{Smem: sw128(mustLayout(t, "(64,64):(72,1)")), Bits: 16}, CondStride},
	}
	for _, c := range bad {
		_, err := Analyze(SM90, c.op)
		var nc *NotCanonical
		if !errors.As(err, &nc) || nc.Cond != c.cond {
			t.Errorf("%s: %v, want %s", c.name, err, c.cond)
		}
	}
}

func TestCanonicalLayoutErrors(t *testing.T) {
	if _, err := CanonicalLayout(Descriptor{Arch: SM100, LayoutType: 3}, MajorK, 16, 64, 16); err == nil {
		t.Error("reserved layout type accepted")
	}
	if _, err := CanonicalLayout(Descriptor{Arch: SM90}, MajorK, 3, 64, 16); err == nil {
		t.Error("3-bit elements accepted")
	}
}

func TestNames(t *testing.T) {
	for _, s := range []string{MajorK.String(), MajorMN.String(), SM90.String(), SM100.String(), ColMajor.String(), RowMajor.String()} {
		if s == "" {
			t.Error("empty name")
		}
	}
	tl := Tiling{Atom: Atom{Major: MajorMN, Kind: SW64, Bits: 8}, Shape: [2]int64{128, 64}, Reps: [2]int64{2, 8}, Order: RowMajor}
	if s := tl.String(); !strings.Contains(s, "Layout_MN_SW64_Atom<8b>") || !strings.Contains(s, "2 x 8 atoms") {
		t.Error(s)
	}
}
