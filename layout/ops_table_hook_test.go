package layout_test

import (
	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/internal/layouttest"
	"github.com/cute-lsp/cute-lsp/layout"
)

// init gives the tests of package layout what lives above this package:
// the table of operations (ops_table_test.go), its entries of the algebra
// sorted by name, and the random values they share with the tests of the
// packages above (random_test.go).
func init() {
	for _, op := range analysis.Ops() {
		if !op.Analysis {
			layout.TableOps = append(layout.TableOps, layout.Op{Name: op.Name, Signature: op.Signature, Doc: op.Doc, Apply: op.Apply})
		}
	}
	layout.WildTuple = layouttest.WildTuple
	layout.WildLayout = layouttest.WildLayout
	layout.PropertyLayout = layouttest.PropertyLayout
	layout.RandomSwizzle = layouttest.RandomSwizzle
}
