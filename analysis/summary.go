package analysis

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/gmma"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Summary is a one-line account of a value whose print says little: an
// atom (its print is its own name) or a GMMA/UMMA descriptor (a bare hex
// value), with the facts hover shows at length. ok is false for the values
// whose print is their whole story (layouts, integers, ...).
func Summary(v layout.Value) (string, bool) {
	switch v := v.(type) {
	case AtomValue:
		if v.MMA != nil {
			return oneLine(v.MMA.Describe(), 3), true
		}
		return oneLine(v.Copy.Describe(), 3), true
	case DescValue:
		return descSummary(v.Report), true
	}
	return "", false
}

// oneLine joins the first n lines of a description with "; ".
func oneLine(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return strings.Join(lines[:min(n, len(lines))], "; ")
}

// descSummary is the descriptor's value and its fields decoded, one line:
// "GmmaDescriptor 0x...: start_address = shared-memory byte address 0x0,
// leading_byte_offset = 16 bytes, ...; K-major, Layout_K_SW128_Atom<16b>".
func descSummary(r gmma.Report) string {
	name := "GmmaDescriptor"
	if r.Desc.Arch == gmma.SM100 {
		name = "UMMA::SmemDescriptor"
	}
	var fields []string
	for _, f := range r.Desc.Fields() {
		meaning := f.Meaning
		if i := strings.LastIndex(meaning, " = "); i >= 0 {
			meaning = meaning[i+3:] // "1 x 16 B = 16 bytes": the bytes
		}
		fields = append(fields, fmt.Sprintf("%s = %s", f.Name, meaning))
	}
	s := fmt.Sprintf("%s 0x%016x: %s; %v-major", name, r.Desc.Encode(), strings.Join(fields, ", "), r.Major)
	if r.Tiling != nil {
		s += fmt.Sprintf(", %s", r.Tiling.Atom.Name())
	}
	return s
}

// ExprFinding is the finding an error of EvalString makes for the
// expression src, as a sheet would report it: with "did you mean" and its
// fix for a misspelt operation or tag. ok is false for an error that only
// repeats another.
func ExprFinding(err error, src string) (Finding, bool) {
	return evalFinding(err, grammar.Range{}, []byte(src), nil)
}
