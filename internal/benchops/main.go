// Command benchops times the operations pycute also has (coalesce,
// complement, composition, right_inverse, logical_divide, logical_product)
// on the cases of ../shared/bench/pycute_cases.json, through the path a
// sheet statement, a hover and `cute-lsp eval` take: the table's look-up
// by name and the entry's Apply (analysis.ApplyOp, as binder.call does it). The
// arguments are parsed and bound before timing; nothing is printed while
// timing. It prints `OP: X ns/op`, the mean over the cases, one line per
// operation (the least of -rounds rounds, the operations taking turns: on
// a shared machine the least disturbed round is the steadiest figure),
// with the process's CPU time and the heap allocations of a call beside it;
// then pycute's figures on the same cases (pycute_bench.py, when
// $CUTLASS/python/pycute exists; CUTLASS defaults to /work/cutlass), run
// after ours in every round and the least of the rounds too, so that a
// ratio compares rounds taken side by side; and the ratio pycute/ours per
// operation. `make bench-ops` runs it.
//
// With -runtime, every integer of the cases is bound as a run-time integer
// (as the C++ reader binds `make_shape(8, 4)`), the operations are those
// CuTe C++ is timed on with run-time integers (composition, complement,
// logical_divide, on testdata/bench/runtime_cases.json), and -cpp names the
// script that builds and runs that C++ program (cute_runtime_bench.sh, when
// CUTLASS_DIR and CCCL_INC are set), run in every round as pycute is; the
// ratio printed is ours/C++.
//
// With -floor, each round also times what the table path costs apart from
// the algebra (floorCalls: a trivial call through ApplyOp, a result's box,
// a two-mode result's allocations), printed as `floor NAME: X ns/op`, the
// least of the rounds, so that a gap to C++ can be set beside what no
// algebra removes.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// opNames are the operations timed, in pycute_bench.py's order.
var opNames = []string{"coalesce", "complement", "composition", "right_inverse", "logical_divide", "logical_product"}

// runTimeOps are the operations timed with run-time integers beside CuTe C++.
var runTimeOps = []string{"composition", "complement", "logical_divide"}

func main() {
	cases := flag.String("cases", "../shared/bench/pycute_cases.json", "the cases, as pycute_bench.py reads them (with -runtime, testdata/bench/runtime_cases.json unless given)")
	script := flag.String("pycute", "../shared/bench/pycute_bench.py", "pycute's timing script")
	dur := flag.Duration("dur", time.Second, "time spent on each operation in each round")
	rounds := flag.Int("rounds", 3, "rounds; each operation's figure is its least, ours and the reference's alike")
	runTime := flag.Bool("runtime", false, "bind every integer as a run-time integer and compare with CuTe C++ (-cpp)")
	cpp := flag.String("cpp", "testdata/bench/cute_runtime_bench.sh", "with -runtime: the script that times CuTe C++ on the same cases")
	floor := flag.Bool("floor", false, "also time, in every round, what the table path costs apart from the algebra (floorCalls)")
	flag.Parse()
	if *runTime {
		opNames, dynamicArgs = runTimeOps, true
		explicit := false
		flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "cases" })
		if !explicit {
			// The C++ program's cases: pycute's include calls that divide by
			// zero with run-time integers (composition((4,2):(1,4),
			// (2,2):(0,1)): a run-time stride 0 is no static 0, and CuTe's
			// composition divides by it), which loadCases refuses.
			*cases = "testdata/bench/runtime_cases.json"
		}
	}
	byOp, err := loadCases(*cases)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchops:", err)
		os.Exit(1)
	}
	// The reference: pycute, or with -runtime CuTe C++.
	reference, refName, ratioOf := func() (map[string]float64, string) { return timePycute(*script, *cases, *dur) }, "pycute", "pycute/ours"
	if *runTime {
		reference, refName, ratioOf = func() (map[string]float64, string) { return timeCpp(*cpp, *dur) }, "cute-c++", "ours/C++"
	}
	// Each round times ours, then the reference, so that both sides' least
	// figures come from rounds taken side by side on a machine others share.
	ours := newFigures()
	var theirs map[string]float64
	note := ""
	floors := map[string]float64{}
	for range max(*rounds, 1) {
		ours.round(byOp, *dur)
		if *floor {
			if err := timeFloors(floors, *dur); err != nil {
				fmt.Fprintln(os.Stderr, "benchops:", err)
				os.Exit(1)
			}
		}
		if note != "" {
			continue
		}
		var ref map[string]float64
		if ref, note = reference(); note != "" {
			continue
		}
		if theirs == nil {
			theirs = ref
		}
		for op, ns := range ref {
			theirs[op] = min(theirs[op], ns)
		}
	}
	for _, op := range opNames {
		f := ours[op]
		fmt.Printf("%s: %.1f ns/op (%.1f CPU ns/op, %.2f allocs/op)\n", op, f.ns, f.cpuNs, f.allocs)
	}
	for _, c := range floorCalls {
		if ns, ok := floors[c.name]; ok {
			fmt.Printf("floor %s: %.1f ns/op\n", c.name, ns)
		}
	}
	if note != "" {
		fmt.Println(note)
		return
	}
	for _, op := range opNames {
		if ns, ok := theirs[op]; ok {
			fmt.Printf("%s %s: %.2f ns/op\n", refName, op, ns)
		}
	}
	for _, op := range opNames {
		ns, ok := theirs[op]
		if !ok || ns <= 0 || ours[op].ns <= 0 {
			continue
		}
		ratio := ns / ours[op].ns
		if *runTime {
			ratio = ours[op].ns / ns
		}
		fmt.Printf("ratio %s %s: %.1f\n", ratioOf, op, ratio)
	}
}

// figure is what a call of an operation costs, the mean over its cases:
// the time, the process's CPU time (this goroutine's work and the
// collector's, steadier than the time on a machine others share), and the
// heap allocations (the steadiest).
type figure struct {
	ns, cpuNs, allocs float64
}

// figures is each operation's figure so far: its time and CPU time the
// least over the rounds taken, its allocations counted once.
type figures map[string]figure

func newFigures() figures {
	out := figures{}
	for _, name := range opNames {
		out[name] = figure{ns: -1, cpuNs: -1, allocs: -1}
	}
	return out
}

// round times every operation once, in turn, keeping each one's least figures.
func (out figures) round(byOp map[string][][]layout.Value, dur time.Duration) {
	for _, name := range opNames {
		f := out[name]
		if f.allocs < 0 {
			f.allocs = allocsPerCall(name, byOp[name])
		}
		ns, cpuNs := meanCall(name, byOp[name], dur)
		if f.ns < 0 || ns < f.ns {
			f.ns = ns
		}
		if f.cpuNs < 0 || cpuNs < f.cpuNs {
			f.cpuNs = cpuNs
		}
		out[name] = f
	}
}

// floorCalls are what the table path costs apart from the algebra, on the
// layout (4,2):(1,4) (run-time with -runtime), for the distance to CuTe
// C++ (which allocates nothing and looks nothing up): a trivial call
// through ApplyOp, as the operations are called (rank: the look-up, Apply's
// tests of the argument, the answer's integer boxed); a layout result's box
// (a leaf result's one allocation, where it is not shared); and a two-mode
// result as the operations allocate it, its box and its four tree nodes in
// one block (layout's newResult).
var floorCalls = []struct {
	name string
	f    func(l layout.Layout, args []layout.Value)
}{
	{"ApplyOp(rank)", func(l layout.Layout, args []layout.Value) { floorSink, _ = call("rank", args) }},
	{"result box", func(l layout.Layout, args []layout.Value) { floorSink = layout.Box(l) }},
	{"two-mode result", func(l layout.Layout, args []layout.Value) {
		r := new(resultBlock)
		copy(r.nodes[:], l.Shape.Elems())
		copy(r.nodes[2:], l.Stride.Elems())
		r.l = layout.Make(layout.Tup(r.nodes[:2:2]...), layout.Tup(r.nodes[2:]...))
		floorSink = &r.l
	}},
}

// floorSink keeps the floor calls' results, so that none is optimized away.
var floorSink layout.Value

// resultBlock is a two-mode result as layout's newResult allocates it.
type resultBlock struct {
	l     layout.Layout
	nodes [4]layout.IntTuple
}

// timeFloors times each floor call for dur, keeping its least figure in out.
func timeFloors(out map[string]float64, dur time.Duration) error {
	v, err := argValue("(4,2):(1,4)")
	if err != nil {
		return err
	}
	l, args := v.(*layout.Layout), []layout.Value{v}
	for _, c := range floorCalls {
		calls := 0
		start := time.Now()
		for time.Since(start) < dur {
			for range 1000 {
				c.f(*l, args)
			}
			calls += 1000
		}
		ns := float64(time.Since(start).Nanoseconds()) / float64(calls)
		if old, ok := out[c.name]; !ok || ns < old {
			out[c.name] = ns
		}
	}
	return nil
}

// allocsPerCall is the mean number of heap allocations of a call of name
// over its cases.
func allocsPerCall(name string, cases [][]layout.Value) float64 {
	const passes = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range passes {
		for _, args := range cases {
			call(name, args)
		}
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / float64(passes*len(cases))
}

// loadCases is the arguments of every case of each operation timed, bound
// as a sheet binds them; each case is checked to evaluate.
func loadCases(path string) (map[string][][]layout.Value, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var all map[string][][]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&all); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	byOp := map[string][][]layout.Value{}
	for _, name := range opNames {
		cases := make([][]layout.Value, len(all[name]))
		for i, c := range all[name] {
			for _, a := range c {
				v, err := argValue(a)
				if err != nil {
					return nil, fmt.Errorf("%s case %d: %v", name, i, err)
				}
				cases[i] = append(cases[i], v)
			}
			// Every case is one pycute accepts; a refusal here would time an error path.
			if _, err := call(name, cases[i]); err != nil {
				return nil, fmt.Errorf("%s case %d %v: %v", name, i, c, err)
			}
		}
		if len(cases) == 0 {
			return nil, fmt.Errorf("no cases of %s in %s", name, path)
		}
		byOp[name] = cases
	}
	return byOp, nil
}

// meanCall calls name on every case in turn for dur: the mean time and
// the mean CPU time of a call.
func meanCall(name string, cases [][]layout.Value, dur time.Duration) (ns, cpuNs float64) {
	calls := 0
	start, startCPU := time.Now(), cpuTime()
	for time.Since(start) < dur {
		for _, args := range cases {
			call(name, args)
		}
		calls += len(cases)
	}
	return float64(time.Since(start).Nanoseconds()) / float64(calls), float64(cpuTime()-startCPU) / float64(calls)
}

// call is what a sheet's call, a hover and eval do (analysis's binder.call):
// the table's entry by name, then its Apply, the arguments passed as they are.
func call(name string, args []layout.Value) (layout.Value, error) {
	return analysis.ApplyOp(name, args...)
}

// dynamicArgs binds every integer of the cases as a run-time integer (-runtime).
var dynamicArgs bool

// argValue binds one argument as a sheet binds it: an integer, or a
// layout in CuTe notation; with dynamicArgs, as run-time integers.
func argValue(a any) (layout.Value, error) {
	switch a := a.(type) {
	case json.Number:
		n, err := strconv.ParseInt(string(a), 10, 64)
		if err != nil {
			return nil, err
		}
		return runTimeIf(layout.Int(n)), nil
	case string:
		n, err := grammar.ParseDescriptor(a)
		if err != nil {
			return nil, err
		}
		v, evalErr := analysis.Eval(n, nil)
		if l, ok := v.(*layout.Layout); ok && evalErr == nil {
			return layout.Box(layout.Make(runTimeIf(l.Shape), runTimeIf(l.Stride))), nil
		}
		return v, evalErr
	}
	return nil, fmt.Errorf("argument %v is neither an integer nor a layout", a)
}

// runTimeIf is t with every leaf a run-time integer when dynamicArgs is set.
func runTimeIf(t layout.IntTuple) layout.IntTuple {
	if !dynamicArgs {
		return t
	}
	if !t.IsTuple() {
		return t.WithStatic(false)
	}
	elems := make([]layout.IntTuple, t.Len())
	for i, e := range t.Elems() {
		elems[i] = runTimeIf(e)
	}
	return layout.Tup(elems...)
}

// timeCpp runs the C++ timing script and reads its `cute-c++ OP: N
// inputs, X ns/op` lines; note says why there are none.
func timeCpp(script string, dur time.Duration) (map[string]float64, string) {
	if os.Getenv("CUTLASS_DIR") == "" || os.Getenv("CCCL_INC") == "" {
		return nil, "cute-c++: set CUTLASS_DIR and CCCL_INC (see testdata/bench/cute_runtime_bench.sh): skipped"
	}
	cmd := exec.Command("bash", script, fmt.Sprintf("%g", dur.Seconds()))
	cmd.Stderr = os.Stderr
	text, err := cmd.Output()
	if err != nil {
		return nil, fmt.Sprintf("cute-c++: %s failed: %v: skipped", script, err)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		// cute-c++ OP: N inputs, X ns/op
		f := strings.Fields(sc.Text())
		if len(f) != 6 || f[0] != "cute-c++" || f[5] != "ns/op" {
			continue
		}
		ns, err := strconv.ParseFloat(f[4], 64)
		if err != nil || ns <= 0 {
			continue
		}
		out[strings.TrimSuffix(f[1], ":")] = ns
	}
	if len(out) == 0 {
		return nil, "cute-c++: " + script + " printed no figures: skipped"
	}
	return out, ""
}

// timePycute runs pycute_bench.py and reads its `pycute OP: N inputs, X
// us/op` lines; note says why there are none.
func timePycute(script, cases string, dur time.Duration) (map[string]float64, string) {
	cutlass := os.Getenv("CUTLASS")
	if cutlass == "" {
		cutlass = "/work/cutlass"
	}
	if _, err := os.Stat(filepath.Join(cutlass, "python", "pycute")); err != nil {
		return nil, fmt.Sprintf("pycute: not found in %s/python (set CUTLASS): skipped", cutlass)
	}
	cmd := exec.Command("python3", script, cases)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+filepath.Join(cutlass, "python"), fmt.Sprintf("DUR=%g", dur.Seconds()))
	cmd.Stderr = os.Stderr
	text, err := cmd.Output()
	if err != nil {
		return nil, fmt.Sprintf("pycute: %s failed: %v: skipped", script, err)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		// pycute OP: N inputs, X us/op
		f := strings.Fields(sc.Text())
		if len(f) != 6 || f[0] != "pycute" || f[5] != "us/op" {
			continue
		}
		us, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			continue
		}
		out[strings.TrimSuffix(f[1], ":")] = us * 1000
	}
	if len(out) == 0 {
		return nil, "pycute: " + script + " printed no figures: skipped"
	}
	return out, ""
}
