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
		{"coalesce", []layout.Value{layout.Box(l)}, func() (layout.Value, error) { return result(layout.Coalesce(&l)) }},
		{"complement", []layout.Value{layout.Box(b), layout.Int(32)}, func() (layout.Value, error) { return result(layout.ComplementTo(&b, layout.Int(32))) }},
		{"composition", []layout.Value{layout.Box(l), layout.Box(b)}, func() (layout.Value, error) { return result(layout.Composition(&l, &b)) }},
		{"right_inverse", []layout.Value{layout.Box(l)}, func() (layout.Value, error) { return result(layout.RightInverse(&l)) }},
		{"logical_divide", []layout.Value{layout.Box(l), layout.Box(b)}, func() (layout.Value, error) { return result(layout.LogicalDivide(&l, layout.Box(b))) }},
		{"logical_product", []layout.Value{layout.Box(b), layout.Box(l)}, func() (layout.Value, error) { return result(layout.LogicalProduct(&b, layout.Box(l))) }},
		{"product", []layout.Value{s}, func() (layout.Value, error) { return layout.Product(s) }},
		{"ceil_div", []layout.Value{s, d}, func() (layout.Value, error) { return layout.CeilDiv(s, d) }},
		{"select", []layout.Value{layout.Box(l), layout.Int(2), layout.Int(0)}, func() (layout.Value, error) { return layout.Boxed(layout.Select(l, 2, 0)) }},
		{"group", []layout.Value{layout.Box(l), layout.Int(0), layout.Int(2)}, func() (layout.Value, error) { return layout.Boxed(layout.Group(l, 0, 2)) }},
		{"size", []layout.Value{layout.Box(l), layout.Int(1)}, func() (layout.Value, error) {
			m, err := l.Get(1)
			if err != nil {
				return nil, err
			}
			n, err := m.Size()
			return layout.Int(n), err
		}},
		{"size", []layout.Value{layout.Box(l)}, func() (layout.Value, error) {
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

// TestTableResultIsOneAllocation: a result of several modes through the
// table, of each operation pycute also has, is one allocation: its Value's
// box and its tree nodes in one block (layout's newResult).
func TestTableResultIsOneAllocation(t *testing.T) {
	l := layout.Box(layout.Make(layout.Ints(4, 2, 3), layout.Ints(2, 1, 8)))
	b := layout.Box(layout.Make(layout.Ints(2, 2), layout.Ints(1, 4)))
	gap := layout.Box(layout.Make(layout.Ints(4, 2, 3), layout.Ints(1, 8, 64)))
	merge := layout.Box(layout.Make(layout.Ints(2, 2, 3, 5), layout.Ints(1, 2, 8, 32)))
	for _, c := range []struct {
		op   string
		args []layout.Value
	}{
		{"coalesce", []layout.Value{merge}},
		{"complement", []layout.Value{b, layout.Int(32)}},
		{"complement", []layout.Value{gap}},
		{"composition", []layout.Value{l, b}},
		{"right_inverse", []layout.Value{l}},
		{"logical_divide", []layout.Value{l, b}},
		{"logical_product", []layout.Value{b, l}},
	} {
		v, err := ApplyOp(c.op, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		if r, ok := v.(*layout.Layout); !ok || r.Rank() < 2 {
			t.Fatalf("%s%v = %v: want a layout of several modes", c.op, c.args, v)
		}
		if n := testing.AllocsPerRun(100, func() { sink, _ = ApplyOp(c.op, c.args...) }); n != 1 {
			t.Errorf("%s%v: %v allocations, want 1", c.op, c.args, n)
		}
	}
}

// TestTableReturnsUnchangedArgument: an operation that changes nothing
// (coalesce of a coalesced layout, composition with an A that maps B's
// modes to themselves) hands back its argument's Value, allocating
// nothing; an integer argument N still comes back as the layout N:1.
func TestTableReturnsUnchangedArgument(t *testing.T) {
	l := layout.Make(layout.Ints(2, 4), layout.Ints(4, 1))
	id, b := layout.Make(layout.Int(128), layout.Int(1)), layout.Make(layout.Ints(2, 2), layout.Ints(1, 2))
	for _, c := range []struct {
		op   string
		args []layout.Value
		same int // the argument returned
	}{
		{"coalesce", []layout.Value{layout.Box(l)}, 0},
		{"coalesce", []layout.Value{layout.Box(id)}, 0},
		{"coalesce", []layout.Value{layout.Box(layout.Make(layout.Int(480), layout.Int(32)))}, 0}, // no shared leaf box holds it
		{"coalesce", []layout.Value{layout.Box(layout.Make(layout.Int(4), layout.Int(-1)))}, 0},
		{"filter", []layout.Value{layout.Box(layout.Make(layout.Int(480), layout.Int(32)))}, 0},
		{"composition", []layout.Value{layout.Box(id), layout.Box(b)}, 1},
	} {
		v, err := ApplyOp(c.op, c.args...)
		if err != nil {
			t.Fatalf("%s%v: %v", c.op, c.args, err)
		}
		if got, ok := v.(*layout.Layout); !ok || !got.SameAs(c.args[c.same].(*layout.Layout)) {
			t.Errorf("%s%v = %v, not argument %d itself", c.op, c.args, v, c.same)
		}
		if n := testing.AllocsPerRun(100, func() { sink, _ = ApplyOp(c.op, c.args...) }); n != 0 {
			t.Errorf("%s%v: %v allocations", c.op, c.args, n)
		}
	}
	v, err := ApplyOp("coalesce", layout.Int(8))
	if _, ok := v.(*layout.Layout); !ok || err != nil || v.String() != "8:1" {
		t.Errorf("coalesce(8) = %v (%T), %v; want the layout 8:1", v, v, err)
	}
}

// TestSmallLeafLayoutsShared: a small leaf layout result (8:1, 3:4,
// 4096:1), static or with run-time integers, comes in its shared box,
// allocating nothing, with its static marks as computed; one with a value
// outside the table is boxed anew (layout's TestSmallLeafNumbers numbers
// the table).
func TestSmallLeafLayoutsShared(t *testing.T) {
	for _, c := range []struct {
		op     string
		args   []layout.Value
		want   string // with static marks
		shared bool
	}{
		{"complement", []layout.Value{layout.Box(layout.Make(layout.Int(4), layout.Int(1))), layout.Int(12)}, "_3:_4", true},
		{"right_inverse", []layout.Value{layout.Box(layout.Make(layout.Ints(4, 2), layout.Ints(1, 4)))}, "_8:_1", true},
		{"coalesce", []layout.Value{layout.Box(layout.Make(layout.Ints(64, 64), layout.Ints(1, 64)))}, "_4096:_1", true},
		{"coalesce", []layout.Value{layout.Box(layout.Make(layout.Ints(3, 1024), layout.Ints(1, 3)))}, "_3072:_1", false},
		{"complement", []layout.Value{layout.Box(layout.Make(layout.Dyn(4), layout.Int(1))), layout.Int(12)}, "3:4", true},
		{"complement", []layout.Value{layout.Box(layout.Make(layout.Int(4), layout.Int(1))), layout.Int(12)}, "_3:_4", true},
	} {
		v, err := ApplyOp(c.op, c.args...)
		if err != nil {
			t.Fatalf("%s%v: %v", c.op, c.args, err)
		}
		if l, ok := v.(*layout.Layout); !ok || l.Format(true) != c.want {
			t.Errorf("%s%v = %v, want %s", c.op, c.args, v, c.want)
		}
		n := testing.AllocsPerRun(100, func() { sink, _ = ApplyOp(c.op, c.args...) })
		if shared := n == 0; shared != c.shared {
			t.Errorf("%s%v: %v allocations, shared box %v", c.op, c.args, n, c.shared)
		}
	}
}
