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
