package analysis

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusThroughGrammar runs every CuTe C++ vector the way a user's text
// is run: each argument parsed by the grammar, bound, then the operation
// applied. The algebra's own test (layout.TestGolden) skips the grammar.
func TestCorpusThroughGrammar(t *testing.T) {
	files, _ := filepath.Glob("../../shared/golden/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no golden corpus in ../../shared/golden: CuTe's vectors live in ../shared beside the checkout")
	}
	total, failed := 0, 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var c CorpusCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			total++
			got, err := EvalCorpusCase(c)
			switch {
			case c.Error != nil && err == nil:
				t.Errorf("%s %s%v = %v; CuTe rejects it: %s", c.ID, c.Op, c.Args, got, *c.Error)
			case c.Error != nil:
				continue
			case err != nil:
				t.Errorf("%s %s%v: %v; CuTe gives %s", c.ID, c.Op, c.Args, err, *c.Result)
			case got.String() != *c.Result:
				t.Errorf("%s %s%v = %v; CuTe gives %s", c.ID, c.Op, c.Args, got, *c.Result)
			default:
				continue
			}
			failed++
		}
		fh.Close()
	}
	t.Logf("%d of %d corpus cases reproduced", total-failed, total)
}

func TestAnnotateCorpusLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"id":"X","op":"coalesce","args":["(2,4):(1,2)"],"result":"8:1"}`,
			`{"id":"X","op":"coalesce","args":["(2,4):(1,2)"],"result":"8:1","got":"8:1"}`},
		{`{"id":"X","op":"complement","args":["(2,2):(1,1)"]}`, `"got_error":"complement: `},
		{`{"op":"nosuch","args":[]}`, `"got_error":"nosuch: no such operation"`},
		{`{"op":"size","args":["(4,"]}`, `"got_error":"argument 1: 1:4: `},
		{`{}`, `{"got_error":"`},
		{`not json`, `{"got_error":"not a corpus line: `},
		{`[1,2]`, `{"got_error":"not a corpus line: `},
	} {
		got := string(AnnotateCorpusLine([]byte(tc.in)))
		if !strings.Contains(got, tc.want) {
			t.Errorf("AnnotateCorpusLine(%s) = %s, want it to contain %s", tc.in, got, tc.want)
		}
		var v any
		if err := json.Unmarshal([]byte(got), &v); err != nil {
			t.Errorf("AnnotateCorpusLine(%s) = %s is not JSON: %v", tc.in, got, err)
		}
	}
}
