package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/cute-lsp/cute-lsp/grammar"
)

func init() {
	commands["fmt"] = command{
		summary: "print layout sheets in canonical form ([-w] [--style cute|pycute|mlir] [FILE...])",
		run:     runFmt,
	}
}

// runFmt prints each sheet (standard input when no file is named) with every
// statement in canonical form. Parse errors go to stderr as
// FILE:LINE:COL: error: MESSAGE and make the exit code 1; with -w a file is
// rewritten only when it parses.
func runFmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	write := fs.Bool("w", false, "write the result back to each file (only files that parse)")
	styleName := fs.String("style", "cute", "notation to print: cute, pycute or mlir")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cute-lsp fmt [-w] [--style cute|pycute|mlir] [FILE...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	style, ok := grammar.ParseStyle(*styleName)
	if !ok {
		fmt.Fprintf(stderr, "cute-lsp fmt: unknown style %q (want cute, pycute or mlir)\n", *styleName)
		return 2
	}
	files := fs.Args()
	if len(files) == 0 {
		if *write {
			fmt.Fprintln(stderr, "cute-lsp fmt: -w needs a file; standard input cannot be rewritten")
			return 2
		}
		src, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "cute-lsp fmt: reading standard input: %v\n", err)
			return 1
		}
		return formatOne("<stdin>", src, style, false, stdout, stderr)
	}
	exit := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "cute-lsp fmt: %v\n", err)
			exit = 1
			continue
		}
		if code := formatOne(name, src, style, *write, stdout, stderr); code > exit {
			exit = code
		}
	}
	return exit
}

func formatOne(name string, src []byte, style grammar.Style, write bool, stdout, stderr io.Writer) int {
	f, errs := grammar.ParseFile(name, src)
	for _, e := range errs {
		fmt.Fprintln(stderr, e.Format(name))
	}
	out := []byte(grammar.PrintFile(f, style))
	if !write {
		if _, err := stdout.Write(out); err != nil {
			fmt.Fprintf(stderr, "cute-lsp fmt: %v\n", err)
			return 1
		}
	} else if len(errs) == 0 && !bytes.Equal(out, src) {
		info, err := os.Stat(name)
		if err == nil {
			err = os.WriteFile(name, out, info.Mode().Perm())
		}
		if err != nil {
			fmt.Fprintf(stderr, "cute-lsp fmt: %v\n", err)
			return 1
		}
	}
	if len(errs) > 0 {
		return 1
	}
	return 0
}
