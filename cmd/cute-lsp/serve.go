package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/cute-lsp/cute-lsp/lsp"
)

func init() {
	commands["serve"] = command{
		summary: "serve the Language Server Protocol on stdio (the default)",
		run:     serve,
	}
}

// serve runs one LSP session on stdin/stdout; logs go to stderr.
func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("stdio", true, "serve on stdin and stdout (the only transport)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "cute-lsp serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// A language server lives beside the editor: it trades some GC work
		// for a resident set that stays near its live heap rather than twice it.
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	server := lsp.NewServer(lsp.Options{Features: features(), Log: stderr})
	return server.Serve(context.Background(), stdioPipe{stdin, stdout})
}

// serveMemoryLimit is the soft memory limit of the server process (the
// GOMEMLIMIT environment variable overrides it).
const serveMemoryLimit = 64 << 20

// features is the language knowledge the server runs with: package
// analysis (lsp.Fallback is the parser-free stand-in the server's own
// tests use).
func features() lsp.Features { return lsp.NewAnalyzed() }

// stdioPipe joins stdin and stdout into the connection the server reads and
// writes; closing it closes stdin, so a blocked read ends.
type stdioPipe struct {
	in  io.Reader
	out io.Writer
}

func (p stdioPipe) Read(b []byte) (int, error)  { return p.in.Read(b) }
func (p stdioPipe) Write(b []byte) (int, error) { return p.out.Write(b) }
func (p stdioPipe) Close() error {
	if f, ok := p.in.(*os.File); ok {
		return f.Close()
	}
	return nil
}
