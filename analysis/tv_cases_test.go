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
	case layout.ComposedPartition:
		return v.Format(true)
	case *layout.Layout:
		return v.Format(true)
	case layout.IntTuple:
		return v.Format(true)
	}
	return v.String()
}

// TestTVCases evaluates every TiledMMA and TiledCopy case CuTe C++
// computed, in the sheet's syntax, and compares the printed result mark for
// mark (static _N and run-time N alike) with CuTe's; where CuTe rejects a
// case the sheet must reject it too, for the static_assert CuTe names.
// shared: ../shared/tv (or CUTE_TV_CASES); extra: testdata/tv, random
// cases of more atoms, layouts and threads (testdata/tv/README.md).
func TestTVCases(t *testing.T) {
	t.Run("shared", func(t *testing.T) { checkTVCases(t, tvCasesFile) })
	t.Run("extra", func(t *testing.T) { checkTVCases(t, "testdata/tv/extra_cases.jsonl") })
	t.Run("more", func(t *testing.T) { checkTVCases(t, "testdata/tv/more_cases.jsonl") })
	t.Run("swizzled", func(t *testing.T) { checkTVCases(t, "testdata/tv/swizzled_cases.jsonl") })
}

func checkTVCases(t *testing.T, file string) {
	fh, err := os.Open(file)
	if err != nil {
		t.Fatalf("the thread-value corpus (../shared/tv beside the checkout, testdata/tv): %v", err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	total, passed := 0, 0
	for sc.Scan() {
		var c tvCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		total++
		got, err := EvalString(c.Expr)
		wantErr := c.Error != nil || strings.HasPrefix(c.Expected, "error")
		switch {
		case wantErr && err == nil:
			t.Errorf("%s: %s = %s; CuTe rejects it: %s%s", c.ID, c.Expr, cutePrint(got), c.Expected, deref(c.Error))
		case wantErr && !sameRejection(c.Error, err):
			t.Errorf("%s: %s: %v; CuTe rejects it for another reason: %s", c.ID, c.Expr, err, *c.Error)
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
		t.Fatalf("%s holds no case", file)
	}
	t.Logf("%d of %d thread-value cases reproduce CuTe C++", passed, total)
}

// sameRejection reports whether err gives CuTe's reason: a static_assert's
// text (the layout package's Condition) where CuTe's compiler printed one.
func sameRejection(cute *string, err error) bool {
	if cute == nil {
		return true
	}
	why, ok := strings.CutPrefix(*cute, "compile: ")
	if !ok || why == "rejected" {
		return true
	}
	return strings.Contains(err.Error(), why)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return " " + *s
}
