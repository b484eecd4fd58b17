package analysis

import (
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// sink keeps results alive, as a caller of the table does.
var sink layout.Value

// TestTableAddsNoAllocations: a call through the table (look-up and the
// entry's adapter) allocates no more than the typed call of the algebra
// it makes, its result put in a Value: the adapters copy no arguments,
// build no closures and look nothing up.
func TestTableAddsNoAllocations(t *testing.T) {
	l := layout.Make(layout.Ints(4, 2, 3), layout.Ints(2, 1, 8))
	b := layout.Make(layout.Ints(2, 2), layout.Ints(1, 4))
	s, d := layout.Ints(8, 6), layout.Ints(4, 4)
	for _, c := range []struct {
		op     string
		args   []layout.Value
		direct func() (layout.Value, error)
	}{
		{"coalesce", []layout.Value{l}, func() (layout.Value, error) { return layout.Coalesce(l) }},
		{"complement", []layout.Value{b, layout.Int(32)}, func() (layout.Value, error) { return layout.ComplementTo(b, layout.Int(32)) }},
		{"composition", []layout.Value{l, b}, func() (layout.Value, error) { return layout.Composition(l, b) }},
		{"right_inverse", []layout.Value{l}, func() (layout.Value, error) { return layout.RightInverse(l) }},
		{"logical_divide", []layout.Value{l, b}, func() (layout.Value, error) { return layout.LogicalDivide(l, b) }},
		{"logical_product", []layout.Value{b, l}, func() (layout.Value, error) { return layout.LogicalProduct(b, l) }},
		{"product", []layout.Value{s}, func() (layout.Value, error) { return layout.Product(s) }},
		{"ceil_div", []layout.Value{s, d}, func() (layout.Value, error) { return layout.CeilDiv(s, d) }},
		{"select", []layout.Value{l, layout.Int(2), layout.Int(0)}, func() (layout.Value, error) { return layout.Select(l, 2, 0) }},
		{"group", []layout.Value{l, layout.Int(0), layout.Int(2)}, func() (layout.Value, error) { return layout.Group(l, 0, 2) }},
		{"size", []layout.Value{l, layout.Int(1)}, func() (layout.Value, error) {
			m, err := l.Get(1)
			if err != nil {
				return nil, err
			}
			n, err := m.Size()
			return layout.Int(n), err
		}},
		{"size", []layout.Value{l}, func() (layout.Value, error) {
			n, err := l.Size()
			return layout.Int(n), err
		}},
	} {
		op, ok := lookupOp(c.op)
		if !ok {
			t.Fatalf("no %s", c.op)
		}
		if _, err := op.Apply(c.args); err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		table := testing.AllocsPerRun(100, func() {
			op, _ := lookupOp(c.op)
			sink, _ = op.Apply(c.args)
		})
		direct := testing.AllocsPerRun(100, func() { sink, _ = c.direct() })
		if table > direct {
			t.Errorf("%s: %v allocations through the table, %v for the typed call", c.op, table, direct)
		}
	}
}
