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

// hasNegativeStride reports whether some leaf of f has a negative stride.
func (f *flat) hasNegativeStride() bool {
	for _, d := range f.stride {
		if d < 0 {
			return true
		}
	}
	return false
}

// at evaluates f at an index in [0, size): no overflow is possible there.
func (f *flat) at(i int64) int64 {
	var off int64
	last := len(f.shape) - 1
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
	case layout.Layout:
		f, err := compile(s, smemWhat)
		return smemFunc{inner: f}, err
	case *layout.Layout:
		return compileSmem(*s)
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

// tableLimit bounds the shared-memory layouts tabulated in full: larger ones
// are evaluated point by point.
const tableLimit = 1 << 22

// tabulate returns s at every coordinate of [0, size), in buf when it is
// large enough, or nil when s is too large to tabulate or has a negative
// offset somewhere (eval then reports the coordinate).
func (s *smemFunc) tabulate(buf []int64) []int64 {
	if s.inner.size > tableLimit {
		return nil
	}
	t := grow(buf, int(s.inner.size))
	s.inner.table(t, s.offset)
	if s.offset < 0 || s.inner.hasNegativeStride() {
		for _, v := range t {
			if v < 0 {
				return nil // let eval report the coordinate
			}
		}
	}
	if s.swizzled {
		// The swizzle keeps the sign: it changes bits below 62 only.
		yyy := s.yyy
		if shift := s.shift; shift >= 0 {
			for i, x := range t {
				t[i] = x ^ ((x & yyy) >> shift)
			}
		} else {
			for i, x := range t {
				t[i] = x ^ ((x & yyy) << -shift)
			}
		}
	}
	return t
}
