package diagnostics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
)

func at(line, col, endCol int) grammar.Range {
	return grammar.Range{Pos: grammar.Position{Line: int32(line), Column: int32(col)}, End: grammar.Position{Line: int32(line), Column: int32(endCol)}}
}

var sample = []File{{Path: "a.cute", Findings: []analysis.Finding{
	{Range: at(2, 5, 9), Severity: analysis.SeverityError, Code: analysis.CodeAlgebra, Message: "complement: not injective",
		Related: []analysis.Related{{Range: at(2, 16, 27), Message: "operand 1 of complement"}},
		Fixes:   []analysis.Fix{{Title: "Change to x"}}},
	{Range: at(3, 1, 1), Severity: analysis.SeverityHint, Code: analysis.CodeUnused, Message: "x is bound but never used"},
}}}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, sample); err != nil {
		t.Fatal(err)
	}
	want := "a.cute:2:5: error: complement: not injective [precondition]\na.cute:3:1: hint: x is bound but never used [unused-name]\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if !HasErrors(sample) || HasErrors([]File{{Path: "b", Findings: sample[0].Findings[1:]}}) {
		t.Errorf("HasErrors is wrong")
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, sample); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0]["end_column"] != 9.0 || got[0]["fixes"].([]any)[0] != "Change to x" || got[1]["severity"] != "hint" {
		t.Errorf("json: %v", got)
	}
	b.Reset()
	JSON(&b, nil)
	if strings.TrimSpace(b.String()) != "[]" {
		t.Errorf("no findings: %q, want []", b.String())
	}
}

func TestSARIF(t *testing.T) {
	var b bytes.Buffer
	if err := SARIF(&b, sample, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name, Version string
					Rules         []struct{ ID string }
				}
			}
			ColumnKind string
			Results    []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
				RelatedLocations []struct{ ID int }
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || run.Tool.Driver.Version != "1.2.3" || run.ColumnKind != "unicodeCodePoints" {
		t.Fatalf("log header: %+v", log)
	}
	if len(run.Tool.Driver.Rules) != len(analysis.Codes) {
		t.Errorf("%d rules, want one per code (%d)", len(run.Tool.Driver.Rules), len(analysis.Codes))
	}
	r0, r1 := run.Results[0], run.Results[1]
	if r0.Level != "error" || run.Tool.Driver.Rules[r0.RuleIndex].ID != r0.RuleID || len(r0.RelatedLocations) != 1 || r0.RelatedLocations[0].ID != 1 {
		t.Errorf("first result: %+v", r0)
	}
	// An empty range still marks one character, as code scanning requires.
	if reg := r1.Locations[0].PhysicalLocation.Region; r1.Level != "note" || reg.EndColumn != reg.StartColumn+1 {
		t.Errorf("second result: %+v", r1)
	}
}

// TestJSONMatchesItsSchema: every object lint --format json writes has
// exactly the keys lint.schema.json documents, required ones present, with
// the documented JSON types, related entries included.
func TestJSONMatchesItsSchema(t *testing.T) {
	raw, err := os.ReadFile("lint.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatalf("lint.schema.json: %v", err)
	}
	var b bytes.Buffer
	if err := JSON(&b, sample); err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	checkSchema(t, "$", schema, got)
}

// checkSchema checks v against the subset of JSON Schema lint.schema.json
// uses: type, enum, items, properties, required, additionalProperties.
func checkSchema(t *testing.T, at string, schema map[string]any, v any) {
	t.Helper()
	if enum, ok := schema["enum"].([]any); ok {
		for _, e := range enum {
			if e == v {
				return
			}
		}
		t.Errorf("%s: %v is not one of %v", at, v, enum)
		return
	}
	switch schema["type"] {
	case "array":
		arr, ok := v.([]any)
		if !ok {
			t.Errorf("%s: want an array, got %T", at, v)
			return
		}
		for i, e := range arr {
			checkSchema(t, fmt.Sprintf("%s[%d]", at, i), schema["items"].(map[string]any), e)
		}
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			t.Errorf("%s: want an object, got %T", at, v)
			return
		}
		props := schema["properties"].(map[string]any)
		for k, e := range obj {
			p, ok := props[k]
			if !ok {
				t.Errorf("%s: key %q is not in the schema", at, k)
				continue
			}
			checkSchema(t, at+"."+k, p.(map[string]any), e)
		}
		for _, r := range schema["required"].([]any) {
			if _, ok := obj[r.(string)]; !ok {
				t.Errorf("%s: required key %q missing", at, r)
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			t.Errorf("%s: want a string, got %T", at, v)
		}
	case "integer":
		if f, ok := v.(float64); !ok || f != float64(int64(f)) {
			t.Errorf("%s: want an integer, got %v", at, v)
		}
	}
}

// TestSARIFLevels: each severity reaches code scanning at its SARIF level
// (SARIF has no hint or info: both are notes), and JSON names it as lint
// does. Checked to fail when a warning is written as a note.
func TestSARIFLevels(t *testing.T) {
	var findings []analysis.Finding
	for i, s := range []analysis.Severity{analysis.SeverityError, analysis.SeverityWarning, analysis.SeverityInfo, analysis.SeverityHint} {
		findings = append(findings, analysis.Finding{Range: at(i+1, 1, 2), Severity: s, Code: analysis.CodeNonCompact, Message: s.String()})
	}
	files := []File{{Path: "a.cute", Findings: findings}}
	var b bytes.Buffer
	if err := SARIF(&b, files, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Level   string
				Message struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range log.Runs[0].Results {
		got = append(got, r.Message.Text+"="+r.Level)
	}
	if want := "error=error warning=warning info=note hint=note"; strings.Join(got, " ") != want {
		t.Errorf("SARIF levels %q, want %q", strings.Join(got, " "), want)
	}
	b.Reset()
	if err := JSON(&b, files); err != nil {
		t.Fatal(err)
	}
	var js []struct{ Severity string }
	if err := json.Unmarshal(b.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, j := range js {
		got = append(got, j.Severity)
	}
	if want := "error warning info hint"; strings.Join(got, " ") != want {
		t.Errorf("JSON severities %q, want %q", strings.Join(got, " "), want)
	}
}
