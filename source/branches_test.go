package source

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The ends of if statements are kept (ifEnds) so that a chain of "else if
// constexpr" costs its length, not its square: the branches found are
// those of following each chain again from every if, at every length
// around maxIfNesting, braced or not, whole or cut short.
func TestConstexprBranchesChains(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, maxIfNesting - 2, maxIfNesting - 1, maxIfNesting, maxIfNesting + 1, maxIfNesting + 2, 2*maxIfNesting + 5} {
		for _, shape := range []string{"braced", "bare", "else", "nested", "cut", "mixed"} {
			src := []byte(ifChain(n, shape))
			r := readerFor(src)
			got := r.constexprBranches()
			want := readerFor(src).followedBranches()
			if !slices.Equal(got, want) {
				t.Errorf("%d ifs, %s: %d branches %v, want %d %v", n, shape, len(got), got, len(want), want)
			}
		}
	}
}

// ifChain is a function whose body is a chain of n "if constexpr" of the
// given shape.
func ifChain(n int, shape string) string {
	var b strings.Builder
	b.WriteString("template <class T> auto f() {\n")
	for i := range n {
		if i > 0 {
			b.WriteString(" else ")
		}
		fmt.Fprintf(&b, "if constexpr (N == %d) ", i)
		switch {
		case shape == "bare" || shape == "mixed" && i%3 == 1:
			fmt.Fprintf(&b, "return make_layout(%d);", i)
		case shape == "nested" && i%4 == 2:
			fmt.Fprintf(&b, "{ if constexpr (M) { return %d; } else if (K) x = (1); }", i)
		default:
			fmt.Fprintf(&b, "{ return Layout<_%d>{}; }", i)
		}
	}
	switch shape {
	case "else", "mixed":
		b.WriteString(" else { return 0; }")
	case "cut":
		b.WriteString(" else if constexpr (M) ")
	}
	b.WriteString("\n}\n")
	return b.String()
}

// A do-while statement as a branch ends at the ";" after its while (...),
// not at its body's: the else after it is a branch too.
func TestConstexprBranchesDoWhile(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string // the branches' texts
	}{
		{"if constexpr (C) do x(); while (0); else y();", []string{" do x(); while (0);", " y();"}},
		{"if constexpr (C) do { x(); } while (a(b)); else if constexpr (D) do do z(); while (1); while (2); else y();",
			[]string{" do { x(); } while (a(b));", " if constexpr (D) do do z(); while (1); while (2); else y();", " do do z(); while (1); while (2);", " y();"}},
		{"if constexpr (C) do x(); y(); else z();", nil}, // not C++: no branch can be told
	} {
		src := []byte(c.src)
		r := readerFor(src)
		var got []string
		for _, b := range r.constexprBranches() {
			got = append(got, string(src[b.Start:b.End]))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: branches %q, want %q", c.src, got, c.want)
		}
		if ref := readerFor(src).followedBranches(); !slices.Equal(ref, r.constexprBranches()) {
			t.Errorf("%s: the reference walk finds %v", c.src, ref)
		}
	}
}

func readerFor(src []byte) *cppReader {
	r := &cppReader{src: src, str: string(src), toks: cppTokensFor(src, nil, nil)}
	r.match = matchBrackets(parser{src: src, str: r.str, toks: r.toks, cpp: true}, nil)
	return r
}

// followedBranches is constexprBranches following each if statement's
// branches anew from every if (without ifEnds).
func (r *cppReader) followedBranches() []Range {
	var out []Range
	for i := 0; i+2 < len(r.toks); i++ {
		if r.word(i) != "if" || r.word(i+1) != "constexpr" || !r.isPunctAt(i+2, "(") {
			continue
		}
		j := r.match[i+2]
		if j < 0 {
			continue
		}
		for {
			end, next := r.followBranch(j+1, 0)
			if end < 0 {
				break
			}
			out = append(out, Range{r.toks[j].end, end})
			if r.word(next) != "else" {
				break
			}
			j = next
		}
	}
	return out
}

func (r *cppReader) followBranch(k, depth int) (end, next int) {
	if k >= len(r.toks) || depth > maxIfNesting {
		return -1, 0
	}
	if r.word(k) == "if" {
		j := k + 1
		if r.word(j) == "constexpr" {
			j++
		}
		if !r.isPunctAt(j, "(") || r.match[j] < 0 {
			return -1, 0
		}
		end, next = r.followBranch(r.match[j]+1, depth+1)
		for end >= 0 && r.word(next) == "else" {
			end, next = r.followBranch(next+1, depth+1)
		}
		return end, next
	}
	if r.isPunctAt(k, "{") {
		m := r.match[k]
		if m < 0 {
			return -1, 0
		}
		return r.toks[m].end, m + 1
	}
	if r.word(k) == "do" {
		_, m := r.followBranch(k+1, depth)
		if m <= k || r.word(m) != "while" || !r.isPunctAt(m+1, "(") || r.match[m+1] <= m+1 || !r.isPunctAt(r.match[m+1]+1, ";") {
			return -1, 0
		}
		return r.toks[r.match[m+1]+1].end, r.match[m+1] + 2
	}
	for m := k; m < len(r.toks); m++ {
		switch {
		case r.isPunctAt(m, "{"), r.isPunctAt(m, "("), r.isPunctAt(m, "["):
			if r.match[m] > m {
				m = r.match[m]
			}
		case r.isPunctAt(m, ";"):
			return r.toks[m].end, m + 1
		case r.isPunctAt(m, "}"):
			return -1, 0
		}
	}
	return -1, 0
}
