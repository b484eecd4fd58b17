package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/lsp"
)

func init() {
	commands["run"] = command{
		summary: "run sheets: run FILE.cute... prints each binding's value and each assert's result; exit 1 on a failed assert or an error",
		run: func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
			static := false
			var files []string
			for _, a := range args {
				switch a {
				case "-h", "--help":
					fmt.Fprintln(stdout, "usage: cute-lsp run [--static] FILE.cute...\nPrints each binding as name = value, each assert as 'assert ...: ok' or 'assert ...: FAILED: reason',\nand each error in its place; warnings go to stderr. Exit 1 on a failed assert or an error.")
					return 0
				case "--static", "-static":
					static = true
				default:
					files = append(files, a)
				}
			}
			if len(files) == 0 {
				fmt.Fprintln(stderr, "usage: cute-lsp run [--static] FILE.cute...")
				return 2
			}
			return runSheets("run", files, static, stdout, stderr)
		},
	}
}

// sheetExtensions are the extensions of layout sheets.
var sheetExtensions = []string{".cute"}

func hasSheetExtension(path string) bool {
	ext := filepath.Ext(path)
	for _, e := range sheetExtensions {
		if strings.EqualFold(ext, e) {
			return true
		}
	}
	return false
}

// isSheetFile reports whether path names an existing sheet file, which eval
// then runs rather than reading its name as an expression.
func isSheetFile(path string) bool {
	if !hasSheetExtension(path) {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// runSheets runs each file in turn; the exit code is the worst of them
// (2 when a file cannot be read, 1 on a failed assert or an error).
func runSheets(cmd string, paths []string, static bool, stdout, stderr io.Writer) int {
	code := 0
	for i, p := range paths {
		if len(paths) > 1 {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "# %s\n", p)
		}
		src, _, err := lsp.ReadRegularFile(p, lsp.MaxFileBytes)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				err = fmt.Errorf("no such file")
			}
			fmt.Fprintf(stderr, "cute-lsp %s: %s: %v\n", cmd, p, err)
			code = 2
			continue
		}
		code = max(code, runSheet(p, src, static, stdout, stderr))
	}
	return code
}

// runSheet evaluates one sheet and reports it statement by statement:
// "name = value", "assert ...: ok", "assert ...: FAILED: reason", and each
// error where it happened, as "name = error: LINE:COL: message"; warnings
// (bank conflicts, inexact compositions) go to stderr. It returns 1 when an
// assert failed or anything was an error.
func runSheet(path string, src []byte, static bool, stdout, stderr io.Writer) int {
	s := analysis.AnalyzeSheet(path, src)
	code := 0
	used := make([]bool, len(s.Findings))
	// errorsIn are the sheet's error findings inside r, each reported once.
	errorsIn := func(r grammar.Range) []analysis.Finding {
		var out []analysis.Finding
		for i, f := range s.Findings {
			if !used[i] && f.Severity == analysis.SeverityError && f.Range.Pos.Offset >= r.Pos.Offset && f.Range.End.Offset <= r.End.Offset {
				used[i] = true
				out = append(out, f)
			}
		}
		return out
	}
	where := func(f analysis.Finding) string {
		return fmt.Sprintf("%d:%d: %s", f.Range.Pos.Line, f.Range.Pos.Column, f.Message)
	}
	for i, st := range s.File.Statements {
		res := s.Results[i]
		at := s.File.StatementRange(i)
		errs := errorsIn(at)
		if len(errs) > 0 {
			code = 1
		}
		switch st := st.(type) {
		case *grammar.Binding:
			if len(errs) == 0 && res.Value != nil {
				fmt.Fprintf(stdout, "%s = %s\n", st.Name.Name, showValue(res.Value, static))
				continue
			}
			if len(errs) == 0 {
				// A use of a name whose binding failed: reported there.
				fmt.Fprintf(stdout, "%s = error: %s\n", st.Name.Name, noValue(res.Err, at))
				code = 1
				continue
			}
			fmt.Fprintf(stdout, "%s = error: %s\n", st.Name.Name, where(errs[0]))
		case *grammar.Assert:
			text := statementText(src, at)
			switch {
			case len(errs) == 0 && res.Err == nil:
				fmt.Fprintf(stdout, "%s: ok\n", text)
				continue
			case len(errs) > 0 && errs[0].Code == analysis.CodeAssertFailed:
				fmt.Fprintf(stdout, "%s: FAILED: %s\n", text, where(errs[0]))
			case len(errs) > 0:
				fmt.Fprintf(stdout, "%s: FAILED: error: %s\n", text, where(errs[0]))
			default:
				fmt.Fprintf(stdout, "%s: FAILED: %s\n", text, noValue(res.Err, at))
				code = 1
				continue
			}
		case *grammar.ExprStmt:
			text := statementText(src, at)
			if len(errs) == 0 && res.Value != nil {
				fmt.Fprintf(stdout, "%s = %s\n", text, showValue(res.Value, static))
				continue
			}
			if len(errs) == 0 {
				fmt.Fprintf(stdout, "%s = error: %s\n", text, noValue(res.Err, at))
				code = 1
				continue
			}
			fmt.Fprintf(stdout, "%s = error: %s\n", text, where(errs[0]))
		default: // a statement that did not parse
			if len(errs) == 0 {
				continue
			}
			fmt.Fprintf(stdout, "error: %s\n", where(errs[0]))
		}
		for _, f := range errs[1:] {
			fmt.Fprintf(stdout, "  error: %s\n", where(f))
		}
	}
	for i, f := range s.Findings {
		switch {
		case used[i]:
		case f.Severity == analysis.SeverityError:
			fmt.Fprintf(stdout, "error: %s\n", where(f))
			code = 1
		case f.Severity == analysis.SeverityWarning:
			fmt.Fprintf(stderr, "%s:%d:%d: warning: %s [%s]\n", path, f.Range.Pos.Line, f.Range.Pos.Column, f.Message, f.Code)
		}
	}
	return code
}

// noValue says why a statement without an error of its own has no value:
// it reads a name whose binding failed (reported there); r is the
// statement's range.
func noValue(err error, r grammar.Range) string {
	var ee *analysis.EvalError
	if errors.As(err, &ee) {
		return fmt.Sprintf("%d:%d: %s", ee.Range.Pos.Line, ee.Range.Pos.Column, analysis.CapMessage(ee.Message))
	}
	return fmt.Sprintf("%d:%d: no value: it reads a name whose definition failed", r.Pos.Line, r.Pos.Column)
}

// statementText is a statement's source on one line, cut to a readable length.
func statementText(src []byte, r grammar.Range) string {
	text := strings.Join(strings.Fields(string(src[r.Pos.Offset:r.End.Offset])), " ")
	return analysis.CapMessage(text)
}
