package layout

import "testing"

// bufferCalls are the operations a Buffer offers, on the golden inputs
// they take: each call runs the heap function and the Buffer method.
type bufferCall struct {
	args []Value
	f    func(*Buffer) (Layout, error)
}

func bufferCalls(t testing.TB) map[string][]bufferCall {
	calls := map[string][]bufferCall{}
	for name, cases := range acceptedGoldenArgs(t) {
		for _, args := range cases {
			a, ok := args[0].(Layout)
			if !ok {
				continue
			}
			var f func(*Buffer) (Layout, error)
			switch {
			case len(args) == 1 && name == "coalesce":
				f = func(b *Buffer) (Layout, error) { return b.Coalesce(a) }
			case len(args) == 1 && name == "complement":
				f = func(b *Buffer) (Layout, error) { return b.Complement(a) }
			case len(args) == 1 && name == "right_inverse":
				f = func(b *Buffer) (Layout, error) { return b.RightInverse(a) }
			case len(args) == 2 && name == "complement":
				if m, ok := args[1].(IntTuple); ok {
					f = func(b *Buffer) (Layout, error) { return b.ComplementTo(a, m) }
				}
			case len(args) == 2 && name == "composition":
				if y, ok := args[1].(Layout); ok {
					f = func(b *Buffer) (Layout, error) { return b.Composition(a, y) }
				}
			case len(args) == 2 && name == "logical_divide":
				f = func(b *Buffer) (Layout, error) { return b.LogicalDivide(a, args[1]) }
			case len(args) == 2 && name == "logical_product":
				f = func(b *Buffer) (Layout, error) { return b.LogicalProduct(a, args[1]) }
			}
			if f != nil {
				calls[name] = append(calls[name], bufferCall{args, f})
			}
		}
	}
	return calls
}

// TestBufferResultsMatchHeap: every Buffer method gives what the package's
// function gives, on every golden input it takes, while the buffer fills,
// grows and is reset; a result stays intact until the Reset after it.
func TestBufferResultsMatchHeap(t *testing.T) {
	buf := NewBuffer(16) // small: the growth path runs too
	n := 0
	for name, fs := range bufferCalls(t) {
		for i, c := range fs {
			f := c.f
			want, werr := f(nil)
			got, gerr := f(buf)
			if (werr == nil) != (gerr == nil) || got.String() != want.String() {
				t.Fatalf("%s%v: Buffer gives %v, %v; the heap %v, %v", name, c.args, got, gerr, want, werr)
			}
			if werr == nil {
				n++
			}
			// Results built since the last Reset must survive the calls after them.
			again, _ := f(buf)
			if got.String() != want.String() || again.String() != want.String() {
				t.Fatalf("%s%v: result changed to %v by the next call in the buffer", name, c.args, got)
			}
			if i%7 == 0 {
				buf.Reset()
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d golden cases ran through a Buffer", n)
	}
}

// TestBufferAllocatesNothing: in a loop that resets its Buffer, the
// operations allocate nothing once the buffer has grown.
func TestBufferAllocatesNothing(t *testing.T) {
	buf := NewBuffer(0)
	covered := map[string]int{}
	defer func() {
		t.Logf("golden cases checked: %v", covered)
		for _, op := range []string{"coalesce", "composition", "complement", "right_inverse", "logical_divide", "logical_product"} {
			if covered[op] < 20 {
				t.Errorf("only %d golden cases of %s checked", covered[op], op)
			}
		}
	}()
	for name, fs := range bufferCalls(t) {
		for _, c := range fs {
			c.f(buf) // grow
			buf.Reset()
		}
		for _, c := range fs {
			f := c.f
			if _, err := f(nil); err != nil || !smallArgs(c.args) {
				continue // errors are worded on the heap; see smallArgs
			}
			covered[name]++
			if allocs := testing.AllocsPerRun(20, func() {
				f(buf)
				buf.Reset()
			}); allocs != 0 {
				t.Errorf("%s%v: %v allocations per call through a Buffer", name, c.args, allocs)
				break
			}
		}
	}
}

// smallArgs reports whether the arguments are what the zero-allocation
// promise covers: layouts of at most MaxFlatRank leaves (longer ones spill
// the kernels' stack arrays to the heap); tilers' layouts too.
func smallArgs(args []Value) bool {
	for _, a := range args {
		switch a := a.(type) {
		case Layout:
			if Flatten(a.Shape).Len() > MaxFlatRank {
				return false
			}
		case Tiler:
			for _, m := range a.Modes {
				if m.Sub != nil || Flatten(m.Layout.Shape).Len() > MaxFlatRank {
					return false
				}
			}
		}
	}
	return true
}

// TestBufferCoalesceGivesBackUnusedNodes: a coalesce through a buffer whose
// result is one mode, or that goes the tree's way (a run-time or unknown
// leaf), leaves the buffer as it was, and its result is the heap's.
func TestBufferCoalesceGivesBackUnusedNodes(t *testing.T) {
	buf := NewBuffer(64)
	for _, l := range []Layout{
		mustLayout("(2,4):(1,2)"),
		mustLayout("(1,1):(3,5)"),
		Make(Tup(Int(2), Dyn(4)), Ints(1, 2)),
		mustLayout("(2,?):(1,2)"),
		Make(Ints(2, 4), Ints(1, 2, 3)),
	} {
		used := buf.used
		got, gotErr := buf.Coalesce(l)
		want, wantErr := Coalesce(l)
		if got.String() != want.String() || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("coalesce(%v): buffer %v, %v; heap %v, %v", l, got, gotErr, want, wantErr)
		}
		if buf.used != used {
			t.Errorf("coalesce(%v) = %v kept %d nodes of the buffer", l, got, buf.used-used)
		}
	}
	if got, _ := buf.Coalesce(mustLayout("(2,4):(1,4)")); got.String() != "(2,4):(1,4)" || buf.used != 2*MaxFlatRank {
		t.Errorf("a result of two modes: %v, %d nodes used", got, buf.used)
	}
}
