package layout

// Value is anything a CuTe operation takes or returns: an IntTuple (plain
// integers included), a Layout, a Composed layout, a Swizzle, a Tiler or a Tag.
// The operations themselves take and return their own types; the table
// that calls them by their CuTe names, on Values, is analysis's (ops_table.go).
type Value interface {
	String() string
}
