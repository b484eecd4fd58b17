package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
)

// TestOpsListsEveryOperation: every operation a sheet can call is listed
// with its signature and doc, the algebra's and the analyses' alike.
func TestOpsListsEveryOperation(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"ops"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, op := range analysis.Ops() {
		if !strings.Contains(out.String(), op.Signature) || !strings.Contains(out.String(), op.Doc) {
			t.Errorf("%s: signature or doc missing from the list", op.Name)
		}
	}
	for _, name := range []string{"composition", "bank_conflicts", "mma_atom", "tirx_map"} {
		if !strings.Contains(out.String(), name) {
			t.Errorf("%s missing", name)
		}
	}
}

func TestOpsByName(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"ops", "logical_divide"}, nil, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "logical_divide(L, T)\n") {
		t.Errorf("exit %d, out %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"ops", "colaesce", "size"}, nil, &out, &errOut); code != 2 ||
		!strings.Contains(errOut.String(), `no operation "colaesce"; did you mean coalesce?`) || !strings.Contains(out.String(), "size<I...>(L)") {
		t.Errorf("exit %d, out %q, err %q", code, out.String(), errOut.String())
	}
}
