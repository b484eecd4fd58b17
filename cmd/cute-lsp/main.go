// Command cute-lsp is the language server and command-line toolkit for CuTe
// layout descriptors. With no arguments it serves LSP on stdio; otherwise the
// first argument names a subcommand.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/cute-lsp/cute-lsp/internal/editdist"
)

// command is one subcommand: run gets the arguments after its name and
// returns the process exit code (0 ok, 1 findings or errors, 2 bad usage).
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if serve, ok := commands["serve"]; ok {
			return serve.run(nil, stdin, stdout, stderr)
		}
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	case "-v", "--version":
		return runVersion(args[1:], stdin, stdout, stderr)
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "cute-lsp: unknown command %q%s\n", args[0], suggestCommand(args[0]))
		usage(stderr)
		return 2
	}
	return cmd.run(args[1:], stdin, stdout, stderr)
}

// suggestCommand is "; did you mean X?" for the subcommand nearest name
// (at most a third of its letters changed, or one), or "".
func suggestCommand(name string) string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	if best, ok := nearest(name, names); ok {
		return fmt.Sprintf("; did you mean %s?", best)
	}
	return ""
}

// nearest is the name at the smallest edit distance from name, at most a
// third of its letters (or one) away; ties go to the first in byte order.
func nearest(name string, names []string) (string, bool) {
	return editdist.Nearest(name, names, max(1, len(name)/3))
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cute-lsp [command] [arguments]")
	fmt.Fprintln(w, "With no command, serves the Language Server Protocol on stdio.")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-8s %s\n", name, commands[name].summary)
	}
}
