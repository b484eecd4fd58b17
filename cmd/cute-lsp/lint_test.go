package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLintText(t *testing.T) {
	code, stdout, _ := runCLI(t, "", "lint", "../../testdata/lint")
	if code != 1 {
		t.Errorf("exit %d, want 1 (errors found)", code)
	}
	want := []string{
		"../../testdata/lint/bad.cute:1:5: error: in mode 1, the shape 2 is an integer but the stride (2,3) is a tuple (shape and stride are not congruent) [incongruent]",
		"../../testdata/lint/bad.cute:2:5: error: complement: ",
		"../../testdata/lint/bad.cute:3:1: error: assert failed: (2,4):(4,1) != 8:1: at index 1 the left side gives 4 and the right side 1 [assert-failed]",
		"../../testdata/lint/bad.cute:4:9: error: expected ",
		"../../testdata/lint/kernel.cu:2:18: error: in mode 1, the shape 8 is an integer but the stride (2,3) is a tuple",
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), stdout)
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], want[i])
		}
	}
}

func TestLintCleanAndHints(t *testing.T) {
	code, stdout, _ := runCLI(t, "", "lint", "../../testdata/lint/good.cute")
	if code != 0 || stdout != "" {
		t.Errorf("clean file: exit %d, output %q", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", "lint", "--hints", "../../testdata/lint/hints.cute")
	if code != 0 || !strings.Contains(stdout, "hints.cute:3:1: hint: A is bound again: from here on A is this value, not the one bound on line 1 [redefined-name]") {
		t.Errorf("--hints: exit %d, output %q", code, stdout)
	}
}

// TestLintCodeStats: --code-stats evaluates the code of host files and
// reports the counts on stderr, adding no finding.
func TestLintCodeStats(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "lint", "--code-stats", "../../testdata/lint/code.cu")
	if code != 0 || stdout != "" {
		t.Errorf("exit %d, output %q: code must add no finding", code, stdout)
	}
	if want := "code in 1 of 1 C++/Python files: 3 expressions, 2 with a value, 2 layouts"; !strings.Contains(stderr, want) {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
}

func TestLintJSONAndSARIF(t *testing.T) {
	_, stdout, _ := runCLI(t, "", "lint", "--format", "json", "../../testdata/lint/bad.cute")
	var findings []map[string]any
	if err := json.Unmarshal([]byte(stdout), &findings); err != nil || len(findings) != 4 {
		t.Fatalf("json: %v, %d findings:\n%s", err, len(findings), stdout)
	}
	if findings[0]["code"] != "incongruent" || findings[0]["line"] != 1.0 || findings[0]["column"] != 5.0 {
		t.Errorf("first finding %v", findings[0])
	}
	_, stdout, _ = runCLI(t, "", "lint", "--format", "sarif", "../../testdata/lint/bad.cute")
	var log struct {
		Version string
		Runs    []struct {
			Results []struct {
				RuleID    string
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 4 {
		t.Fatalf("sarif: %+v", log)
	}
	r := log.Runs[0].Results[1]
	if r.RuleID != "precondition" || r.Level != "error" || r.Locations[0].PhysicalLocation.Region.StartLine != 2 {
		t.Errorf("sarif result %+v", r)
	}
}

func TestLintUsage(t *testing.T) {
	for _, args := range [][]string{
		{"lint"},
		{"lint", "--format", "xml", "x.cute"},
		{"lint", "--bogus"},
		{"lint", "../../testdata/lint/does-not-exist.cute"},
		{"lint", "../../go.mod"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
