package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/cute-lsp/cute-lsp/lsp"
)

func init() {
	commands["version"] = command{summary: "prints the module version, the commit it was built from and the Go version", run: runVersion}
}

// runVersion prints what `go build` recorded in the binary: the module's
// version (a tag for `go install ...@vX`, "(devel)" in a checkout), and in a
// checkout the commit and whether the tree had local changes.
func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: cute-lsp version (or --version): takes no arguments")
		return 2
	}
	fmt.Fprintln(stdout, versionLine())
	return 0
}

func versionLine() string {
	// The release version is the one the server reports (serverInfo) and
	// SARIF logs name; the module version and commit say which build.
	line := "cute-lsp " + lsp.Version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return line + " (no build information)"
	}
	line += " module " + info.Main.Version
	var commit, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		line += " commit " + commit
		if modified == "true" {
			line += " (modified)"
		}
	}
	return line + " " + info.GoVersion
}
