package analysis

import (
	"os"
	"testing"
)

// The README's example sheet evaluates without a finding.
func TestExampleSheetIsClean(t *testing.T) {
	src, err := os.ReadFile("../examples/tiles.cute")
	if err != nil {
		t.Fatal(err)
	}
	s := AnalyzeSheet("tiles.cute", src)
	for _, f := range s.Findings {
		if f.Code != CodeUnused {
			t.Errorf("%d:%d %s: %s", f.Range.Pos.Line, f.Range.Pos.Column, f.Code, f.Message)
		}
	}
}
