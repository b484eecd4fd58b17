package analysis

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// BenchmarkTableOps times the table's look-up and Apply, the path of a
// sheet's call, a hover and eval, on the cases of
// ../shared/bench/pycute_cases.json (parsed before timing); one op is one
// call, the mean over the cases. `make bench-ops` prints the same figures
// beside pycute's.
func BenchmarkTableOps(b *testing.B) {
	raw, err := os.ReadFile("../../shared/bench/pycute_cases.json")
	if err != nil {
		b.Skip(err)
	}
	var all map[string][][]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&all); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"coalesce", "complement", "composition", "right_inverse", "logical_divide", "logical_product"} {
		var cases [][]layout.Value
		for _, c := range all[name] {
			var args []layout.Value
			for _, a := range c {
				switch a := a.(type) {
				case json.Number:
					n, _ := strconv.ParseInt(string(a), 10, 64)
					args = append(args, layout.Int(n))
				case string:
					n, perr := grammar.ParseDescriptor(a)
					if perr != nil {
						b.Fatal(perr)
					}
					v, err := Eval(n, nil)
					if err != nil {
						b.Fatal(err)
					}
					args = append(args, v)
				}
			}
			cases = append(cases, args)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := ApplyOp(name, cases[i]...); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(cases) {
					i = 0
				}
			}
		})
	}
}

// floorSink keeps the floor benchmarks' results alive, so that the
// compiler removes no allocation they time.
var floorSink layout.Value

// BenchmarkTableFloor is what the table path costs apart from the algebra,
// as data for the distance to CuTe C++: the look-up of an entry by name;
// trivial calls through ApplyOp (rank and size of a small layout: look-up,
// Apply's tests of the argument, the answer, its integer boxed); and one
// result as the operations allocate it, a Value holding a layout of two
// modes, the layout and its four tree nodes in one block (layout's
// newResult), or a box alone (a leaf result's nodes are inline).
func BenchmarkTableFloor(b *testing.B) {
	n, perr := grammar.ParseDescriptor("(4,2):(1,4)")
	if perr != nil {
		b.Fatal(perr)
	}
	v, err := Eval(n, nil)
	if err != nil {
		b.Fatal(err)
	}
	l := v.(*layout.Layout)
	args := []layout.Value{v} // as the cases are passed: a variadic slice made in the loop would escape
	b.Run("lookup", func(b *testing.B) {
		for b.Loop() {
			if _, ok := lookupOp("composition"); !ok {
				b.Fatal("no composition")
			}
		}
	})
	for _, op := range []string{"rank", "size"} {
		b.Run(op, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := ApplyOp(op, args...)
				if err != nil {
					b.Fatal(err)
				}
				floorSink = r
			}
		})
	}
	b.Run("result", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := new(struct {
				l     layout.Layout
				nodes [4]layout.IntTuple
			})
			copy(r.nodes[:], l.Shape.Elems())
			copy(r.nodes[2:], l.Stride.Elems())
			r.l = layout.Make(layout.Tup(r.nodes[:2:2]...), layout.Tup(r.nodes[2:]...))
			floorSink = &r.l
		}
	})
	b.Run("box", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			floorSink = layout.Box(layout.Make(l.Shape, l.Stride)) // not Box(*l): that is l's own Value
		}
	})
}
