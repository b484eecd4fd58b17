package lsp

import (
	"strings"
	"testing"
)

// TestOracleCodeCasesCutlass checks the cases testdata/code/cutlass/gen.py
// drew from CUTLASS's own code (statements that bind CuTe layouts, with the
// statements binding the names they read, integer parameters given values,
// test helpers' statements at each call; compiled alone; DSL statements
// translated to C++), with CuTe C++'s values: no hover shows a value other
// than CuTe's or a value for code CuTe rejects, no accepted case gets an
// error, and the exact hovers are a ratchet.
func TestOracleCodeCasesCutlass(t *testing.T) {
	cases := loadOracleCases(t, "../testdata/code/cutlass/cpp_cases.jsonl", "../testdata/code/cutlass/py_cases.jsonl", "../testdata/code/cutlass/salt2/cpp_cases.jsonl")
	exact, rejected := 0, 0
	for _, c := range cases {
		md, ok := hoverCodeCase(c.codeCase)
		shown := ok && strings.Contains(md, "```cpp")
		errs := codeCaseErrors(c.codeCase)
		switch {
		case c.ExpectedError:
			rejected++
			if shown {
				t.Errorf("%s: CuTe rejects it (%s), hover shows a value: %q", c.ID, c.Error, firstBlock(md))
			}
		case len(errs) > 0:
			t.Errorf("%s: CuTe accepts it, an error is reported: %s", c.ID, errs[0].Message)
		case ok && strings.Contains(withoutSpace(md), withoutSpace(c.Expected)):
			exact++
		case shown:
			t.Errorf("%s (%s): want %s, hover %q", c.ID, c.Lang, c.Expected, firstBlock(md))
		default:
			t.Logf("%s (%s): no value, want %s", c.ID, c.Lang, c.Expected)
		}
	}
	t.Logf("CUTLASS code: %d of %d accepted cases exact; %d rejected", exact, len(cases)-rejected, rejected)
	if exact < cutlassCodeExact {
		t.Errorf("%d exact, fewer than the %d reached", exact, cutlassCodeExact)
	}
}

// The ratchet of TestOracleCodeCasesCutlass: raise it.
const cutlassCodeExact = 1388
