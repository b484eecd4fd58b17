package analysis

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cute-lsp/cute-lsp/grammar"
)

// parallelEvalMin is the fewest statements a first analysis takes to
// evaluate them in parallel (evalParallel): below it the goroutines cost
// more than they save. A variable for the tests, which analyze small
// sheets both ways.
var parallelEvalMin = 2048

// parallelEvalProcs is the fewest GOMAXPROCS an analysis takes to
// evaluate in parallel: on 2 cores shared with other work, opening 50,000
// lines took 8% more CPU (each statement's own scope, the waves) and was
// no faster (BenchmarkOpen/analysis, GOMAXPROCS=2, interleaved with the
// sequential analysis).
var parallelEvalProcs = 4

// parallelEval evaluates every statement of a sheet but the bad ones, on
// GOMAXPROCS goroutines, while the analysis goes through the statements in
// order (AnalyzeFile): result waits for a statement's. A statement's
// result is a function of its tree and of the bindings of the names it
// reads (evalStmt): the latest binding of each name before it, the earlier
// binding of its own name for a binding's right-hand side, as the
// sequential analysis resolves them. So a statement is evaluated once the
// statements it reads are: the statements go in waves, each wave those
// whose deepest dependency is in the wave before, the statements of a wave
// in parallel. The results are relative to their statements.
type parallelEval struct {
	results  []stmtResult
	wave     []int32         // each statement's wave, -1 for a bad one
	done     []chan struct{} // closed when a wave is evaluated
	panicked atomic.Pointer[any]
}

// result is statement i's result, once evaluated; a panic of an
// evaluation is raised again here, on the analysis's goroutine.
func (p *parallelEval) result(i int) *stmtResult {
	<-p.done[p.wave[i]]
	if r := p.panicked.Load(); r != nil {
		panic(*r)
	}
	return &p.results[i]
}

// evalParallel starts evaluating stmts (see parallelEval).
// f is the sheet and src its text.
func evalParallel(f *grammar.File, src []byte) *parallelEval {
	stmts := f.Statements
	n := len(stmts)
	p := &parallelEval{results: make([]stmtResult, n), wave: make([]int32, n)}
	// reads[readStart[i]:readStart[i+1]] are the bindings statement i
	// reads: a name and the statement binding it.
	type read struct {
		name string
		stmt int32
	}
	var reads []read
	readStart := make([]int32, n+1)
	latest := make(map[string]int32, n)
	waves := 0
	for i, st := range stmts {
		readStart[i] = int32(len(reads))
		if _, bad := st.(*grammar.BadStmt); bad {
			p.wave[i] = -1
			continue
		}
		w := int32(0)
		eachName(st, func(name *grammar.Name, _ bool) {
			if j, ok := latest[name.Name]; ok {
				reads = append(reads, read{name.Name, j})
				w = max(w, p.wave[j]+1)
			}
		})
		p.wave[i] = w
		waves = max(waves, int(w)+1)
		if b, ok := st.(*grammar.Binding); ok {
			latest[b.Name.Name] = int32(i)
		}
	}
	readStart[n] = int32(len(reads))
	// The statements of each wave, in order (a counting sort by wave).
	first := make([]int32, waves+1)
	for _, w := range p.wave {
		if w >= 0 {
			first[w+1]++
		}
	}
	for w := range waves {
		first[w+1] += first[w]
	}
	order := make([]int32, first[waves])
	next := slices.Clone(first)
	for i, w := range p.wave {
		if w >= 0 {
			order[next[w]] = int32(i)
			next[w]++
		}
	}
	p.done = make([]chan struct{}, waves)
	for w := range p.done {
		p.done[w] = make(chan struct{})
	}
	eval := func(i int) {
		rs := reads[readStart[i]:readStart[i+1]]
		var scope scopeEnv // nil, a scope without names, when it reads none
		if len(rs) > 0 {
			scope = make(scopeEnv, len(rs))
		}
		for _, r := range rs {
			if _, ok := scope[r.name]; ok {
				continue
			}
			b := stmts[r.stmt].(*grammar.Binding)
			scope[r.name] = &Symbol{Name: r.name, Def: b, Stmt: int(r.stmt), Value: p.results[r.stmt].value, Err: p.results[r.stmt].err}
		}
		p.results[i] = evalStmt(stmts[i], statementText(f, src, i), scope, nil)
	}
	workers := runtime.GOMAXPROCS(0)
	go func() {
		w := 0
		defer func() {
			// After a panic the waves left are not evaluated: result
			// raises it again.
			for ; w < waves; w++ {
				close(p.done[w])
			}
		}()
		for ; w < waves; w++ {
			p.evalWave(order[first[w]:first[w+1]], workers, eval)
			if p.panicked.Load() != nil {
				return
			}
			close(p.done[w])
		}
	}()
	return p
}

// evalWave evaluates the statements of batch on up to workers goroutines.
func (p *parallelEval) evalWave(batch []int32, workers int, eval func(int)) {
	const chunk = 32
	var at atomic.Int64
	var wg sync.WaitGroup
	work := func() {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				p.panicked.CompareAndSwap(nil, &r)
			}
		}()
		for {
			from := int(at.Add(chunk)) - chunk
			if from >= len(batch) || p.panicked.Load() != nil {
				return
			}
			for _, i := range batch[from:min(from+chunk, len(batch))] {
				eval(int(i))
			}
		}
	}
	k := max(1, min(workers, (len(batch)+chunk-1)/chunk))
	wg.Add(k)
	for range k - 1 {
		go work()
	}
	work()
	wg.Wait()
}
