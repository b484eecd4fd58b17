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
func (num) IsValue()                {}

// Box is l as a Value: a Value holds a layout by pointer, so that a result
// can be allocated as one block with its tree nodes. Values are immutable once
// built: no one writes through the pointer.
func Box(l Layout) Value { return &l }

// Boxed is Box(l), err: an operation's result as a Value.
func Boxed(l Layout, err error) (Value, error) { return &l, err }
