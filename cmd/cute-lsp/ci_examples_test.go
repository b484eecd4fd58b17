package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The pre-commit hook (.pre-commit-hooks.yaml) and the GitHub Actions
// example (editors/ci/github-actions.yml) run cute-lsp command lines that
// users copy. These tests run those lines, as written in the files, through
// run against a folder with an error and one without, so an option renamed
// or an exit code changed breaks them here rather than in users' CI.

const (
	ciBadFile   = "// (4,2):(1,(2,3))\n__global__ void k() {}\n" // incongruent: an error
	ciCleanFile = "tile = (4,8):(1,4)\n"
)

// yamlValues are the values of key in text, for YAML written one `key: value`
// (or `- key: value`) a line, single quotes removed. It is no YAML parser:
// the examples are kept in that form so that this test can read them.
func yamlValues(text, key string) []string {
	var values []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "- ")
		value, ok := strings.CutPrefix(line, key+":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && value[0] == '\'' && value[len(value)-1] == '\'' {
			value = strings.ReplaceAll(value[1:len(value)-1], "''", "'")
		}
		values = append(values, value)
	}
	return values
}

// ciCommand is a one-line shell command of the examples: its arguments after
// "cute-lsp", the file its stdout goes to (or ""), and whether `|| true`
// ignores its exit code. Any other shell syntax fails the test, so that an
// example the test cannot run faithfully is noticed.
type ciCommand struct {
	args       []string
	stdoutTo   string
	ignoreExit bool
}

func parseCICommand(t *testing.T, line string) ciCommand {
	t.Helper()
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "cute-lsp" {
		t.Fatalf("%q does not run cute-lsp", line)
	}
	var c ciCommand
	for i := 1; i < len(fields); i++ {
		switch f := fields[i]; {
		case f == ">" && i+1 < len(fields):
			c.stdoutTo = fields[i+1]
			i++
		case f == "||" && i+1 == len(fields)-1 && fields[i+1] == "true":
			c.ignoreExit = true
			i++
		case strings.ContainsAny(f, "|&;<>$`'\"\\*?"):
			t.Fatalf("%q: shell syntax %q this test does not run", line, f)
		default:
			c.args = append(c.args, f)
		}
	}
	return c
}

// exec runs c in the current folder and writes its stdout where it is redirected.
func (c ciCommand) exec(t *testing.T) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(c.args, strings.NewReader(""), &out, &errb)
	if c.stdoutTo != "" {
		if err := os.WriteFile(c.stdoutTo, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return code, out.String(), errb.String()
}

// ciFolders makes a folder with an error in a .cu file and a clean folder.
func ciFolders(t *testing.T) (bad, clean string) {
	t.Helper()
	bad, clean = t.TempDir(), t.TempDir()
	for path, text := range map[string]string{
		filepath.Join(bad, "kernel.cu"):    ciBadFile,
		filepath.Join(bad, "tiles.cute"):   ciCleanFile,
		filepath.Join(clean, "tiles.cute"): ciCleanFile,
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return bad, clean
}

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func oneValue(t *testing.T, file, text, key string) string {
	t.Helper()
	values := yamlValues(text, key)
	if len(values) != 1 {
		t.Fatalf("%s: %d values for %s (%q), want 1", file, len(values), key, values)
	}
	return values[0]
}

// TestPreCommitHook: the hook's files pattern takes the files lint reads and
// nothing else, and its entry, given file names as pre-commit gives them,
// exits 1 on an error and 0 on clean files.
func TestPreCommitHook(t *testing.T) {
	const file = ".pre-commit-hooks.yaml"
	text := readRepoFile(t, file)
	if id := oneValue(t, file, text, "id"); id != "cute-lsp-lint" {
		t.Errorf("id %q, want cute-lsp-lint", id)
	}
	if lang := oneValue(t, file, text, "language"); lang != "system" {
		t.Errorf("language %q, want system (cute-lsp on PATH)", lang)
	}
	pattern, err := regexp.Compile(oneValue(t, file, text, "files"))
	if err != nil {
		t.Fatalf("files: %v", err)
	}
	for _, name := range []string{"a.cute", "k.cu", "k.cuh", "x.cpp", "x.hpp", "x.h", "x.cc", "m.py", "nb/tour.ipynb", "sub/t.mlir"} {
		if !pattern.MatchString(name) {
			t.Errorf("files %q does not match %s", pattern, name)
		}
	}
	for _, name := range []string{"main.go", "README.md", "k.cu.orig", "a.cutex", "Makefile", "x.ipynb.bak"} {
		if pattern.MatchString(name) {
			t.Errorf("files %q matches %s, which lint does not read", pattern, name)
		}
	}

	entry := parseCICommand(t, oneValue(t, file, text, "entry"))
	if entry.stdoutTo != "" || entry.ignoreExit {
		t.Fatalf("entry %+v: pre-commit needs the plain exit code", entry)
	}
	bad, clean := ciFolders(t)
	t.Chdir(bad)
	withFiles := entry
	withFiles.args = append(append([]string(nil), entry.args...), "kernel.cu", "tiles.cute")
	if code, out, errOut := withFiles.exec(t); code != 1 || !strings.Contains(out, "kernel.cu") {
		t.Errorf("hook on an error: exit %d, stdout %q, stderr %q; want 1 and kernel.cu's error", code, out, errOut)
	}
	t.Chdir(clean)
	withFiles.args = append(append([]string(nil), entry.args...), "tiles.cute")
	if code, out, errOut := withFiles.exec(t); code != 0 {
		t.Errorf("hook on a clean file: exit %d, stdout %q, stderr %q; want 0", code, out, errOut)
	}
}

// TestGitHubActionsExample: the workflow's SARIF step writes SARIF 2.1.0
// with the error to the file the upload step sends, and its last step fails
// the job on an error and passes on a clean tree.
func TestGitHubActionsExample(t *testing.T) {
	const file = "editors/ci/github-actions.yml"
	text := readRepoFile(t, file)
	if uses := yamlValues(text, "uses"); !strings.Contains(strings.Join(uses, " "), "github/codeql-action/upload-sarif@") {
		t.Errorf("%s uses %q: want github/codeql-action/upload-sarif", file, uses)
	}
	sarifFile := oneValue(t, file, text, "sarif_file")
	var commands []ciCommand
	for _, line := range yamlValues(text, "run") {
		if strings.HasPrefix(line, "cute-lsp ") {
			commands = append(commands, parseCICommand(t, line))
		}
	}
	if len(commands) != 2 {
		t.Fatalf("%s: %d cute-lsp run lines, want 2 (SARIF, then the failing check)", file, len(commands))
	}
	sarif, check := commands[0], commands[1]
	if sarif.stdoutTo != sarifFile || !sarif.ignoreExit {
		t.Errorf("SARIF step %+v: want stdout to %q (the uploaded file) and || true", sarif, sarifFile)
	}
	if check.stdoutTo != "" || check.ignoreExit {
		t.Errorf("check step %+v: the job fails only on lint's own exit code", check)
	}

	bad, clean := ciFolders(t)
	t.Chdir(bad)
	if code, _, errOut := sarif.exec(t); code != 1 {
		t.Errorf("SARIF step on an error: exit %d (stderr %q), want 1 (ignored by || true, but 2 would be bad usage)", code, errOut)
	}
	data, err := os.ReadFile(sarifFile)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct{ Results []json.RawMessage }
	}
	if err := json.Unmarshal(data, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Errorf("%s is not SARIF 2.1.0 with the error (%v):\n%s", sarifFile, err, data)
	}
	if code, out, errOut := check.exec(t); code != 1 || !strings.Contains(out, "kernel.cu") {
		t.Errorf("check step on an error: exit %d, stdout %q, stderr %q; want 1 (the job fails) and kernel.cu's error", code, out, errOut)
	}
	t.Chdir(clean)
	if code, out, errOut := check.exec(t); code != 0 {
		t.Errorf("check step on a clean tree: exit %d, stdout %q, stderr %q; want 0", code, out, errOut)
	}
}
