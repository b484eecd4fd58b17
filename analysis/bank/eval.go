package bank

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/cute-lsp/cute-lsp/layout"
)

// flat is a layout compiled for bulk evaluation: its shape and stride
// leaves in colexicographic order. Evaluating a 1-D index decomposes it over
// the leaves, the last leaf taking whatever is left, as CuTe's idx2crd does.
type flat struct {
	shape, stride []int64
	size          int64
	span          int64 // the largest |offset| over [0, size): sum of (shape-1)*|stride|
	// log2 holds log2(shape) of every leaf but the last when all of them are
	// powers of two (the common case), so that at() shifts and masks.
	log2 []uint8
}

// compile flattens l; what names the layout in errors.
func compile(l layout.Layout, what string) (flat, error) {
	f := flat{size: 1}
	if err := f.leaves(l.Shape, l.Stride, what); err != nil {
		return flat{}, err
	}
	if len(f.shape) == 0 { // the empty layout () : () is the function 0 -> 0
		f.shape, f.stride = []int64{1}, []int64{0}
	}
	f.log2 = make([]uint8, len(f.shape)-1)
	for k, s := range f.shape[:len(f.shape)-1] {
		if s&(s-1) != 0 {
			f.log2 = nil
			break
		}
		f.log2[k] = uint8(bits.TrailingZeros64(uint64(s)))
	}
	return f, nil
}

func (f *flat) leaves(shape, stride layout.IntTuple, what string) error {
	if shape.IsTuple() {
		if !stride.IsTuple() || stride.Len() != shape.Len() {
			return fmt.Errorf("bank: %s: shape %s and stride %s are not congruent", what, shape, stride)
		}
		for i := 0; i < shape.Len(); i++ {
			if err := f.leaves(shape.At(i), stride.At(i), what); err != nil {
				return err
			}
		}
		return nil
	}
	if stride.IsTuple() {
		return fmt.Errorf("bank: %s: shape %s and stride %s are not congruent", what, shape, stride)
	}
	if shape.IsUnknown() || stride.IsUnknown() {
		return fmt.Errorf("bank: %s: shape %s:%s has a value not known before run time", what, shape, stride)
	}
	if shape.IsBasis() || stride.IsBasis() {
		return fmt.Errorf("bank: %s: %s:%s is a coordinate layout (scaled basis), not an offset layout", what, shape, stride)
	}
	s, d := shape.Value(), stride.Value()
	if s <= 0 {
		return fmt.Errorf("bank: %s: shape %d is not positive", what, s)
	}
	if f.size > math.MaxInt64/s {
		return fmt.Errorf("bank: %s: size overflows int64", what)
	}
	f.size *= s
	if d == math.MinInt64 {
		return fmt.Errorf("bank: %s: stride %d overflows int64", what, d)
	}
	ad := d
	if ad < 0 {
		ad = -ad
	}
	hi, lo := bits.Mul64(uint64(s-1), uint64(ad))
	if hi != 0 || lo > math.MaxInt64/4 || f.span > math.MaxInt64/4-int64(lo) {
		return fmt.Errorf("bank: %s: offsets of %d:%d overflow int64", what, s, d)
	}
	f.span += int64(lo)
	f.shape = append(f.shape, s)
	f.stride = append(f.stride, d)
	return nil
}

// at evaluates f at an index in [0, size): no overflow is possible there.
func (f *flat) at(i int64) int64 {
	var off int64
	last := len(f.shape) - 1
	if len(f.log2) == 1 { // two leaves, the common tile
		return (i&(f.shape[0]-1))*f.stride[0] + (i>>f.log2[0])*f.stride[1]
	}
	if f.log2 != nil {
		for k, l := range f.log2 {
			off += (i & (f.shape[k] - 1)) * f.stride[k]
			i >>= l
		}
		return off + i*f.stride[last]
	}
	for k := 0; k < last; k++ {
		s := f.shape[k]
		off += (i % s) * f.stride[k]
		i /= s
	}
	return off + i*f.stride[last]
}

// table writes f at every index of [0, size), plus add, into out, colexicographically: an odometer over the leaves,
// the innermost a plain loop.
func (f *flat) table(out []int64, add int64) {
	n := len(f.shape)
	s0, d0 := f.shape[0], f.stride[0]
	var coord [64]int64
	cs := coord[:]
	if n > len(coord) {
		cs = make([]int64, n)
	}
	base := add
	for pos := int64(0); pos < f.size; pos += s0 {
		row := out[pos : pos+s0]
		o := base
		for j := range row {
			row[j] = o
			o += d0
		}
		for k := 1; k < n; k++ {
			cs[k]++
			base += f.stride[k]
			if cs[k] < f.shape[k] {
				break
			}
			base -= cs[k] * f.stride[k]
			cs[k] = 0
		}
	}
}

// smemFunc is a shared-memory layout as a function from a 1-D coordinate to
// an element offset: swizzle(offset + inner(c)), or inner(c) unswizzled.
type smemFunc struct {
	inner    flat
	offset   int64
	swizzled bool
	yyy      int64 // the swizzle's source bits
	shift    int   // right shift of the source bits onto the target bits; negative: left
}

const smemWhat = "shared-memory layout"

// compileSmem reads a Layout or a Composed (swizzle o offset o layout).
func compileSmem(v layout.Value) (smemFunc, error) {
	switch s := v.(type) {
	case *layout.Layout:
		f, err := compile(*s, smemWhat)
		return smemFunc{inner: f}, err
	case layout.Composed:
		return compileComposed(s)
	case *layout.Composed:
		return compileComposed(*s)
	case nil:
		return smemFunc{}, fmt.Errorf("bank: no shared-memory layout given")
	}
	return smemFunc{}, fmt.Errorf("bank: %s is not a layout or a swizzled layout", v)
}

func compileComposed(c layout.Composed) (smemFunc, error) {
	f, err := compile(c.Inner, smemWhat)
	if err != nil {
		return smemFunc{}, err
	}
	o := c.Offset
	if o.IsTuple() && o.Len() == 0 {
		o = layout.Int(0)
	}
	if o.IsTuple() || o.IsUnknown() || o.IsBasis() {
		return smemFunc{}, fmt.Errorf("bank: %s: the offset %s of %s is not an integer", smemWhat, o, c)
	}
	sw := c.Outer
	if sw.B < 0 || sw.M < 0 || abs(sw.S) < sw.B {
		return smemFunc{}, fmt.Errorf("bank: %s: %s is not a swizzle (want B >= 0, M >= 0, |S| >= B)", smemWhat, sw)
	}
	if sw.B+sw.M+abs(sw.S) > 62 {
		return smemFunc{}, fmt.Errorf("bank: %s: %s reaches past bit 62", smemWhat, sw)
	}
	if o.Value() < -(math.MaxInt64/4) || o.Value() > math.MaxInt64/4 {
		return smemFunc{}, fmt.Errorf("bank: %s: offset %d overflows int64", smemWhat, o.Value())
	}
	return smemFunc{
		inner:    f,
		offset:   o.Value(),
		swizzled: true,
		yyy:      (int64(1)<<sw.B - 1) << (sw.M + max(0, sw.S)),
		shift:    sw.S,
	}, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// swizzle applies the swizzle to a non-negative offset: ZZZ ^= YYY.
func (s *smemFunc) swizzle(x int64) int64 {
	if s.shift >= 0 {
		return x ^ ((x & s.yyy) >> s.shift)
	}
	return x ^ ((x & s.yyy) << -s.shift)
}

// eval is s at any coordinate, with overflow and sign checks.
func (s *smemFunc) eval(c int64) (int64, error) {
	if c < 0 {
		return 0, fmt.Errorf("bank: the access reaches coordinate %d of the %s, which is negative", c, smemWhat)
	}
	var off int64
	if c < s.inner.size {
		off = s.inner.at(c)
	} else {
		// Past the layout's size: the last leaf takes the rest (CuTe's idx2crd).
		f := &s.inner
		i := c
		last := len(f.shape) - 1
		for k := 0; k < last; k++ {
			off += (i % f.shape[k]) * f.stride[k]
			i /= f.shape[k]
		}
		hi, lo := bits.Mul64(uint64(i), uint64(absInt64(f.stride[last])))
		if hi != 0 || lo > math.MaxInt64/4 {
			return 0, fmt.Errorf("bank: coordinate %d of the %s overflows int64", c, smemWhat)
		}
		if f.stride[last] < 0 {
			off -= int64(lo)
		} else {
			off += int64(lo)
		}
	}
	off += s.offset
	if off < 0 {
		return 0, fmt.Errorf("bank: coordinate %d of the %s is at element offset %d, which is negative", c, smemWhat, off)
	}
	if s.swizzled {
		off = s.swizzle(off)
	}
	return off, nil
}

func absInt64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// runCheck proves, run by run, that a thread's values are consecutive
// elements, from the start of the run alone. It applies when the value mode
// steps through one leaf k of the shared-memory layout that has stride 1
// (coalesced, value step = the leaf's place value): then V values from a
// coordinate below the layout's size whose digit k is at most shape_k - V
// land on V consecutive inner offsets, and a swizzle keeps them consecutive when they stay within
// one 2^M block (the swizzle moves bits M and up only).
type runCheck struct {
	s     *smemFunc
	V     int64
	ok    bool  // the value mode has the structure above
	one   bool  // a single value: nothing to prove
	place int64 // place value of leaf k in the coordinate
	shape int64 // shape of leaf k
	pow2  bool  // place and shape are powers of two
	shift uint  // log2(place)
	block int64 // 2^M for a swizzle, 0 for none
}

func newRunCheck(s *smemFunc, val *flat) runCheck {
	rc := runCheck{s: s, V: val.size}
	if s.swizzled {
		// The swizzle moves bits M and up: sources at M+S and targets at M
		// (S > 0), or sources at M and targets at M-S (S < 0).
		m := bits.TrailingZeros64(uint64(s.yyy))
		if s.shift > 0 {
			m -= s.shift
		}
		if s.yyy == 0 {
			m = 62
		}
		rc.block = int64(1) << m
	}
	if val.size == 1 {
		rc.ok, rc.one = true, true
		return rc
	}
	vs, vd := coalesceLeaves(val.shape, val.stride)
	if len(vs) != 1 || vd[0] <= 0 {
		return rc
	}
	ss, sd := coalesceLeaves(s.inner.shape, s.inner.stride)
	place := int64(1)
	for k := range ss {
		if place == vd[0] && sd[k] == 1 && ss[k] >= val.size {
			rc.ok, rc.place, rc.shape = true, place, ss[k]
			rc.pow2 = place&(place-1) == 0 && ss[k]&(ss[k]-1) == 0
			rc.shift = uint(bits.TrailingZeros64(uint64(place)))
			break
		}
		if place > vd[0] {
			break
		}
		place *= ss[k]
	}
	return rc
}

// run returns the element offset at coordinate c0 and whether the run of V
// values from c0 is proven consecutive.
func (rc *runCheck) run(c0 int64) (int64, bool) {
	s := rc.s
	if !rc.ok || c0 < 0 || c0 >= s.inner.size {
		return 0, false
	}
	if !rc.one {
		var digit int64
		if rc.pow2 {
			digit = (c0 >> rc.shift) & (rc.shape - 1)
		} else {
			digit = (c0 / rc.place) % rc.shape
		}
		if digit > rc.shape-rc.V {
			return 0, false
		}
	}
	y := s.offset + s.inner.at(c0)
	if y < 0 {
		return 0, false
	}
	if !s.swizzled {
		return y, true
	}
	if y&(rc.block-1)+rc.V > rc.block {
		return 0, false
	}
	return s.swizzle(y), true
}

// coalesceLeaves merges neighbouring leaves (s0,d0),(s1,d1) with d1 = s0*d0
// and drops leaves of shape 1, as CuTe's coalesce does on a flat layout.
func coalesceLeaves(shape, stride []int64) ([]int64, []int64) {
	var s, d []int64
	for k := range shape {
		if shape[k] == 1 {
			continue
		}
		if n := len(s); n > 0 && stride[k] == s[n-1]*d[n-1] {
			s[n-1] *= shape[k]
			continue
		}
		s = append(s, shape[k])
		d = append(d, stride[k])
	}
	if len(s) == 0 {
		return []int64{1}, []int64{0}
	}
	return s, d
}
