package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

func init() {
	commands["eval"] = command{
		summary: "evaluate a sheet expression or a sheet file (eval FILE.cute: every binding and assert), or golden-corpus lines with --jsonl",
		run:     runEval,
	}
}

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonl := fs.Bool("jsonl", false, "read golden-corpus lines on stdin and write each back with \"got\" or \"got_error\" added")
	static := fs.Bool("static", false, "print compile-time integers with CuTe's _ mark, as CuTe's print() does")
	file := fs.Bool("file", false, "the arguments are sheet files: print each binding's value and each assert's result (as cute-lsp run)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cute-lsp eval [--static] 'EXPR'")
		fmt.Fprintln(stderr, "       cute-lsp eval [--static] [--file] FILE.cute ...")
		fmt.Fprintln(stderr, "       cute-lsp eval --jsonl < corpus.jsonl")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *jsonl {
		if fs.NArg() > 0 {
			fmt.Fprintln(stderr, "cute-lsp eval: --jsonl reads stdin and takes no expression")
			return 2
		}
		return evalJSONL(stdin, stdout, stderr)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if *file || isSheetFile(fs.Arg(0)) {
		return runSheets("eval", fs.Args(), *static, stdout, stderr)
	}
	if fs.NArg() == 1 && hasSheetExtension(fs.Arg(0)) {
		// "eval tiles.cute" outside the sheet's folder: a division of
		// names is not what was meant.
		fmt.Fprintf(stderr, "cute-lsp eval: %s: no such sheet file (an expression is evaluated when it is not a file name)\n", fs.Arg(0))
		return 2
	}
	src := strings.Join(fs.Args(), " ")
	v, err := analysis.EvalString(src)
	if err != nil {
		fmt.Fprintf(stdout, "error: %s\n", describeEvalError(src, err))
		return 1
	}
	fmt.Fprintln(stdout, showValue(v, *static))
	return 0
}

// showValue is a value as eval prints it: in CuTe's notation, or for an
// atom or a descriptor (whose print says little) the one-line summary of
// what hover shows.
func showValue(v layout.Value, static bool) string {
	if s, ok := analysis.Summary(v); ok {
		return analysis.CapMessage(s)
	}
	return formatValue(v, static)
}

// evalJSONL annotates corpus lines in order and never stops on a failing case.
func evalJSONL(stdin io.Reader, stdout, stderr io.Writer) int {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	for sc.Scan() {
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		w.Write(analysis.AnnotateCorpusLine(line))
		w.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "cute-lsp eval: reading stdin: %v\n", err)
		return 1
	}
	return 0
}

// describeEvalError places an error in the expression: "1:14: message".
func describeEvalError(src string, err error) string {
	var pe *grammar.Error
	if errors.As(err, &pe) {
		return pe.Error()
	}
	var ee *analysis.EvalError
	if errors.As(err, &ee) {
		r := ee.Range
		msg := analysis.CapMessage(ee.Message)
		if f, ok := analysis.ExprFinding(err, src); ok {
			msg = f.Message // with "did you mean" where a sheet would say it
		}
		if r.End.Offset > r.Pos.Offset && int(r.End.Offset) <= len(src) {
			return fmt.Sprintf("%d:%d: %s (in %s)", r.Pos.Line, r.Pos.Column, msg, analysis.CapMessage(src[r.Pos.Offset:r.End.Offset]))
		}
		return fmt.Sprintf("%d:%d: %s", r.Pos.Line, r.Pos.Column, msg)
	}
	return err.Error()
}

// evalOutputBytes bounds the value eval prints: a value may hold a million
// leaves (layout.MaxLeaves), more than anyone reads on a terminal.
const evalOutputBytes = 64 << 10

// formatValue prints a value in CuTe's notation, with static marks when
// asked, cut to evalOutputBytes with what was left out said at its end.
func formatValue(v layout.Value, static bool) string {
	return layout.FormatLimited(v, static, evalOutputBytes).String()
}
