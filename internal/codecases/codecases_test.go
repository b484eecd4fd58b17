package codecases

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/grammar"
)

var generated = []struct {
	file    string
	lang    string
	atLeast int // the generator's output is far larger; fewer means a broken or truncated file
}{
	{"cpp_cases.jsonl", "cpp", 500},
	{"py_cases.jsonl", "python", 100},
}

func TestCasesAreWellFormed(t *testing.T) {
	for _, g := range generated {
		path := filepath.Join("..", "..", "testdata", "code", g.file)
		cases, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) < g.atLeast {
			t.Errorf("%s: %d cases, want at least %d", path, len(cases), g.atLeast)
		}
		errors := 0
		for _, c := range cases {
			where := c.File + ":" + itoa(c.FileRow) + ": " + c.ID
			if c.Lang != g.lang {
				t.Errorf("%s: lang %q in a %s file", where, c.Lang, g.lang)
			}
			checkPosition(t, where, c)
			if c.ExpectedError {
				errors++
				continue
			}
			if _, perr := grammar.ParseExpr(c.Expected); perr != nil {
				t.Errorf("%s: expected %q does not parse: %v", where, c.Expected, perr)
			}
			if !c.Matches(" " + c.Expected + "\n") {
				t.Errorf("%s: Matches rejects its own expected value", where)
			}
			if c.Lang == "python" && c.CppEquivalent == "" {
				t.Errorf("%s: python case without its C++ equivalent", where)
			}
		}
		if g.lang == "cpp" && errors == 0 {
			t.Errorf("%s: no case CuTe rejects; the generator should draw some", path)
		}
	}
}

// checkPosition: the hover position is on the last line, on the name (function, type or
// member) that starts the bound expression, right of the '='.
func checkPosition(t *testing.T, where string, c Case) {
	t.Helper()
	lines := c.Lines()
	if c.Line != len(lines)-1 {
		// a multi-line declaration (using X = Layout<...,\n ...>) starts on an earlier line
		if !strings.HasPrefix(lines[c.Line], "using ") {
			t.Errorf("%s: line %d is not the expression's (the text has %d lines)", where, c.Line, len(lines))
		}
	}
	line := lines[c.Line]
	eq := strings.Index(line, " = ")
	w := c.Word()
	if eq < 0 || c.Character <= eq+2 {
		t.Errorf("%s: character %d is not right of the binding's '=' in %q", where, c.Character, line)
	}
	if w == "" || !(w[0] == '_' || w[0] >= 'A' && w[0] <= 'Z' || w[0] >= 'a' && w[0] <= 'z') {
		t.Errorf("%s: position falls on %q, not on a name, in %q", where, w, line)
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

func TestParseRejects(t *testing.T) {
	good := `{"id":"A","lang":"cpp","text":"auto x = make_layout(8);","line":0,"character":10,"expected":"8:_1"}`
	for _, tc := range []struct {
		name, input, want string
	}{
		{"not json", "{", "x.jsonl:1: bad case"},
		{"unknown field", `{"id":"A","lang":"cpp","text":"a","line":0,"character":0,"expected":"8","colour":1}`, `unknown field "colour"`},
		{"two objects", good + " {}", "text after the JSON object"},
		{"no id", `{"lang":"cpp","text":"a","line":0,"character":0,"expected":"8"}`, "without an id"},
		{"bad lang", `{"id":"A","lang":"go","text":"a","line":0,"character":0,"expected":"8"}`, `lang "go"`},
		{"empty text", `{"id":"A","lang":"cpp","text":"","line":0,"character":0,"expected":"8"}`, "empty text"},
		{"no expected", `{"id":"A","lang":"cpp","text":"a","line":0,"character":0}`, "no expected value"},
		{"both", `{"id":"A","lang":"cpp","text":"a","line":0,"character":0,"expected":"8","expected_error":true,"error":"e"}`, "both"},
		{"error without message", `{"id":"A","lang":"cpp","text":"a","line":0,"character":0,"expected_error":true}`, "without its message"},
		{"line past the end", `{"id":"A","lang":"cpp","text":"a\nb","line":2,"character":0,"expected":"8"}`, "line 2 outside"},
		{"negative line", `{"id":"A","lang":"cpp","text":"a","line":-1,"character":0,"expected":"8"}`, "line -1 outside"},
		{"character past the end", `{"id":"A","lang":"cpp","text":"ab","line":0,"character":3,"expected":"8"}`, "character 3"},
		{"character inside a surrogate pair", `{"id":"A","lang":"cpp","text":"𝄞x","line":0,"character":1,"expected":"8"}`, "character 1"},
		{"duplicate id", good + "\n\n" + good, "x.jsonl:3: id \"A\" already used on line 1"},
		{"line too long", `{"id":"` + strings.Repeat("a", MaxLine) + `"}`, "token too long"},
	} {
		_, err := Parse(strings.NewReader(tc.input), "x.jsonl")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestOffsetAndWord(t *testing.T) {
	c := Case{ID: "A", Lang: "python", Text: "é = 1\n𝄞 = cute.make_layout(4)\n", Line: 1, Character: 10, Expected: "_4:_1"}
	off, err := c.Offset()
	if err != nil {
		t.Fatal(err)
	}
	// "𝄞" is 2 UTF-16 units and 4 bytes: character 10 is byte 12 of the line.
	if want := len("é = 1\n") + 12; off != want {
		t.Errorf("offset %d, want %d", off, want)
	}
	if w := c.Word(); w != "make_layout" {
		t.Errorf("word %q, want make_layout", w)
	}
	if c.FileName() != "A.py" || (Case{ID: "B", Lang: "cpp"}).FileName() != "B.cu" {
		t.Errorf("file names %q %q", c.FileName(), Case{ID: "B", Lang: "cpp"}.FileName())
	}
	if !c.Matches("layout\n  _4 : _1") || c.Matches("_4:_2") {
		t.Errorf("Matches ignores whitespace only")
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "none.jsonl")); err == nil {
		t.Error("no error for a missing file")
	}
}

// The hand-drawn public set shares the format; it must load with the same checks.
func TestSharedHostCasesLoad(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "host", "code_cases.jsonl")
	cases, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 60 {
		t.Errorf("%d cases in %s", len(cases), path)
	}
}
