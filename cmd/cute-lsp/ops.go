package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
)

func init() {
	commands["ops"] = command{
		summary: "lists the operations sheets and eval call: ops [NAME...] (signature and definition)",
		run:     runOps,
	}
}

// runOps lists every operation, one line each (name, signature, doc); with
// names, just those, and a "did you mean" for a name that is no operation.
func runOps(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprintln(stdout, "usage: cute-lsp ops [NAME...]\nLists every operation with its signature and definition; with names, just those.")
			return 0
		}
	}
	all := analysis.Ops()
	if len(args) == 0 {
		width := 0
		for _, op := range all {
			width = max(width, len(op.Name))
		}
		for _, op := range all {
			fmt.Fprintf(stdout, "%-*s  %s\n%-*s  %s\n", width, op.Name, op.Signature, width, "", op.Doc)
		}
		fmt.Fprintf(stdout, "\n%d operations; `cute-lsp ops NAME` shows one.\n", len(all))
		return 0
	}
	code := 0
	for _, name := range args {
		op, ok := analysis.LookupOp(name)
		if !ok {
			fmt.Fprintf(stderr, "cute-lsp ops: no operation %q%s\n", name, suggestOp(name, all))
			code = 2
			continue
		}
		fmt.Fprintf(stdout, "%s\n  %s\n", op.Signature, op.Doc)
		if len(op.Keywords) > 0 {
			fmt.Fprintf(stdout, "  keywords: %s\n", strings.Join(op.Keywords, ", "))
		}
	}
	return code
}

// suggestOp is "; did you mean X?" for the operation nearest name (at most
// a third of its letters changed), or "".
func suggestOp(name string, ops []analysis.Op) string {
	names := make([]string, len(ops))
	for i, op := range ops {
		names[i] = op.Name
	}
	if best, ok := nearest(name, names); ok {
		return fmt.Sprintf("; did you mean %s?", best)
	}
	return ""
}
