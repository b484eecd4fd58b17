package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/diagnostics"
)

// version is the tool version reported in SARIF logs.
const version = "0.1.0"

func init() {
	commands["lint"] = command{
		summary: "check sheets and source files: lint [--format text|json|sarif] PATH...",
		run:     runLint,
	}
}

func runLint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("lint", flag.ContinueOnError)
	fset.SetOutput(stderr)
	format := fset.String("format", "text", "output format: text, json or sarif")
	hints := fset.Bool("hints", false, "also report hints (unused names, coalescible layouts, ...), as editors show them")
	codeStats := fset.Bool("code-stats", false, "also evaluate the CuTe code of C++/CUDA and Python files (as hover does) and report on stderr how many expressions have a value")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: cute-lsp lint [--format text|json|sarif] PATH...")
		fmt.Fprintln(stderr, "Checks .cute sheets (and the descriptors in .mlir, C++/CUDA and Python files);")
		fmt.Fprintln(stderr, "folders are walked recursively. Exit 1 when any error is found.")
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		return 2
	}
	switch *format {
	case "text", "json", "sarif":
	default:
		fmt.Fprintf(stderr, "cute-lsp lint: unknown format %q (text, json or sarif)\n", *format)
		return 2
	}
	if fset.NArg() == 0 {
		fset.Usage()
		return 2
	}
	paths, err := lintPaths(fset.Args())
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp lint: %v\n", err)
		return 2
	}
	var files []diagnostics.File
	var stats codeCounts
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintf(stderr, "cute-lsp lint: %v\n", err)
			return 2
		}
		findings, _ := analysis.Analyze(p, src)
		if *codeStats {
			stats.add(p, src)
		}
		if !*hints {
			findings = withoutHints(findings)
		}
		files = append(files, diagnostics.File{Path: p, Findings: findings})
	}
	switch *format {
	case "json":
		err = diagnostics.JSON(stdout, files)
	case "sarif":
		err = diagnostics.SARIF(stdout, files, version)
	default:
		err = diagnostics.Text(stdout, files)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp lint: %v\n", err)
		return 2
	}
	if *codeStats {
		fmt.Fprintf(stderr, "cute-lsp lint: code in %d of %d C++/Python files: %d expressions, %d with a value, %d layouts\n",
			stats.files, stats.hostFiles, stats.exprs, stats.evaluated, stats.layouts)
	}
	if diagnostics.HasErrors(files) {
		return 1
	}
	return 0
}

// codeCounts counts what the evaluation of code finds (lint --code-stats).
type codeCounts struct {
	hostFiles, files, exprs, evaluated, layouts int
}

func (s *codeCounts) add(path string, src []byte) {
	lang := analysis.LanguageOf(path)
	if lang != analysis.LangCpp && lang != analysis.LangPython {
		return
	}
	s.hostFiles++
	c := analysis.ReadCode(lang, src)
	if c == nil {
		return
	}
	s.files++
	n, ev, l := c.Values()
	s.exprs, s.evaluated, s.layouts = s.exprs+n, s.evaluated+ev, s.layouts+l
}

// lintPaths expands folders into the files cute-lsp reads, sorted; a file
// named on the command line is linted whatever its extension says, as long
// as cute-lsp reads that language.
func lintPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			if analysis.LanguageOf(a) == analysis.LangNone {
				return nil, fmt.Errorf("%s: not a file cute-lsp reads (.cute, .mlir, .cu, .cuh, .cpp, .hpp, .h, .cc, .py)", a)
			}
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); p != a && (name == ".git" || name == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if analysis.LanguageOf(p) != analysis.LangNone {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
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
