// Package diagnostics renders analysis findings for people and tools: the
// compiler-style text lines of `cute-lsp lint`, JSON, and SARIF 2.1.0 for
// code scanning.
package diagnostics

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/cute-lsp/cute-lsp/analysis"
)

// File is one linted file and what the analysis found in it.
type File struct {
	Path     string
	Findings []analysis.Finding
}

// HasErrors reports whether any finding is an error.
func HasErrors(files []File) bool {
	for _, f := range files {
		for _, x := range f.Findings {
			if x.Severity == analysis.SeverityError {
				return true
			}
		}
	}
	return false
}

// Text writes one line per finding: PATH:LINE:COL: SEVERITY: MESSAGE [CODE].
func Text(w io.Writer, files []File) error {
	for _, f := range files {
		for _, x := range f.Findings {
			if _, err := fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", f.Path, x.Range.Pos.Line, x.Range.Pos.Column, x.Severity, x.Message, x.Code); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonFinding is the JSON form of a finding; positions are 1-based lines and
// rune columns, ends exclusive.
type jsonFinding struct {
	Path      string        `json:"path"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"end_line"`
	EndColumn int           `json:"end_column"`
	Severity  string        `json:"severity"`
	Code      string        `json:"code"`
	Message   string        `json:"message"`
	Related   []jsonRelated `json:"related,omitempty"`
	Fixes     []string      `json:"fixes,omitempty"`
}

// jsonRelated is a related location, in the keys of jsonFinding.
type jsonRelated struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Message   string `json:"message"`
}

// JSON writes every finding as one JSON array.
func JSON(w io.Writer, files []File) error {
	out := []jsonFinding{}
	for _, f := range files {
		for _, x := range f.Findings {
			j := jsonFinding{Path: f.Path, Line: int(x.Range.Pos.Line), Column: int(x.Range.Pos.Column),
				EndLine: int(x.Range.End.Line), EndColumn: int(x.Range.End.Column),
				Severity: x.Severity.String(), Code: x.Code, Message: x.Message}
			for _, r := range x.Related {
				j.Related = append(j.Related, jsonRelated{int(r.Range.Pos.Line), int(r.Range.Pos.Column), int(r.Range.End.Line), int(r.Range.End.Column), r.Message})
			}
			for _, fix := range x.Fixes {
				j.Fixes = append(j.Fixes, fix.Title)
			}
			out = append(out, j)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// SARIF writes a SARIF 2.1.0 log with one run, one rule per finding code.
func SARIF(w io.Writer, files []File, version string) error {
	rules := make([]sarifRule, 0, len(analysis.Codes))
	index := map[string]int{}
	for _, c := range analysis.Codes {
		index[c.Code] = len(rules)
		rules = append(rules, sarifRule{ID: c.Code, ShortDescription: sarifText{c.Summary}})
	}
	results := []sarifResult{}
	for _, f := range files {
		for _, x := range f.Findings {
			r := sarifResult{RuleID: x.Code, Level: sarifLevel(x.Severity), Message: sarifText{x.Message},
				Locations: []sarifLocation{location(f.Path, int(x.Range.Pos.Line), int(x.Range.Pos.Column), int(x.Range.End.Line), int(x.Range.End.Column))}}
			if i, ok := index[x.Code]; ok {
				r.RuleIndex = &i
			}
			for i, rel := range x.Related {
				loc := location(f.Path, int(rel.Range.Pos.Line), int(rel.Range.Pos.Column), int(rel.Range.End.Line), int(rel.Range.End.Column))
				loc.ID = i + 1
				loc.Message = &sarifText{rel.Message}
				r.RelatedLocations = append(r.RelatedLocations, loc)
			}
			results = append(results, r)
		}
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:       sarifTool{Driver: sarifDriver{Name: "cute-lsp", Version: version, InformationURI: "https://github.com/cute-lsp/cute-lsp", Rules: rules}},
			ColumnKind: "unicodeCodePoints",
			Results:    results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

func sarifLevel(s analysis.Severity) string {
	switch s {
	case analysis.SeverityError:
		return "error"
	case analysis.SeverityWarning:
		return "warning"
	}
	return "note"
}

func location(path string, line, col, endLine, endCol int) sarifLocation {
	region := sarifRegion{StartLine: line, StartColumn: col, EndLine: endLine, EndColumn: endCol}
	if endLine < line || (endLine == line && endCol <= col) {
		region.EndLine, region.EndColumn = line, col+1 // an empty range still marks one character
	}
	return sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: path}, Region: region}}
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string    `json:"id"`
	ShortDescription sarifText `json:"shortDescription"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        *int            `json:"ruleIndex,omitempty"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
}

type sarifLocation struct {
	ID               int           `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}
