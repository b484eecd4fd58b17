package layout

import (
	"math/bits"
	"sync/atomic"
)

// Value is anything a CuTe operation takes or returns: an IntTuple (plain
// integers included), a Layout, a Composed layout, a Swizzle, a Tiler or a Tag.
// The operations themselves take and return their own types; the table
// that calls them by their CuTe names, on Values, is analysis's (ops_table.go).
type Value interface {
	String() string
	IsValue() // marks the kinds of Value; a layout is held as *Layout
}

func (*Layout) IsValue()            {}
func (IntTuple) IsValue()           {}
func (Composed) IsValue()           {}
func (Swizzle) IsValue()            {}
func (Tiler) IsValue()              {}
func (TilerMode) IsValue()          {}
func (Tag) IsValue()                {}
func (Bool) IsValue()               {}
func (Intervals) IsValue()          {}
func (Shown) IsValue()              {}
func (Partition) IsValue()          {}
func (ComposedPartition) IsValue()  {}
func (LayoutAfterSwizzle) IsValue() {}
func (NestedComposed) IsValue()     {}
func (tileArg) IsValue()            {}
func (errorValue) IsValue()         {}

// Box is l as a Value, by pointer: of an operation's result, the block it
// was built in (newResult); of a small leaf layout (8:1, 4096:1: integers
// below 32 or powers of two up to 2^20), a box shared by all, as the runtime
// shares small integers. Values are immutable: no one writes through it.
func Box(l Layout) Value { return l.Value() }

// Value is *l as a Value, as Box(*l) is, without copying l: its box (boxed),
// the block l's trees were built in, a shared small leaf layout's, or a new one.
func (l *Layout) Value() Value { return l.boxed() }

func (l *Layout) boxed() *Layout {
	if b := l.box; b != nil && (sameElems(&l.Shape, &b.Shape) && sameElems(&l.Stride, &b.Stride) || l.SameAs(b)) {
		return b
	}
	if i, ok := smallLeaf(&l.Shape); ok {
		if j, ok := smallLeaf(&l.Stride); ok {
			if b := &leafBoxes[i*smallLeafSlots+j]; b.Load() != nil || b.CompareAndSwap(nil, newBox(l)) {
				return b.Load() // a caller that lost a race to fill it boxes its own
			}
		}
	}
	return newBox(l)
}

func newBox(l *Layout) *Layout { // a new Value holding *l, known to it: Box of its copies is it
	b := new(Layout)
	*b = *l
	b.box = b
	return b
}

// leafBoxes are the small leaf layouts' boxes, filled on first use, shared:
// nothing writes the layout a Value holds (layout's operations read it).
var leafBoxes [smallLeafSlots * smallLeafSlots]atomic.Pointer[Layout]

const (
	smallLeafValues = 32 + 16 // 0..31, then 2^5..2^20
	smallLeafSlots  = 2 * smallLeafValues
)

// smallLeaf numbers the integer leaf t when it is one leafBoxes holds: its
// value's number, plus smallLeafValues when it is run time.
func smallLeaf(t *IntTuple) (int, bool) {
	v := t.val
	if v < 0 || v > 1<<20 || t.kind != kindInt || len(t.sub) != 0 || v >= 32 && v&(v-1) != 0 {
		return 0, false
	}
	i := int(v)
	if v >= 32 {
		i = 27 + bits.TrailingZeros64(uint64(v))
	}
	if !t.static {
		i += smallLeafValues
	}
	return i, true
}

// Deref is an operation's result *l, err, as a Layout (the zero one with an error).
func Deref(l *Layout, err error) (Layout, error) {
	if err != nil {
		return Layout{}, err
	}
	return *l, nil
}

// Boxed is Box(l), err: an operation's result as a Value.
func Boxed(l Layout, err error) (Value, error) { return Box(l), err }

// An operation's result and its tree nodes in one block, so that a Value
// holding the result costs one allocation: the block's Layout points into
// its own nodes. Values are immutable once built (nothing writes a Layout's
// nodes after the operation that built them returns), so a block is never
// copied. Nodes is an array of 4, 6, 8, 12 or 16 nodes, for results of rank
// 2 to 8, each a block of about one of the allocator's size classes.
type result[Nodes any] struct {
	l     Layout
	nodes Nodes
}

// newResult is a block for a result of n tree nodes: the Layout to set to
// the result once its trees are built in nodes (for no nodes, the empty
// layout's; a leaf layout is boxed alone, shared where it is small).
func newResult(n int) (*Layout, []IntTuple) {
	switch {
	case n == 0:
		return new(Layout), make([]IntTuple, 0) // the empty tuple's elements, as before
	case n <= 4:
		r := new(result[[4]IntTuple])
		return &r.l, r.nodes[:n:n]
	case n <= 6:
		r := new(result[[6]IntTuple])
		return &r.l, r.nodes[:n:n]
	case n <= 8:
		r := new(result[[8]IntTuple])
		return &r.l, r.nodes[:n:n]
	case n <= 12:
		r := new(result[[12]IntTuple])
		return &r.l, r.nodes[:n:n]
	case n <= 16:
		r := new(result[[16]IntTuple])
		return &r.l, r.nodes[:n:n]
	}
	return new(Layout), make([]IntTuple, n)
}

// setTuples makes the block b (newResult) the layout of the tuples of shape
// and stride, knowing b, so that Box of it is b; field by field, as a whole
// IntTuple stored into the heap is built on the stack and copied.
func setTuples(b *Layout, shape, stride []IntTuple) {
	b.Shape.sub, b.Shape.kind = shape, kindTuple
	b.Stride.sub, b.Stride.kind = stride, kindTuple
	b.box = b
}

// sameElems reports whether t and u are tuples over the same elements in
// memory, as a block's trees are: a tuple's own value and mark mean nothing.
func sameElems(t, u *IntTuple) bool {
	return len(t.sub) == len(u.sub) && len(t.sub) > 0 && &t.sub[0] == &u.sub[0] && t.kind == kindTuple && u.kind == kindTuple
}
