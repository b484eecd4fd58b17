package grammar

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelParseMin is the fewest lines a first parse takes to parse its
// statements in parallel (parseBatch): below it the goroutines cost more
// than they save. A variable for the tests, which parse small sheets both
// ways.
var parallelParseMin = 2048

// parallelParseProcs is the fewest GOMAXPROCS a parse takes to parse in
// parallel. On 2 cores shared with other work (load 4 to 9) the parallel
// first parse of 50,000 lines was no faster and the copied tokens raised
// the peak resident set (BenchmarkOpen/analysis, GOMAXPROCS=2 against the
// sequential parse, interleaved): the cores the parse would use are
// someone else's there.
var parallelParseProcs = 4

// parseBatch is the statements of a first parse left to parse once the
// whole sheet is scanned: the scan is sequential (a statement ends where
// the brackets before it say), the parse of each statement is a function
// of its own text and tokens, so the statements are parsed on every core
// and then stored and placed in order, as the sequential parse does.
type parseBatch struct {
	jobs []parseJob
	// toks is where the jobs' tokens are copied: blocks filled in turn,
	// never grown (so never copied again).
	toks []token
}

type parseJob struct {
	stmt int // its index in File.Statements
	own  string
	toks []token // its shell, its End last
	key  stmtKey
	tree Stmt
	errs []*Error
}

// tokenBlock is how many tokens parseBatch copies to per allocation.
const tokenBlock = 8192

// add queues statement i, of text own and shell q (relative to it).
func (b *parseBatch) add(i int, own string, q []token, key stmtKey) {
	if cap(b.toks)-len(b.toks) < len(q) {
		b.toks = make([]token, 0, max(tokenBlock, len(q)))
	}
	lo := len(b.toks)
	b.toks = append(b.toks, q...)
	b.jobs = append(b.jobs, parseJob{stmt: i, own: own, toks: b.toks[lo:len(b.toks):len(b.toks)], key: key})
}

// parse parses the queued statements on GOMAXPROCS goroutines. A panic
// outside a statement's guarded reader is raised again here, on the
// caller's goroutine, as the sequential parse would raise it.
func (b *parseBatch) parse() {
	const chunk = 64
	var next atomic.Int64
	var wg sync.WaitGroup
	var panicked atomic.Value
	work := func() {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				panicked.CompareAndSwap(nil, &r)
			}
		}()
		for {
			from := int(next.Add(chunk)) - chunk
			if from >= len(b.jobs) {
				return
			}
			for k := from; k < min(from+chunk, len(b.jobs)); k++ {
				j := &b.jobs[k]
				q := j.toks
				j.tree, j.errs = parseStatement(j.own, stmtTokens{toks: q[:len(q)-1], end: q[len(q)-1]}, nil)
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), (len(b.jobs)+chunk-1)/chunk)
	wg.Add(workers)
	for range workers - 1 {
		go work()
	}
	work()
	wg.Wait()
	if r := panicked.Load(); r != nil {
		panic(*r.(*any))
	}
}

// finish parses the queued statements and puts their trees in f, stores
// them in cache (nil for none) with their records recs, in statement
// order, and returns errs, the errors of the statements with any, with
// theirs merged in statement order.
func (b *parseBatch) finish(f *File, cache *Cache, recs []stmtRecord, errs []stmtErrors) []stmtErrors {
	if len(b.jobs) == 0 {
		return errs
	}
	b.parse()
	out := make([]stmtErrors, 0, len(errs))
	e := 0
	for k := range b.jobs {
		j := &b.jobs[k]
		for e < len(errs) && errs[e].stmt < j.stmt {
			out = append(out, errs[e])
			e++
		}
		f.Statements[j.stmt] = j.tree
		if cache != nil {
			recs[j.stmt].entry = cache.store(j.key, int(f.bases[j.stmt].Offset), j.tree, j.errs, nil)
		}
		j.toks = nil
		if len(j.errs) > 0 {
			out = append(out, stmtErrors{j.stmt, j.errs})
		}
	}
	return append(out, errs[e:]...)
}
