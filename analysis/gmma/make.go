package gmma

import (
	"errors"
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// Operand is a shared-memory tile as an MMA reads it: Smem maps an (MN, K)
// coordinate to an element offset (a layout.Layout, or a layout.Composed
// whose swizzle acts on element offsets and whose offset is where the tile
// starts), for elements of Bits bits, in a buffer whose element offset 0
// lies at shared-memory byte address Base.
type Operand struct {
	Smem layout.Value
	Bits int
	Base int64
}

// Conditions a layout can fail, named by the text of the CuTe check they mirror.
const (
	CondRank        = "can only be constructed on rank-2 tensors"
	CondSwizzle     = "Unsupported layout swizzle"
	CondBase32BK    = "SWIZZLE_128B_BASE32B is invalid for Major-K"
	CondMNSizeK     = "Expected MN-size multiple of 8"
	CondKSizeK      = "Expected K-size 2 for dense or 4 for sparse (in units of uint128_t)"
	CondKSizeMN     = "Expected K-size 256/sizeof_bits<T> for dense or (128|512)/sizeof_bits<T> for sparse"
	CondProfile     = "Expected profile failure"
	CondStride      = "Expected stride failure"
	CondDivisible   = "Divisibility condition"
	CondAddress     = "start address"
	CondFieldRange  = "field out of range"
	CondElementBits = "element width"
	CondValue       = "not a shared-memory layout"
)

// NotCanonical is a layout a descriptor cannot describe: which check fails
// (Cond, CuTe's name for it), on which mode of the (MN, K) layout (Mode: 0
// for M/N, 1 for K, -1 for the layout as a whole), and why, in the
// layout's own numbers (Detail).
type NotCanonical struct {
	Arch   Arch
	Major  Major
	Mode   int
	Cond   string
	Detail string
}

func (e *NotCanonical) Error() string {
	what := "GMMA"
	if e.Arch == SM100 {
		what = "UMMA"
	}
	return fmt.Sprintf("not a canonical %s_%v layout: %s (%s)", what, e.Major, e.Detail, e.Cond)
}

// parts splits a shared-memory layout into its element swizzle, offset and inner layout.
func parts(v layout.Value) (layout.Swizzle, int64, layout.Layout, error) {
	switch s := v.(type) {
	case *layout.Layout:
		return layout.Swizzle{}, 0, *s, nil
	case layout.Composed:
		off := s.Offset
		if off.IsTuple() || off.IsUnknown() || off.IsBasis() {
			return layout.Swizzle{}, 0, layout.Layout{}, fmt.Errorf("the offset %v of %v is not an integer known before run time", off, s)
		}
		return s.Outer, off.Value(), s.Inner, nil
	case nil:
		return layout.Swizzle{}, 0, layout.Layout{}, errors.New("no shared-memory layout")
	}
	return layout.Swizzle{}, 0, layout.Layout{}, fmt.Errorf("%v is not a layout or a swizzled layout", v)
}

// modeName names mode i of an (MN, K) operand.
func modeName(i int) string {
	if i == 0 {
		return "mode 0 (M/N)"
	}
	return "mode 1 (K)"
}

// MakeDesc is CuTe's make_gmma_desc<major> (arch SM90) or make_umma_desc<major>
// (SM100) of one instruction's block: the descriptor of op.Smem, which must
// be rank 2, (MN, K). Reading the layout in 16-byte units (T = 128/Bits
// elements each), with W the swizzle kind's row width in 16-byte units, the
// layout divided by (W, 8) (MN-major) or (8, 2) (K-major) must be
//
//	MN-major, swizzled:  ((W,n),(8,k)):((1,LBO),(W,SBO))
//	MN-major, INTER:     ((1,n),(8,k)):((x,SBO),(1,LBO))
//	K-major, swizzled:   ((8,n),(2,1)):((W,SBO),(1,x))
//	K-major, INTER:      ((8,n),(2,1)):((1,SBO),(LBO,x))
//
// (SM100: K divided by 4 for SW128_32B, and no check of the K extent) and
// the descriptor holds LBO, SBO, the start address >> 4 and the swizzle
// kind; CuTe writes base_offset 0 (and on SM100 version 1, lbo_mode 0).
// Law: for a dense block (32 bytes of K), CanonicalLayout(d, major, Bits,
// MN, K), evaluated at every coordinate of the block, equals the block's
// offset less its start. (For a sparse K-major block of 64 bytes CuTe
// checks only the first 32: where the other 32 lie, no field says.)
// A layout CuTe rejects is a *NotCanonical error; so are three that CuTe
// lets through to a wrong descriptor: a start address off a 16-byte
// boundary or past the 14-bit field, a buffer off the swizzle's period, and
// an LBO or SBO outside its 14-bit field (CuTe keeps the low bits).
func MakeDesc(arch Arch, major Major, op Operand) (Descriptor, error) {
	fail := func(mode int, cond, format string, args ...any) (Descriptor, error) {
		return Descriptor{}, &NotCanonical{Arch: arch, Major: major, Mode: mode, Cond: cond, Detail: fmt.Sprintf(format, args...)}
	}
	if err := checkBits(op.Bits); err != nil {
		return fail(-1, CondElementBits, "%v", err)
	}
	sw, off, inner, err := parts(op.Smem)
	if err != nil {
		return fail(-1, CondValue, "%v", err)
	}
	bsw, err := ByteSwizzle(sw, op.Bits)
	if err != nil {
		return fail(-1, CondSwizzle, "%v", err)
	}
	kind, err := kindOfByteSwizzle(arch, bsw)
	if err != nil {
		return fail(-1, CondSwizzle, "the swizzle %v on %d-bit elements: %v", sw, op.Bits, err)
	}
	if kind == SW128Base32B && major == MajorK {
		return fail(-1, CondBase32BK, "the swizzle %v on %d-bit elements is SW128_32B (Swizzle<2,5,2> on bytes), which UMMA reads only MN-major", sw, op.Bits)
	}
	if inner.Rank() != 2 {
		return fail(-1, CondRank, "the layout %v has rank %d; a descriptor describes one (MN, K) block", inner, inner.Rank())
	}
	start, err := startAddress(op, off, kind)
	if err != nil {
		return fail(-1, CondAddress, "%v", err)
	}
	t := 128 / int64(op.Bits)
	u, err := layout.Upcast(inner, t)
	if err != nil {
		return fail(-1, CondDivisible, "%s", explainUpcast(inner, t, op.Bits))
	}
	w := kind.Width()
	g := geometry{arch: arch, major: major, kind: kind, bits: op.Bits, t: t, inner: inner, u: u}

	sizes := [2]int64{}
	for i := range 2 {
		m, _ := u.Get(i)
		if sizes[i], err = m.Size(); err != nil {
			return fail(i, CondValue, "%s has no known size: %v", modeName(i), err)
		}
	}
	var tiler layout.Tiler
	if major == MajorMN {
		if arch == SM90 {
			dense, a, b := 256/int64(op.Bits), 128/int64(op.Bits), 512/int64(op.Bits)
			if sizes[1] != dense && sizes[1] != a && sizes[1] != b {
				return fail(1, CondKSizeMN, "%s spans %d elements; one dense GMMA reads 32 bytes of K per MN element, %d elements of %d bits (sparse: %d or %d)%s",
					modeName(1), sizes[1], dense, op.Bits, a, b, g.majorHint())
			}
			tiler = tiler2(layout.Make(layout.Int(w), layout.Int(1)), layout.Make(layout.Int(8), layout.Int(1)))
		} else {
			katom := int64(8)
			if kind == SW128Base32B {
				katom = 4
			}
			tiler = tiler2(compact(w), compact(katom))
		}
	} else {
		if sizes[0]%8 != 0 {
			return fail(0, CondMNSizeK, "%s has %d rows of 16-byte chunks; a K-major descriptor reads rows in core matrices of 8, so it must be a multiple of 8%s",
				modeName(0), sizes[0], g.majorHint())
		}
		if sizes[1] != 2 && sizes[1] != 4 {
			return fail(1, CondKSizeK, "%s spans %d x 16 bytes (%s); one dense instruction reads 32 bytes of K per row, %d elements of %d bits (sparse: 64 bytes)%s",
				modeName(1), sizes[1], g.elems(sizes[1]), 2*t, op.Bits, g.majorHint())
		}
		tiler = tiler2(layout.Make(layout.Int(8), layout.Int(1)), layout.Make(layout.Int(2), layout.Int(1)))
	}
	canon, err := layout.LogicalDivide(&u, tiler)
	if err != nil {
		return fail(-1, CondProfile, "the layout in 16-byte units, %v, cannot be divided by %v: %v", u, tiler, err)
	}
	if mode, ok := g.profile(*canon); !ok {
		return fail(mode, CondProfile, "%s", g.explainProfile(*canon, mode, tiler))
	}
	s := func(i, j int) int64 {
		m, _ := canon.Stride.At(i).At(j), 0
		return m.Value()
	}
	s00, s01, s10, s11 := s(0, 0), s(0, 1), s(1, 0), s(1, 1)
	var lbo, sbo int64
	if major == MajorMN {
		if kind != Interleave && s00 != 1 {
			return fail(0, CondStride, "%s: a %v atom keeps %d x 16 bytes (%d elements) contiguous along M/N, but the layout's 16-byte chunks along M/N are %d bytes apart%s",
				modeName(0), kind, w, w*t, s00*16, g.majorHint())
		}
		if s10 != w {
			return fail(1, CondStride, "%s: consecutive K %s must be %d bytes apart (one %v row, %d x 16 bytes), but they are %d bytes apart (%s)%s",
				modeName(1), "columns", w*16, kind, w, s10*16, g.strideText(1), g.majorHint())
		}
		if kind == Interleave {
			sbo, lbo = s01, s11
		} else {
			sbo, lbo = s11, s01
		}
	} else {
		if s00 != w {
			return fail(0, CondStride, "%s: consecutive rows must be %d bytes apart (one %v row, %d x 16 bytes), but they are %d bytes apart (%s)%s",
				modeName(0), w*16, kind, w, s00*16, g.strideText(0), g.majorHint())
		}
		if kind != Interleave && s10 != 1 {
			return fail(1, CondStride, "%s: under a %v swizzle the two 16-byte halves of a row's 32 bytes of K must be adjacent, but they are %d bytes apart (%s)%s",
				modeName(1), kind, s10*16, g.strideText(1), g.majorHint())
		}
		sbo, lbo = s01, s10
	}
	for _, f := range []struct {
		name string
		v    int64
	}{{"leading_byte_offset (LBO)", lbo}, {"stride_byte_offset (SBO)", sbo}} {
		if f.v < 0 || f.v > field14 {
			return fail(-1, CondFieldRange, "%s would be %d x 16 bytes = %d bytes, outside the 14-bit field's 0..%d x 16 bytes", f.name, f.v, f.v*16, field14)
		}
	}
	d := Descriptor{Arch: arch, StartAddress: uint16(start >> 4), LeadingOffset: uint16(lbo), StrideOffset: uint16(sbo),
		LayoutType: layoutTypeCode(arch, kind)}
	if arch == SM100 {
		d.Version = 1
	}
	return d, nil
}

func tiler2(a, b layout.Layout) layout.Tiler {
	return layout.Tiler{Modes: []layout.TilerMode{{Layout: a}, {Layout: b}}}
}

// compact is CuTe's Layout<Int<n>>: n:1, and 1:0 for n == 1.
func compact(n int64) layout.Layout {
	if n == 1 {
		return layout.Make(layout.Int(1), layout.Int(0))
	}
	return layout.Make(layout.Int(n), layout.Int(1))
}

// startAddress is the byte address of the block's first element, which the
// descriptor holds >> 4. The buffer must start on the swizzle's period, the
// only place the element-offset swizzle and the hardware's byte-address one agree.
func startAddress(op Operand, off int64, kind Kind) (int64, error) {
	bsw := kind.ByteSwizzle()
	period := int64(16)
	if kind != Interleave {
		period = int64(1) << (bsw.M + bsw.B + bsw.S)
	}
	if op.Base < 0 || op.Base%period != 0 {
		return 0, fmt.Errorf("the buffer starts at byte address %d (0x%x), not on a %d-byte boundary: the %v swizzle repeats every %d bytes of address, so only there does the layout's swizzle match the hardware's", op.Base, op.Base, period, kind, period)
	}
	bits := off * int64(op.Bits)
	if bits%128 != 0 {
		return 0, fmt.Errorf("the block starts at element offset %d (%d bits), not on a 16-byte boundary; the descriptor's start address drops the 4 low bits", off, bits)
	}
	addr := op.Base + bits/8
	if addr < 0 || addr>>4 > field14 {
		return 0, fmt.Errorf("the block starts at byte address %d, outside the 14-bit field's 0..%d x 16 bytes", addr, field14)
	}
	return addr, nil
}

// geometry carries what the explanations need: the layout in elements and in 16-byte units.
type geometry struct {
	arch  Arch
	major Major
	kind  Kind
	bits  int
	t     int64 // elements per 16 bytes
	inner layout.Layout
	u     layout.Layout
}

func (g geometry) elems(n16 int64) string {
	return fmt.Sprintf("%d elements of %d bits", n16*g.t, g.bits)
}

// strideText says what stride mode i has in the user's elements.
func (g geometry) strideText(i int) string {
	m, err := g.inner.Get(i)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("the layout's %s is %v in elements", modeName(i), m)
}

// majorHint suggests the other major-ness when the layout's unit stride is in the other mode.
func (g geometry) majorHint() string {
	unit := -1
	for i := range 2 {
		m, _ := g.inner.Get(i)
		if hasUnitStride(m.Stride) {
			unit = i
			break
		}
	}
	switch {
	case g.major == MajorK && unit == 0:
		return "; the layout is contiguous along M/N (mode 0 has stride 1): it looks MN-major"
	case g.major == MajorMN && unit == 1:
		return "; the layout is contiguous along K (mode 1 has stride 1): it looks K-major"
	}
	return ""
}

func hasUnitStride(t layout.IntTuple) bool {
	if t.IsTuple() {
		for _, e := range t.Elems() {
			if hasUnitStride(e) {
				return true
			}
		}
		return false
	}
	return !t.IsBasis() && !t.IsUnknown() && t.Value() == 1
}

// profile reports whether each divided mode is a (tile, rest) pair of two
// plain integers; if not, which mode is not.
func (g geometry) profile(canon layout.Layout) (int, bool) {
	if canon.Rank() != 2 {
		return -1, false
	}
	for i := range 2 {
		s := canon.Shape.At(i)
		if !s.IsTuple() || s.Len() != 2 || s.At(0).IsTuple() || s.At(1).IsTuple() {
			return i, false
		}
		d := canon.Stride.At(i)
		for j := range 2 {
			if d.At(j).IsBasis() || d.At(j).IsUnknown() || s.At(j).IsUnknown() {
				return i, false
			}
		}
	}
	return -1, true
}

func (g geometry) explainProfile(canon layout.Layout, mode int, tiler layout.Tiler) string {
	if mode < 0 {
		return fmt.Sprintf("the layout in 16-byte units, %v, divided by %v is %v, not two (tile, rest) modes", g.u, tiler, canon)
	}
	part := layout.Make(canon.Shape.At(mode), canon.Stride.At(mode))
	tile := tiler.Modes[mode].Layout
	rest := layout.Make(part.Shape.At(part.Shape.Len()-1), part.Stride.At(part.Stride.Len()-1))
	var what string
	switch {
	case g.major == MajorK && mode == 0:
		what = "groups of 8 rows (SBO)"
	case g.major == MajorK:
		what = "16-byte chunks along K (LBO)"
	case mode == 0 && g.kind == Interleave:
		what = "16-byte columns along M/N (SBO)"
	case mode == 0:
		what = "atoms along M/N (LBO)"
	case g.kind == Interleave:
		what = "groups of 8 along K (LBO)"
	default:
		what = "groups of 8 along K (SBO)"
	}
	return fmt.Sprintf("%s, read in 16-byte units, is %v; past its first %v it continues as %v, strides %v elements = %v bytes, where the descriptor has one stride for the %s",
		modeName(mode), part, tile.Shape, rest, scaleStrides(rest.Stride, g.t), scaleStrides(rest.Stride, 16), what)
}

func scaleStrides(t layout.IntTuple, k int64) layout.IntTuple {
	if t.IsTuple() {
		out := make([]layout.IntTuple, t.Len())
		for i, e := range t.Elems() {
			out[i] = scaleStrides(e, k)
		}
		return layout.Tup(out...)
	}
	if t.IsBasis() || t.IsUnknown() {
		return t
	}
	return layout.Int(t.Value() * k)
}

// explainUpcast names the mode whose stride is not a whole number of 16-byte units.
func explainUpcast(inner layout.Layout, t int64, bits int) string {
	for i := range inner.Rank() {
		m, _ := inner.Get(i)
		for _, d := range layout.Flatten(m.Stride).Elems() {
			v := d.Value()
			if d.IsBasis() || d.IsUnknown() || v == 0 {
				continue
			}
			a := v
			if a < 0 {
				a = -a
			}
			if a%t != 0 && t%a != 0 {
				return fmt.Sprintf("%s has stride %d elements (%d bits), neither a multiple of 16 bytes nor a divisor of them (%d elements of %d bits): the layout cannot be read in 16-byte chunks", modeName(i), v, v*int64(bits), t, bits)
			}
		}
	}
	return fmt.Sprintf("the layout %v cannot be read in 16-byte chunks (%d elements of %d bits)", inner, t, bits)
}
