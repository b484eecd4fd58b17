package tiled_test

import (
	"github.com/cute-lsp/cute-lsp/analysis"
	. "github.com/cute-lsp/cute-lsp/layout" // the tests write CuTe values as layout's own tests do
)

// The tests here call the thread-value operations by name, as a sheet does,
// through analysis's table of operations (which imports this package; so
// they are in package tiled_test).

// Apply calls the table's operation name on args.
func Apply(name string, args ...Value) (Value, error) {
	for _, op := range analysis.Ops() {
		if op.Name == name {
			return op.Apply(args)
		}
	}
	return nil, &Error{Op: name, Detail: "no such operation"}
}
