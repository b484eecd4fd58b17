package layout_test

import (
	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/layout"
)

// init gives the tests of package layout the table of operations
// (ops_table_test.go): its entries of the algebra, sorted by name.
func init() {
	for _, op := range analysis.Ops() {
		if !op.Analysis {
			layout.TableOps = append(layout.TableOps, layout.Op{Name: op.Name, Signature: op.Signature, Doc: op.Doc, Apply: op.Apply})
		}
	}
}
