package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/lsp"
)

func init() {
	commands["fmt"] = command{
		summary: "print layout sheets in canonical form ([-w [--links]] [--style cute|pycute|mlir] [FILE...])",
		run:     runFmt,
	}
}

// runFmt prints each sheet (standard input when no file is named) with every
// statement in canonical form. Parse errors go to stderr as
// FILE:LINE:COL: error: MESSAGE and make the exit code 1; with -w a file is
// rewritten only when it parses, by replacing it whole (replaceFile), so a
// failure leaves it as it was.
func runFmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	write := fs.Bool("w", false, "write the result back to each file (only files that parse), through a temporary file renamed over it")
	links := fs.Bool("links", false, "with -w, also rewrite a symbolic link's target (the link stays) and a file with several hard links (this name then gets a file of its own; the other names keep the old text)")
	styleName := fs.String("style", "cute", "notation to print: cute, pycute or mlir")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cute-lsp fmt [-w [--links]] [--style cute|pycute|mlir] [FILE...]")
		fmt.Fprintln(stderr, "A file's line endings (CRLF when its first line ends so) and byte order mark are kept.")
		fmt.Fprintln(stderr, "-w refuses symbolic links and files with several hard links unless --links is given.")
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
		src, err := io.ReadAll(io.LimitReader(stdin, lsp.MaxFileBytes+1))
		if err == nil && len(src) > lsp.MaxFileBytes {
			err = fmt.Errorf("over the limit of %d bytes", lsp.MaxFileBytes)
		}
		if err != nil {
			fmt.Fprintf(stderr, "cute-lsp fmt: reading standard input: %v\n", err)
			return 1
		}
		out, code := format("<stdin>", src, style, stderr)
		if _, err := stdout.Write(out); err != nil {
			fmt.Fprintf(stderr, "cute-lsp fmt: %v\n", err)
			return 1
		}
		return code
	}
	exit := 0
	for _, name := range files {
		var code int
		if *write {
			code = rewrite(name, style, *links, stderr)
		} else {
			code = printFile(name, style, stdout, stderr)
		}
		exit = max(exit, code)
	}
	return exit
}

func printFile(name string, style grammar.Style, stdout, stderr io.Writer) int {
	src, _, err := lsp.ReadRegularFile(name, lsp.MaxFileBytes)
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp fmt: %v\n", err)
		return 1
	}
	out, code := format(name, src, style, stderr)
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "cute-lsp fmt: %v\n", err)
		return 1
	}
	return code
}

// rewrite formats the file name in place. It is left untouched when it
// does not parse, is already canonical, changed while it was formatted, or
// anything fails.
func rewrite(name string, style grammar.Style, links bool, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "cute-lsp fmt: "+format+"\n", args...)
		return 1
	}
	target, err := rewriteTarget(name, links)
	if err != nil {
		return fail("%v", err)
	}
	src, info, err := lsp.ReadRegularFile(target, lsp.MaxFileBytes)
	if err != nil {
		return fail("%v", err)
	}
	out, code := format(name, src, style, stderr)
	if code != 0 || bytes.Equal(out, src) {
		return code
	}
	if err := replaceFile(target, out, info); err != nil {
		return fail("%s: not rewritten: %v", name, err)
	}
	return 0
}

// rewriteTarget is the file -w replaces for name: name itself, or with
// links the target of a symbolic link. Without links a symbolic link and a
// file with several hard links are refused: replacing them would either
// cut the link or write through it to a file the user did not name.
func rewriteTarget(name string, links bool) (string, error) {
	info, err := os.Lstat(name)
	if err != nil {
		return "", err
	}
	if info.Mode()&os.ModeSymlink != 0 {
		if !links {
			return "", fmt.Errorf("%s: a symbolic link; not rewritten (--links rewrites its target)", name)
		}
		return filepath.EvalSymlinks(name)
	}
	if n := linkCount(info); n > 1 && !links {
		return "", fmt.Errorf("%s: has %d hard links; not rewritten (--links gives this name a file of its own)", name, n)
	}
	return name, nil
}

// format is src in canonical form, with src's byte order mark and CRLF
// line ends (when its first line ends in CRLF) kept; code is 1 when src does
// not parse (its errors are written to stderr).
func format(name string, src []byte, style grammar.Style, stderr io.Writer) (out []byte, code int) {
	bom := []byte("\ufeff")
	hasBOM := bytes.HasPrefix(src, bom)
	body := bytes.TrimPrefix(src, bom)
	crlf := false
	if i := bytes.IndexByte(body, '\n'); i > 0 && body[i-1] == '\r' {
		crlf = true
		body = bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n"))
	}
	f, errs := grammar.ParseFile(name, body)
	for _, e := range errs {
		fmt.Fprintln(stderr, e.Format(name))
	}
	out = []byte(grammar.PrintFile(f, style))
	if crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	if hasBOM {
		out = append(bom, out...)
	}
	if len(errs) > 0 {
		return out, 1
	}
	return out, 0
}
