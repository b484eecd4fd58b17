package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/lsp"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		var out, errOut bytes.Buffer
		if code := run(args, nil, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut.String())
		}
		line := out.String()
		if !strings.HasPrefix(line, "cute-lsp "+lsp.Version+" ") || !strings.Contains(line, " go1.") {
			t.Errorf("%v: got %q, want the module version and the Go version", args, line)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"version", "extra"}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "takes no arguments") {
		t.Errorf("version extra: exit %d, stderr %q; want 2 and a usage message", code, errOut.String())
	}
}
