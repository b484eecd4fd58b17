package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// maxCompareSize bounds how many offsets SameFunction enumerates; past it the
// comparison is by coalesced form, which is exact when it says "same".
const maxCompareSize = 1 << 22

// SameRepresentation reports whether a and b are the identical value: the
// same shape and stride trees (assert ... is ...). Static marks do not count.
func SameRepresentation(a, b layout.Value) bool {
	return a.String() == b.String()
}

// function is a value seen as a map from a 1-D index to an offset.
type function interface {
	layout.Value
	Eval(i int64) (int64, error)
}

// SameFunction reports whether a and b are the same function: equal sizes
// and equal offsets at every index (assert ... == ...). When they differ, why
// names the first index where they do.
func SameFunction(a, b layout.Value) (same bool, why string, err error) {
	a, b = plain(a), plain(b)
	_, intA := a.(layout.IntTuple)
	_, intB := b.(layout.IntTuple)
	if intA && intB {
		if SameRepresentation(a, b) {
			return true, "", nil
		}
		return false, "the values differ", nil
	}
	ta, tirxA := a.(tirx.Layout)
	tb, tirxB := b.(tirx.Layout)
	if tirxA && tirxB {
		return sameMapping(ta, tb)
	}
	fa, okA := asFunction(a)
	fb, okB := asFunction(b)
	if !okA || !okB {
		// Integers, tuples, tilers: equal as values.
		if SameRepresentation(a, b) {
			return true, "", nil
		}
		return false, "the values differ", nil
	}
	sa, err := sizeOf(fa)
	if err != nil {
		return false, "", err
	}
	sb, err := sizeOf(fb)
	if err != nil {
		return false, "", err
	}
	if sa != sb {
		return false, fmt.Sprintf("sizes differ: %d and %d", sa, sb), nil
	}
	if sa > maxCompareSize {
		ca, errA := ApplyOp("coalesce", fa)
		cb, errB := ApplyOp("coalesce", fb)
		if errA == nil && errB == nil && ca.String() == cb.String() {
			return true, "", nil
		}
		return false, "", fmt.Errorf("size %d is too large to compare offset by offset (limit %d) and the coalesced forms differ", sa, maxCompareSize)
	}
	for i := int64(0); i < sa; i++ {
		x, err := fa.Eval(i)
		if err != nil {
			return false, "", err
		}
		y, err := fb.Eval(i)
		if err != nil {
			return false, "", err
		}
		if x != y {
			return false, fmt.Sprintf("at index %d the left side gives %d and the right side %d", i, x, y), nil
		}
	}
	return true, "", nil
}

func asFunction(v layout.Value) (function, bool) {
	switch v := v.(type) {
	case *layout.Layout:
		return v, true
	case layout.Composed:
		return v, true
	case layout.IntTuple:
		// An integer N used where a layout is meant is N:1.
		if v.IsLeaf() && !v.IsBasis() && !v.IsUnknown() {
			l := layout.Make(v, layout.Int(1))
			return &l, true
		}
	}
	return nil, false
}

func sizeOf(v layout.Value) (int64, error) {
	s, err := ApplyOp("size", v)
	if err != nil {
		return 0, err
	}
	t, ok := s.(layout.IntTuple)
	if !ok || !t.IsLeaf() || t.IsUnknown() {
		return 0, fmt.Errorf("the size of %v is not known", v)
	}
	return t.Value(), nil
}

// sameMapping reports whether two TIRx layouts map every logical index to
// the same set of points; an axis one layout does not name reads as 0 there.
func sameMapping(a, b tirx.Layout) (bool, string, error) {
	sa, err := a.Size()
	if err != nil {
		return false, "", err
	}
	sb, err := b.Size()
	if err != nil {
		return false, "", err
	}
	if sa != sb {
		return false, fmt.Sprintf("sizes differ: %d and %d", sa, sb), nil
	}
	if sa > maxCompareSize {
		return false, "", fmt.Errorf("size %d is too large to compare element by element (limit %d)", sa, maxCompareSize)
	}
	axes := unionAxes(a.Axes(), b.Axes())
	for x := int64(0); x < sa; x++ {
		pa, err := a.MapIndex(x)
		if err != nil {
			return false, "", err
		}
		pb, err := b.MapIndex(x)
		if err != nil {
			return false, "", err
		}
		if ka, kb := pointKeys(pa, axes), pointKeys(pb, axes); !slices.Equal(ka, kb) {
			return false, fmt.Sprintf("element %d maps to %v on the left and to %v on the right", x, pa, pb), nil
		}
	}
	return true, "", nil
}

func unionAxes(a, b []tirx.Axis) []tirx.Axis {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// pointKeys is a point set with every point written on axes, in one order.
func pointKeys(ps tirx.PointSet, axes []tirx.Axis) []string {
	keys := make([]string, len(ps))
	for i, p := range ps {
		var b strings.Builder
		for _, a := range axes {
			v, _ := p.Get(a)
			fmt.Fprintf(&b, "%d,", v)
		}
		keys[i] = b.String()
	}
	slices.Sort(keys)
	return keys
}
