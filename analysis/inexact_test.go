package analysis

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// The composition check agrees with the post-condition CuTe's golden
// vectors record: it flags exactly the accepted compositions whose result
// is not A o B.
func TestInexactCompositionAgreesWithGolden(t *testing.T) {
	f, err := os.Open("../../shared/golden/composition.jsonl")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	checked, flagged := 0, 0
	for sc.Scan() {
		var v struct {
			ID     string
			Args   []json.RawMessage
			Result string
			Post   *struct{ Holds bool }
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if v.Post == nil || v.Result == "" || len(v.Args) != 2 {
			continue
		}
		var a, b string
		if json.Unmarshal(v.Args[0], &a) != nil || json.Unmarshal(v.Args[1], &b) != nil {
			continue // an integer operand: no layout to check
		}
		var ls [3]layout.Layout
		ok := true
		for i, s := range []string{a, b, v.Result} {
			val, err := EvalString(s)
			l, isLayout := val.(layout.Layout)
			if err != nil || !isLayout {
				ok = false
				break
			}
			ls[i] = l
		}
		if !ok {
			continue
		}
		checked++
		_, _, _, bad := inexactComposition(ls[0], ls[1], ls[2])
		if bad {
			flagged++
		}
		if bad == v.Post.Holds {
			t.Errorf("%s composition(%s, %s) = %s: flagged %v, but CuTe's post-condition holds = %v", v.ID, a, b, v.Result, bad, v.Post.Holds)
		}
	}
	if checked < 100 || flagged == 0 {
		t.Errorf("checked %d vectors, flagged %d: the golden file was not read as expected", checked, flagged)
	}
	t.Logf("%d compositions checked, %d not A o B", checked, flagged)
}

func TestInexactFindings(t *testing.T) {
	for _, tc := range []struct {
		src, want string
	}{
		{"x = composition((4,3):(1,8), 4:3)\n", "at i = 2, A(B(2)) = A(6) = 10 while the result gives 8"},
		{"x = logical_divide((4,6):(1,5), 3:1)\n", "has 36 coordinates where the layout has 24"},
		{"x = composition((4,8):(1,4), 4:2)\n", ""},
		{"x = logical_divide(24:1, 4:1)\n", ""},
	} {
		s := AnalyzeSheet("t.cute", []byte(tc.src))
		var got []string
		for _, f := range s.Findings {
			if f.Code == CodeInexact {
				got = append(got, f.Message)
			}
		}
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%q: unexpected %q", tc.src, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%q: inexact findings %q, want one containing %q", tc.src, got, tc.want)
		}
	}
}
