package analysis

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/prop"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/internal/editdist"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Refactor is an edit offered on a selection that changes how a value is
// written, never what it maps (the function stays the same unless the
// title says otherwise).
type Refactor struct {
	Fix
	Kind string // "refactor.rewrite" or "refactor.inline"
}

// hintFindings are the hints on layouts the user writes as literals in
// bindings: a shorter equal form, broadcast modes, holes in the image. A
// literal that is an operand of a call or a mode of a tiler is left alone:
// a strided tile or access pattern is meant to have holes, and its nesting shapes the
// result, so neither "not compact" nor "coalesce it" is advice there.
func hintFindings(b *grammar.Binding) []Finding {
	var out []Finding
	grammar.Inspect(b.Value, func(n grammar.Node) bool {
		switch n.(type) {
		case *grammar.Call, *grammar.Tiler, *grammar.AngleList:
			return false
		}
		lit, ok := n.(*grammar.Layout)
		if !ok {
			return true
		}
		v, err := Eval(lit, nil)
		if err != nil {
			return false
		}
		l := v.(*layout.Layout)
		out = append(out, layoutHints(lit, *l)...)
		return false
	})
	return out
}

// hintEnumerationLimit bounds the points a literal's hints enumerate:
// hints run on every literal at every edit, so a layout whose strides do
// not settle its injectivity and that is larger than this gets no
// non-compact hint rather than seconds of work (hover still enumerates).
const hintEnumerationLimit = 1 << 16

// injectiveForHint is IsInjective within hintEnumerationLimit points; a
// larger layout that only enumeration could judge is reported not
// injective (so no hint).
func injectiveForHint(l layout.Layout) (bool, error) {
	inj, known, err := prop.InjectiveFromStrides(l)
	if err != nil || known {
		return inj, err
	}
	if size, err := l.Size(); err != nil || size > hintEnumerationLimit {
		return false, err
	}
	return prop.IsInjective(layout.Box(l))
}

func layoutHints(lit *grammar.Layout, l layout.Layout) []Finding {
	var out []Finding
	// Coalescing within each mode keeps the rank (a matrix stays a matrix)
	// and only merges what the nesting does not need.
	if c, ok := coalesceModes(l); ok {
		out = append(out, Finding{Range: lit.Range, Severity: SeverityHint, Code: CodeCoalescible,
			Message: fmt.Sprintf("%v coalesces mode by mode to %v, the same function with fewer sub-modes", shown{layout.Box(l)}, shown{layout.Box(c)}),
			Fixes:   []Fix{{Title: "Replace with " + Show(layout.Box(c), ShowDetailBytes), Edits: []Edit{{lit.Range, c.String()}}}}})
	}
	flat := l.Flatten()
	for i := range flat.Shape.Len() {
		s, d := flat.Shape.At(i), flat.Stride.At(i)
		if s.IsLeaf() && !s.IsUnknown() && s.Value() > 1 && d.IsLeaf() && !d.IsBasis() && !d.IsUnknown() && d.Value() == 0 {
			out = append(out, Finding{Range: lit.Stride.Span(), Severity: SeverityHint, Code: CodeZeroStride,
				Message: fmt.Sprintf("mode %d of %v has stride 0: its %d coordinates all map to the same offset (a broadcast)", i, shown{layout.Box(l)}, s.Value())})
		}
	}
	if inj, err := injectiveForHint(l); err == nil && inj {
		if bij, err := prop.IsBijective(layout.Box(l)); err == nil && !bij {
			size, _ := l.Size()
			cosize, _ := l.Cosize()
			f := Finding{Range: lit.Range, Severity: SeverityHint, Code: CodeNonCompact,
				Message: fmt.Sprintf("%v is not compact: it reaches %d offsets within a span of %d (padding?)", shown{layout.Box(l)}, size, cosize)}
			if compact, ok := compactLike(l); ok {
				f.Fixes = []Fix{{Title: "Replace with the compact layout " + Show(layout.Box(compact), ShowDetailBytes) + " (same mode order)", Edits: []Edit{{lit.Range, compact.String()}}}}
			}
			out = append(out, f)
		}
	}
	return out
}

// coalesceModes coalesces each top-level mode of l on its own; ok is false
// when that changes nothing.
func coalesceModes(l layout.Layout) (layout.Layout, bool) {
	if !l.Shape.IsTuple() {
		return layout.Layout{}, false
	}
	profile := make([]int64, l.Shape.Len())
	for i := range profile {
		profile[i] = 1
	}
	c, err := layout.CoalesceProfile(l, layout.Ints(profile...))
	// Equal is equality of the printed forms without formatting two
	// strings for every literal of the sheet.
	if err != nil || (c.Shape.Equal(l.Shape) && c.Stride.Equal(l.Stride)) {
		return layout.Layout{}, false
	}
	return c, true
}

// coalesced is coalesce(l); ok is false when that changes nothing.
func coalesced(l layout.Layout) (layout.Layout, bool) {
	c, err := layout.Coalesce(&l)
	if err != nil || c.Shape.Equal(l.Shape) && c.Stride.Equal(l.Stride) {
		return layout.Layout{}, false
	}
	return *c, true
}

// compactLike is the compact layout of l's shape whose modes are in the
// order of l's strides (what make_ordered_layout builds).
func compactLike(l layout.Layout) (layout.Layout, bool) {
	flat := layout.FlattenToTuple(l.Stride)
	n := flat.Len()
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
		if d := flat.At(i); d.IsBasis() || d.IsUnknown() || d.Value() <= 0 {
			return layout.Layout{}, false
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return flat.At(idx[a]).Value() < flat.At(idx[b]).Value() })
	order := make([]int64, n)
	for rank, i := range idx {
		order[i] = int64(rank)
	}
	orderTuple, err := layout.Unflatten(layout.Ints(order...), l.Shape)
	if err != nil {
		return layout.Layout{}, false
	}
	c, err := layout.MakeOrderedLayout(l.Shape, orderTuple)
	if err != nil {
		return layout.Layout{}, false
	}
	return c, true
}

// nameFixes suggests the closest of candidates for a name nobody defines.
func nameFixes(f *Finding, at grammar.Range, name string, candidates []string) {
	if best, ok := closest(name, candidates); ok {
		suggestName(f, at, best)
	}
}

// suggestName offers best in place of the name at at.
func suggestName(f *Finding, at grammar.Range, best string) {
	f.Fixes = append(f.Fixes, Fix{Title: "Change to " + best, Edits: []Edit{{at, best}}})
	f.Message += fmt.Sprintf(" (did you mean %s?)", best)
}

// closest is the candidate at the smallest edit distance from name, if it is
// close enough to be a likely typo (ties go to the candidate first in
// byte order, so the answer does not depend on the candidates' order).
func closest(name string, candidates []string) (string, bool) {
	return closestIn(name, candidates, nil, "", false)
}

// closestIn is closest with the candidates' letter masks (nil to compute
// them here), starting from a best answer found among other candidates.
func closestIn(name string, candidates []string, masks []uint64, best string, found bool) (string, bool) {
	bestDist := len(name)/2 + 1
	if found {
		bestDist = editdist.Within(name, best, bestDist)
	}
	nameMask := letterMask(name)
	for i, c := range candidates {
		// The distance is at least the difference in length, and at
		// least the number of letters either has that the other lacks:
		// a candidate whose bound exceeds the best distance cannot win.
		if diff := len(c) - len(name); diff > bestDist || -diff > bestDist {
			continue
		}
		var m uint64
		if masks != nil {
			m = masks[i]
		} else {
			m = letterMask(c)
		}
		if bits.OnesCount64(nameMask&^m) > bestDist || bits.OnesCount64(m&^nameMask) > bestDist {
			continue
		}
		if d := editdist.Within(name, c, bestDist); d < bestDist || (d == bestDist && found && c < best) {
			best, bestDist, found = c, d, true
		}
	}
	return best, found
}

// letterMask has bit b set when s has a byte equal to b modulo 64. Each bit
// one string has and the other lacks stands for a distinct byte the other
// lacks, which an edit must remove or bring in: the count of such bits is
// at most the edit distance.
func letterMask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		m |= 1 << (s[i] & 63)
	}
	return m
}

// syntaxFixes offers to insert a missing closing bracket where the parser
// expected one.
func syntaxFixes(f *Finding, e *grammar.Error) {
	if e.Expected == grammar.ExpectQuotedDescriptor {
		start := grammar.Range{Pos: e.Range.Pos, End: e.Range.Pos}
		end := grammar.Range{Pos: e.Range.End, End: e.Range.End}
		f.Fixes = append(f.Fixes, Fix{Title: "Quote the descriptor", Edits: []Edit{{start, `"`}, {end, `"`}}})
		return
	}
	for _, closer := range []string{")", "]", ">"} {
		if strings.Contains(e.Expected, "'"+closer+"'") {
			at := grammar.Range{Pos: e.Range.Pos, End: e.Range.Pos}
			f.Fixes = append(f.Fixes, Fix{Title: fmt.Sprintf("Insert '%s'", closer), Edits: []Edit{{at, closer}}})
		}
	}
}

// Refactors lists the rewrites offered for the value at offset: write a
// literal or a call's result in another form. Each keeps the function,
// except Normalize, which keeps the image and says what it drops.
func (s *Sheet) Refactors(offset int) []Refactor {
	t, ok := s.TargetAt(offset)
	if !ok || t.Err != nil || t.Value == nil {
		return nil
	}
	r := t.Range
	var out []Refactor
	add := func(kind, title, text string) {
		if text != string(s.Src[r.Pos.Offset:r.End.Offset]) {
			out = append(out, Refactor{Fix: Fix{Title: title, Edits: []Edit{{r, text}}}, Kind: kind})
		}
	}
	// offer offers v written out (with static marks or not) as a rewrite
	// titled title + v: a value too long to write out whole is not offered,
	// and the title shows a prefix of it.
	offer := func(kind, title string, v layout.Value, static bool) {
		if text, ok := editText(v, static); ok {
			shownText := Show(v, ShowDetailBytes)
			if static {
				shownText = ShowStatic(v, ShowDetailBytes)
			}
			add(kind, strings.ReplaceAll(title, "%v", shownText), text)
		}
	}
	if _, isCall := t.Node.(*grammar.Call); isCall {
		offer("refactor.inline", "Replace the call with its result %v", t.Value, false)
	}
	if _, isName := t.Node.(*grammar.Name); isName {
		return out
	}
	if l, ok := t.Value.(*layout.Layout); ok {
		// A rewrite that leaves the value as it is (coalescing what is
		// already coalesced) would only drop static marks or replace a
		// call: the other actions say that under their own names.
		if c, ok := coalesced(*l); ok {
			offer("refactor.rewrite", "Coalesce to %v", layout.Box(c), false)
		}
		// filter differs from coalesce only by dropping broadcast modes,
		// which changes the size: the title says so.
		if f, err := layout.Filter(*l); err == nil {
			if c, err := layout.Coalesce(l); err == nil && !(c.Shape.Equal(f.Shape) && c.Stride.Equal(f.Stride)) {
				from, _ := l.Size()
				to, _ := f.Size()
				offer("refactor.rewrite", fmt.Sprintf("Normalize: drop the broadcast (stride-0) modes and coalesce to %%v (size %d → %d)", from, to), layout.Box(f), false)
			}
		}
		if f := l.Flatten(); !(f.Shape.Equal(l.Shape) && f.Stride.Equal(l.Stride)) {
			offer("refactor.rewrite", "Flatten to %v", layout.Box(f), false)
		}
	}
	if _, isCall := t.Node.(*grammar.Call); !isCall {
		switch v := t.Value.(type) {
		case *layout.Layout, layout.Composed:
			if text, ok := editText(v, true); ok {
				add("refactor.rewrite", "Write with static marks (_N)", text)
			}
			if text, ok := editText(v, false); ok {
				add("refactor.rewrite", "Write without static marks", text)
			}
		}
		for _, style := range []grammar.Style{grammar.Cute, grammar.Pycute, grammar.MLIR} {
			add("refactor.rewrite", "Write in "+style.String()+" notation", grammar.Print(t.Node, style))
		}
	}
	return out
}
