// Package codecases loads the hover cases for CuTe code: snippets of CuTe C++ or CuTe DSL Python
// with the value CuTe C++ prints for the expression at a position (testdata/code/*.jsonl, and
// ../shared/host/code_cases.jsonl in the same format). A hover test opens Case.Text as
// Case.FileName(), hovers at (Line, Character) and checks the hover with Case.Matches, or, for a
// case CuTe rejects at compile time (ExpectedError), that an error is reported there.
package codecases

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Case is one snippet and what CuTe C++ makes of its expression.
type Case struct {
	ID     string `json:"id"`
	Lang   string `json:"lang"`   // "cpp" (a .cu file) or "python" (a CuTe DSL .py file)
	Source string `json:"source"` // where the snippet comes from
	Text   string `json:"text"`
	// Line and Character are 0-based; Character counts UTF-16 code units, as LSP does.
	Line      int `json:"line"`
	Character int `json:"character"`
	// Expected is the value exactly as cute::print writes it (static integers as _N).
	Expected string `json:"expected"`
	// ExpectedError marks an expression CuTe C++ rejects at compile time; Error is the
	// static_assert's message.
	ExpectedError bool   `json:"expected_error"`
	Error         string `json:"error"`
	AllStatic     bool   `json:"all_static"`
	// CppEquivalent (Python cases) is the C++ that was compiled for the snippet;
	// CppEvaluated (some hand-drawn C++ cases) the expression compiled in place of the line's.
	CppEquivalent string `json:"cpp_equivalent"`
	CppEvaluated  string `json:"cpp_evaluated"`
	Public        bool   `json:"public"`

	// Where the case was read: file and 1-based line.
	File    string `json:"-"`
	FileRow int    `json:"-"`
}

// MaxLine bounds a case line; the generated cases are far shorter.
const MaxLine = 1 << 20

// Load reads a JSON-lines case file and checks every case (see Parse).
func Load(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads cases, one JSON object a line (blank lines are skipped), and checks each: known
// fields only, an id seen once, a language, a position inside the text, and either an expected
// value or an expected error with its message. The error names the file and line.
func Parse(r io.Reader, name string) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	var cases []Case
	ids := map[string]int{}
	row := 0
	for sc.Scan() {
		row++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		c, err := decode(raw)
		if err == nil {
			err = c.Check()
		}
		if err == nil {
			if prev, dup := ids[c.ID]; dup {
				err = fmt.Errorf("id %q already used on line %d", c.ID, prev)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, row, err)
		}
		ids[c.ID] = row
		c.File, c.FileRow = name, row
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, row+1, err)
	}
	return cases, nil
}

func decode(raw []byte) (Case, error) {
	var c Case
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("bad case: %w", err)
	}
	if dec.More() {
		return c, fmt.Errorf("bad case: text after the JSON object")
	}
	return c, nil
}

// Check reports what is wrong with a case, or nil.
func (c Case) Check() error {
	switch {
	case c.ID == "":
		return fmt.Errorf("case without an id")
	case c.Lang != "cpp" && c.Lang != "python":
		return fmt.Errorf("case %s: lang %q is neither cpp nor python", c.ID, c.Lang)
	case c.Text == "":
		return fmt.Errorf("case %s: empty text", c.ID)
	case c.ExpectedError && c.Expected != "":
		return fmt.Errorf("case %s: both an expected value and an expected error", c.ID)
	case c.ExpectedError && c.Error == "":
		return fmt.Errorf("case %s: expected error without its message", c.ID)
	case !c.ExpectedError && c.Expected == "":
		return fmt.Errorf("case %s: no expected value", c.ID)
	}
	if _, err := c.Offset(); err != nil {
		return fmt.Errorf("case %s: %w", c.ID, err)
	}
	return nil
}

// FileName is a name to open the text under, so that a server reads it in the right language.
func (c Case) FileName() string {
	if c.Lang == "python" {
		return c.ID + ".py"
	}
	return c.ID + ".cu"
}

// Lines splits the text into its lines (a final newline does not start another).
func (c Case) Lines() []string {
	return strings.Split(strings.TrimSuffix(c.Text, "\n"), "\n")
}

// Offset is the byte offset in Text of (Line, Character); an error if the position is outside
// the text or splits a character.
func (c Case) Offset() (int, error) {
	lines := c.Lines()
	if c.Line < 0 || c.Line >= len(lines) {
		return 0, fmt.Errorf("line %d outside the text's %d lines", c.Line, len(lines))
	}
	start := 0
	for _, l := range lines[:c.Line] {
		start += len(l) + 1
	}
	line := lines[c.Line]
	units := 0
	for i, r := range line {
		if units == c.Character {
			return start + i, nil
		}
		if units > c.Character {
			break
		}
		units += len(utf16.Encode([]rune{r}))
	}
	if units == c.Character && c.Character >= 0 {
		return start + len(line), nil
	}
	return 0, fmt.Errorf("character %d is not a character boundary of line %d (%d UTF-16 units)",
		c.Character, c.Line, utf16Len(line))
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// Word is the identifier the position falls on ("" if none): the function or type name to hover.
func (c Case) Word() string {
	off, err := c.Offset()
	if err != nil {
		return ""
	}
	isWord := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	b, e := off, off
	for b > 0 {
		r, n := utf8.DecodeLastRuneInString(c.Text[:b])
		if !isWord(r) {
			break
		}
		b -= n
	}
	for e < len(c.Text) {
		r, n := utf8.DecodeRuneInString(c.Text[e:])
		if !isWord(r) {
			break
		}
		e += n
	}
	return c.Text[b:e]
}

// Matches says whether a hover's text contains the expected value, all whitespace removed
// (the comparison ../shared/host/README.md defines).
func (c Case) Matches(hover string) bool {
	return c.Expected != "" && strings.Contains(noSpace(hover), noSpace(c.Expected))
}

func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
