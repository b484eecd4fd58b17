package gmma

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// CanonicalLayout is the layout a descriptor describes, rebuilt from its
// fields, over a block of mn x k elements of bits bits, in element units
// without the swizzle (which the layout type names): with T = 128/bits
// elements per 16 bytes and W the kind's row width in 16-byte units,
//
//	K-major, swizzled:  ((8,mn/8),(T,k/T)):((W*T,SBO*T),(1,T))
//	K-major, INTER:     ((8,mn/8),(T,k/T)):((T,SBO*T),(1,LBO*T))
//	MN-major, swizzled: ((W*T,mn/(W*T)),(8,k/8)):((1,LBO*T),(W*T,SBO*T))
//	MN-major, INTER:    ((T,mn/T),(8,k/8)):((1,SBO*T),(T,LBO*T))
//
// (SW128_32B: 4 in place of 8 along K, MN-major.) Extents smaller than a
// group keep the group's first elements.
func CanonicalLayout(d Descriptor, major Major, bits int, mn, k int64) (layout.Layout, error) {
	if err := checkBits(bits); err != nil {
		return layout.Layout{}, err
	}
	kind, ok := d.Kind()
	if !ok {
		return layout.Layout{}, fmt.Errorf("layout_type %d is reserved", d.LayoutType)
	}
	t := 128 / int64(bits)
	w := kind.Width()
	lbo, sbo := int64(d.LeadingOffset)*t, int64(d.StrideOffset)*t
	split := func(n, g int64) (int64, int64) {
		if n < g {
			return n, 1
		}
		return g, n / g
	}
	mode := func(n, g, inner, outer int64) (layout.IntTuple, layout.IntTuple) {
		a, b := split(n, g)
		return layout.Ints(a, b), layout.Ints(inner, outer)
	}
	var s0, d0, s1, d1 layout.IntTuple
	if major == MajorK {
		row := w * t
		if kind == Interleave {
			row = t
		}
		s0, d0 = mode(mn, 8, row, sbo)
		chunk := t
		if kind == Interleave {
			chunk = lbo
		}
		s1, d1 = mode(k, t, 1, chunk)
	} else {
		kg := int64(8)
		if kind == SW128Base32B {
			kg = 4
		}
		if kind == Interleave {
			s0, d0 = mode(mn, t, 1, sbo)
			s1, d1 = mode(k, kg, t, lbo)
		} else {
			s0, d0 = mode(mn, w*t, 1, lbo)
			s1, d1 = mode(k, kg, w*t, sbo)
		}
	}
	return layout.Make(layout.Tup(s0, s1), layout.Tup(d0, d1)), nil
}
