package grammar

import (
	"os"
	"strings"
	"testing"
)

// TestSheetAndDescriptorErrorsAgree: a malformed descriptor written as a
// sheet statement (alone, or bound to a name) gets the error ParseDescriptor
// gives it, at the same place.
func TestSheetAndDescriptorErrorsAgree(t *testing.T) {
	for _, in := range readInputs(t, "../testdata/grammar/errors/malformed.txt") {
		if strings.ContainsAny(in, "#=\\") || strings.HasPrefix(in, "assert") || strings.Contains(in, "//") || len(in) > 300 {
			continue
		}
		_, derr := ParseDescriptor(in)
		want := strings.ReplaceAll(derr.Message, "end of input", "end of line")
		for _, prefix := range []string{"", "X = ", "assert A == "} {
			_, ferrs := ParseFile("x", []byte(prefix+in+"\n"))
			if len(ferrs) == 0 {
				t.Errorf("%q: no error", prefix+in)
				continue
			}
			got := ferrs[0]
			shift := len(prefix)
			want := want
			if rest, ok := strings.CutPrefix(want, "expected a descriptor, "); ok && prefix != "" && derr.Range.Pos.Column == 1 {
				// After '=' or '==' a statement expects an expression.
				op := strings.Fields(prefix)[len(strings.Fields(prefix))-1]
				want = "expected an expression after '" + op + "', " + rest
			}
			if got.Message != want || got.Range.Pos.Column != derr.Range.Pos.Column+int32(shift) || got.Range.End.Column != derr.Range.End.Column+int32(shift) {
				t.Errorf("%q:\n  descriptor %d-%d %s\n  sheet      %d-%d %s", prefix+in,
					derr.Range.Pos.Column+int32(shift), derr.Range.End.Column+int32(shift), want, got.Range.Pos.Column, got.Range.End.Column, got.Message)
			}
		}
	}
}

// TestErrataCalls parses the CuTe call of every worked example in the seeds'
// errata (../../shared/seeds/ERRATA.md), e.g. zipped_divide((128,64):(1,128), <32:1, 32:1>).
func TestErrataCalls(t *testing.T) {
	data, err := os.ReadFile("../../shared/seeds/ERRATA.md")
	if err != nil {
		t.Skip("../../shared/seeds not found beside the checkout")
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "¦"), "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "P0") {
			continue
		}
		call := strings.Trim(strings.TrimSpace(cells[3]), "`")
		if _, perr := ParseExpr(call); perr != nil {
			t.Errorf("%s: %q: %v", strings.TrimSpace(cells[1]), call, perr)
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d errata calls found", n)
	}
}
