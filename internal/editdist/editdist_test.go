package editdist

import (
	"math/rand/v2"
	"testing"
)

// levenshtein is the plain full-table distance the bounded one must agree with.
func levenshtein(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
		}
	}
	return d[len(a)][len(b)]
}

func TestWithinAgreesWithFullDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	word := func() string {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = "abcd_"[r.IntN(5)]
		}
		return string(b)
	}
	for range 5000 {
		a, b, limit := word(), word(), r.IntN(12)
		if got, want := Within(a, b, limit), min(levenshtein(a, b), limit+1); got != want {
			t.Fatalf("Within(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
		}
	}
	for _, tc := range []struct {
		a, b  string
		limit int
		want  int
	}{{"logical_divid", "logical_divide", 3, 1}, {"tile", "tiel", 2, 2}, {"", "abc", 5, 3}, {"abc", "xyz", 1, 2},
		{"kitten", "sitting", 5, 3}, {"abc", "abc", 0, 0}, {"abcdef", "ghijkl", 2, 3}, {"a", "abcdef", 2, 3}} {
		if got := Within(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("Within(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	names := []string{"non-compact", "coalescible", "incongruent", "non-compat-x"}
	if got, ok := Nearest("non-compat", names, 3); !ok || got != "non-compact" {
		t.Errorf("got %q %v", got, ok)
	}
	if _, ok := Nearest("zzzzzz", names, 3); ok {
		t.Errorf("found a name more than 3 edits away")
	}
	// Ties go to the first in byte order whatever the input order.
	for _, order := range [][]string{{"bc", "ac"}, {"ac", "bc"}} {
		if got, _ := Nearest("cc", order, 1); got != "ac" {
			t.Errorf("%v: got %q, want ac", order, got)
		}
	}
}
