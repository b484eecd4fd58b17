package source

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// TestReadNotebook: the code cells of a notebook in order, with their
// sources as Jupyter joins them, and each byte of a source mapped to the
// place in the .ipynb where it is written (escapes included).
func TestReadNotebook(t *testing.T) {
	data, err := os.ReadFile("testdata/layouts.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := ReadNotebook(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(nb.Cells) != 3 || nb.Language != "python" {
		t.Fatalf("%d cells, language %q; want 3 code cells, python", len(nb.Cells), nb.Language)
	}
	for i, want := range []int{1, 2, 3} {
		if nb.Cells[i].Index != want {
			t.Errorf("cell %d: index %d, want %d", i, nb.Cells[i].Index, want)
		}
	}
	if want := "import cutlass\nimport cutlass.cute as cute\n%matplotlib inline\n\ntile = cute.make_layout((4, 8), stride=(8, 1))"; nb.Cells[0].Source != want {
		t.Errorf("cell 1 source = %q", nb.Cells[0].Source)
	}
	if want := "size = cute.size(tiled)"; nb.Cells[2].Source != want {
		t.Errorf("cell 3 source (a string) = %q", nb.Cells[2].Source)
	}
	// Each word of a source, wherever it is, maps to where the file writes it.
	for _, tc := range []struct {
		cell      int
		word      string
		line, col int
	}{
		{0, "tile", 21, 6},
		{0, "import", 17, 6},
		{1, "tiled", 31, 6},
		{1, "(2,4)", 30, 22},  // after \"caf\u00e9\": the escapes count as written
		{1, "(4,8)", 32, 14},  // inside an escaped string
		{2, "tiled", 40, 32},  // a source given as one string
		{1, "\u00e9", 30, 13}, // an escaped character maps to its backslash
	} {
		c := &nb.Cells[tc.cell]
		off := strings.Index(c.Source, tc.word)
		line, col := nb.Position(c.FileOffset(off))
		if line != tc.line || col != tc.col {
			t.Errorf("cell %d %q at %d:%d, want %d:%d", c.Index, tc.word, line, col, tc.line, tc.col)
		}
	}
	// The source's end is its last string's closing quote.
	c := &nb.Cells[0]
	if line, col := nb.Position(c.FileOffset(len(c.Source))); line != 21 || col != 52 {
		t.Errorf("end of cell 1 at %d:%d, want 21:52", line, col)
	}
}

// TestReadNotebookErrors: what is not a notebook says why, and where.
func TestReadNotebookErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
		offset           int
	}{
		{"malformed", `{"cells": [ {"cell_type": "code", "source": "x"} `, "malformed JSON: the file ends inside a value", 49},
		{"syntax", `{"cells": [}`, "malformed JSON: invalid character '}'", 11},
		{"not UTF-8", "{\"cells\": [\"\xff\"]}", "not UTF-8", 12},
		{"not an object", `[1, 2]`, "not a notebook: the file is not a JSON object", 0},
		{"no cells", `{"nbformat": 4}`, "no \"cells\" array", -1},
		{"nbformat 3", `{"nbformat": 3, "worksheets": []}`, "nbformat 3: only nbformat 4 notebooks are read", 13},
		{"cells not an array", `{"cells": {}}`, "\"cells\" is not an array", 10},
		{"cell not an object", `{"cells": [1]}`, "cell 0 is not an object", 11},
		{"source of numbers", `{"cells": [{"cell_type": "code", "source": ["a", 1]}]}`, "cell 0: source holds something other than strings", 49},
		{"trailing text", `{"cells": []} {}`, "text after the notebook's object", 14},
		{"empty", ``, "malformed JSON", 0},
	} {
		_, err := ReadNotebook([]byte(tc.data))
		var ne *NotebookError
		if !errors.As(err, &ne) {
			t.Errorf("%s: error %v, want a NotebookError", tc.name, err)
			continue
		}
		if !strings.Contains(ne.Reason, tc.want) || ne.Offset != tc.offset {
			t.Errorf("%s: %q at %d, want %q at %d", tc.name, ne.Reason, ne.Offset, tc.want, tc.offset)
		}
	}
}

// TestJoinCells: cells start on lines of their own at the offsets given,
// keep their bytes there, and IPython's syntax turns into blanks.
func TestJoinCells(t *testing.T) {
	cells := []string{"a = 1", "b = a\n", "%%bash\necho (4,8)", "c\r", "  !ls\n%time d = b\ne = (2\n  % 3\n  != 4)"}
	text, starts := JoinCells(cells)
	want := "a = 1\nb = a\n\n      \n          \nc\r\n\n     \n           \ne = (2\n  % 3\n  != 4)\n"
	if text != want {
		t.Errorf("joined = %q, want %q", text, want)
	}
	for i, c := range cells {
		if starts[i] > 0 && text[starts[i]-1] != '\n' {
			t.Errorf("cell %d does not start a line", i)
		}
		if got := text[starts[i] : starts[i]+len(c)]; len(got) != len(c) || i < 2 && got != c {
			t.Errorf("cell %d reads %q, want %q", i, got, c)
		}
	}
}

// FuzzReadNotebook: any bytes are read without a panic or a hang; a
// notebook read agrees with encoding/json on each source, and every byte
// of a source maps inside the file.
//
// cd source && go test -run '^$' -fuzz FuzzReadNotebook -fuzztime 60s
func FuzzReadNotebook(f *testing.F) {
	if data, err := os.ReadFile("testdata/layouts.ipynb"); err == nil {
		f.Add(string(data))
	}
	f.Add(`{"cells": [{"cell_type": "code", "source": ["x = \"\ud83d\ude00\"\n", "\ud800 \u00e9\\"]}], "nbformat": 4}`)
	f.Add(`{"cells": [{"cell_type": "code", "source": ""}, {"cell_type": "code", "source": []}], "metadata": {"kernelspec": 1}}`)
	f.Add(`{"cells": [[[[[[[[[[[[]]]]]]]]]]]}`)
	f.Fuzz(func(t *testing.T, data string) {
		if len(data) > 1<<16 {
			return
		}
		done := make(chan struct{})
		var nb *Notebook
		var err error
		go func() {
			defer close(done)
			nb, err = ReadNotebook([]byte(data))
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer in 10 s on %q", data)
		}
		if err != nil {
			var ne *NotebookError
			if !errors.As(err, &ne) || ne.Offset > len(data) {
				t.Fatalf("error %v", err)
			}
			return
		}
		var std struct {
			Cells []struct {
				CellType string          `json:"cell_type"`
				Source   json.RawMessage `json:"source"`
			} `json:"cells"`
		}
		stdErr := json.Unmarshal([]byte(data), &std)
		for _, c := range nb.Cells {
			if stdErr == nil && c.Index < len(std.Cells) {
				var one string
				var many []string
				raw := std.Cells[c.Index].Source
				if json.Unmarshal(raw, &one) != nil {
					json.Unmarshal(raw, &many)
					one = strings.Join(many, "")
				}
				if one != c.Source {
					t.Fatalf("cell %d: %q, encoding/json reads %q", c.Index, c.Source, one)
				}
			}
			for off := 0; off <= len(c.Source); off++ {
				if fo := c.FileOffset(off); fo < 0 || fo > len(data) {
					t.Fatalf("cell %d byte %d maps to %d, outside the file", c.Index, off, fo)
				}
			}
			nb.Position(c.FileOffset(0))
		}
	})
}
