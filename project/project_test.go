package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
)

func TestParse(t *testing.T) {
	src := `{
  "exclude": ["third_party/**", "build", "**/*_gen.cu"],
  "severity": {"non-compact": "off", "coalescible": "warning"},
  "defaultElementType": "float",
  "arch": "sm100"
}`
	c, err := Parse("/p/.cute-lsp.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Dir != "/p" || len(c.Exclude) != 3 || c.Severity["non-compact"] != LevelOff || c.Severity["coalescible"] != LevelWarning || c.DefaultElementType != "float" || c.Arch != "sm100" {
		t.Errorf("got %+v", c)
	}
}

// TestParseErrors: every mistake is an error at its line and column with
// the reason, and a near miss names the right spelling.
func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`[]`, "1:1: the configuration must be one JSON object"},
		{"{\n  \"exclude\": [\"a\"],\n  \"severity\": {\"non-compat\": \"off\"}\n}", `3:15: severity: unknown finding code "non-compat"; did you mean "non-compact"?`},
		{"{\"severity\": {\"coalescible\": \"warn\"}}", `1:14: severity of "coalescible": "warn" is not`},
		{"{\n \"excludes\": []\n}", `2:2: unknown key "excludes"; did you mean "exclude"?`},
		{`{"exclude": "build"}`, "1:13: exclude must be a list of path patterns"},
		{`{"exclude": ["a/[b"]}`, `1:13: exclude pattern "a/[b": syntax error in pattern`},
		{`{"exclude": [""]}`, `exclude pattern "": empty pattern`},
		{`{"arch": ""}`, "1:10: arch must be a non-empty string"},
		{`{"arch": "sm90", "arch": "sm80"}`, `1:18: "arch" is set twice`},
		{"{\"arch\": \"sm90\",\n \"x\": }", "2:7: not valid JSON"},
		{`{"arch": "sm90"`, "not valid JSON: the configuration ends early"},
		{`{"arch": "sm90"} {}`, "1:18: text after the configuration object"},
	}
	for _, tc := range tests {
		_, err := Parse("c.json", []byte(tc.src))
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %q", tc.src, err, tc.want)
		}
	}
}

func TestExcluded(t *testing.T) {
	c := &Config{Dir: "/repo", Exclude: []string{"third_party/**", "build", "**/*_gen.cu", "docs/*.cute"}}
	for file, want := range map[string]bool{
		"/repo/third_party/x/y.cu": true,
		"/repo/third_party":        true,
		"/repo/build/a.cute":       true,
		"/repo/src/build/a.cute":   false,
		"/repo/a/b/k_gen.cu":       true,
		"/repo/k_gen.cu":           true,
		"/repo/docs/a.cute":        true,
		"/repo/docs/sub/a.cute":    false,
		"/repo/src/a.cute":         false,
		"/elsewhere/build/a.cute":  false,
		"/repo/../build/a.cute":    false,
	} {
		if got := c.Excluded(file); got != want {
			t.Errorf("Excluded(%s) = %v, want %v", file, got, want)
		}
	}
	if (*Config)(nil).Excluded("/x") {
		t.Errorf("no configuration excludes something")
	}
}

func TestApply(t *testing.T) {
	c := &Config{Severity: map[string]Level{analysis.CodeNonCompact: LevelOff, analysis.CodeCoalescible: LevelError}}
	in := []analysis.Finding{
		{Code: analysis.CodeNonCompact, Severity: analysis.SeverityHint},
		{Code: analysis.CodeCoalescible, Severity: analysis.SeverityHint},
		{Code: analysis.CodeSyntax, Severity: analysis.SeverityError},
	}
	got := c.Apply(in)
	if len(got) != 2 || got[0].Code != analysis.CodeCoalescible || got[0].Severity != analysis.SeverityError || got[1].Severity != analysis.SeverityError {
		t.Errorf("got %v", got)
	}
	if in[1].Severity != analysis.SeverityHint {
		t.Errorf("Apply changed its input")
	}
}

// TestFind: the nearest file wins, the search stops at the repository root,
// and a broken file is an error rather than silently no configuration.
func TestFind(t *testing.T) {
	root := t.TempDir()
	outer := filepath.Join(root, "outer")
	repo := filepath.Join(outer, "repo")
	sub := filepath.Join(repo, "a", "b")
	for _, d := range []string{sub, filepath.Join(repo, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(dir, text string) {
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(outer, `{"arch": "outer"}`)
	if c, err := FindWithin(filepath.Join(sub, "k.cu"), ""); err != nil || c != nil {
		t.Errorf("past the repository root: %v, %v", c, err)
	}
	write(repo, `{"arch": "repo"}`)
	if c, err := FindWithin(filepath.Join(sub, "k.cu"), ""); err != nil || c == nil || c.Arch != "repo" || c.Dir != repo {
		t.Errorf("from a file below: %+v, %v", c, err)
	}
	write(filepath.Join(repo, "a"), `{"arch": "a"}`)
	if c, err := FindWithin(sub, ""); err != nil || c == nil || c.Arch != "a" {
		t.Errorf("the nearest: %+v, %v", c, err)
	}
	write(sub, `{"arch": }`)
	if _, err := FindWithin(sub, ""); err == nil {
		t.Errorf("a broken file gave no error")
	}
	if err := os.Remove(filepath.Join(sub, FileName)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(sub, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := FindWithin(sub, ""); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder named %s: %v", FileName, err)
	}
}

func TestLoadBoundsSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), FileName)
	big := `{"exclude": ["` + strings.Repeat("a", MaxFileSize) + `"]}`
	if err := os.WriteFile(p, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("got %v", err)
	}
}

// TestFindWithinStopsAtTop: the server's search ends at its workspace
// folder even where no .git marks the repository.
func TestFindWithinStopsAtTop(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	sub := filepath.Join(ws, "a")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, FileName), []byte(`{"arch": "above"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err := FindWithin(sub, ws); err != nil || c != nil {
		t.Errorf("read above the top: %+v, %v", c, err)
	}
	if c, err := FindWithin(sub, ""); err != nil || c == nil || c.Arch != "above" {
		t.Errorf("without a top: %+v, %v", c, err)
	}
}

// TestFinderKeepsAnswers: a Finder asked for folder after folder gives
// each what a fresh FindWithin gives it, its kept answers included: a
// folder below one already walked (answered from the parent's), the top
// (nothing above it), and a folder outside the top (walked on past it).
func TestFinderKeepsAnswers(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"ws/a/b", "ws/c", "other/d"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for file, text := range map[string]string{FileName: `{"arch": "above"}`, "ws/c/" + FileName: `{"arch": "c"}`} {
		if err := os.WriteFile(filepath.Join(root, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws := filepath.Join(root, "ws")
	for _, top := range []string{"", ws} {
		f := Finder{Top: top}
		for _, d := range []string{"ws/a", "ws/a/b", "ws/c", "ws", "other/d", "ws/a/b"} {
			dir := filepath.Join(root, d)
			got, err := f.Find(dir)
			want, wantErr := FindWithin(dir, top)
			if err != nil || wantErr != nil {
				t.Fatalf("top %q, %s: %v, %v", top, d, err, wantErr)
			}
			if (got == nil) != (want == nil) || got != nil && got.Arch != want.Arch {
				t.Errorf("top %q, %s: the Finder gives %+v, FindWithin %+v", top, d, got, want)
			}
		}
	}
}
