package layout

import "sort"

// The operations by their CuTe names are analysis's table
// (analysis/ops_table.go), above this package, which imports none of it.
// The tests here that call an operation by name (the golden corpora, the
// overload and error cases) reach that table through these
// helpers; ops_table_hook_test.go (package layout_test, which may import
// analysis) fills TableOps before any test runs.

// Op is an entry of the table, as these tests see it.
type Op struct {
	Name, Signature, Doc string
	Apply                func(args []Value) (Value, error)
}

// TableOps holds the table's operations of the algebra (the analyses of
// banks, atoms and descriptors left out), sorted by name.
var TableOps []Op

// LookupOp finds an operation of the table by name.
func LookupOp(name string) (Op, bool) {
	i := sort.Search(len(TableOps), func(i int) bool { return TableOps[i].Name >= name })
	if i < len(TableOps) && TableOps[i].Name == name {
		return TableOps[i], true
	}
	return Op{}, false
}

// Ops lists the operations of the table, sorted by name.
func Ops() []Op {
	if len(TableOps) == 0 {
		panic("layout tests: the table of operations was not set (ops_table_hook_test.go)")
	}
	return TableOps
}

// Apply calls the table's operation name on args, as a sheet does.
func Apply(name string, args ...Value) (Value, error) {
	op, ok := LookupOp(name)
	if !ok {
		return nil, &Error{Op: name, Detail: "no such operation"}
	}
	return op.Apply(args)
}
