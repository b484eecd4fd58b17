package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/project"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func lintIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errOut bytes.Buffer
	code := run(append([]string{"lint"}, args...), nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

const twoFindings = "h = (4,8):(1,5)\nb = composition((4,2):(1,4), (2,2):(1,2,3))\n"

// TestLintAppliesProjectConfig: severities and excludes of the nearest
// .cute-lsp.json, a nested one overriding its parent for its folder, a file
// named on the command line linted though excluded.
func TestLintAppliesProjectConfig(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		".git/HEAD":            "",
		".cute-lsp.json":       `{"exclude": ["gen/**"], "severity": {"non-compact": "error", "incongruent": "off"}}`,
		"src/a.cute":           twoFindings,
		"gen/b.cute":           twoFindings,
		"lib/.cute-lsp.json":   `{"severity": {"incongruent": "warning"}}`,
		"lib/deep/c.cute":      twoFindings,
		"src/ok/clean.cute":    "x = (4,8):(1,4)\n",
		"gen/keep/named.cute":  twoFindings,
		"other/not_cute.txt":   "",
		"src/ok/another.cute":  "y = 8:1\n",
		"lib/deep/more/d.cute": "z = 4:1\n",
	})
	code, out, errOut := lintIn(t, root, "--hints", ".")
	want := "" +
		"lib/deep/c.cute:1:5: hint: (4,8):(1,5) is not compact: it reaches 32 offsets within a span of 39 (padding?) [non-compact]\n" +
		"lib/deep/c.cute:2:30: warning: the shape (2,2) has 2 modes but the stride (1,2,3) has 3 (shape and stride are not congruent) [incongruent]\n" +
		"src/a.cute:1:5: error: (4,8):(1,5) is not compact: it reaches 32 offsets within a span of 39 (padding?) [non-compact]\n"
	if code != 1 || out != want {
		t.Errorf("exit %d, stderr %q\ngot\n%s\nwant\n%s", code, errOut, out, want)
	}
	code, out, _ = lintIn(t, root, filepath.Join("gen", "keep", "named.cute"))
	if code != 1 || !strings.Contains(out, "named.cute:1:5: error:") || strings.Contains(out, "incongruent") {
		t.Errorf("a file named though excluded: exit %d\n%s", code, out)
	}
}

// TestLintBrokenConfigIsFatal: a mistake in the configuration stops the run
// with its position, instead of linting with part of it.
func TestLintBrokenConfigIsFatal(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{".git/HEAD": "", "a.cute": twoFindings, ".cute-lsp.json": "{\n  \"severity\": {\"non-compat\": \"off\"}\n}"})
	code, out, errOut := lintIn(t, root, ".")
	if code != 2 || out != "" || !strings.Contains(errOut, `.cute-lsp.json:2:15: severity: unknown finding code "non-compat"; did you mean "non-compact"?`) {
		t.Errorf("exit %d, out %q, stderr %q", code, out, errOut)
	}
}

// TestLintReportOrderIsStable: files are analyzed on several cores, and the
// report still lists them in path order, every run.
func TestLintReportOrderIsStable(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{".git/HEAD": ""}
	for i := 0; i < 60; i++ {
		files[fmt.Sprintf("d%d/s%02d.cute", i%7, i)] = twoFindings
	}
	writeFiles(t, root, files)
	_, first, _ := lintIn(t, root, ".")
	if strings.Count(first, "\n") != 60 {
		t.Fatalf("want one error per file, got\n%s", first)
	}
	for i := 0; i < 5; i++ {
		if _, again, _ := lintIn(t, root, "."); again != first {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, again, first)
		}
	}
}

// TestFindConfigsIsFindWithin: findConfigs, which keeps the answer of
// each folder on the way up for the next, gives every folder what
// project.FindWithin gives it: the nearest configuration, none past a .git
// (a repository nested in one with a configuration), and the same for a
// relative and an absolute path. (Checked failing: without the stop at
// .git, sub/c's files get the root's configuration; with the kept answers
// looked up by the parent folder, five files get a wrong one.)
func TestFindConfigsIsFindWithin(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		".git/HEAD":          "",
		".cute-lsp.json":     `{"exclude": ["gen/**"]}`,
		"a/b/x.cute":         "",
		"a/y.cute":           "",
		"sub/.git/HEAD":      "",
		"sub/c/d/y.cute":     "",
		"sub/c/z.cute":       "",
		"lib/.cute-lsp.json": `{"severity": {"incongruent": "warning"}}`,
		"lib/d/e/w.cute":     "",
		"lib/d/v.cute":       "",
		"top.cute":           "",
	})
	wd, _ := os.Getwd()
	if err := os.Chdir(filepath.Join(root, "a")); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	paths := []string{"b/x.cute", "y.cute", "../sub/c/d/y.cute", "../sub/c/z.cute", "../lib/d/e/w.cute",
		filepath.Join(root, "lib/d/v.cute"), "../top.cute", filepath.Join(root, "sub/c/d/y.cute")}
	cfgs, err := findConfigs(paths)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, p := range paths {
		want, err := project.FindWithin(filepath.Dir(p), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := cfgs.of(p); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: configuration %+v, want %+v", p, got, want)
		}
		if want != nil {
			found++
		}
	}
	if found != 5 {
		t.Errorf("%d files with a configuration, want 5 (the tree is not what the test means)", found)
	}
}

// TestFindConfigsBroken: a broken configuration found on the way up is
// the run's error, as project.FindWithin gives it.
func TestFindConfigsBroken(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		".git/HEAD":      "",
		".cute-lsp.json": `{"exclude": [`,
		"a/x.cute":       "",
	})
	_, want := project.FindWithin(filepath.Join(root, "a"), "")
	_, err := findConfigs([]string{filepath.Join(root, "a/x.cute")})
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("error %v, want %v", err, want)
	}
}
