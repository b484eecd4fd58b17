package layout

import "math/bits"

// Swizzle<B,M,S> as a function on offsets.
//
// With bit_msk = 2^B - 1, the Y mask is bit_msk << (M + max(0,S)) and the Z
// mask is bit_msk << (M - min(0,S)); the swizzle XORs the Y bits onto the Z
// bits: y = x ^ ((x & Ymask) >> S), shifting left when S is negative.
//
// CuTe holds the masks as C++ int constants, so a swizzle whose masks reach
// past bit 31 does not compile; we reject it the same way (swizzleMaxBits).

// Conditions of CuTe's Swizzle and make_swizzle static_asserts, with CuTe's own text.
const (
	CondSwizzleShift   = "abs(SShift) must be more than BBits."
	CondSwizzleBase    = "MBase must be positive."
	CondSwizzleBits    = "BBits must be positive."
	CondSwizzleWidth   = "swizzle masks must fit CuTe's 32-bit int"
	CondSwizzleYZBits  = "Number of bits in Y and Z don't match"
	CondSwizzleMasks   = "Something went wrong."
	CondSwizzleMerge   = "Can only merge swizzles of the same shift."
	CondPowerOfTwo     = "N must be a power of two"
	CondSwizzleOperand = "swizzle identifier must be a 32-bit unsigned constant"
)

// swizzleMaxBits is the width of the C++ int CuTe keeps the masks in.
const swizzleMaxBits = 32

// Validate reports whether s is a Swizzle CuTe can instantiate: B >= 0,
// M >= 0, |S| >= B (so the Y and Z masks never overlap), and both masks
// within a 32-bit int. op names the operation that needed s.
func (s Swizzle) Validate(op string) error {
	switch {
	case s.B < 0:
		return Errorf(op, CondSwizzleBits, "%v has B = %d", s, s.B)
	case s.M < 0:
		return Errorf(op, CondSwizzleBase, "%v has M = %d", s, s.M)
	case absInt(s.S) < s.B:
		return Errorf(op, CondSwizzleShift, "%v shifts by |S| = %d, fewer than its B = %d bits, so the Y and Z masks overlap", s, absInt(s.S), s.B)
	}
	// Both shifts must stay below the int's width, and the shifted mask inside it.
	if top := s.M + absInt(s.S); top >= swizzleMaxBits || top+s.B > swizzleMaxBits {
		return Errorf(op, CondSwizzleWidth, "%v needs bit %d", s, top+s.B-1)
	}
	return nil
}

// YMask is the mask of the bits that are read (the YYY bits):
// (2^B-1) << (M+max(0,S)); 0 for a swizzle that does not Validate.
func (s Swizzle) YMask() int64 { return s.mask(s.M + max(0, s.S)) }

// ZMask is the mask of the bits that are flipped (the ZZZ bits):
// (2^B-1) << (M-min(0,S)); 0 for a swizzle that does not Validate.
func (s Swizzle) ZMask() int64 { return s.mask(s.M - min(0, s.S)) }

func (s Swizzle) mask(shift int) int64 {
	if s.Validate("swizzle") != nil {
		return 0
	}
	return (int64(1)<<s.B - 1) << shift
}

// Bits is the number of low bits the swizzle can change or read: M+B+|S|.
// Every aligned block of 2^Bits offsets is mapped onto itself.
func (s Swizzle) Bits() int { return s.M + s.B + absInt(s.S) }

// Size is the length 2^(M+B+|S|) of the aligned blocks s permutes: s is a
// bijection of [k*Size, (k+1)*Size) onto itself for every k. (CuTe's
// make_layout(Swizzle) instead uses M+B+|S| itself as a domain size; see MakeSwizzleLayout.)
// A swizzle that does not Validate has size 0.
func (s Swizzle) Size() int64 {
	if s.Validate("swizzle") != nil {
		return 0
	}
	return int64(1) << s.Bits()
}

// Apply is CuTe's Swizzle<B,M,S>{}(x): x ^ ((x & YMask) >> S), the shift
// going left for negative S. Law: Apply is an involution, Apply(Apply(x)) == x,
// because the Y bits it reads are never among the Z bits it flips.
func (s Swizzle) Apply(x int64) (int64, error) {
	if err := s.Validate("swizzle"); err != nil {
		return 0, err
	}
	return s.apply(x), nil
}

// apply is Apply for a swizzle already validated.
func (s Swizzle) apply(x int64) int64 {
	y := x & ((int64(1)<<s.B - 1) << (s.M + max(0, s.S)))
	if s.S >= 0 {
		return x ^ (y >> s.S)
	}
	return x ^ (y << -s.S)
}

// Inverse is the inverse function of s, which is s itself (an involution);
// CuTe's right_inverse and left_inverse of a Swizzle also return it unchanged.
func (s Swizzle) Inverse() Swizzle { return s }

// makeSwizzle is CuTe's make_swizzle<Y,Z>(): the swizzle whose Y mask is y
// and Z mask is z, B = popcount(y), M = the lower of the two masks' trailing
// zero counts (mod 32), S = tz(y) - tz(z). CuTe rejects masks of different
// popcounts ("Number of bits in Y and Z don't match"), a resulting invalid
// swizzle, and masks that are not two contiguous runs of B bits ("Something
// went wrong."). y == z == 0 gives the identity Sw<0,0,0>.
func makeSwizzle(op string, y, z int64) (Swizzle, error) {
	if y < 0 || z < 0 || y > 1<<32-1 || z > 1<<32-1 {
		return Swizzle{}, Errorf(op, CondSwizzleOperand, "Y mask %d and Z mask %d must be in [0, 2^32)", y, z)
	}
	uy, uz := uint32(y), uint32(z)
	if bits.OnesCount32(uy) != bits.OnesCount32(uz) {
		return Swizzle{}, Errorf(op, CondSwizzleYZBits, "Y mask %#b has %d bits, Z mask %#b has %d", uy, bits.OnesCount32(uy), uz, bits.OnesCount32(uz))
	}
	tzy, tzz := bits.TrailingZeros32(uy), bits.TrailingZeros32(uz)
	s := Swizzle{B: bits.OnesCount32(uz), M: min(tzy, tzz) % 32, S: tzy - tzz}
	if err := s.Validate(op); err != nil {
		return Swizzle{}, err
	}
	if s.YMask()|s.ZMask() != int64(uy|uz) {
		return Swizzle{}, Errorf(op, CondSwizzleMasks, "Y mask %#b and Z mask %#b are not the masks of %v", uy, uz, s)
	}
	return s, nil
}

// ComposeSwizzles is CuTe's composition(Swizzle, Swizzle) for two swizzles of
// the same shift: the swizzle whose masks are the XOR of the two pairs of
// masks (swizzles of one shift commute, and their composition is that swizzle
// when it exists). Different shifts are rejected, as CuTe does.
func ComposeSwizzles(a, b Swizzle) (Swizzle, error) {
	const op = "composition"
	if err := a.Validate(op); err != nil {
		return Swizzle{}, err
	}
	if err := b.Validate(op); err != nil {
		return Swizzle{}, err
	}
	if a.S != b.S {
		return Swizzle{}, Errorf(op, CondSwizzleMerge, "%v shifts by %d, %v by %d", a, a.S, b, b.S)
	}
	return makeSwizzle(op, a.YMask()^b.YMask(), a.ZMask()^b.ZMask())
}

// UpcastSwizzle is CuTe's upcast<N>(Swizzle): the same swizzle on offsets
// counted in elements N times wider, M lowered by log2(N); where M would go
// negative the low Y/Z bits fall away instead (B+M' bits remain at M = 0).
// N must be a power of two.
func UpcastSwizzle(s Swizzle, n int64) (Swizzle, error) {
	const op = "upcast"
	if err := s.Validate(op); err != nil {
		return Swizzle{}, err
	}
	lg, err := log2Exact(op, n)
	if err != nil {
		return Swizzle{}, err
	}
	m := s.M - lg
	if m >= 0 {
		return Swizzle{B: s.B, M: m, S: s.S}, nil
	}
	return Swizzle{B: max(s.B+m, 0), M: 0, S: s.S}, nil
}

// DowncastSwizzle is CuTe's downcast<N>(Swizzle): M raised by log2(N), so the
// swizzle acts on offsets counted in elements N times narrower. Law:
// UpcastSwizzle(DowncastSwizzle(s, n), n) == s.
func DowncastSwizzle(s Swizzle, n int64) (Swizzle, error) {
	const op = "downcast"
	if err := s.Validate(op); err != nil {
		return Swizzle{}, err
	}
	lg, err := log2Exact(op, n)
	if err != nil {
		return Swizzle{}, err
	}
	out := Swizzle{B: s.B, M: s.M + lg, S: s.S}
	if err := out.Validate(op); err != nil {
		return Swizzle{}, err
	}
	return out, nil
}

// log2Exact is log2(n) for a power of two n.
func log2Exact(op string, n int64) (int, error) {
	if n <= 0 || n&(n-1) != 0 {
		return 0, Errorf(op, CondPowerOfTwo, "N = %d", n)
	}
	return bits.TrailingZeros64(uint64(n)), nil
}

func absInt(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
