package layout

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

// Box is l as a Value: a Value holds a layout by pointer, so that a result
// can be allocated as one block with its tree nodes. Values are immutable once
// built: no one writes through the pointer.
func Box(l Layout) Value { return &l }

// Boxed is Box(l), err: an operation's result as a Value.
func Boxed(l Layout, err error) (Value, error) { return &l, err }

// An operation's result and its tree nodes in one block, so that a Value
// holding the result costs one allocation: the block's Layout points into
// its own nodes. Values are immutable once built (nothing writes a Layout's
// nodes after the operation that built them returns), so a block is never
// copied. The sizes are the allocator's classes, of results of rank 2 to 8.
type (
	result4 struct {
		l     Layout
		nodes [4]IntTuple
	}
	result6 struct {
		l     Layout
		nodes [6]IntTuple
	}
	result8 struct {
		l     Layout
		nodes [8]IntTuple
	}
	result12 struct {
		l     Layout
		nodes [12]IntTuple
	}
	result16 struct {
		l     Layout
		nodes [16]IntTuple
	}
)

// newResult is a block for a result of n tree nodes: the Layout to set to
// the result once its trees are built in nodes; nil for no nodes (a leaf
// layout or the empty one: the Value's box alone, which the table may share).
func newResult(n int) (*Layout, []IntTuple) {
	switch {
	case n == 0:
		return nil, make([]IntTuple, 0) // the empty tuple's elements, as before
	case n <= 4:
		r := new(result4)
		return &r.l, r.nodes[:n:n]
	case n <= 6:
		r := new(result6)
		return &r.l, r.nodes[:n:n]
	case n <= 8:
		r := new(result8)
		return &r.l, r.nodes[:n:n]
	case n <= 12:
		r := new(result12)
		return &r.l, r.nodes[:n:n]
	case n <= 16:
		r := new(result16)
		return &r.l, r.nodes[:n:n]
	}
	return new(Layout), make([]IntTuple, n)
}

// valueOnly is an operation's result without its block, for callers that take a Layout.
func valueOnly(l Layout, _ *Layout, err error) (Layout, error) { return l, err }
