// Package prop computes what the analyzer reports of a layout or a
// swizzled layout beyond CuTe's algebra: whether it is injective,
// surjective, bijective or compact, its image, and how far it is contiguous.
// CuTe defines none of these as functions (they are the questions one asks
// of a layout when checking it), so they live beside package layout, which
// is CuTe's algebra, and use only its exported operations.
//
// Each is computed from the shape and strides where a closed form exists
// (exact, any size); otherwise the function is enumerated, up to
// EnumerationLimit points, and past that the answer is a
// layout.CondTooLarge error, never a guess. Per property:
//
//	IsInjective   plain: exact from the strides when, sorted by |stride|, each
//	              stride exceeds the span of the smaller ones (or a stride-0 or
//	              repeated-stride mode shows a collision); otherwise enumerated.
//	              swizzled: exactly the inner layout's answer (x -> Sw(off+x)
//	              is one-to-one on all integers).
//	IsSurjective  plain: exact, always (the strides sorted ascending must each
//	              be at most one past the span of the smaller ones).
//	              swizzled: when the offset is 0 and cosize is whole swizzle
//	              blocks (Swizzle.Size), exactly the inner layout's answer (the
//	              swizzle maps [0, cosize) onto itself); otherwise enumerated.
//	IsBijective   surjective and size == cosize; exact where IsSurjective is.
//	IsCompact     IsBijective (see there).
//	Image         one interval when surjective; otherwise enumerated.
//	Contiguity    plain: exact, always. swizzled: exact, walking the inner
//	              layout's contiguous run in steps of 2^M, then point by point
//	              past it (a swizzle can continue a run by coincidence); both
//	              walks bounded.
//
// The domain is CuTe's: indices 0 <= i < size, colexicographic. CuTe's cosize
// is 1 + sum((s-1)*|d|); for a swizzled layout CuTe takes the inner layout's.
package prop

import (
	"math/bits"
	"slices"
	"sort"

	"github.com/cute-lsp/cute-lsp/layout"
)

// EnumerationLimit is the most points a property enumerates.
const EnumerationLimit = 1 << 22

// indexFunction is what the properties are defined for: a Layout, a
// Composed or a NestedComposed.
type indexFunction interface {
	Eval(i int64) (int64, error)
	Size() (int64, error)
	Cosize() (int64, error)
	layout.Value
}

func asIndexFunction(op string, v layout.Value) (indexFunction, error) {
	switch v := v.(type) {
	case *layout.Layout:
		return v, checkShapeSigns(op, *v)
	case layout.Composed:
		if err := v.Outer.Validate(op); err != nil {
			return nil, err
		}
		return v, checkShapeSigns(op, v.Inner)
	case layout.NestedComposed:
		if err := v.Outer.Validate(op); err != nil {
			return nil, err
		}
		if err := v.Inner.Outer.Validate(op); err != nil {
			return nil, err
		}
		return v, checkShapeSigns(op, v.Inner.Inner)
	case layout.IntTuple:
		if v.IsLeaf() {
			return layout.Box(layout.Make(v, layout.Int(1))).(indexFunction), nil
		}
	}
	return nil, layout.Errorf(op, layout.CondComposedOperand, "%v is not a layout", v)
}

// checkShapeSigns rejects negative shape leaves (their products would look like sizes).
func checkShapeSigns(op string, l layout.Layout) error {
	fs := layout.Flatten(l.Shape)
	for k := range fs.Len() {
		if s := fs.At(k); s.IsLeaf() && !s.IsUnknown() && s.Value() < 0 {
			return layout.Errorf(op, layout.CondInvalidParams, "mode %d of %v has negative size %d", k, l, s.Value())
		}
	}
	return nil
}

// IsInjective reports whether distinct indices i < size map to distinct offsets.
func IsInjective(v layout.Value) (bool, error) {
	const op = "is_injective"
	f, err := asIndexFunction(op, v)
	if err != nil {
		return false, err
	}
	switch l := f.(type) {
	case *layout.Layout:
		if inj, known, err := injectiveFromStrides(op, *l); err != nil || known {
			return inj, err
		}
	case layout.Composed:
		return IsInjective(layout.Box(l.Inner))
	case layout.NestedComposed:
		return IsInjective(l.Inner)
	}
	vals, err := enumerate(op, f)
	if err != nil {
		return false, err
	}
	distinct := sortedDistinct(vals)
	return len(distinct) == len(vals), nil
}

// sortedDistinct is the distinct values of vals in ascending order (vals is
// reused); a bitmap over the span when it is small, a sort otherwise.
func sortedDistinct(vals []int64) []int64 {
	if len(vals) == 0 {
		return vals
	}
	lo, hi := slices.Min(vals), slices.Max(vals)
	if span := uint64(hi) - uint64(lo); span < uint64(16*len(vals)+1024) {
		seen := make([]uint64, span/64+1)
		for _, v := range vals {
			d := uint64(v) - uint64(lo)
			seen[d/64] |= 1 << (d % 64)
		}
		out := vals[:0]
		for w, word := range seen {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				out = append(out, lo+int64(w*64+b))
				word &= word - 1
			}
		}
		return out
	}
	slices.Sort(vals)
	return slices.Compact(vals)
}

// IsSurjective reports whether the offsets cover [0, cosize) exactly (every
// offset in range is reached and none outside it).
func IsSurjective(v layout.Value) (bool, error) {
	const op = "is_surjective"
	f, err := asIndexFunction(op, v)
	if err != nil {
		return false, err
	}
	switch l := f.(type) {
	case *layout.Layout:
		return surjectiveFromStrides(op, *l)
	case layout.Composed:
		// With offset 0 and cosize whole swizzle blocks, Sw maps [0, cosize)
		// onto itself, so Sw(L) covers it exactly when L does.
		co, err := l.Cosize()
		if err != nil {
			return false, err
		}
		if layout.IsStaticZero(l.Offset) && co%l.Outer.Size() == 0 {
			return IsSurjective(layout.Box(l.Inner))
		}
	}
	co, err := f.Cosize()
	if err != nil {
		return false, err
	}
	vals, err := enumerate(op, f)
	if err != nil {
		return false, err
	}
	if len(vals) == 0 {
		return false, nil // cosize is at least 1
	}
	vals = sortedDistinct(vals)
	return int64(len(vals)) == co && vals[0] == 0 && vals[len(vals)-1] == co-1, nil
}

// IsBijective reports whether the layout is a bijection of [0, size) onto
// [0, cosize): surjective with size == cosize.
func IsBijective(v layout.Value) (bool, error) {
	onto, err := IsSurjective(v)
	if err != nil || !onto {
		return false, err
	}
	f, _ := asIndexFunction("is_bijective", v)
	size, err := f.Size()
	if err != nil {
		return false, err
	}
	co, err := f.Cosize()
	return size == co, err
}

// IsCompact reports whether the layout is compact in CuTe's sense (the
// layouts compact_major, compact_order and make_layout_like build): its
// offsets are exactly [0, size), each reached once. CuTe has no is_compact
// function; note that cosize == size alone does not imply it
// ((2,2,2,2):(1,1,6,7) has cosize 16 = size and repeats offset 1).
// Law: IsCompact(L) == IsBijective(L).
func IsCompact(v layout.Value) (bool, error) { return IsBijective(v) }

// Image is the set of offsets the layout reaches, as sorted disjoint
// intervals; one interval [0, cosize) when the layout is surjective,
// enumerated otherwise.
func Image(v layout.Value) ([]layout.Interval, error) {
	const op = "image"
	f, err := asIndexFunction(op, v)
	if err != nil {
		return nil, err
	}
	onto, err := IsSurjective(v)
	if err != nil {
		return nil, err
	}
	if onto {
		co, err := f.Cosize()
		if err != nil {
			return nil, err
		}
		return []layout.Interval{{Lo: 0, Hi: co}}, nil
	}
	vals, err := enumerate(op, f)
	if err != nil {
		return nil, err
	}
	vals = sortedDistinct(vals)
	var out []layout.Interval
	for _, x := range vals {
		if n := len(out); n > 0 && out[n-1].Hi >= x {
			out[n-1].Hi = max(out[n-1].Hi, x+1)
			continue
		}
		out = append(out, layout.Interval{Lo: x, Hi: x + 1})
	}
	return out, nil
}

// Contiguity is the largest n such that the first n indices map to n
// consecutive offsets: L(i) == L(0) + i for all i < n (at least 1 for a
// non-empty layout; CuTe's max_common_vector against the identity, which
// is how far a vectorized access along index 0 can go).
// Law: for plain layouts, Contiguity(L) == MaxCommonVector(L, size(L):1)
// when L(0) == 0 and L is injective.
func Contiguity(v layout.Value) (int64, error) {
	const op = "contiguity"
	f, err := asIndexFunction(op, v)
	if err != nil {
		return 0, err
	}
	switch l := f.(type) {
	case *layout.Layout:
		return plainContiguity(op, *l)
	case layout.Composed:
		n, err := plainContiguity(op, l.Inner)
		if err != nil || n == 0 || l.Outer.B == 0 {
			return n, err // an identity swizzle only shifts by the offset
		}
		off, err := offsetValue(op, l.Offset)
		if err != nil {
			return 0, err
		}
		x0, err := l.Inner.Eval(0)
		if err != nil {
			return 0, err
		}
		if x0, err = addOffset(op, off, x0); err != nil {
			return 0, err
		}
		// Sw(x) - x is constant on aligned blocks of 2^M: along the inner
		// layout's run it is enough to check each block start.
		// The Y bits take every value within a few swizzle blocks, so a
		// break comes early; only a run that stays whole that long is bounded.
		block := int64(1) << l.Outer.M
		apply := func(x int64) int64 { y, _ := l.Outer.Apply(x); return y } // validated by asIndexFunction
		base := apply(x0)
		checks := 0
		for k := (block - mod64(x0, block)) % block; k < n; k += block {
			if checks++; checks > EnumerationLimit {
				return 0, layout.Errorf(op, layout.CondTooLarge, "%v: a run of %d offsets in blocks of %d", l, n, block)
			}
			if k > 0 && apply(x0+k) != base+k {
				return k, nil
			}
		}
		// Past the inner run the swizzle may still land on base+i by coincidence.
		return contiguityFrom(op, f, n, base)
	}
	return contiguityFrom(op, f, 0, 0)
}

// contiguityFrom continues a contiguity count at index from (which is known
// contiguous below it, the run starting at base), point by point.
func contiguityFrom(op string, f indexFunction, from, base int64) (int64, error) {
	n, err := f.Size()
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	eval := fastEval(f)
	if from == 0 {
		if base, err = eval(0); err != nil {
			return 0, err
		}
		from = 1
	}
	for i := from; i < n; i++ {
		if i-from >= EnumerationLimit {
			return 0, layout.Errorf(op, layout.CondTooLarge, "%v: contiguous past %d indices", f, i)
		}
		x, err := eval(i)
		if err != nil {
			return 0, err
		}
		if x != base+i {
			return i, nil
		}
	}
	return n, nil
}

func plainContiguity(op string, l layout.Layout) (int64, error) {
	shapes, strides, err := intModes(op, l)
	if err != nil {
		return 0, err
	}
	n := int64(1)
	for k, s := range shapes {
		if s == 0 {
			return 0, nil
		}
		if s == 1 {
			continue
		}
		if strides[k] != n {
			return n, nil
		}
		n *= s // n <= size, which intModes bounded
	}
	return n, nil
}

// injectiveFromStrides decides injectivity from the strides when it can:
// known is false when only enumeration can tell.
func injectiveFromStrides(op string, l layout.Layout) (injective, known bool, err error) {
	shapes, strides, err := intModes(op, l)
	if err != nil {
		return false, false, err
	}
	type mode struct{ s, d int64 }
	var ms []mode
	for k, s := range shapes {
		switch {
		case s == 0:
			return true, true, nil // no indices at all
		case s == 1:
		case strides[k] == 0:
			return false, true, nil // two indices differing in this mode collide
		default:
			ms = append(ms, mode{s, max(strides[k], -strides[k])})
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].d < ms[j].d })
	span := int64(0) // largest offset reachable by the smaller modes (all shifted to start at 0)
	for i, m := range ms {
		if i > 0 && m.d == ms[i-1].d {
			// Equal |strides|: with equal signs (1,0) and (0,1) collide; with opposite signs (1,1) and (0,0) do.
			return false, true, nil
		}
		if m.d <= span {
			return false, false, nil
		}
		// span + (s-1)*d cannot overflow: it is at most the cosize, bounded by intModes.
		span += (m.s - 1) * m.d
	}
	return true, true, nil
}

// surjectiveFromStrides: with all strides non-negative, sorted ascending,
// the offsets of the first k modes fill [0, span_k] exactly while each next
// stride is at most span_k + 1; a larger stride leaves span_k + 1 unreached
// (every other mode adds 0 or more than span_k + 1) although it is below the
// maximum. A negative stride on a mode of size > 1 reaches a negative offset.
func surjectiveFromStrides(op string, l layout.Layout) (bool, error) {
	shapes, strides, err := intModes(op, l)
	if err != nil {
		return false, err
	}
	type mode struct{ s, d int64 }
	var ms []mode
	for k, s := range shapes {
		switch {
		case s == 0:
			return false, nil // reaches nothing, while cosize is at least 1
		case s == 1 || strides[k] == 0:
		case strides[k] < 0:
			return false, nil
		default:
			ms = append(ms, mode{s, strides[k]})
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].d < ms[j].d })
	span := int64(0)
	for _, m := range ms {
		if m.d > span+1 {
			return false, nil
		}
		span += (m.s - 1) * m.d
	}
	return true, nil
}

// intModes is the flat shapes and strides of l as known integers, with the
// size and cosize checked against int64 overflow.
func intModes(op string, l layout.Layout) (shapes, strides []int64, err error) {
	fs, fd := layout.Flatten(l.Shape), layout.Flatten(l.Stride)
	if fs.Len() != fd.Len() || fs.IsTuple() != fd.IsTuple() {
		return nil, nil, layout.Errorf(op, layout.CondCongruent, "%v", l)
	}
	size, span := int64(1), int64(1)
	for k := range fs.Len() {
		s, d := fs.At(k), fd.At(k)
		if !s.IsLeaf() || s.IsUnknown() || s.IsBasis() || !d.IsLeaf() || d.IsUnknown() || d.IsBasis() {
			return nil, nil, layout.Errorf(op, layout.CondUnknown, "mode %d of %v is %v:%v", k, l, s, d)
		}
		var ok1, ok2, ok3 bool
		size, ok1 = layout.MulChecked(size, s.Value())
		term, ok2 := layout.MulChecked(max(s.Value()-1, 0), max(d.Value(), -d.Value()))
		span, ok3 = layout.AddChecked(span, term)
		if !ok1 || !ok2 || !ok3 {
			return nil, nil, layout.Errorf(op, layout.CondOverflow, "size or cosize of %v", l)
		}
		shapes = append(shapes, s.Value())
		strides = append(strides, d.Value())
	}
	return shapes, strides, nil
}

// enumerate is f at every index below its size, bounded by EnumerationLimit.
func enumerate(op string, f indexFunction) ([]int64, error) {
	n, err := f.Size()
	if err != nil {
		return nil, err
	}
	if n > EnumerationLimit {
		return nil, layout.Errorf(op, layout.CondTooLarge, "%v has %d indices, more than %d", f, n, EnumerationLimit)
	}
	eval := fastEval(f)
	vals := make([]int64, n)
	for i := range n {
		if vals[i], err = eval(i); err != nil {
			return nil, err
		}
	}
	return vals, nil
}

// fastEval is f.Eval, through a flat copy of the layout where it has one
// (no allocation per point); for indices below the size the two agree.
func fastEval(f indexFunction) func(int64) (int64, error) {
	switch l := f.(type) {
	case *layout.Layout:
		var flat layout.FlatLayout
		if l.FlattenInto(&flat) == nil {
			return flat.Crd2Idx
		}
	case layout.Composed:
		return swizzledEval(l.Outer, l.Offset, fastEval(&l.Inner), f.Eval)
	case layout.NestedComposed:
		return swizzledEval(l.Outer, l.Offset, fastEval(l.Inner), f.Eval)
	}
	return f.Eval
}

// swizzledEval is i -> Sw(off + inner(i)) for a validated swizzle, or slow
// where the offset is not a known integer.
func swizzledEval(sw layout.Swizzle, offset layout.IntTuple, inner, slow func(int64) (int64, error)) func(int64) (int64, error) {
	off, err := offsetValue("layout", offset)
	if err != nil {
		return slow
	}
	return func(i int64) (int64, error) {
		x, err := inner(i)
		if err != nil {
			return 0, err
		}
		if x, err = addOffset("layout", off, x); err != nil {
			return 0, err
		}
		return sw.Apply(x)
	}
}

// offsetValue is a swizzled layout's offset as a known integer.
func offsetValue(op string, off layout.IntTuple) (int64, error) {
	if !off.IsLeaf() || off.IsUnknown() || off.IsBasis() {
		return 0, layout.Errorf(op, layout.CondUnknown, "offset %v is not a known integer", off)
	}
	return off.Value(), nil
}

// addOffset is off + x, an error where it overflows int64.
func addOffset(op string, off, x int64) (int64, error) {
	s, ok := layout.AddChecked(off, x)
	if !ok {
		return 0, layout.Errorf(op, layout.CondOverflow, "offset %d + %d", off, x)
	}
	return s, nil
}

// mod64 is a mod b in [0, b) for b > 0.
func mod64(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
