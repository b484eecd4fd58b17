package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode"
)

// codeCase is one line of ../shared/host/code_cases.jsonl or of
// testdata/code_cases.jsonl: a snippet of CuTe C++ or DSL code, the
// position of an expression in it, and the value CuTe C++ prints for it.
type codeCase struct {
	ID        string `json:"id"`
	Lang      string `json:"lang"`
	Text      string `json:"text"`
	Line      int    `json:"line"`
	Character int    `json:"character"`
	Expected  string `json:"expected"`
}

func loadCodeCases(t *testing.T, path string) []codeCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("no code cases: %v", err)
	}
	defer f.Close()
	var out []codeCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c codeCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, c)
	}
	return out
}

func withoutSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// hoverCodeCase opens the case's text as a .cu or .py file and hovers at its position.
func hoverCodeCase(c codeCase) (string, bool) {
	uri := "file:///case.cu"
	kind := KindCpp
	if c.Lang == "python" {
		uri, kind = "file:///case.py", KindPython
	}
	snap := NewSnapshot(uri, 1, kind, c.Text)
	off := snap.Offset(Position{Line: c.Line, Character: c.Character}, UTF16)
	h, ok := NewAnalyzed().Hover(context.Background(), snap, DefaultConfig(), off)
	return h.Markdown, ok
}

// runCodeCases hovers every case and reports the failures; it returns the pass count.
func runCodeCases(t *testing.T, cases []codeCase) int {
	pass := 0
	for _, c := range cases {
		md, ok := hoverCodeCase(c)
		if ok && strings.Contains(withoutSpace(md), withoutSpace(c.Expected)) {
			pass++
			continue
		}
		first := md
		if i := strings.Index(first, "\n```\n"); i >= 0 {
			first = first[:i]
		}
		t.Logf("%s (%s): want %s, hover %q", c.ID, c.Lang, c.Expected, first)
	}
	return pass
}

// TestSharedCodeCases hovers the shared public cases (CuTe C++'s printed
// values for lines of CUTLASS); it reports the pass count and fails below
// the count reached, so that a regression shows.
func TestSharedCodeCases(t *testing.T) {
	cases := loadCodeCases(t, "../../shared/host/code_cases.jsonl")
	pass := runCodeCases(t, cases)
	t.Logf("shared code cases: %d of %d pass", pass, len(cases))
	if pass < sharedCodeCasesPassing {
		t.Errorf("%d of %d shared code cases pass, fewer than the %d reached", pass, len(cases), sharedCodeCasesPassing)
	}
}

// sharedCodeCasesPassing is the number of shared cases the reader passes.
const sharedCodeCasesPassing = 70

// TestOwnCodeCases hovers the project's own cases (testdata/code_cases.jsonl,
// drawn from CUTLASS's test/unit/cute, whose tests state expected values): every one passes.
func TestOwnCodeCases(t *testing.T) {
	cases := loadCodeCases(t, "testdata/code_cases.jsonl")
	if pass := runCodeCases(t, cases); pass != len(cases) {
		t.Errorf("%d of %d own code cases pass", pass, len(cases))
	}
}
