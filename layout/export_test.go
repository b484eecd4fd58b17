package layout

// ref is a pointer to a copy of v: the operations take their layouts by
// pointer, and a test passes them the results of calls.
func ref[T any](v T) *T { return &v }

// byValue is the tiled operation f on a layout passed by value, as the
// tables of tests list operations.
func byValue(f func(*Layout, Value) (*Layout, error)) func(Layout, Value) (Layout, error) {
	return func(l Layout, t Value) (Layout, error) { return Deref(f(&l, t)) }
}
