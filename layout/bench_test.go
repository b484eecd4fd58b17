package layout

import (
	"cmp"
	"encoding/json"
	"os"
	"sync"
	"testing"
)

// Benchmarks over the golden corpus's inputs: each iteration runs one case,
// cycling through every case CuTe accepts, so ns/op is the mean over the
// corpus. Run with
//
//	go test ./layout -run '^$' -bench 'Golden|CompositionRank2|ComplementDirect' -benchmem
//
// Targets (issue 3): composition of rank-2 layouts within 10x of CuTe's
// 10.7 ns and complement within 10x of 2.6 ns; every op at least 100x
// faster than pycute (composition 15.8 µs, complement 7.9 µs, coalesce
// 3.4 µs, logical_divide 28.7 µs).

var (
	benchOnce  sync.Once
	benchCases map[string][][]Value
)

// acceptedGoldenArgs is the parsed arguments of every golden case CuTe
// accepts, by operation.
func acceptedGoldenArgs(t testing.TB) map[string][][]Value {
	out := map[string][][]Value{}
	for name, cases := range loadGolden(t) {
		for _, c := range cases {
			if c.Error != nil {
				continue
			}
			if args, err := goldenArgs(c); err == nil {
				out[name] = append(out[name], args)
			}
		}
	}
	return out
}

// goldenInputs is the parsed arguments of every case of op that CuTe
// accepts and the registered op answers without error.
func goldenInputs(b *testing.B, op string) [][]Value {
	b.Helper()
	benchOnce.Do(func() { benchCases = acceptedGoldenArgs(b) })
	if _, ok := LookupOp(op); !ok {
		b.Skipf("operation %s is not implemented yet", op)
	}
	var out [][]Value
	for _, args := range benchCases[op] {
		if _, err := Apply(op, args...); err == nil {
			out = append(out, args)
		}
	}
	if len(out) == 0 {
		b.Skipf("no golden case of %s runs yet", op)
	}
	return out
}

// cycle is the case after case i of n, wrapping: a 64-bit division per
// iteration (i % n) would cost as much as the smallest operations timed.
func cycle(i, n int) int {
	if i++; i == n {
		return 0
	}
	return i
}

// BenchmarkGolden runs each operation through the registry (Apply) over
// its golden inputs: BenchmarkGolden/composition etc.
func BenchmarkGolden(b *testing.B) {
	for _, op := range []string{"coalesce", "composition", "complement", "logical_divide", "logical_product", "right_inverse"} {
		b.Run(op, func(b *testing.B) {
			cases := goldenInputs(b, op)
			b.ReportAllocs()
			b.ResetTimer()
			for n, i := 0, 0; n < b.N; n, i = n+1, cycle(i, len(cases)) {
				if _, err := Apply(op, cases[i]...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompositionRank2 calls Composition directly on the golden cases
// where both layouts are flat rank-2 layouts.
func BenchmarkCompositionRank2(b *testing.B) {
	var as, bs []Layout
	for _, args := range goldenInputs(b, "composition") {
		x, ok1 := args[0].(*Layout)
		y, ok2 := args[1].(*Layout)
		if ok1 && ok2 && flatRank(*x) == 2 && flatRank(*y) == 2 {
			as, bs = append(as, *x), append(bs, *y)
		}
	}
	if len(as) == 0 {
		b.Skip("no rank-2 composition in the corpus")
	}
	b.ReportAllocs()
	for k := 0; b.Loop(); k = cycle(k, len(as)) {
		if _, err := Composition(&as[k], &bs[k]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkComplementDirect calls Complement / ComplementTo directly on the
// golden cases.
func BenchmarkComplementDirect(b *testing.B) {
	type call struct {
		a  Layout
		m  IntTuple
		to bool
	}
	var calls []call
	for _, args := range goldenInputs(b, "complement") {
		a, ok := args[0].(*Layout)
		if !ok {
			continue
		}
		c := call{a: *a}
		if len(args) == 2 {
			c.m, c.to = args[1].(IntTuple), true
		}
		calls = append(calls, c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n, i := 0, 0; n < b.N; n, i = n+1, cycle(i, len(calls)) {
		c := calls[i]
		var err error
		if c.to {
			_, err = ComplementTo(&c.a, c.m)
		} else {
			_, err = Complement(&c.a)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// flatRank is the number of modes of l if they are all leaves, else -1.
func flatRank(l Layout) int {
	if !l.Shape.IsTuple() {
		return 1
	}
	for _, e := range l.Shape.Elems() {
		if e.IsTuple() {
			return -1
		}
	}
	return l.Shape.Len()
}

// BenchmarkGoldenDirect is BenchmarkGolden without the registry: each case
// calls the typed function (Coalesce, Composition, ...) on the golden
// inputs whose arguments are layouts (and a tiler or cotarget where the
// operation takes one), so ns/op is the algebra and its result tree alone,
// not the name look-up and the boxing of the result into a Value.
func BenchmarkGoldenDirect(b *testing.B) {
	type call func() (*Layout, error)
	calls := map[string][]call{}
	for _, op := range []string{"coalesce", "composition", "complement", "logical_divide", "logical_product", "right_inverse"} {
		for _, args := range goldenInputs(b, op) {
			a, ok := args[0].(*Layout)
			if !ok {
				continue
			}
			var c call
			switch {
			case len(args) == 1 && op == "coalesce":
				c = func() (*Layout, error) { return Coalesce(a) }
			case len(args) == 1 && op == "complement":
				c = func() (*Layout, error) { return Complement(a) }
			case len(args) == 1 && op == "right_inverse":
				c = func() (*Layout, error) { return RightInverse(a) }
			case len(args) == 2 && op == "complement":
				if m, ok := args[1].(IntTuple); ok {
					c = func() (*Layout, error) { return ComplementTo(a, m) }
				}
			case len(args) == 2 && op == "composition":
				if y, ok := args[1].(*Layout); ok {
					c = func() (*Layout, error) { return Composition(a, y) }
				}
			case len(args) == 2 && op == "logical_divide":
				t := args[1]
				c = func() (*Layout, error) { return LogicalDivide(a, t) }
			case len(args) == 2 && op == "logical_product":
				t := args[1]
				c = func() (*Layout, error) { return LogicalProduct(a, t) }
			}
			if c != nil {
				if _, err := c(); err == nil {
					calls[op] = append(calls[op], c)
				}
			}
		}
	}
	for _, op := range []string{"coalesce", "composition", "complement", "logical_divide", "logical_product", "right_inverse"} {
		b.Run(op, func(b *testing.B) {
			cs := calls[op]
			b.ReportAllocs()
			for i := 0; b.Loop(); i = cycle(i, len(cs)) {
				if _, err := cs[i](); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(cs)), "cases")
		})
	}
}

// pycuteCases is ../shared/bench/pycute_cases.json: the golden inputs
// pycute accepts, by operation, each argument a layout string or an integer.
var pycuteCases = cmp.Or(os.Getenv("CUTE_PYCUTE_CASES"), "../../shared/bench/pycute_cases.json")

// BenchmarkPycuteCases runs the typed functions on the inputs
// ../shared/bench/pycute_bench.py times pycute on, cycling through the
// cases each accepts (pycute per op: coalesce 3.4 us, complement 7.9 us,
// composition 15.8 us, logical_divide 28.7 us):
//
//	go test ./layout -run '^$' -bench PycuteCases -benchtime 200ms -count 3
func BenchmarkPycuteCases(b *testing.B) {
	data, err := os.ReadFile(pycuteCases)
	if err != nil {
		b.Skipf("no pycute cases: %v", err)
	}
	var byOp map[string][][]any
	if err := json.Unmarshal(data, &byOp); err != nil {
		b.Fatal(err)
	}
	arg := func(x any) Value {
		if s, ok := x.(string); ok {
			return Box(mustLayout(s))
		}
		return Int(int64(x.(float64)))
	}
	for _, op := range []string{"coalesce", "complement", "composition", "logical_divide", "logical_product", "right_inverse"} {
		var calls []func() (*Layout, error)
		for _, c := range byOp[op] {
			a := arg(c[0]).(*Layout)
			var f func() (*Layout, error)
			switch op {
			case "coalesce":
				f = func() (*Layout, error) { return Coalesce(a) }
			case "right_inverse":
				f = func() (*Layout, error) { return RightInverse(a) }
			case "complement":
				if len(c) == 1 {
					f = func() (*Layout, error) { return Complement(a) }
				} else if m, ok := arg(c[1]).(IntTuple); ok {
					f = func() (*Layout, error) { return ComplementTo(a, m) }
				}
			case "composition":
				switch y := arg(c[1]).(type) {
				case *Layout:
					f = func() (*Layout, error) { return Composition(a, y) }
				case IntTuple:
					f = func() (*Layout, error) { return Composition(a, ref(Make(Int(y.Value()), Int(1)))) }
				}
			case "logical_divide":
				t := arg(c[1])
				f = func() (*Layout, error) { return LogicalDivide(a, t) }
			case "logical_product":
				t := arg(c[1])
				f = func() (*Layout, error) { return LogicalProduct(a, t) }
			}
			if f != nil {
				if _, err := f(); err == nil {
					calls = append(calls, f)
				}
			}
		}
		b.Run(op, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i = cycle(i, len(calls)) {
				if _, err := calls[i](); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(calls)), "cases")
		})
	}
}
