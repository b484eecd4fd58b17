// Package tirx is TIRx's layout (TileLayout): a logical index mapped to a set of points on named
// hardware axes (lanes, warps, memory, tensor-memory lanes and columns,
// devices). It is a different model from CuTe's layouts: the logical index
// is split row-major (last extent fastest), strides are bound to axes, and
// replicas make one element live in several places.
//
//	L(x) = { D(x) + r + O | r in R }
//
// D (shard) splits the flat index over its iters, R (replica) enumerates
// offsets independent of x, O (offset) is a constant point.
//
// It takes CuTe's Swizzle from package layout, and places elements in
// shared-memory banks as package analysis/bank models them.
package tirx

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Axis names one axis of a TIRx layout: laneid, warpid, m, TLane, TCol, pid, ...
type Axis string

// MemoryAxis is the axis of a stride written without one ("1" means 1@m).
const MemoryAxis Axis = "m"

// Iter is a TIRx iter (extent, stride, axis): Extent steps of Stride on Axis.
type Iter struct {
	Extent int64
	Stride int64
	Axis   Axis
}

// AxisValue is one coordinate on a named axis (an offset term n@axis, or one
// component of a mapped point).
type AxisValue struct {
	Axis  Axis
	Value int64
}

// Point is a point of the hardware space: one value per axis of the layout
// it came from, in the layout's axis order (Axes).
type Point []AxisValue

// Get is the point's value on axis a, and whether the point has that axis.
func (p Point) Get(a Axis) (int64, bool) {
	for _, av := range p {
		if av.Axis == a {
			return av.Value, true
		}
	}
	return 0, false
}

// String prints the point as {laneid:4, warpid:5, m:0}.
func (p Point) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, av := range p {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(av.Axis))
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(av.Value, 10))
	}
	b.WriteByte('}')
	return b.String()
}

// PointSet is L(x): the distinct points one logical element maps to, in
// lexicographic order of their axis values. It prints its points joined by
// " | ", each as {axis:value, ...} in the layout's axis order:
//
//	{laneid:0, warpid:5, m:0} | {laneid:0, warpid:9, m:0}
//
// A layout without replicas maps every element to a single point, which
// prints alone.
type PointSet []Point

// String prints the points joined by " | ".
// KindName names the kind of a point set in messages.
func (s PointSet) KindName() string { return "a TIRx point set" }

func (s PointSet) String() string {
	parts := make([]string, len(s))
	for i, p := range s {
		parts[i] = p.String()
	}
	return strings.Join(parts, " | ")
}

// AxisList is the axes of a TIRx layout as a value (tirx_axes), printed as
// a parenthesised list: (laneid, warpid, m).
type AxisList []Axis

// String prints the axes as (laneid, warpid, m).
func (l AxisList) String() string {
	parts := make([]string, len(l))
	for i, a := range l {
		parts[i] = string(a)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// AxisRange is the closed range [Lo, Hi] of the values a layout reaches on one axis.
type AxisRange struct {
	Axis   Axis
	Lo, Hi int64
}

// Layout is TIRx's shard + replica + offset layout.
type Layout struct {
	Shard   []Iter      // D: one or more iters; the logical index is split over them, last fastest
	Replica []Iter      // R: offsets enumerated for every element (none: the single zero offset)
	Offset  []AxisValue // O: a constant added on each named axis (at most one term per axis)
}

// KindName names the kind of a TIRx layout in messages.
func (t Layout) KindName() string { return "a TIRx layout" }

// MaxReplicas bounds the number of replica combinations Map enumerates.
const MaxReplicas = 1 << 16

// Conditions of the checks of a TIRx layout.
const (
	CondExtent  = "iter extents must be positive"
	CondAxis    = "every iter and offset names an axis"
	CondShard   = "a TileLayout has at least one shard iter"
	CondOffset  = "one offset term per axis"
	CondAdmit   = "a shape is admitted when its size equals the product of the shard extents"
	CondCoord   = "coordinate out of the shape"
	CondReplica = "too many replica combinations to enumerate"
)

// String prints t as TIRx writes it:
// S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid
// (strides on the memory axis m are written bare).
func (t Layout) String() string {
	var b strings.Builder
	b.WriteString("S[")
	writeIters(&b, t.Shard)
	b.WriteByte(']')
	if len(t.Replica) > 0 {
		b.WriteString(" + R[")
		writeIters(&b, t.Replica)
		b.WriteByte(']')
	}
	for _, o := range t.Offset {
		b.WriteString(" + ")
		b.WriteString(axisTerm(o.Value, o.Axis))
	}
	return b.String()
}

func writeIters(b *strings.Builder, its []Iter) {
	if len(its) == 1 {
		b.WriteString(strconv.FormatInt(its[0].Extent, 10))
		b.WriteByte(':')
		b.WriteString(axisTerm(its[0].Stride, its[0].Axis))
		return
	}
	b.WriteByte('(')
	for i, it := range its {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(it.Extent, 10))
	}
	b.WriteString("):(")
	for i, it := range its {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(axisTerm(it.Stride, it.Axis))
	}
	b.WriteByte(')')
}

func axisTerm(v int64, a Axis) string {
	if a == MemoryAxis {
		return strconv.FormatInt(v, 10)
	}
	return strconv.FormatInt(v, 10) + "@" + string(a)
}

// Validate checks that t is well formed: at least one shard iter, positive
// extents, named axes, one offset term per axis, and a size within int64.
func (t Layout) Validate() error {
	const op = "TileLayout"
	if len(t.Shard) == 0 {
		return layout.Errorf(op, CondShard, "%v", t)
	}
	for _, group := range [][]Iter{t.Shard, t.Replica} {
		for k, it := range group {
			if it.Extent <= 0 {
				return layout.Errorf(op, CondExtent, "iter %d of %v has extent %d", k, t, it.Extent)
			}
			if it.Axis == "" {
				return layout.Errorf(op, CondAxis, "iter %d of %v has no axis", k, t)
			}
		}
	}
	seen := map[Axis]bool{}
	for _, o := range t.Offset {
		if o.Axis == "" {
			return layout.Errorf(op, CondAxis, "an offset term of %v has no axis", t)
		}
		if seen[o.Axis] {
			return layout.Errorf(op, CondOffset, "%v has two offset terms on %s", t, o.Axis)
		}
		seen[o.Axis] = true
	}
	if _, err := t.Size(); err != nil {
		return err
	}
	_, err := replicaCount(t.Replica)
	return err
}

// Size is the number of logical elements t maps: the product of the shard extents.
func (t Layout) Size() (int64, error) {
	n := int64(1)
	for _, it := range t.Shard {
		var ok bool
		if n, ok = layout.MulChecked(n, it.Extent); !ok {
			return 0, layout.Errorf("TileLayout", layout.CondOverflow, "product of the shard extents of %v", t)
		}
	}
	return n, nil
}

// Axes is the axes t touches, in order of first appearance (shard, replica, offset).
func (t Layout) Axes() []Axis {
	var axes []Axis
	add := func(a Axis) {
		if !slices.Contains(axes, a) {
			axes = append(axes, a)
		}
	}
	for _, it := range t.Shard {
		add(it.Axis)
	}
	for _, it := range t.Replica {
		add(it.Axis)
	}
	for _, o := range t.Offset {
		add(o.Axis)
	}
	return axes
}

// ReplicaCount is the number of replica combinations: the product of the
// replica extents (1 without replicas). Past MaxReplicas it is an error.
func (t Layout) ReplicaCount() (int64, error) { return replicaCount(t.Replica) }

// Span is, for each axis of t in Axes order, the least and greatest value
// any element reaches on it over all replicas. Each shard component c_k
// takes every value of [0, e_k) independently of the others (the split is a
// bijection onto that box) and so does each replica index, so an axis
// reaches O[a] + sum of min(0, (e-1)*s) at least and O[a] + sum of
// max(0, (e-1)*s) at most, both attained.
func (t Layout) Span() ([]AxisRange, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	axes := t.Axes()
	out := make([]AxisRange, len(axes))
	at := func(a Axis) *AxisRange { return &out[slices.Index(axes, a)] }
	for i, a := range axes {
		out[i].Axis = a
	}
	overflow := func(a Axis) error {
		return layout.Errorf("TileLayout", layout.CondOverflow, "the points of %v reach past int64 on axis %s", t, a)
	}
	for _, it := range slices.Concat(t.Shard, t.Replica) {
		reach, ok := layout.MulChecked(it.Extent-1, it.Stride)
		if !ok {
			return nil, overflow(it.Axis)
		}
		r := at(it.Axis)
		if reach < 0 {
			r.Lo, ok = layout.AddChecked(r.Lo, reach)
		} else {
			r.Hi, ok = layout.AddChecked(r.Hi, reach)
		}
		if !ok {
			return nil, overflow(it.Axis)
		}
	}
	for _, o := range t.Offset {
		r := at(o.Axis)
		lo, okLo := layout.AddChecked(r.Lo, o.Value)
		hi, okHi := layout.AddChecked(r.Hi, o.Value)
		if !okLo || !okHi {
			return nil, overflow(o.Axis)
		}
		r.Lo, r.Hi = lo, hi
	}
	return out, nil
}

// Admits checks that shape is admitted: its size equals t's size.
func (t Layout) Admits(shape []int64) error {
	size, err := t.Size()
	if err != nil {
		return err
	}
	n := int64(1)
	for _, s := range shape {
		var ok bool
		if s <= 0 {
			return layout.Errorf("TileLayout", CondAdmit, "shape %s has extent %d", tupleText(shape), s)
		}
		if n, ok = layout.MulChecked(n, s); !ok {
			return layout.Errorf("TileLayout", layout.CondOverflow, "size of shape %s", tupleText(shape))
		}
	}
	if n != size {
		return layout.Errorf("TileLayout", CondAdmit, "shape %s has %d elements, %v maps %d", tupleText(shape), n, t, size)
	}
	return nil
}

// RowMajorIndex is TIRx's row-major flat index of coord in shape: sum x_d * prod_{e>d} S_e.
func RowMajorIndex(shape, coord []int64) (int64, error) {
	const op = "TileLayout"
	if len(shape) != len(coord) {
		return 0, layout.Errorf(op, CondCoord, "coordinate %s has rank %d, shape %s rank %d", tupleText(coord), len(coord), tupleText(shape), len(shape))
	}
	flat := int64(0)
	for d := range shape {
		if coord[d] < 0 || coord[d] >= shape[d] {
			return 0, layout.Errorf(op, CondCoord, "coordinate %s is outside shape %s: mode %d is %d, not in [0, %d)", tupleText(coord), tupleText(shape), d, coord[d], shape[d])
		}
		// flat*S_d + x_d < prod S, which Admits has bounded.
		var ok bool
		if flat, ok = layout.MulChecked(flat, shape[d]); !ok {
			return 0, layout.Errorf(op, layout.CondOverflow, "flat index of %s in %s", tupleText(coord), tupleText(shape))
		}
		flat += coord[d]
	}
	return flat, nil
}

// Split is TIRx's split of a flat index over the shard extents, innermost
// last: c_k = floor(flat / prod_{l>k} e_l) mod e_k, for 0 <= flat < Size.
func (t Layout) Split(flat int64) ([]int64, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if size, _ := t.Size(); flat < 0 || flat >= size {
		return nil, layout.Errorf("TileLayout", CondCoord, "flat index %d is outside [0, %d)", flat, size)
	}
	c := make([]int64, len(t.Shard))
	for k := len(t.Shard) - 1; k >= 0; k-- {
		e := t.Shard[k].Extent
		c[k] = flat % e
		flat /= e
	}
	return c, nil
}

// Base is D(x) + O for the flat index x: the shard components accumulated
// onto their axes with their strides, plus the offset. Every axis of t
// appears in the point (0 where nothing lands).
func (t Layout) Base(flat int64) (Point, error) {
	split, err := t.Split(flat)
	if err != nil {
		return nil, err
	}
	p := t.zeroPoint()
	for k, c := range split {
		if err := p.add(t.Shard[k].Axis, c, t.Shard[k].Stride); err != nil {
			return nil, err
		}
	}
	for _, o := range t.Offset {
		if err := p.add(o.Axis, 1, o.Value); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// MapIndex is L(x) for the flat index x: Base(x) plus every combination of
// the replica iters (r_t in [0, e_t), adding r_t*s_t on axis a_t), as a set
// (duplicates removed) in lexicographic order of the axis values. Past
// MaxReplicas combinations it is an error.
func (t Layout) MapIndex(flat int64) (PointSet, error) {
	base, err := t.Base(flat)
	if err != nil {
		return nil, err
	}
	count, _ := replicaCount(t.Replica)
	out := make([]Point, 0, count)
	r := make([]int64, len(t.Replica))
	for n := int64(0); n < count; n++ {
		p := slices.Clone(base)
		for k, it := range t.Replica {
			if err := p.add(it.Axis, r[k], it.Stride); err != nil {
				return nil, err
			}
		}
		out = append(out, p)
		for k := len(r) - 1; k >= 0; k-- { // next replica combination, last fastest
			if r[k]++; r[k] < t.Replica[k].Extent {
				break
			}
			r[k] = 0
		}
	}
	slices.SortFunc(out, comparePoints)
	return slices.CompactFunc(out, func(a, b Point) bool { return comparePoints(a, b) == 0 }), nil
}

// Map is L(x) for the coordinate coord of a logical shape that t admits:
// the coordinate is flattened row-major and mapped by MapIndex.
func (t Layout) Map(shape, coord []int64) (PointSet, error) {
	if err := t.Admits(shape); err != nil {
		return nil, err
	}
	flat, err := RowMajorIndex(shape, coord)
	if err != nil {
		return nil, err
	}
	return t.MapIndex(flat)
}

func (t Layout) zeroPoint() Point {
	axes := t.Axes()
	p := make(Point, len(axes))
	for i, a := range axes {
		p[i] = AxisValue{Axis: a}
	}
	return p
}

// add adds c*stride to axis a of p, checking for overflow.
func (p Point) add(a Axis, c, stride int64) error {
	for i := range p {
		if p[i].Axis != a {
			continue
		}
		term, ok := layout.MulChecked(c, stride)
		if ok {
			p[i].Value, ok = layout.AddChecked(p[i].Value, term)
		}
		if !ok {
			return layout.Errorf("TileLayout", layout.CondOverflow, "axis %s: %d plus %d*%d", a, p[i].Value, c, stride)
		}
		return nil
	}
	return nil
}

func comparePoints(a, b Point) int {
	for i := range min(len(a), len(b)) {
		if a[i].Value != b[i].Value {
			if a[i].Value < b[i].Value {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

func replicaCount(rs []Iter) (int64, error) {
	n := int64(1)
	for _, it := range rs {
		var ok bool
		if n, ok = layout.MulChecked(n, it.Extent); !ok || n > MaxReplicas {
			return 0, layout.Errorf("TileLayout", CondReplica, "replica extents multiply past %d", MaxReplicas)
		}
	}
	return n, nil
}

// Swizzle is TIRx's SwizzleLayout(per_element M, swizzle_len B,
// atom_len S): addr(m) = f(m >> M) * 2^M + m mod 2^M with
// f(x) = x ^ ((x & ((2^B-1) << S)) >> S), which is CuTe's Swizzle<B,M,S>.
func Swizzle(perElement, swizzleLen, atomLen int) (layout.Swizzle, error) {
	sw := layout.Swizzle{B: swizzleLen, M: perElement, S: atomLen}
	return sw, sw.Validate("SwizzleLayout")
}

// SharedMemorySwizzle is the swizzle TIRx picks for an element width and a
// shared-memory swizzle mode of widthBytes (0: none, 32, 64 or 128):
// M = bitlen(128/dtypeBits) - 1 keeps 16-byte runs whole, B = 1, 2, 3 for
// 32B, 64B, 128B (0 for none), S = 3. dtypeBits must be a power of two <= 128.
func SharedMemorySwizzle(dtypeBits, widthBytes int) (layout.Swizzle, error) {
	const op = "SwizzleLayout"
	if dtypeBits <= 0 || dtypeBits > 128 || dtypeBits&(dtypeBits-1) != 0 {
		return layout.Swizzle{}, layout.Errorf(op, "element width must be a power of two up to 128 bits", "%d bits", dtypeBits)
	}
	m := bits.Len(uint(128/dtypeBits)) - 1
	var b int
	switch widthBytes {
	case 0:
		b = 0
	case 32:
		b = 1
	case 64:
		b = 2
	case 128:
		b = 3
	default:
		return layout.Swizzle{}, layout.Errorf(op, "swizzle mode is none, 32B, 64B or 128B", "%d bytes", widthBytes)
	}
	return Swizzle(m, b, 3)
}

// SharedMemoryBank is where the element at (swizzled) element address addr
// of dtypeBits bits lands in shared memory, in analysis/bank's model
// (bank.BankOf of its first byte, floor(addr*dtypeBits/8)): the bank is
// floor(addr*dtypeBits/32) mod 32, the line floor(addr*dtypeBits/1024).
func SharedMemoryBank(addr int64, dtypeBits int) (bankIndex, line int64, err error) {
	if addr < 0 || dtypeBits <= 0 {
		return 0, 0, layout.Errorf("SwizzleLayout", "address and element width must be non-negative", "address %d, %d bits", addr, dtypeBits)
	}
	b, ok := layout.MulChecked(addr, int64(dtypeBits))
	if !ok {
		return 0, 0, layout.Errorf("SwizzleLayout", layout.CondOverflow, "address %d of %d-bit elements", addr, dtypeBits)
	}
	bankIndex, line = bank.BankOf(b / 8)
	return bankIndex, line, nil
}

// tupleText prints a flat coordinate or shape as the sheets write it: (8,16); one mode alone: 8.
func tupleText(v []int64) string {
	if len(v) == 1 {
		return strconv.FormatInt(v[0], 10)
	}
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// MapAt is tirx_map(T, x): the point set L(x) of the flat index x.
func MapAt(t Layout, flat int64) (PointSet, error) {
	ps, err := t.MapIndex(flat)
	return ps, layout.Renamed("tirx_map", err)
}

// MapAtCoord is tirx_map(T, c, S): the point set of coordinate c of the
// shape S, which T must admit. It equals MapAt(T, RowMajorIndex(S, c)).
func MapAtCoord(t Layout, coord, shape []int64) (PointSet, error) {
	ps, err := t.Map(shape, coord)
	return ps, layout.Renamed("tirx_map", err)
}

func (Layout) IsValue() {} // a layout.Value

func (PointSet) IsValue() {} // a layout.Value

func (AxisList) IsValue() {} // a layout.Value
