package hover

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
)

// tirxText shows a TIRx layout: its size and replicas, the axes it places
// elements on with the range each reaches, and its mapping table.
func tirxText(t layout.TileLayout, lim TableLimits) string {
	var b strings.Builder
	size, err := t.Size()
	if err != nil {
		fmt.Fprintf(&b, "**invalid:** %s\n", err)
		return b.String()
	}
	count, err := t.ReplicaCount()
	if err != nil {
		fmt.Fprintf(&b, "**invalid:** %s\n", err)
		return b.String()
	}
	axes := t.Axes()
	names := make([]string, len(axes))
	for i, a := range axes {
		names[i] = string(a)
	}
	replicas := "no replica"
	if len(t.Replica) > 0 {
		replicas = plural(count, "replica combination")
	}
	fmt.Fprintf(&b, "TIRx layout · size %d · %s · axes %s\n", size, replicas, strings.Join(names, ", "))
	if span, err := t.Span(); err == nil {
		parts := make([]string, len(span))
		for i, r := range span {
			parts[i] = fmt.Sprintf("%s %d..%d", r.Axis, r.Lo, r.Hi)
		}
		fmt.Fprintf(&b, "\nreaches %s\n", strings.Join(parts, " · "))
	}
	extents := make([]string, len(t.Shard))
	for k, it := range t.Shard {
		extents[k] = strconv.FormatInt(it.Extent, 10)
	}
	fmt.Fprintf(&b, "\nL(x) = { D(x) + r + O | r in R }: element x splits over the shard extents (%s), last fastest, into c0..c%d; each c_k adds c_k times its stride on its axis", strings.Join(extents, ","), len(t.Shard)-1)
	if count > 1 {
		b.WriteString("; each distinct point of L(x) is one row below")
	}
	b.WriteString(".\n")
	table, err := tirxTable(t, size, lim)
	if err != nil {
		fmt.Fprintf(&b, "\n_no mapping table: %s_\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "\n```text\n%s```\n", table)
	return b.String()
}

// tirxTable lists the first elements with their shard components and the
// value on each axis of each of their points, one row a point: at most
// lim.MaxCols points an element and lim.MaxRows rows (but at least one
// element), saying below what it cut. Every element has as many points as
// element 0 (L(x) - Base(x) is the same set for every x).
func tirxTable(t layout.TileLayout, size int64, lim TableLimits) (string, error) {
	axes := t.Axes()
	header := []string{"x"}
	for k := range t.Shard {
		header = append(header, "c"+strconv.Itoa(k))
	}
	for _, a := range axes {
		header = append(header, string(a))
	}
	// The shard group ends after column len(t.Shard): a rule there and after x.
	groupEnds := map[int]bool{0: true, len(t.Shard): true}
	rows := [][]string{header}
	first, err := t.MapIndex(0)
	if err != nil {
		return "", err
	}
	maxPoints := max(lim.MaxCols, 1)
	shownPoints := min(len(first), maxPoints)
	elements := min(size, int64(max(lim.MaxRows/shownPoints, 1)))
	cutPoints := 0
	for x := range elements {
		split, err := t.Split(x)
		if err != nil {
			return "", err
		}
		pts, err := t.MapIndex(x)
		if err != nil {
			return "", err
		}
		if len(pts) > maxPoints {
			cutPoints = len(pts)
			pts = pts[:maxPoints]
		}
		for i, p := range pts {
			row := make([]string, 0, len(header))
			if i == 0 {
				row = append(row, strconv.FormatInt(x, 10))
				for _, c := range split {
					row = append(row, strconv.FormatInt(c, 10))
				}
			} else {
				for range 1 + len(split) {
					row = append(row, "")
				}
			}
			for _, a := range axes {
				v, _ := p.Get(a)
				row = append(row, strconv.FormatInt(v, 10))
			}
			rows = append(rows, row)
		}
	}
	widths := make([]int, len(header))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], len(cell))
		}
	}
	var b strings.Builder
	for r, row := range rows {
		for i, cell := range row {
			if i > 0 {
				if groupEnds[i-1] {
					b.WriteString(" | ")
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteString(strings.Repeat(" ", widths[i]-len(cell)))
			b.WriteString(cell)
		}
		b.WriteByte('\n')
		if r == 0 {
			for i, w := range widths {
				if i > 0 {
					if groupEnds[i-1] {
						b.WriteString("-+-")
					} else {
						b.WriteByte('-')
					}
				}
				b.WriteString(strings.Repeat("-", w))
			}
			b.WriteByte('\n')
		}
	}
	if elements < size {
		fmt.Fprintf(&b, "... (%d of %d elements)\n", elements, size)
	}
	if cutPoints > 0 {
		fmt.Fprintf(&b, "... (%d of %d points per element)\n", maxPoints, cutPoints)
	}
	return b.String(), nil
}

// pointSetText describes a mapped point set: how many points, on which axes.
func pointSetText(s layout.PointSet) string {
	if len(s) == 0 {
		return "no points\n"
	}
	names := make([]string, len(s[0]))
	for i, av := range s[0] {
		names[i] = string(av.Axis)
	}
	return fmt.Sprintf("%s on %s\n", plural(int64(len(s)), "point"), strings.Join(names, ", "))
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}
