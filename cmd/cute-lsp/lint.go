package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/diagnostics"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/lsp"
)

func init() {
	commands["lint"] = command{
		summary: "check sheets and source files: lint [--format text|json|sarif] PATH...",
		run:     runLint,
	}
}

// Lint's exit codes: 0 when no error is found, 1 when one is, 2 for bad
// usage, a failure to write the report, or when entries were named but not
// one file could be read. An entry that cannot be read (missing, a FIFO or
// a device, over the size limit, a dangling or looping link, a folder that
// cannot be listed) is skipped with a warning on stderr, and a note in the
// JSON and SARIF reports; it does not change the exit code otherwise.
const (
	lintClean  = 0
	lintErrors = 1
	lintFatal  = 2
)

// skippedCode is the code of the note a skipped entry leaves in the JSON
// and SARIF reports.
const skippedCode = "skipped"

func runLint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("lint", flag.ContinueOnError)
	fset.SetOutput(stderr)
	format := fset.String("format", "text", "output format: text, json or sarif")
	hints := fset.Bool("hints", false, "also report hints (unused names, coalescible layouts, ...), as editors show them")
	codeStats := fset.Bool("code-stats", false, "also evaluate the CuTe code of C++/CUDA and Python files and notebooks (as hover does) and report on stderr how many expressions have a value")
	// Hidden: a CPU profile of the run, for measuring lint's speed.
	cpuProfile := fset.String("cpuprofile", "", "")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: cute-lsp lint [--format text|json|sarif] [--hints] PATH...")
		fmt.Fprintln(stderr, "Checks .cute sheets (and the descriptors in .mlir, C++/CUDA and Python files and Jupyter notebooks);")
		fmt.Fprintln(stderr, "folders are walked recursively (linked folders followed once, .git, node_modules and .ipynb_checkpoints left out).")
		fmt.Fprintf(stderr, "What cannot be read (FIFOs, devices, files over %d bytes, broken or looping links) is\n", lsp.MaxFileBytes)
		fmt.Fprintln(stderr, "skipped with a warning. Exit 0: no errors; 1: errors found; 2: bad usage, a broken")
		fmt.Fprintln(stderr, ".cute-lsp.json, or nothing could be read. The nearest .cute-lsp.json in a file's folder or")
		fmt.Fprintln(stderr, "above (up to the repository root) sets severities per code and excludes paths.")
		printVisibleDefaults(fset, stderr)
	}
	if err := fset.Parse(args); err != nil {
		return lintFatal
	}
	switch *format {
	case "text", "json", "sarif":
	default:
		fmt.Fprintf(stderr, "cute-lsp lint: unknown format %q (text, json or sarif)\n", *format)
		return lintFatal
	}
	if fset.NArg() == 0 {
		fset.Usage()
		return lintFatal
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "cute-lsp lint: %v\n", err)
			return lintFatal
		}
		defer stop()
	}
	paths, skips := lintPaths(fset.Args())
	configs, err := findConfigs(paths)
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp lint: %v\n", err)
		return lintFatal
	}
	paths = configs.included(paths, fset.Args())
	results := lintFiles(paths, configs, lintOptions{hints: *hints, codeStats: *codeStats})
	var files []diagnostics.File
	var stats codeCounts
	for _, r := range results {
		if r.skip != nil {
			skips = append(skips, r.skip)
			continue
		}
		files = append(files, r.file)
		stats.addCounts(r.code)
	}
	for _, sk := range skips {
		fmt.Fprintf(stderr, "cute-lsp lint: warning: %s: skipped: %s\n", sk.Path, sk.Reason)
	}
	report := files
	if *format != "text" && len(skips) > 0 {
		// Text output is findings alone; the warnings above say it.
		report = append(append([]diagnostics.File(nil), files...), skipNotes(skips)...)
	}
	switch *format {
	case "json":
		err = diagnostics.JSON(stdout, report)
	case "sarif":
		err = diagnostics.SARIF(stdout, report, lsp.Version)
	default:
		err = diagnostics.Text(stdout, report)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp lint: %v\n", err)
		return lintFatal
	}
	if *codeStats {
		notebooks := ""
		if stats.notebooks > 0 {
			notebooks = fmt.Sprintf(" (%d of them notebooks)", stats.notebooks)
		}
		fmt.Fprintf(stderr, "cute-lsp lint: code in %d of %d C++/Python files%s: %d expressions, %d with a value, %d layouts; %d layouts written (layout types and calls of the operations that make one), %d of them with a value\n",
			stats.files, stats.hostFiles, notebooks, stats.exprs, stats.evaluated, stats.layouts, stats.written, stats.writtenValued)
	}
	switch {
	case len(files) == 0 && len(skips) > 0:
		fmt.Fprintln(stderr, "cute-lsp lint: no file could be read")
		return lintFatal
	case diagnostics.HasErrors(files):
		return lintErrors
	}
	return lintClean
}

// skipped is the SkipError for an entry that could not be read.
func skipped(path string, err error) *lsp.SkipError {
	var sk *lsp.SkipError
	if errors.As(err, &sk) {
		return sk
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is said once, by the skip
	}
	return &lsp.SkipError{Path: path, Reason: err.Error()}
}

// skipNotes are the skipped entries as notes of the JSON and SARIF
// reports, each at the start of its path.
func skipNotes(skips []*lsp.SkipError) []diagnostics.File {
	start := grammar.Position{Line: 1, Column: 1}
	out := make([]diagnostics.File, 0, len(skips))
	for _, sk := range skips {
		out = append(out, diagnostics.File{Path: sk.Path, Findings: []analysis.Finding{{
			Range:    grammar.Range{Pos: start, End: start},
			Severity: analysis.SeverityInfo,
			Code:     skippedCode,
			Message:  "not linted: " + sk.Reason,
		}}})
	}
	return out
}

// lintPaths expands folders into the files cute-lsp reads, sorted, and
// lists the entries it had to skip. A file named on the command line is
// linted whatever its extension says, as long as cute-lsp reads that
// language. Linked folders are followed, each folder (by device and inode)
// walked once, so a link loop ends; /proc, /sys and /dev are never walked.
func lintPaths(args []string) (files []string, skips []*lsp.SkipError) {
	w := &lintWalk{visited: map[fileID]bool{}}
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			w.skips = append(w.skips, skipped(a, err))
			continue
		}
		if !info.IsDir() {
			if !lintable(a) {
				w.skips = append(w.skips, &lsp.SkipError{Path: a, Reason: "not a file cute-lsp reads (.cute, .mlir, .cu, .cuh, .cpp, .hpp, .h, .cc, .cxx, .hxx, .py, .pyi, .ipynb)"})
				continue
			}
			w.files = append(w.files, a)
			continue
		}
		before := len(w.files)
		w.dir(a, "", info, 0)
		sort.Strings(w.files[before:])
	}
	return w.files, w.skips
}

// fileID names a file across links: its device and inode.
type fileID struct{ dev, ino uint64 }

type lintWalk struct {
	visited map[fileID]bool
	files   []string
	skips   []*lsp.SkipError
	// reals, when set (a test), records the real path each folder was
	// checked with, by path ("": none, where resolving it failed).
	reals map[string]string
}

// maxLintDepth bounds how deep folders nest, where no inode tells a
// folder seen before (and against absurd trees).
const maxLintDepth = 256

// dir adds the files under the folder at path (info is its stat, links
// followed), depth folders below a named one. real is the folder's path
// with links resolved, where the walk knows it ("": resolved here): a
// plain folder's is its parent's and its name, so that the walk resolves
// a path once for each folder named or reached through a link, not for
// every folder (filepath.EvalSymlinks lstats each element of the path: 60
// of the 300 stats over include/cute + examples/cute).
func (w *lintWalk) dir(path, real string, info fs.FileInfo, depth int) {
	if depth > maxLintDepth {
		w.skips = append(w.skips, &lsp.SkipError{Path: path, Reason: fmt.Sprintf("nested more than %d folders deep", maxLintDepth)})
		return
	}
	if id, ok := idOf(info); ok {
		if w.visited[id] {
			w.skips = append(w.skips, &lsp.SkipError{Path: path, Reason: "a folder already walked (a link loop or a second link to it)"})
			return
		}
		w.visited[id] = true
	}
	if real == "" {
		if r, err := filepath.EvalSymlinks(path); err == nil {
			real = r
		}
	}
	if w.reals != nil {
		w.reals[path] = real
	}
	if real != "" && isSystemDir(real) {
		w.skips = append(w.skips, &lsp.SkipError{Path: path, Reason: "a system folder"})
		return
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		w.skips = append(w.skips, skipped(path, err))
		// ReadDir returns what it read before the error; those are walked.
	}
	for _, e := range entries {
		p := filepath.Join(path, e.Name())
		if e.IsDir() {
			// Jupyter keeps a copy of each notebook in .ipynb_checkpoints:
			// linted, its findings would be reported twice.
			if e.Name() == ".git" || e.Name() == "node_modules" || e.Name() == ".ipynb_checkpoints" {
				continue
			}
			subReal := ""
			if real != "" {
				subReal = filepath.Join(real, e.Name()) // a folder, not a link (ReadDir's type)
			}
			if sub, err := os.Stat(p); err == nil {
				w.dir(p, subReal, sub, depth+1)
			} else {
				w.skips = append(w.skips, skipped(p, err))
			}
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			target, err := os.Stat(p)
			if err != nil {
				if lintable(p) {
					w.skips = append(w.skips, skipped(p, err)) // dangling or looping
				}
				continue
			}
			if target.IsDir() {
				w.dir(p, "", target, depth+1)
				continue
			}
		}
		if lintable(p) {
			w.files = append(w.files, p)
		}
	}
}

func isSystemDir(path string) bool {
	for _, dir := range []string{"/proc", "/sys", "/dev"} {
		if path == dir || strings.HasPrefix(path, dir+"/") {
			return true
		}
	}
	return false
}

func withoutHints(findings []analysis.Finding) []analysis.Finding {
	kept := findings[:0:0]
	for _, f := range findings {
		if f.Severity != analysis.SeverityHint {
			kept = append(kept, f)
		}
	}
	return kept
}
