package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/hover"
)

func init() {
	commands["table"] = command{
		summary: "print a layout's offset table as hover shows it: table [--rows N --cols N --slices N] LAYOUT",
		run:     runTable,
	}
}

func runTable(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("table", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rows := fs.Int("rows", 64, fmt.Sprintf("most rows shown, all slices together (1 to %d)", hover.MaxTableCap))
	cols := fs.Int("cols", 64, fmt.Sprintf("most columns shown per slice (1 to %d)", hover.MaxTableCap))
	slices := fs.Int("slices", 8, fmt.Sprintf("most 2-D slices shown for layouts of rank > 2 (1 to %d)", hover.MaxTableSlices))
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cute-lsp table [--rows N] [--cols N] [--slices N] LAYOUT")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if *rows < 1 || *cols < 1 || *slices < 1 {
		fmt.Fprintln(stderr, "cute-lsp table: --rows, --cols and --slices must be at least 1")
		return 2
	}
	if *rows > hover.MaxTableCap || *cols > hover.MaxTableCap || *slices > hover.MaxTableSlices {
		fmt.Fprintf(stderr, "cute-lsp table: --rows and --cols are at most %d, --slices at most %d\n", hover.MaxTableCap, hover.MaxTableSlices)
		return 2
	}
	src := strings.Join(fs.Args(), " ")
	v, err := analysis.EvalString(src)
	if err != nil {
		fmt.Fprintf(stdout, "error: %s\n", describeEvalError(src, err))
		return 1
	}
	table, err := hover.Table(v, hover.TableLimits{MaxRows: *rows, MaxCols: *cols, MaxSlices: *slices})
	if err != nil {
		fmt.Fprintf(stdout, "error: %s\n", err)
		return 1
	}
	fmt.Fprintln(stdout, formatValue(v, false))
	fmt.Fprint(stdout, table)
	return 0
}
