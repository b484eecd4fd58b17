package lsp

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// applyOneAtATime is the protocol's definition of a didChange: each change
// applied to the text the ones before it left, its positions read against
// that text. Apply must agree with it.
func applyOneAtATime(s *Snapshot, changes []Change, enc Encoding) string {
	cur := s
	for _, c := range changes {
		if c.Whole {
			cur = NewSnapshot(s.URI, s.Version, s.Kind, c.Text)
			continue
		}
		a, b := cur.Offset(c.Start, enc), cur.Offset(c.End, enc)
		if b < a {
			a, b = b, a
		}
		cur = NewSnapshot(s.URI, s.Version, s.Kind, cur.Text[:a]+c.Text+cur.Text[b:])
	}
	return cur.Text
}

var editPieces = []string{"", "a", "xyz", "\n", "\r", "\r\n", "\n\r", "é", "😀", "tile = (4,8):(1,4)\n", "\"s\"", "\r\r\n\n", " "}

func randomEditText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(4) {
		b.WriteString(editPieces[r.IntN(len(editPieces))])
	}
	return b.String()
}

// randomChange is a change at positions of cur's text (now and then past
// a line's or the text's end, or reversed), a whole replacement at times.
func randomChange(r *rand.Rand, cur *Snapshot) Change {
	if r.IntN(40) == 0 {
		return Change{Whole: true, Text: randomEditText(r)}
	}
	pos := func() Position {
		l := r.IntN(cur.LineCount() + 1)
		if r.IntN(10) == 0 {
			l += r.IntN(3)
		}
		return Position{l, r.IntN(12)}
	}
	start := pos()
	end := start
	switch r.IntN(3) {
	case 0:
		end = pos()
	case 1:
		end.Character += r.IntN(4)
	}
	return Change{Start: start, End: end, Text: randomEditText(r)}
}

// TestApplyMatchesOneAtATime is a property test: Apply of random lists of
// changes (breaks of every kind made and unmade, multi-byte characters,
// clamped positions, whole replacements) gives the text that applying them
// one at a time gives, in each encoding.
func TestApplyMatchesOneAtATime(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := range 3000 {
		enc := Encoding(trial % 3)
		text := randomEditText(r) + randomEditText(r) + randomEditText(r)
		snap := NewSnapshot(sheetURI, 1, KindSheet, text)
		changes := make([]Change, 1+r.IntN(12))
		cur := snap
		for i := range changes {
			changes[i] = randomChange(r, cur)
			cur = NewSnapshot(sheetURI, 1, KindSheet, applyOneAtATime(cur, changes[i:i+1], enc))
		}
		want := applyOneAtATime(snap, changes, enc)
		got := snap.Apply(2, changes, enc)
		if got.Text != want {
			t.Fatalf("trial %d (%v): %q with %+v\ngot  %q\nwant %q", trial, enc, text, changes, got.Text, want)
		}
		if fmt.Sprint(got.lineStarts) != fmt.Sprint(lineStarts(want)) || got.Version != 2 {
			t.Fatalf("trial %d: snapshot not indexed afresh", trial)
		}
	}
}

// manyEdits is 20,000 one-line edits spread over a 1 MB sheet, in the
// order an editor sends a multi-cursor edit (bottom up, so that each
// position holds in the text the ones before left) with a few in between.
func manyEdits(lines int) (*Snapshot, []Change) {
	line := "t = (4,8):(1,4)   # a tile of the sheet, padded to 64 bytes....\n"
	snap := NewSnapshot(sheetURI, 1, KindSheet, strings.Repeat(line, lines))
	r := rand.New(rand.NewPCG(3, 5))
	changes := make([]Change, 0, 20000)
	for i := range 20000 {
		l := lines - 1 - i*lines/20000
		if i%10 == 0 {
			l = r.IntN(lines)
		}
		changes = append(changes, Change{Start: Position{l, 4}, End: Position{l, 9}, Text: "(8,16"})
		if i%100 == 0 {
			changes = append(changes, Change{Start: Position{l, 0}, End: Position{l, 0}, Text: "u = 1\n"})
		}
	}
	return snap, changes
}

// BenchmarkApplyManyEdits: 20,000 range edits of one didChange on a 1 MB
// sheet (about 16,000 lines).
func BenchmarkApplyManyEdits(b *testing.B) {
	snap, changes := manyEdits(1 << 20 / 64)
	b.ReportAllocs()
	for b.Loop() {
		snap.Apply(2, changes, UTF16)
	}
}
