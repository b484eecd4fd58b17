package hover

import (
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

func TestTIRxHoverTable(t *testing.T) {
	got := Value(mustEval(t, "S[(2,2):(4@laneid,1)] + R[2:8@warpid] + 1@warpid"), DefaultOptions)
	want := "```cute\nS[(2,2):(4@laneid,1)] + R[2:8@warpid] + 1@warpid\n```\n" +
		"TIRx layout · size 4 · 2 replica combinations · axes laneid, m, warpid\n\n" +
		"reaches laneid 0..4 · m 0..1 · warpid 1..9\n\n" +
		"L(x) = { D(x) + r + O | r in R }: element x splits over the shard extents (2,2), last fastest, into c0..c1; each c_k adds c_k times its stride on its axis; each distinct point of L(x) is one row below.\n\n" +
		"```text\n" +
		"x | c0 c1 | laneid m warpid\n" +
		"--+-------+----------------\n" +
		"0 |  0  0 |      0 0      1\n" +
		"  |       |      0 0      9\n" +
		"1 |  0  1 |      0 1      1\n" +
		"  |       |      0 1      9\n" +
		"2 |  1  0 |      4 0      1\n" +
		"  |       |      4 0      9\n" +
		"3 |  1  1 |      4 1      1\n" +
		"  |       |      4 1      9\n" +
		"```\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// The table keeps to the limits: rows count points, so replicas leave room
// for fewer elements; points past MaxCols are cut; both cuts are said.
func TestTIRxHoverCuts(t *testing.T) {
	tile := mustEval(t, "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
	got := Value(tile, Options{Limits: TableLimits{MaxRows: 6, MaxCols: 16, MaxSlices: 1}})
	if !strings.Contains(got, "... (3 of 128 elements)") || strings.Count(got, "\n  |") != 3 || strings.Contains(got, "\n3 |") {
		t.Errorf("6 rows of 2 points each should show 3 elements:\n%s", got)
	}
	got = Value(tile, Options{Limits: TableLimits{MaxRows: 4, MaxCols: 1, MaxSlices: 1}})
	if !strings.Contains(got, "... (4 of 128 elements)") || !strings.Contains(got, "... (1 of 2 points per element)") || strings.Contains(got, "      9 ") {
		t.Errorf("one point per element:\n%s", got)
	}
	tmem := Value(mustEval(t, "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"), DefaultOptions)
	for _, want := range []string{"size 28672 · no replica · axes TCol, TLane", "reaches TCol 0..223 · TLane 0..127", "15 |  0  0 15 |   15     0", "... (16 of 28672 elements)"} {
		if !strings.Contains(tmem, want) {
			t.Errorf("tensor-memory hover lacks %q:\n%s", want, tmem)
		}
	}
}

func TestTIRxHoverValues(t *testing.T) {
	got := Value(mustEval(t, "tirx_map(S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane], (1,3), (32,4))"), DefaultOptions)
	if want := "```cute\n{TLane:1, TCol:3} | {TLane:33, TCol:3} | {TLane:65, TCol:3} | {TLane:97, TCol:3}\n```\n4 points on TLane, TCol\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = Value(mustEval(t, "tirx_axes(S[8:1@x] + 2)"), DefaultOptions)
	if want := "```cute\n(x, m)\n```\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := pointSetText(nil); got != "no points\n" {
		t.Errorf("empty set: %q", got)
	}
	// A layout the binder would refuse still hovers without a panic.
	bad := tirx.Layout{Shard: []tirx.Iter{{Extent: 1 << 40, Stride: 1, Axis: "m"}, {Extent: 1 << 40, Stride: 1, Axis: "m"}}}
	if got := Value(bad, DefaultOptions); !strings.Contains(got, "**invalid:**") {
		t.Errorf("overflowing layout: %s", got)
	}
	many := tirx.Layout{Shard: []tirx.Iter{{Extent: 2, Stride: 1, Axis: "m"}}, Replica: []tirx.Iter{{Extent: 1 << 10, Stride: 1, Axis: "a"}, {Extent: 1 << 10, Stride: 1, Axis: "b"}}}
	if got := Value(many, DefaultOptions); !strings.Contains(got, "**invalid:**") {
		t.Errorf("too many replicas: %s", got)
	}
	far := tirx.Layout{Shard: []tirx.Iter{{Extent: 4, Stride: 1 << 62, Axis: "m"}}}
	if got := Value(far, DefaultOptions); !strings.Contains(got, "_no mapping table: ") || strings.Contains(got, "reaches") {
		t.Errorf("points past int64: %s", got)
	}
}

// TestTIRxMapSteps: hovering tirx_map shows the seed's four steps with the
// numbers of the element: (7,15) of the register tile and a flat index of
// the tensor-memory tile.
func TestTIRxMapSteps(t *testing.T) {
	src := "T = S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid\n" +
		"p = tirx_map(T, (7,15), (8,16))\n" +
		"q = tirx_map(S[(2,128,112):(112@TCol,1@TLane,1@TCol)], 300)\n"
	s := analysis.AnalyzeSheet("t.cute", []byte(src))
	for _, tc := range []struct {
		at   string
		want []string
	}{
		{"tirx_map(T", []string{
			"1. flatten (7,15) row-major in (8,16) (last fastest): x = 127",
			"2. split x = 127 by the shard extents (8,2,4,2): c = (7,1,3,1)",
			"3. each c_k times its stride onto its axis, plus the offset: laneid = 4·7 + 1·3 = 31; warpid = 1·1 + 5 = 6; m = 1·1 = 1\n",
			"4. every replica adds r·4 on warpid, r < 2: `{laneid:31, warpid:6, m:1} | {laneid:31, warpid:10, m:1}`"}},
		{"tirx_map(S", []string{
			"1. split x = 300 by the shard extents (2,128,112): c = (0,2,76)",
			"TCol = 112·0 + 1·76 = 76; TLane = 1·2 = 2",
			"3. no replica: `{TCol:76, TLane:2}`"}},
	} {
		tg, ok := s.TargetAt(strings.Index(src, tc.at) + 2)
		if !ok {
			t.Fatalf("no target at %s", tc.at)
		}
		got := Target(tg, DefaultOptions)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("hover of %s lacks %q:\n%s", tc.at, w, got)
			}
		}
	}
	// Not a TIRx layout, or arguments that fail: no steps.
	if got := tirxMapSteps([]layout.Value{layout.Int(3), layout.Int(1)}); got != "" {
		t.Errorf("steps of a non-TIRx argument: %q", got)
	}
}
