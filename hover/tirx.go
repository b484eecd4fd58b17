package hover

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// tirxText shows a TIRx layout: its size and replicas, the axes it places
// elements on with the range each reaches, and its mapping table.
func tirxText(t tirx.Layout, lim TableLimits) string {
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
func tirxTable(t tirx.Layout, size int64, lim TableLimits) (string, error) {
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
				b.WriteString(between(groupEnds[i-1], " | ", " "))
			}
			b.WriteString(strings.Repeat(" ", widths[i]-len(cell)))
			b.WriteString(cell)
		}
		b.WriteByte('\n')
		if r == 0 {
			for i, w := range widths {
				if i > 0 {
					b.WriteString(between(groupEnds[i-1], "-+-", "-"))
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
func pointSetText(s tirx.PointSet) string {
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

// tirxMapSteps shows tirx_map(T, x) or tirx_map(T, c, S) as TIRx defines
// the forward mapping: the coordinate flattened row-major, the flat index
// split over the shard extents, each component times its stride added to
// its axis with the offset, then every replica combination.
func tirxMapSteps(args []layout.Value) string {
	if len(args) < 2 {
		return ""
	}
	t, ok := args[0].(tirx.Layout)
	if !ok {
		return ""
	}
	points, err := analysis.ApplyOp("tirx_map", args...)
	if err != nil {
		return ""
	}
	comps, err := analysis.ApplyOp("tirx_split", args...)
	if err != nil {
		return ""
	}
	c := tupleInts(comps)
	var flat int64
	extents := make([]int64, len(t.Shard))
	for k, it := range t.Shard {
		extents[k] = it.Extent
	}
	for k, ck := range c { // the components are the flat index's digits
		flat = flat*extents[k] + ck
	}
	var b strings.Builder
	b.WriteString("**Steps** (L(x) = { D(x) + r + O | r in R }):\n\n")
	step := 1
	if len(args) == 3 {
		fmt.Fprintf(&b, "%d. flatten %v row-major in %v (last fastest): x = %d\n", step, args[1], args[2], flat)
		step++
	}
	fmt.Fprintf(&b, "%d. split x = %d by the shard extents %v: c = %v\n", step, flat, layout.Ints(extents...), comps)
	step++
	offset := map[tirx.Axis]int64{}
	for _, o := range t.Offset {
		offset[o.Axis] += o.Value
	}
	var sums []string
	for _, a := range t.Axes() {
		var terms []string
		var sum int64
		for k, it := range t.Shard {
			if it.Axis == a {
				terms = append(terms, fmt.Sprintf("%d·%d", it.Stride, c[k]))
				sum += it.Stride * c[k]
			}
		}
		if o, ok := offset[a]; ok {
			terms = append(terms, fmt.Sprintf("%d", o))
			sum += o
		}
		if len(terms) == 0 {
			terms = []string{"0"}
		}
		sums = append(sums, fmt.Sprintf("%s = %s = %d", a, strings.Join(terms, " + "), sum))
	}
	fmt.Fprintf(&b, "%d. each c_k times its stride onto its axis, plus the offset: %s\n", step, strings.Join(sums, "; "))
	step++
	if len(t.Replica) > 0 {
		var rs []string
		for _, it := range t.Replica {
			rs = append(rs, fmt.Sprintf("r·%d on %s, r < %d", it.Stride, it.Axis, it.Extent))
		}
		fmt.Fprintf(&b, "%d. every replica adds %s: `%v`\n", step, strings.Join(rs, "; "), points)
	} else {
		fmt.Fprintf(&b, "%d. no replica: `%v`\n", step, points)
	}
	return b.String()
}

// tupleInts is the integers of a flat tuple value (nil for anything else).
func tupleInts(v layout.Value) []int64 {
	t, ok := v.(layout.IntTuple)
	if !ok {
		return nil
	}
	if !t.IsTuple() {
		return []int64{t.Value()}
	}
	out := make([]int64, t.Len())
	for i := range out {
		out[i] = t.At(i).Value()
	}
	return out
}

// between is the separator of two table columns: group when the left one
// ends a group of columns, plain otherwise.
func between(groupEnd bool, group, plain string) string {
	if groupEnd {
		return group
	}
	return plain
}
