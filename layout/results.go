package layout

import (
	"strconv"
	"strings"
)

// Bool is a yes/no answer of a CuTe predicate (congruent, compatible, ...).
type Bool bool

func (b Bool) String() string { return strconv.FormatBool(bool(b)) }

// Interval is the integers Lo <= x < Hi.
type Interval struct{ Lo, Hi int64 }

// Intervals is a set of offsets as sorted disjoint half-open intervals,
// printed [0,8) u [16,24).
type Intervals []Interval

func (iv Intervals) String() string {
	if len(iv) == 0 {
		return "{}"
	}
	var b strings.Builder
	for i, r := range iv {
		if i > 0 {
			b.WriteString(" u ")
		}
		b.WriteByte('[')
		b.WriteString(strconv.FormatInt(r.Lo, 10))
		b.WriteByte(',')
		b.WriteString(strconv.FormatInt(r.Hi, 10))
		b.WriteByte(')')
	}
	return b.String()
}
