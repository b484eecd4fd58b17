// Package editdist is the bounded Levenshtein distance the "did you mean"
// suggestions of names, operations and atoms share.
package editdist

// Within is the Levenshtein distance of a and b when it is at most limit,
// and limit+1 otherwise: it stops as soon as a row shows the distance must
// exceed limit. Law: Within(a, b, l) == min(Levenshtein(a, b), l+1).
func Within(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	// Rows on the stack for the names suggestions compare.
	var rows [2][32]int
	var prev, cur []int
	if len(b) < len(rows[0]) {
		prev, cur = rows[0][:len(b)+1], rows[1][:len(b)+1]
	} else {
		prev, cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit+1)
}

// Nearest is the candidate at the smallest edit distance from name, at
// most limit edits away; ties go to the candidate first in byte order, so
// the answer does not depend on the candidates' order. found is false when
// none is within limit.
func Nearest(name string, candidates []string, limit int) (best string, found bool) {
	bestDist := limit + 1
	for _, c := range candidates {
		d := Within(name, c, limit)
		if d < bestDist || (d == bestDist && found && c < best) {
			best, bestDist, found = c, d, d <= limit
		}
	}
	return best, found
}
