package main

import (
	"bytes"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestEvalCommand(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		stdout   string // exact, or a prefix when it ends with "..."
		inStderr string
	}{
		{[]string{"eval", "composition((4,2):(1,4), (2,2):(1,2))"}, 0, "(2,2):(1,2)\n", ""},
		{[]string{"eval", "composition((4,2):(1,4),", "(2,2):(1,2))"}, 0, "(2,2):(1,2)\n", ""},
		{[]string{"eval", "--static", "make_layout((2,4))"}, 0, "(_2,_4):(_1,_2)\n", ""},
		{[]string{"eval", "--static", "composition(Sw<3,4,3>, (8,64):(64,1))"}, 0, "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)\n", ""},
		{[]string{"eval", "complement((2,2):(1,1))"}, 1, "error: 1:1: complement: ...", ""},
		{[]string{"eval", "(4,2:(1,4)"}, 1, "error: 1:5: expected ...", ""},
		{[]string{"eval", "nosuch(8:1)"}, 1, "error: 1:1: unknown operation nosuch (in nosuch)\n", ""},
		{[]string{"eval"}, 2, "", "usage: cute-lsp eval"},
		{[]string{"eval", "--bogus", "8:1"}, 2, "", "flag provided but not defined"},
		{[]string{"eval", "--jsonl", "8:1"}, 2, "", "takes no expression"},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (stdout %q, stderr %q)", tc.args, code, tc.code, stdout, stderr)
		}
		if want, prefix := strings.CutSuffix(tc.stdout, "..."); prefix {
			if !strings.HasPrefix(stdout, want) {
				t.Errorf("%v: stdout %q, want prefix %q", tc.args, stdout, want)
			}
		} else if stdout != tc.stdout {
			t.Errorf("%v: stdout %q, want %q", tc.args, stdout, tc.stdout)
		}
		if !strings.Contains(stderr, tc.inStderr) {
			t.Errorf("%v: stderr %q, want it to contain %q", tc.args, stderr, tc.inStderr)
		}
	}
}

func TestEvalJSONL(t *testing.T) {
	in := `{"id":"A","op":"coalesce","args":["(2,4):(1,2)"],"result":"8:1"}
{"id":"B","op":"complement","args":["(2,2):(1,1)"],"error":"x"}

{"id":"C","op":"upcast","args":["(4,2):(1,4)",2],"result":"(2,2):(1,2)"}
`
	code, stdout, _ := runCLI(t, in, "eval", "--jsonl")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines out, want 3 (blank lines skipped, failing cases kept):\n%s", len(lines), stdout)
	}
	for i, want := range []string{`"result":"8:1","got":"8:1"}`, `"error":"x","got_error":"complement: `, `"got":"(2,2):(1,2)"}`} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d = %s, want it to contain %s", i+1, lines[i], want)
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, stderr := runCLI(t, "", "frobnicate")
	if code != 2 || !strings.Contains(stderr, `unknown command "frobnicate"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := runCLI(t, "", "--help")
	if code != 0 || !strings.Contains(stdout, "eval") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout)
	}
}

func TestTableCommand(t *testing.T) {
	code, stdout, _ := runCLI(t, "", "table", "(2,(2,2)):(4,(2,1))")
	if code != 0 || !strings.HasPrefix(stdout, "(2,(2,2)):(4,(2,1))\n") || !strings.Contains(stdout, "1  | 4 | 6 | 5 | 7 |") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", "table", "--rows", "2", "--cols", "2", "logical_divide((8,8):(8,1), [2:1;4:1])")
	if code != 0 || !strings.Contains(stdout, "(2 of 8 columns)") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"table"}, 2},
		{[]string{"table", "--rows", "0", "8:1"}, 2},
		{[]string{"table", "--rows", "65536", "--cols", "65536", "8:1"}, 2},
		{[]string{"table", "--cols", "257", "8:1"}, 2},
		{[]string{"table", "--slices", "65", "8:1"}, 2},
		{[]string{"table", "--nope", "8:1"}, 2},
		{[]string{"table", "(8,"}, 1},
		{[]string{"table", "Sw<3,4,3>"}, 1},
	} {
		if code, _, _ := runCLI(t, "", tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.code)
		}
	}
}
