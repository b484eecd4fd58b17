package source

import (
	"bytes"
	"sort"
)

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
	r.findIfEnds()
	var out []Range
	// Every "if" is in ifEnds (by decreasing index): the other tokens
	// need no second look.
	for k := len(r.ifEnds) - 1; k >= 0; k-- {
		i := int(r.ifEnds[k].at)
		if !r.isWordAt(i+1, "constexpr") || !r.isPunctAt(i+2, "(") {
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
			if !r.isElseAt(next) {
				break
			}
			j = next
		}
	}
	return out
}

// branchAfter is the end offset of the branch starting at token k (its
// {...} block, or its statement up to ";") and the index of the token
// after it, where it nests at most maxIfNesting ifs deep from depth; end
// is -1 when it cannot be told.
func (r *cppReader) branchAfter(k, depth int) (end, next int) {
	end, next, nesting := r.branchNesting(k)
	if end < 0 || depth+nesting > maxIfNesting {
		return -1, 0
	}
	return end, next
}

// maxIfNesting bounds how far an else-if chain (or unbraced nested ifs)
// is followed from one "if constexpr"; each "if constexpr" of a longer
// chain is met by constexprBranches on its own, so no branch is missed.
const maxIfNesting = 64

// branchNesting is the end offset of the branch starting at token k, the
// index of the token after it, and how many ifs deep it nests (an "else
// if" chain's rest counts one per if); end is -1 when it cannot be told.
// An if there is looked up in ifEnds.
func (r *cppReader) branchNesting(k int) (end, next, nesting int) {
	if k >= len(r.toks) {
		return -1, 0, 0
	}
	if r.isWordAt(k, "if") {
		e := r.ifEndAt(k)
		if e.end < 0 {
			return -1, 0, 0
		}
		return int(e.end), int(e.next), int(e.nesting) + 1
	}
	if r.isPunctAt(k, "{") {
		m := r.match[k]
		if m < 0 {
			return -1, 0, 0
		}
		return r.toks[m].end, m + 1, 0
	}
	if r.isWordAt(k, "do") {
		// "do BODY while (...);": its first ";" may be the body's, and an
		// else after the statement would then go unseen (a call in a
		// discarded else branch reported as certain).
		_, m, nesting := r.branchNesting(k + 1)
		if m <= k || !r.isWordAt(m, "while") || !r.isPunctAt(m+1, "(") {
			return -1, 0, 0
		}
		if c := r.match[m+1]; c > m+1 && r.isPunctAt(c+1, ";") {
			return r.toks[c+1].end, c + 2, nesting
		}
		return -1, 0, 0
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

// ifEnd is the end of the if statement at token at ("if", "constexpr"?,
// "(...)", its branch and its else branches): its end offset (-1 when it
// cannot be told), the index of the token after it, and how many ifs deep
// its branches nest.
type ifEnd struct{ at, end, next, nesting int32 }

// findIfEnds finds the end of every if statement of the file, the last
// first (ifEnds, by decreasing index): the branches of an if start after
// it, so an if met in one is found already. Each if of an "else if
// constexpr" chain is met by constexprBranches and follows the rest of
// the chain: found once, a chain of n ifs costs n, not n*min(n,
// maxIfNesting) (CuTe's arch/mma_sm90.hpp selects its atoms with chains of
// hundreds), and nothing recurses. What the nesting bound would cut is
// told by the nesting (branchAfter): the walk is the same up to where it
// would be cut.
func (r *cppReader) findIfEnds() {
	r.ifEnds = r.ifEnds[:0]
	src, toks := r.src, r.toks
	for k := len(toks) - 1; k >= 0; k-- {
		// isWordAt(k, "if"), with the few values of this loop in registers.
		if t := &toks[k]; t.kind != tIdent || t.end-t.start != 2 || src[t.start] != 'i' || src[t.start+1] != 'f' {
			continue
		}
		e := ifEnd{at: int32(k), end: -1}
		j := k + 1
		if r.isWordAt(j, "constexpr") {
			j++
		}
		if r.isPunctAt(j, "(") && r.match[j] >= 0 {
			end, next, nesting := r.branchNesting(r.match[j] + 1)
			for end >= 0 && r.isElseAt(next) {
				var n int
				end, next, n = r.branchNesting(next + 1)
				nesting = max(nesting, n)
			}
			if end >= 0 {
				e.end, e.next, e.nesting = int32(end), int32(next), int32(nesting)
			}
		}
		r.ifEnds = append(r.ifEnds, e)
	}
}

// ifEndAt is the end of the if statement at token k (an "if" after every
// one found so far).
func (r *cppReader) ifEndAt(k int) ifEnd {
	// By decreasing index: the first at or before k.
	n := sort.Search(len(r.ifEnds), func(i int) bool { return int(r.ifEnds[i].at) <= k })
	if n < len(r.ifEnds) && int(r.ifEnds[n].at) == k {
		return r.ifEnds[n]
	}
	return ifEnd{at: int32(k), end: -1}
}

// isElseAt reports whether token i is "else", or a name the file defines
// as "else" (directives). A macro defined in another file is not seen.
func (r *cppReader) isElseAt(i int) bool {
	return r.isWordAt(i, "else") || r.elses != nil && r.isIdent(i) && r.elses[r.word(i)]
}
