package hover

import "github.com/cute-lsp/cute-lsp/layout"

// isCoordinateLayout reports whether v maps to coordinates rather than
// offsets: a stride is a basis element ((4,8):(1@0,1@1), an identity
// tensor's ArithTuple(_0,0) o L). Coordinates are not memory: such a
// layout spans no bytes and has no descriptor.
func isCoordinateLayout(v layout.Value) bool {
	var stride layout.IntTuple
	switch v := v.(type) {
	case *layout.Layout:
		stride = v.Stride
	case layout.Composed:
		stride = v.Inner.Stride
	default:
		return false
	}
	flat := layout.FlattenToTuple(stride)
	for i := range flat.Len() {
		if flat.At(i).IsBasis() {
			return true
		}
	}
	return false
}
