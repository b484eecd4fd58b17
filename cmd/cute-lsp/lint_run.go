package main

import (
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/diagnostics"
	"github.com/cute-lsp/cute-lsp/lsp"
)

// lintResult is one file's report, or why it was skipped.
type lintResult struct {
	file diagnostics.File
	skip *lsp.SkipError
	code codeCounts // with lintOptions.codeStats
}

type lintOptions struct {
	hints     bool // report hints too
	codeStats bool // evaluate C++/Python code and count what has a value
}

// codeCounts counts what the evaluation of code finds (lint --code-stats).
type codeCounts struct {
	hostFiles, files, exprs, evaluated, layouts int
	written, writtenValued                      int // layouts written in code, and those with a value (Code.Counts)
	notebooks                                   int // of the hostFiles
}

// countCode evaluates the CuTe code of a C++ or Python file as hover does.
func countCode(path string, src []byte) codeCounts {
	lang := analysis.LanguageOf(path)
	if lang != analysis.LangCpp && lang != analysis.LangPython {
		return codeCounts{}
	}
	return countsOf(path, analysis.ReadCode(lang, src))
}

// countsOf counts the evaluated code c of a C++ or Python file (nil when
// it names nothing of CuTe's).
func countsOf(path string, c *analysis.Code) codeCounts {
	var s codeCounts
	if lang := analysis.LanguageOf(path); lang != analysis.LangCpp && lang != analysis.LangPython {
		return s
	}
	s.hostFiles = 1
	if c == nil {
		return s
	}
	s.files = 1
	n := c.Counts()
	s.exprs, s.evaluated, s.layouts, s.written, s.writtenValued = n.Roots, n.Evaluated, n.Layouts, n.Written, n.WrittenValued
	return s
}

func (s *codeCounts) addCounts(o codeCounts) {
	s.hostFiles += o.hostFiles
	s.files += o.files
	s.exprs += o.exprs
	s.evaluated += o.evaluated
	s.layouts += o.layouts
	s.written += o.written
	s.writtenValued += o.writtenValued
	s.notebooks += o.notebooks
}

// lintFiles reads and analyzes every path on all cores, each file on its
// own (files share nothing), and returns the results in the paths' order so
// that the report does not depend on scheduling. The biggest files start
// first: a generated header of 3 MB takes as long as a hundred small
// files, and started last it would leave the other cores idle.
func lintFiles(paths []string, configs *configs, opts lintOptions) []lintResult {
	results := make([]lintResult, len(paths))
	order, infos, total := biggestFirst(paths)
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(lintGCPercentFor(total)))
	}
	if lintFilesHook != nil {
		lintFilesHook()
	}
	workers := min(runtime.GOMAXPROCS(0), len(paths))
	var firstBufs [][]byte
	if total >= hugePageMinBytes {
		firstBufs = firstBuffers(order, infos, workers)
		hugePageHeap(hugePageHeapBytes)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each worker reads its files into one buffer, and their code
			// in one reader's memory: nothing of a file's bytes or of its
			// code outlives lintFileInto (findings are strings).
			var buf []byte
			var reader analysis.FindingsReader
			for {
				k := int(next.Add(1)) - 1
				if k >= len(order) {
					return
				}
				if buf == nil && k < len(firstBufs) {
					buf = firstBufs[k]
				}
				i := order[k]
				results[i], buf = lintFileInto(paths[i], infos[i], configs, opts, buf, &reader)
			}
		}()
	}
	wg.Wait()
	return results
}

// firstBuffers are the buffers for the first files the workers take (the
// k-th for order[k], k < workers), each with room for its file and the
// byte more that readUnchanged reads, carved from one block in huge pages
// (hugePageBuffers). A worker keeps the buffer of its first file for the
// rest (smaller: the biggest files go first), so that these are all the
// buffers lint reads into, as many bytes as the workers' buffers were
// before, but in huge pages: over include/cute + examples/cute 5.7 MB,
// whose faults were 700 of the run's 1,950 (perf stat: 1,250 now).
func firstBuffers(order []int, infos []fs.FileInfo, workers int) [][]byte {
	sizes := make([]int, min(workers, len(order)))
	total := 0
	for k := range sizes {
		if info := infos[order[k]]; info != nil && info.Size() <= lsp.MaxFileBytes {
			sizes[k] = int(info.Size()) + 1
		}
		total += sizes[k]
	}
	block, _ := hugePageBuffers(total)
	bufs := make([][]byte, len(sizes))
	for k, n := range sizes {
		bufs[k], block = block[:0:n], block[n:]
	}
	return bufs
}

// lintGCPercent is the collector's GOGC while lint reads files, unless the
// environment sets GOGC. What lint keeps of a file (its findings) is small
// beside what reading it allocates and drops (the text, its tokens and
// the code read from them), so the live heap stays about the files in
// flight, and the default GOGC of 100 collects that again and again: over
// CUTLASS's include, examples, test and python (--code-stats), GOGC=400
// takes 0.94 s of CPU against 1.38 s, for a peak RSS of 186 MB against
// 81 MB (5 times a live heap that the 4 MiB file limit and the number of
// cores bound, as before).
const lintGCPercent = 400

// lintGCPercentFor is the GOGC of a run over files of total bytes: a run
// whose files fit in half the huge-page block (hugePageHeapBytes), such as
// include/cute + examples/cute (12.5 MB), allocates about 1.6 bytes per
// byte read (20 MB there) and keeps little, and with lintGCPercent it
// collected twice: once to free the huge-page block (hugePageHeap, which
// counts on that cycle) and once more when the heap reached the collector's
// floor of 4 MiB x GOGC/100 (16 MiB). Under smallRunGCPercent the floor
// is 40 MiB: still below the 64 MiB block, so the first cycle frees it at
// once as before, and above what the run then allocates, so it is the only
// cycle (a second cycle's marking, its stop of the world and its write
// barriers cost about a millisecond of CPU there). A bigger run keeps
// lintGCPercent: under 1000 over CUTLASS's include, examples, test and
// python (--code-stats --hints) its peak RSS went from 170 to 290 MB for no
// less CPU.
func lintGCPercentFor(total int64) int {
	if total <= hugePageHeapBytes/2 {
		return smallRunGCPercent
	}
	return lintGCPercent
}

const smallRunGCPercent = 1000

// lintFilesHook, when set (by a test), runs as lintFiles starts its files.
var lintFilesHook func()

// The heap lint reads its files in is asked for in huge pages
// (hugePageHeap) when the files hold at least hugePageMinBytes (below, the
// faults saved are worth less than the collection it takes): its first
// hugePageHeapBytes, which hold a run over include/cute and examples/cute
// (12.5 MB of files). A larger block measured no better: over CUTLASS's
// include, tools, examples, test and python (--code-stats --hints) the
// heap outgrows any, and the runtime gives a free block back to the
// system page by page as the run goes on; 64 MiB took 571 ms of CPU there
// (median of 5, against 598 without), 128 MiB 537-683 ms.
const (
	hugePageMinBytes  = 4 << 20
	hugePageHeapBytes = 64 << 20
)

// biggestFirst is the indices of paths, the biggest file first (one that
// cannot be stat'ed counts as empty: reading it fails at once), the
// files' stats (nil where that failed: the read stats it again and gives
// the error) and their total size.
func biggestFirst(paths []string) (order []int, infos []fs.FileInfo, total int64) {
	order = make([]int, len(paths))
	infos = make([]fs.FileInfo, len(paths))
	size := func(i int) int64 {
		if infos[i] == nil {
			return 0
		}
		return infos[i].Size()
	}
	for i, p := range paths {
		order[i] = i
		if info, err := os.Stat(p); err == nil {
			infos[i] = info
			total += info.Size()
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return size(order[a]) > size(order[b]) })
	return order, infos, total
}

// lintFileInto lints the file at p, whose stat is info (nil where it
// failed), read into buf where it fits (see lsp.ReadRegularFileInto and
// lsp.ReadStattedFileInto, which takes no second stat): each of lintFiles' workers reads its files
// into one buffer, since fresh memory for each file is page faults, the
// kernel zeroing the pages, and collections. It returns the buffer to read
// the next file into. The file's code is read by reader (see lintSource).
//
// Mapping the larger files (syscall.Mmap, read-only, MAP_PRIVATE) instead
// of reading them measured no better, so files are read: it saves read's
// copy and the buffers' memory, but mapping the page cache's 4 KiB folios
// (next_uptodate_folio, the faults or MAP_POPULATE) and unmapping them (a
// TLB shootdown each) cost as much. Over include/cute + examples/cute,
// task-clock medians of 100 interleaved runs: 32.96 ms reading, 33.32
// mapping files of 64 KB or more (33.31 with MAP_POPULATE), 33.59 of 1 MB
// or more (33.12 with MAP_POPULATE), the huge-page heap as when reading;
// 256 KB the same.
func lintFileInto(p string, info fs.FileInfo, configs *configs, opts lintOptions, buf []byte, reader *analysis.FindingsReader) (lintResult, []byte) {
	var src []byte
	var err error
	if info != nil {
		src, _, err = lsp.ReadStattedFileInto(p, info, lsp.MaxFileBytes, buf)
	} else {
		src, _, err = lsp.ReadRegularFileInto(p, lsp.MaxFileBytes, buf)
	}
	if err != nil {
		return lintResult{skip: skipped(p, err)}, buf
	}
	if cap(src) > cap(buf) {
		buf = src[:0]
	}
	return lintSource(p, src, configs, opts, reader), buf
}

// lintSource lints the file at p, whose bytes are src; the code of a C++
// file is read for findings by reader, in the memory of the file reader
// read before (what lint keeps of a file, its findings, are strings).
func lintSource(p string, src []byte, configs *configs, opts lintOptions, reader *analysis.FindingsReader) lintResult {
	if isNotebook(p) {
		return lintNotebook(p, src, configs, opts)
	}
	// The code of a C++ or Python file is read once, for findings alone:
	// only where a finding can come from it (analysis.AnalyzeHostForFindings,
	// whose descriptor scan tells where in the same pass), or, with --code-stats, wherever it names CuTe
	// (analysis.ReadCodeForLint), its counts coming from the same read.
	var findings []analysis.Finding
	var code *analysis.Code
	switch lang := analysis.LanguageOf(p); lang {
	case analysis.LangCpp, analysis.LangPython:
		if opts.codeStats {
			code = analysis.ReadCodeForLint(lang, src)
			findings = analysis.AnalyzeHostCode(p, src, code).Findings
		} else {
			findings = reader.AnalyzeHostForFindings(p, src).Findings
		}
	default:
		findings, _ = analysis.Analyze(p, src)
	}
	findings = configs.of(p).Apply(findings)
	if !opts.hints {
		findings = withoutHints(findings)
	}
	r := lintResult{file: diagnostics.File{Path: p, Findings: findings}}
	if opts.codeStats {
		r.code = countsOf(p, code)
	}
	return r
}
