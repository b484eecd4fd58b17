package bank

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
)

// Candidate is one shared-memory layout offered in place of the given one:
// the same inner layout under another swizzle (Sw o offset o L), or L with
// its rows padded.
type Candidate struct {
	Layout     layout.Value   // the advised layout: a Composed for a swizzle, a Layout for padding
	Swizzle    layout.Swizzle // the swizzle; B = 0 for padding
	Canonical  bool           // one of CuTe's 128/64/32-byte shared-memory swizzle atoms for the element width
	Row        int64          // padding: the row length, in elements, that is padded
	Pad        int64          // padding: elements added after every row
	ExtraElems int64          // padding: elements the padded layout spans beyond the given one
	Report     *Report        // the access on the candidate
}

// Padded reports whether the candidate pads rows rather than swizzles.
func (c *Candidate) Padded() bool { return c.Pad > 0 }

func (c *Candidate) String() string {
	if c.Padded() {
		return fmt.Sprintf("%v (rows of %d padded by %d: %d more elements)", c.Layout, c.Row, c.Pad, c.ExtraElems)
	}
	return c.Layout.String()
}

// Advice is the swizzle (or padding) that makes an access free of bank
// conflicts at its vector width, or why none does.
type Advice struct {
	Access Access
	Before *Report // the access on the given layout
	// VectorBytes is the access width every candidate keeps: what the
	// unswizzled inner layout allows (capped by a requested width).
	VectorBytes int
	// Already is true when the given layout is conflict-free at that width:
	// nothing to change.
	Already bool
	// Candidates are the conflict-free layouts, best first: CuTe's canonical
	// atoms, then other swizzles (fewest bits, then the widest unit), then
	// padding (the fewest extra elements).
	Candidates []Candidate
	// Closest is, when no candidate exists, the tried layout with the fewest
	// wavefronts (nil when none could be tried); Reason says why none works.
	Closest *Candidate
	Reason  string
}

// Best is the advised layout, or nil when there is none (or nothing to change).
func (a *Advice) Best() *Candidate {
	if len(a.Candidates) == 0 {
		return nil
	}
	return &a.Candidates[0]
}

// Summary is one line: the advice, or why there is none.
func (a *Advice) Summary() string {
	switch {
	case a.Already:
		return fmt.Sprintf("%v is already free of bank conflicts at %d bytes per lane", a.Access.Smem, a.VectorBytes)
	case len(a.Candidates) > 0:
		b := a.Best()
		return fmt.Sprintf("use %s: %d wavefronts, the ideal (now %d), at %d bytes per lane", b, b.Report.Wavefronts, a.Before.Wavefronts, a.VectorBytes)
	}
	return "no swizzle or padding makes the access conflict-free: " + a.Reason
}

// maxAdviseElems bounds the image of a layout Advise enumerates.
const maxAdviseElems = 1 << 22

// maxSwizzleBits is the widest B Advise tries: 2^5 units cover every bank.
const maxSwizzleBits = 5

// Advise searches the swizzles Sw<B,M,S> (B >= 1, S >= B, M at least the
// log2 of the elements of one vector, so each vector stays contiguous),
// applied to the inner layout unchanged (Sw o offset o L, replacing any
// swizzle the given layout has), and paddings of its rows, for those that
// make every instruction of the access conflict-free (wavefronts == ideal)
// while keeping the access width. A swizzle is kept only when it maps the
// layout's image onto itself, so the advised layout has the same size and
// its image is a permutation of the given one's.
func Advise(a Access) (*Advice, error) {
	before, err := AnalyzeAccess(a)
	if err != nil {
		return nil, err
	}
	inner, offset, err := splitSmem(a.Smem)
	if err != nil {
		return nil, err
	}
	adv := &Advice{Access: a, Before: before}
	// The width to keep: what the layout allows without a swizzle.
	plain := a
	plain.Smem = withSwizzle(layout.Swizzle{}, offset, inner)
	base, err := Lower(plain)
	if err != nil {
		return nil, err
	}
	adv.VectorBytes = max(base.VectorBytes, before.VectorBytes)
	if before.Wavefronts == before.Ideal && before.VectorBytes >= adv.VectorBytes {
		adv.Already = true
		return adv, nil
	}
	img, err := imageOf(inner, offset)
	if err != nil {
		return nil, err
	}
	// Each vector must stay whole: the swizzle moves bits M and up only.
	vecElems := int64(adv.VectorBytes) * 8 / int64(a.ElemBits)
	minM := 0
	if vecElems > 1 {
		minM = bits.Len64(uint64(vecElems)) - 1
	}
	try := func(c Candidate) (Candidate, bool) {
		t := a
		t.Smem = c.Layout
		r, err := AnalyzeAccess(t)
		if err != nil || r.VectorBytes < adv.VectorBytes {
			return c, false
		}
		c.Report = r
		if adv.Closest == nil || r.Wavefronts-r.Ideal < adv.Closest.Report.Wavefronts-adv.Closest.Report.Ideal {
			cc := c
			adv.Closest = &cc
		}
		return c, r.Wavefronts == r.Ideal
	}
	canon := canonicalSwizzles(a.ElemBits)
	tried, outside := 0, 0
	if c, ok := a.Smem.(layout.Composed); ok && c.Outer.B > 0 {
		// The given swizzle may be what conflicts: the inner layout alone.
		tried++
		if c, ok := try(Candidate{Layout: withSwizzle(layout.Swizzle{}, offset, inner)}); ok {
			adv.Candidates = append(adv.Candidates, c)
		}
	}
	// A swizzle that flips only bits at or above byte 128 changes no bank,
	// no phase slot, no word's distinctness: it costs what the inner
	// layout alone costs, so it is not tried.
	flipsAbove := 1 << 62
	if a.ElemBits&(a.ElemBits-1) == 0 {
		flipsAbove = 10 - bits.TrailingZeros(uint(a.ElemBits)) // element bit of byte bit 7
	}
	for _, sw := range swizzleSpace(minM, img.topBit, canon) {
		if sw.M >= flipsAbove {
			continue
		}
		if !img.permutedBy(sw) {
			outside++
			continue
		}
		tried++
		c := Candidate{Layout: withSwizzle(sw, offset, inner), Swizzle: sw, Canonical: canon[sw]}
		if c, ok := try(c); ok {
			adv.Candidates = append(adv.Candidates, c)
		}
	}
	if offset == 0 {
		for _, c := range paddings(inner, vecElems) {
			tried++
			for ; c.Pad <= c.Row; c.Pad += vecElems {
				c.Layout = layout.Box(padRows(inner, c.Row, c.Pad))
				c.ExtraElems = img.paddedExtra(inner, *c.Layout.(*layout.Layout))
				if c, ok := try(c); ok {
					adv.Candidates = append(adv.Candidates, c)
					break
				}
			}
		}
	}
	sortCandidates(adv.Candidates)
	if len(adv.Candidates) > 0 {
		adv.Closest = nil
		return adv, nil
	}
	adv.Reason = noAdviceReason(adv, tried, outside, minM, img)
	return adv, nil
}

// splitSmem is the inner layout and offset of a shared-memory layout.
func splitSmem(v layout.Value) (layout.Layout, int64, error) {
	switch s := v.(type) {
	case *layout.Layout:
		return *s, 0, nil
	case layout.Composed:
		f, err := compileComposed(s) // validates the offset and the swizzle
		if err != nil {
			return layout.Layout{}, 0, err
		}
		return s.Inner, f.offset, nil
	case *layout.Composed:
		return splitSmem(*s)
	}
	return layout.Layout{}, 0, fmt.Errorf("bank: %v is not a layout or a swizzled layout", v)
}

// withSwizzle is Sw o offset o inner; with the identity swizzle and no
// offset, inner itself.
func withSwizzle(sw layout.Swizzle, offset int64, inner layout.Layout) layout.Value {
	if sw.B == 0 && offset == 0 {
		return layout.Box(inner)
	}
	return layout.Composed{Outer: sw, Offset: layout.Int(offset), Inner: inner}
}

// canonicalSwizzles are CuTe's shared-memory swizzle atoms for an element
// width: 16-byte units XORed by the 128-byte row index, over 8, 4 or 2
// units (SW128, SW64, SW32): Sw<3,M,3>, Sw<2,M,3>, Sw<1,M,3> with 2^M
// elements in 16 bytes (Sw<3,3,3> for 16-bit elements).
func canonicalSwizzles(elemBits int) map[layout.Swizzle]bool {
	out := map[layout.Swizzle]bool{}
	if elemBits <= 0 || 128%elemBits != 0 {
		return out
	}
	m := bits.TrailingZeros(uint(128 / elemBits))
	for b := 1; b <= 3; b++ {
		out[layout.Swizzle{B: b, M: m, S: 3}] = true
	}
	return out
}

// swizzleSpace lists the swizzles to try: every B in 1..maxSwizzleBits,
// M >= minM, S >= B whose bits stay below topBit (a swizzle reading bits
// the layout never sets changes nothing), and CuTe can hold (Validate).
func swizzleSpace(minM, topBit int, canon map[layout.Swizzle]bool) []layout.Swizzle {
	var out []layout.Swizzle
	for b := 1; b <= maxSwizzleBits; b++ {
		for m := minM; m+2*b <= topBit; m++ {
			for s := b; m+s+b <= topBit; s++ {
				sw := layout.Swizzle{B: b, M: m, S: s}
				if sw.Validate("swizzle") == nil {
					out = append(out, sw)
				}
			}
		}
	}
	// Canonical atoms first, then by rank (sortCandidates orders the results;
	// this only makes Closest prefer the same ones).
	sort.SliceStable(out, func(i, j int) bool { return swizzleLess(out[i], out[j], canon) })
	return out
}

func swizzleLess(x, y layout.Swizzle, canon map[layout.Swizzle]bool) bool {
	if canon[x] != canon[y] {
		return canon[x]
	}
	if x.B != y.B {
		return x.B < y.B
	}
	if x.M != y.M {
		return x.M > y.M // wider units keep more of each row in place
	}
	return x.S < y.S
}

func sortCandidates(cs []Candidate) {
	sort.SliceStable(cs, func(i, j int) bool {
		x, y := &cs[i], &cs[j]
		if xi, yi := x.Swizzle.B == 0 && !x.Padded(), y.Swizzle.B == 0 && !y.Padded(); xi != yi {
			return xi // dropping a swizzle is simplest of all
		}
		if x.Padded() != y.Padded() {
			return !x.Padded() // a swizzle costs no memory
		}
		if x.Padded() {
			if x.ExtraElems != y.ExtraElems {
				return x.ExtraElems < y.ExtraElems
			}
			return x.Pad < y.Pad
		}
		if x.Canonical != y.Canonical {
			return x.Canonical
		}
		if x.Swizzle.B != y.Swizzle.B {
			return x.Swizzle.B < y.Swizzle.B
		}
		if x.Swizzle.M != y.Swizzle.M {
			return x.Swizzle.M > y.Swizzle.M
		}
		return x.Swizzle.S < y.Swizzle.S
	})
}

// image is the set of element offsets a layout (plus an offset) reaches.
type image struct {
	set    []uint64 // bitmap over [0, top]
	count  int64    // distinct offsets
	top    int64    // the largest offset
	topBit int      // bits.Len64(top): offsets are below 2^topBit
}

func imageOf(l layout.Layout, offset int64) (*image, error) {
	f, err := compile(l, smemWhat)
	if err != nil {
		return nil, err
	}
	if f.size > maxAdviseElems || f.span+offset >= maxAdviseElems {
		return nil, fmt.Errorf("bank: %s of %d elements spanning %d is too large to search for a swizzle (limit %d)", smemWhat, f.size, f.span+1, maxAdviseElems)
	}
	offs := make([]int64, f.size)
	f.table(offs, offset)
	img := &image{top: -1}
	for _, o := range offs {
		if o < 0 {
			return nil, fmt.Errorf("bank: %s %v reaches element offset %d, which is negative", smemWhat, l, o)
		}
		img.top = max(img.top, o)
	}
	img.set = make([]uint64, img.top/64+1)
	for _, o := range offs {
		if img.set[o/64]&(1<<(o%64)) == 0 {
			img.count++
			img.set[o/64] |= 1 << (o % 64)
		}
	}
	img.topBit = bits.Len64(uint64(img.top))
	return img, nil
}

func (m *image) has(o int64) bool {
	return o >= 0 && o <= m.top && m.set[o/64]&(1<<(o%64)) != 0
}

// permutedBy reports whether sw maps the image onto itself (a swizzle is a
// bijection, so into is onto).
func (m *image) permutedBy(sw layout.Swizzle) bool {
	for w, word := range m.set {
		for word != 0 {
			o := int64(w)*64 + int64(bits.TrailingZeros64(word))
			word &= word - 1
			y, err := sw.Apply(o)
			if err != nil || !m.has(y) {
				return false
			}
		}
	}
	return true
}

// paddedExtra is how many more elements the padded layout spans.
func (m *image) paddedExtra(l, padded layout.Layout) int64 {
	a, errA := compile(l, smemWhat)
	b, errB := compile(padded, smemWhat)
	if errA != nil || errB != nil {
		return 0
	}
	return b.span - a.span
}

// paddings lists the row lengths n a layout can be padded at, each with its
// first pad: every leaf stride is either a multiple of n (a row index) or
// below n, the latter together spanning less than n (the column within a
// row), so that padding maps offset r*n + c to r*(n+pad) + c. Pads are
// multiples of the vector so that every vector stays aligned.
func paddings(l layout.Layout, vecElems int64) []Candidate {
	f, err := compile(l, smemWhat)
	if err != nil {
		return nil
	}
	seen := map[int64]bool{}
	var out []Candidate
	for _, n := range f.stride {
		if n <= 1 || seen[n] {
			continue
		}
		seen[n] = true
		var colSpan int64
		rows := false
		ok := true
		for k, d := range f.stride {
			switch {
			case f.shape[k] == 1:
			case d < 0:
				ok = false
			case d >= n && d%n == 0:
				rows = true
			case d < n:
				colSpan += (f.shape[k] - 1) * d
			default:
				ok = false
			}
		}
		if ok && rows && colSpan < n && n%vecElems == 0 {
			out = append(out, Candidate{Row: n, Pad: vecElems})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Row < out[j].Row })
	return out
}

// padRows is l with every stride that is a multiple of n scaled to rows of n+pad.
func padRows(l layout.Layout, n, pad int64) layout.Layout {
	var walk func(t layout.IntTuple) layout.IntTuple
	walk = func(t layout.IntTuple) layout.IntTuple {
		if t.IsTuple() {
			elems := make([]layout.IntTuple, t.Len())
			for i := range elems {
				elems[i] = walk(t.At(i))
			}
			return layout.Tup(elems...)
		}
		if d := t.Value(); d >= n && d%n == 0 {
			return layout.Int(d / n * (n + pad))
		}
		return t
	}
	return layout.Make(l.Shape, walk(l.Stride))
}

// noAdviceReason explains why no candidate works.
func noAdviceReason(adv *Advice, tried, outside, minM int, img *image) string {
	var b strings.Builder
	fmt.Fprintf(&b, "none of %d swizzles (B <= %d, M >= %d to keep %d-byte vectors) or row paddings removes every conflict", tried, maxSwizzleBits, minM, adv.VectorBytes)
	if c := adv.Closest; c != nil && c.Report.Conflicts() >= adv.Before.Conflicts() {
		fmt.Fprintf(&b, "; none even reduces them (%d wavefronts where %d would do)", adv.Before.Wavefronts, adv.Before.Ideal)
	} else if c != nil {
		fmt.Fprintf(&b, "; the best, %s, still takes %d wavefronts where %d would do (%d on the given layout)", c, c.Report.Wavefronts, c.Report.Ideal, adv.Before.Wavefronts)
	}
	if outside > 0 {
		fmt.Fprintf(&b, "; %d more swizzle(s) would move offsets outside the layout's image (%d elements, offsets up to %d): a swizzle permutes aligned blocks of 2^(B+M+S) elements", outside, img.count, img.top)
	}
	return b.String()
}
