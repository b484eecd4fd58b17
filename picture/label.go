package picture

import (
	"strconv"
)

// Label is cell i's text, one string a line (nil for a blank cell): the
// offset; for a bank map the offset and the bank; for a TV picture the
// thread and the value; for a TIRx picture the values on each axis.
func (g *Grid) Label(i int) []string {
	switch g.Kind {
	case KindTV:
		if g.TV.Thread[i] < 0 {
			return nil
		}
		return []string{"T" + strconv.Itoa(int(g.TV.Thread[i])), "V" + strconv.Itoa(int(g.TV.Value[i]))}
	case KindTIRx:
		return g.TIRx.ownerLines(i)
	case KindBanks:
		off := g.Offsets[i]
		if off < 0 {
			return []string{strconv.FormatInt(off, 10), ""}
		}
		return []string{strconv.FormatInt(off, 10), bankText(off, g.Bank.Bits)}
	}
	if g.Text != nil {
		return []string{g.Text[i]}
	}
	return []string{strconv.FormatInt(g.Offsets[i], 10)}
}

// bankText is "b5", or "b4-5" for an element over two banks.
func bankText(off int64, bits int) string {
	b, span := elementBank(off, bits)
	s := "b" + strconv.FormatInt(b, 10)
	if span > 1 {
		s += "-" + strconv.FormatInt((b+int64(span)-1)%32, 10)
	}
	return s
}

// labelSize is the most characters and lines of any cell's label.
func (g *Grid) labelSize() (chars, lines int) {
	switch g.Kind {
	case KindTV:
		return max(len(strconv.Itoa(g.TV.Threads-1)), len(strconv.Itoa(g.TV.Values-1))) + 1, 2
	case KindOffsets, KindBanks:
		if g.Text == nil {
			lines = 1
			if g.Kind == KindBanks {
				lines, chars = 2, 6
			}
			for _, off := range g.Offsets {
				chars = max(chars, digits(off))
			}
			return chars, lines
		}
	}
	for i := range g.Cells() {
		l := g.Label(i)
		lines = max(lines, len(l))
		for _, s := range l {
			chars = max(chars, len(s))
		}
	}
	return chars, max(lines, 1)
}

// digits is the length of n printed in base 10.
func digits(n int64) int {
	d := 1
	if n < 0 {
		d++
		n = -n
	}
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}
