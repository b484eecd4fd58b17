package source

import "bytes"

// constexprBranches are the branches of C++ "if constexpr" statements (the
// then-branch, and every else-branch after it): inside a template a
// discarded branch is never instantiated, so the code there may be code
// CuTe would reject, left for instantiations that never happen. Analysis
// reports no error there. A branch is its {...} block, or its statement up
// to ";" when it has no braces.
func (r *cppReader) constexprBranches() []Range {
	if !bytes.Contains(r.src, []byte("constexpr")) {
		return nil // no token is "constexpr": found at memchr speed (a traits header has none)
	}
	var out []Range
	for i := 0; i+2 < len(r.toks); i++ {
		if r.word(i) != "if" || r.word(i+1) != "constexpr" || !r.isPunctAt(i+2, "(") {
			continue
		}
		j := r.match[i+2]
		if j < 0 {
			continue
		}
		// The then-branch, then each else (an "else if constexpr" chain
		// is met again by this loop, its branch included here already).
		for {
			end, next := r.branchAfter(j+1, 0)
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

// branchAfter is the end offset of the branch starting at token k (its
// {...} block, or its statement up to ";") and the index of the token
// after it; end is -1 when it cannot be told.
func (r *cppReader) branchAfter(k, depth int) (end, next int) {
	end, next, _ = r.branchNesting(k, depth)
	return end, next
}

// branchNesting is branchAfter, and how many ifs deep the branch nests
// (an "else if" chain's rest counts one per if).
func (r *cppReader) branchNesting(k, depth int) (end, next, nesting int) {
	if k >= len(r.toks) || depth > maxIfNesting {
		return -1, 0, 0
	}
	if r.word(k) == "if" {
		end, next, nesting = r.ifStatementEnd(k, depth+1)
		return end, next, nesting + 1
	}
	if r.isPunctAt(k, "{") {
		m := r.match[k]
		if m < 0 {
			return -1, 0, 0
		}
		return r.toks[m].end, m + 1, 0
	}
	for m := k; m < len(r.toks); m++ {
		switch {
		case r.isPunctAt(m, "{"), r.isPunctAt(m, "("), r.isPunctAt(m, "["):
			if r.match[m] > m {
				m = r.match[m]
			}
		case r.isPunctAt(m, ";"):
			return r.toks[m].end, m + 1, 0
		case r.isPunctAt(m, "}"):
			return -1, 0, 0
		}
	}
	return -1, 0, 0
}

// maxIfNesting bounds how far an else-if chain (or unbraced nested ifs)
// is followed from one "if constexpr"; each "if constexpr" of a longer
// chain is met by constexprBranches on its own, so no branch is missed.
const maxIfNesting = 64

// ifEnd is the end of an if statement found by ifStatementEnd: its end
// offset, the index of the token after it, and how many ifs deep its
// branches nest.
type ifEnd struct{ end, next, nesting int }

// ifStatementEnd is the end of the if statement at token k ("if",
// "constexpr"?, "(...)", its branch and its else branches), the index
// of the token after it, and how many ifs deep its branches nest. Each
// if of an "else if constexpr" chain is met by constexprBranches and
// follows the rest of the chain: the ends found are kept (ifEnds), valid
// at any depth where the nesting stays within maxIfNesting, so that a
// chain of n ifs costs n, not n*n (CuTe's arch/mma_sm90.hpp selects its
// atoms with such chains).
func (r *cppReader) ifStatementEnd(k, depth int) (end, next, nesting int) {
	if e, ok := r.ifEnds[k]; ok {
		if depth+e.nesting > maxIfNesting {
			return -1, 0, 0 // the read found a branch too deep to follow
		}
		return e.end, e.next, e.nesting
	}
	j := k + 1
	if r.word(j) == "constexpr" {
		j++
	}
	if !r.isPunctAt(j, "(") || r.match[j] < 0 {
		return -1, 0, 0
	}
	end, next, nesting = r.branchNesting(r.match[j]+1, depth)
	for end >= 0 && r.word(next) == "else" {
		var n int
		end, next, n = r.branchNesting(next+1, depth)
		nesting = max(nesting, n)
	}
	if end < 0 {
		return -1, 0, 0
	}
	if r.ifEnds == nil {
		r.ifEnds = map[int]ifEnd{}
	}
	r.ifEnds[k] = ifEnd{end, next, nesting}
	return end, next, nesting
}
