package main

import (
	"runtime"
	"sync"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/diagnostics"
	"github.com/cute-lsp/cute-lsp/lsp"
)

// lintResult is one file's report, or why it was skipped.
type lintResult struct {
	file diagnostics.File
	skip *lsp.SkipError
}

// lintFiles reads and analyzes every path on all cores, each file on its
// own (files share nothing), and returns the results in the paths' order so
// that the report does not depend on scheduling.
func lintFiles(paths []string, configs *configs, hints bool) []lintResult {
	results := make([]lintResult, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(paths)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = lintFile(paths[i], configs, hints)
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func lintFile(p string, configs *configs, hints bool) lintResult {
	src, _, err := lsp.ReadRegularFile(p, lsp.MaxFileBytes)
	if err != nil {
		return lintResult{skip: skipped(p, err)}
	}
	findings, _ := analysis.Analyze(p, src)
	findings = configs.of(p).Apply(findings)
	if !hints {
		findings = withoutHints(findings)
	}
	return lintResult{file: diagnostics.File{Path: p, Findings: findings}}
}
