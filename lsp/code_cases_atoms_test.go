package lsp

import (
	"strings"
	"testing"
)

// TestOracleCodeCasesAtoms hovers the cases testdata/code/atoms/gen.py
// computed with CuTe C++: atoms, TiledMMAs and TiledCopys written as CuTe
// code in CUTLASS (sgemm_sm80.cu, wgmma_sm90.cu, the unit tests), and the
// layouts and sizes read from them. Every one shows CuTe's print exactly
// (whitespace aside), with no error.
func TestOracleCodeCasesAtoms(t *testing.T) {
	cases := loadCodeCases(t, "../testdata/code/atoms/cpp_cases.jsonl")
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		if errs := codeCaseErrors(c); len(errs) > 0 {
			t.Errorf("%s: CuTe accepts it, an error is reported: %s", c.ID, errs[0].Message)
		}
		md, ok := hoverCodeCase(c)
		if !ok || !strings.Contains(withoutSpace(md), withoutSpace(c.Expected)) {
			t.Errorf("%s: want\n%s\nhover %q", c.ID, c.Expected, firstBlock(md))
		}
	}
}
