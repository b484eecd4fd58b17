package analysis_test

import (
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/project"
)

// TestCodeFindingsFollowTheConfiguration: .cute-lsp.json severities apply
// to the findings of code as to any other: precondition lowered to a
// warning, stale-comment turned off.
func TestCodeFindingsFollowTheConfiguration(t *testing.T) {
	src := "auto a = Layout<Shape<_4,_3>, Stride<_3,_1>>{};  // (_4,_3):(_1,_4)\nauto r = composition(a, Layout<_6>{});\n"
	findings, _ := analysis.Analyze("k.cu", []byte(src))
	codes := map[string]analysis.Severity{}
	for _, f := range findings {
		codes[f.Code] = f.Severity
	}
	if codes[analysis.CodeAlgebra] != analysis.SeverityError || codes[analysis.CodeStaleComment] != analysis.SeverityWarning {
		t.Fatalf("findings before the configuration: %v", codes)
	}
	cfg, err := project.Parse(".cute-lsp.json", []byte(`{"severity": {"precondition": "warning", "stale-comment": "off"}}`))
	if err != nil {
		t.Fatal(err)
	}
	kept := cfg.Apply(findings)
	if len(kept) != 1 || kept[0].Code != analysis.CodeAlgebra || kept[0].Severity != analysis.SeverityWarning {
		t.Errorf("after the configuration: %+v, want one precondition warning", kept)
	}
}
