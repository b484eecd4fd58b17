package layout

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxLeaves is the most leaves a value may hold, shape and stride trees
// together. CuTe code never comes near it (a layout of a million modes
// would not compile); past it a value is an error, not an allocation: a
// sheet that doubles a tuple thirty times names 2^30 leaves in 500 bytes.
const MaxLeaves = 1 << 20

// textWriter builds the text of a value within a budget of bytes. Past the
// budget it writes nothing more and marks itself cut; it counts the leaves
// it wrote, so that the caller can say how many were not shown.
type textWriter struct {
	b      strings.Builder
	budget int // bytes that may still be written
	cut    bool
	shown  int64 // leaves written
}

// unlimitedText is a textWriter without a budget (String and Format).
func unlimitedText() textWriter { return textWriter{budget: math.MaxInt} }

func (w *textWriter) String() string { return w.b.String() }

// put writes s, or cuts when it does not fit; a leaf is counted as shown.
func (w *textWriter) put(s string, leaf bool) {
	if w.cut {
		return
	}
	if len(s) > w.budget {
		w.cut = true
		return
	}
	w.b.WriteString(s)
	w.budget -= len(s)
	if leaf {
		w.shown++
	}
}

// punct writes one bracket or separator, text a fixed part of a print
// (" o ", "Sw<3,4,3>"), leaf and leafBytes one leaf; each cuts when the
// budget is spent.
func (w *textWriter) punct(c byte)       { w.put(string(c), false) }
func (w *textWriter) text(s string)      { w.put(s, false) }
func (w *textWriter) leaf(s string)      { w.put(s, true) }
func (w *textWriter) leafBytes(s []byte) { w.put(string(s), true) }

func (l Layout) write(w *textWriter, static bool) {
	l.Shape.write(w, static)
	w.text(":")
	l.Stride.write(w, static)
}

func (c Composed) write(w *textWriter, static bool) {
	w.text(c.Outer.String() + " o ")
	c.Offset.write(w, static)
	w.text(" o ")
	c.Inner.write(w, static)
}

func (n NestedComposed) write(w *textWriter, static bool) {
	w.text(n.Outer.String() + " o ")
	n.Offset.write(w, static)
	w.text(" o ")
	n.Inner.write(w, static)
}

func (t Tiler) write(w *textWriter) {
	w.text("[")
	for i, m := range t.Modes {
		if i > 0 {
			w.text(";")
		}
		m.write(w)
	}
	w.text("]")
}

func (m TilerMode) write(w *textWriter) {
	switch {
	case m.Skip:
		w.text("_")
	case m.Sub != nil:
		m.Sub.write(w)
	default:
		m.Layout.write(w, false)
	}
}

// Shown is a value's text within a budget: Text is whole when Cut is false;
// otherwise it is a prefix ending with whole leaves, and Leaves and Hidden
// say how many leaves the value has and how many the prefix leaves out
// (both 0 for a value without trees, whose text was cut at a character).
type Shown struct {
	Text   string
	Cut    bool
	Leaves int64
	Hidden int64
	// Bytes is the length of the whole text, for a value printed by its
	// String method and cut at a character (0 otherwise).
	Bytes int
	// Unit is what Leaves counts: "leaves", or "intervals" for an image.
	Unit string
}

// String is the text, with what was cut said at its end:
// "((2,2),(2,... (1,073,741,824 leaves; 1,073,741,820 not shown)".
func (s Shown) String() string {
	switch {
	case !s.Cut:
		return s.Text
	case s.Bytes > 0:
		return s.Text + "... (" + groupThousands(int64(s.Bytes)) + " characters; " +
			groupThousands(int64(s.Bytes-len(s.Text))) + " not shown)"
	}
	unit := s.Unit
	if unit == "" {
		unit = "leaves"
	}
	return s.Text + "... (" + groupThousands(s.Leaves) + " " + unit + "; " + groupThousands(s.Hidden) + " not shown)"
}

// FormatLimited prints v as its String (or Format(static)) does, but
// writes no more than about maxBytes: the cost is that of the prefix
// shown, whatever the size of v, and the leaf count of a cut value is
// taken without walking shared subtrees twice.
func FormatLimited(v Value, static bool, maxBytes int) Shown {
	w := textWriter{budget: max(maxBytes, 1)}
	if iv, ok := v.(Intervals); ok && len(iv) > 0 {
		// An image may hold millions of intervals: written one by one.
		var buf [48]byte
		for i, r := range iv {
			b := buf[:0]
			if i > 0 {
				b = append(b, " u "...)
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, r.Lo, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, r.Hi, 10)
			w.leafBytes(append(b, ')'))
			if w.cut {
				return Shown{Text: w.String(), Cut: true, Leaves: int64(len(iv)), Hidden: int64(len(iv)) - w.shown, Unit: "intervals"}
			}
		}
		return Shown{Text: w.String()}
	}
	if !writeValue(&w, v, static) {
		// Values without trees of their own (swizzles, tags, TIRx
		// layouts, interval sets) print in full, then are cut.
		var s string
		if f, ok := v.(interface{ Format(bool) string }); ok {
			s = f.Format(static)
		} else {
			s = v.String()
		}
		if len(s) <= maxBytes {
			return Shown{Text: s}
		}
		cut := max(maxBytes, 0)
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return Shown{Text: s[:cut], Cut: true, Bytes: len(s)}
	}
	if !w.cut {
		return Shown{Text: w.String()}
	}
	total := CountLeaves(v)
	return Shown{Text: w.String(), Cut: true, Leaves: total, Hidden: total - w.shown}
}

// writeValue prints v into w when v is a kind made of trees; false otherwise.
func writeValue(w *textWriter, v Value, static bool) bool {
	switch v := v.(type) {
	case IntTuple:
		v.write(w, static)
	case *Layout:
		v.write(w, static)
	case Composed:
		v.write(w, static)
	case NestedComposed:
		v.write(w, static)
	case Tiler:
		v.write(w)
	case TilerMode:
		v.write(w)
	case Partition:
		v.Layout.write(w, static)
		w.text(" + ")
		v.Offset.write(w, static)
	case ComposedPartition:
		if !writeValue(w, v.Layout, static) {
			w.text(v.Layout.String())
		}
		w.text(" + " + strconv.FormatInt(v.Offset, 10))
	default:
		return false
	}
	return true
}

// trees lists the integer tuples v is made of; ok is false for a value
// this package does not know the parts of.
func trees(v Value) (ts []IntTuple, ok bool) {
	switch v := v.(type) {
	case IntTuple:
		return []IntTuple{v}, true
	case *Layout:
		return []IntTuple{v.Shape, v.Stride}, true
	case Composed:
		return []IntTuple{v.Offset, v.Inner.Shape, v.Inner.Stride}, true
	case NestedComposed:
		return []IntTuple{v.Offset, v.Inner.Offset, v.Inner.Inner.Shape, v.Inner.Inner.Stride}, true
	case Partition:
		return []IntTuple{v.Layout.Shape, v.Layout.Stride, v.Offset}, true
	case ComposedPartition:
		ts, _ := trees(v.Layout)
		return ts, true
	case TilerMode:
		return v.trees(nil), true
	case Tiler:
		var out []IntTuple
		for _, m := range v.Modes {
			out = m.trees(out)
		}
		return out, true
	}
	return nil, false
}

func (m TilerMode) trees(out []IntTuple) []IntTuple {
	switch {
	case m.Skip:
		return out
	case m.Sub != nil:
		for _, s := range m.Sub.Modes {
			out = s.trees(out)
		}
		return out
	}
	return append(out, m.Layout.Shape, m.Layout.Stride)
}

// CountLeaves is the number of leaves of v's trees (0 for a value without
// trees). A subtree shared by several parents (a = (b,b)) is counted as
// often as it appears but walked once, so the count of a value that names
// 2^30 leaves in 30 nodes takes 30 steps. It saturates at MaxInt64.
func CountLeaves(v Value) int64 {
	ts, _ := trees(v)
	memo := map[tupleKey]int64{}
	var n int64
	for _, t := range ts {
		n = addSaturating(n, leavesMemo(t, memo))
	}
	return n
}

// tupleKey names a tuple's elements: two tuples with the same key are the same tree.
type tupleKey struct {
	first *IntTuple
	n     int
}

func leavesMemo(t IntTuple, memo map[tupleKey]int64) int64 {
	if t.kind != kindTuple {
		return 1
	}
	if len(t.sub) == 0 {
		return 0
	}
	k := tupleKey{&t.sub[0], len(t.sub)}
	if n, ok := memo[k]; ok {
		return n
	}
	var n int64
	for _, e := range t.sub {
		n = addSaturating(n, leavesMemo(e, memo))
	}
	memo[k] = n
	return n
}

func addSaturating(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// MaxValueDepth is the deepest nesting a value's trees may have: CuTe's
// layouts nest a few levels, but a sheet line (a1 = (a0)) can nest one
// level deeper than the line before, and every walk of a tree recurses.
const MaxValueDepth = 256

// WithinLimits reports whether v's trees hold at most limit leaves in all
// and nest at most MaxValueDepth deep, with how many leaves they hold
// (exact when within the leaf limit, else some count past it) and whether
// they are too deep (tooDeep; ok is then false). It stops walking once past
// either limit, so it costs at most limit steps whatever v's size, and it
// allocates nothing. Values of kinds this package does not know are within.
func WithinLimits(v Value, limit int64) (n int64, tooDeep, ok bool) {
	ts, _ := trees(v)
	w := limitWalk{limit: limit}
	for _, t := range ts {
		w.walk(t, 0)
		if w.deep {
			return w.n, true, false
		}
		if w.n > limit {
			return CountLeaves(v), false, false
		}
	}
	return w.n, false, true
}

// limitWalk counts leaves until past limit or MaxValueDepth.
type limitWalk struct {
	n, limit int64
	deep     bool
}

func (w *limitWalk) walk(t IntTuple, depth int) {
	if t.kind != kindTuple {
		w.n++
		return
	}
	if depth >= MaxValueDepth {
		w.deep = true
		return
	}
	for _, e := range t.sub {
		if w.walk(e, depth+1); w.n > w.limit || w.deep {
			return
		}
	}
}

// groupThousands writes n with commas between groups of three digits: 1,073,741,824.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
