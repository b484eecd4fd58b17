package analysis

import (
	"bufio"
	"cmp"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// tvCasesFile is the thread-value corpus computed by CuTe C++
// (../shared/tv/README.md); CUTE_TV_CASES points the test at another file
// in the same format, such as a held-out set drawn the same way.
var tvCasesFile = cmp.Or(os.Getenv("CUTE_TV_CASES"), "../../shared/tv/tv_cases.jsonl")

type tvCase struct {
	ID       string  `json:"id"`
	Expr     string  `json:"expr"`
	Expected string  `json:"expected"`
	Error    *string `json:"error"`
}

// cutePrint is a result as CuTe C++ prints it: static integers with their
// "_" marks, a partition's offset (a pointer difference at run time) bare.
func cutePrint(v layout.Value) string {
	switch v := v.(type) {
	case layout.Partition:
		return v.Layout.Format(true) + " + " + v.Offset.Format(true)
	case layout.Layout:
		return v.Format(true)
	case layout.IntTuple:
		return v.Format(true)
	}
	return v.String()
}

// TestTVCases evaluates every TiledMMA and TiledCopy case CuTe C++
// computed, in the sheet's syntax, and compares the printed result mark for
// mark (static _N and run-time N alike) with CuTe's.
func TestTVCases(t *testing.T) {
	fh, err := os.Open(tvCasesFile)
	if err != nil {
		t.Fatalf("the thread-value corpus lives in ../shared/tv beside the checkout: %v", err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	total, passed := 0, 0
	for sc.Scan() {
		var c tvCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", tvCasesFile, err)
		}
		total++
		got, err := EvalString(c.Expr)
		wantErr := c.Error != nil || strings.HasPrefix(c.Expected, "error")
		switch {
		case wantErr && err == nil:
			t.Errorf("%s: %s = %s; CuTe rejects it: %s%s", c.ID, c.Expr, cutePrint(got), c.Expected, deref(c.Error))
		case wantErr:
			passed++
		case err != nil:
			t.Errorf("%s: %s: %v; CuTe gives %s", c.ID, c.Expr, err, c.Expected)
		case cutePrint(got) != c.Expected:
			t.Errorf("%s: %s\n  got  %s\n  CuTe %s", c.ID, c.Expr, cutePrint(got), c.Expected)
		default:
			passed++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if total == 0 {
		t.Fatalf("%s holds no case", tvCasesFile)
	}
	t.Logf("%d of %d thread-value cases reproduce CuTe C++", passed, total)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return " " + *s
}
