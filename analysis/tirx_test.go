package analysis

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/tirx"
)

// analyzeClean analyzes a sheet that must have no findings.
func analyzeClean(t *testing.T, src string) *Sheet {
	t.Helper()
	s := AnalyzeSheet("t.cute", []byte(src))
	for _, f := range s.Findings {
		t.Errorf("%d:%d %s: %s", f.Range.Pos.Line, f.Range.Pos.Column, f.Code, f.Message)
	}
	return s
}

func boundString(t *testing.T, s *Sheet, name string) string {
	t.Helper()
	sym := s.Names[name]
	if sym == nil {
		t.Fatalf("%s is not bound", name)
	}
	if sym.Err != nil {
		t.Fatalf("%s: %v", name, sym.Err)
	}
	return sym.Value.String()
}

// The seed's register tile, every row of its element table: (i, j), the
// flat index, the shard components, and the points (laneid, both warps, m).
func TestTIRxTensorCoreTileSheet(t *testing.T) {
	rows := []struct {
		i, j        int
		flat        int
		split       string
		lane        int
		warp0, reg1 int
		reg         int
	}{
		{0, 0, 0, "(0,0,0,0)", 0, 5, 9, 0},
		{0, 1, 1, "(0,0,0,1)", 0, 5, 9, 1},
		{0, 2, 2, "(0,0,1,0)", 1, 5, 9, 0},
		{1, 0, 16, "(1,0,0,0)", 4, 5, 9, 0},
		{0, 8, 8, "(0,1,0,0)", 0, 6, 10, 0},
		{7, 15, 127, "(7,1,3,1)", 31, 6, 10, 1},
	}
	var src strings.Builder
	src.WriteString("T = S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid\n")
	src.WriteString("assert size(T) == 128\nassert tirx_replicas(T) == 2\n")
	for k, r := range rows {
		fmt.Fprintf(&src, "p%d = tirx_map(T, (%d,%d), (8,16))\n", k, r.i, r.j)
		fmt.Fprintf(&src, "c%d = tirx_split(T, (%d,%d), (8,16))\n", k, r.i, r.j)
		fmt.Fprintf(&src, "assert c%d == %s\n", k, r.split)
		// The flat index names the same element, and so does any admitted shape.
		fmt.Fprintf(&src, "assert p%d is tirx_map(T, %d)\n", k, r.flat)
		fmt.Fprintf(&src, "assert p%d is tirx_map(T, (%d,%d), (2,64))\n", k, r.flat/64, r.flat%64)
	}
	s := analyzeClean(t, src.String())
	if got := boundString(t, s, "T"); got != "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid" {
		t.Errorf("T = %s", got)
	}
	if _, ok := s.Names["T"].Value.(tirx.Layout); !ok {
		t.Errorf("T is a %T", s.Names["T"].Value)
	}
	for k, r := range rows {
		want := fmt.Sprintf("{laneid:%d, warpid:%d, m:%d} | {laneid:%d, warpid:%d, m:%d}", r.lane, r.warp0, r.reg, r.lane, r.reg1, r.reg)
		if got := boundString(t, s, fmt.Sprintf("p%d", k)); got != want {
			t.Errorf("(%d,%d): %s, want %s", r.i, r.j, got, want)
		}
		if got := boundString(t, s, fmt.Sprintf("c%d", k)); got != r.split {
			t.Errorf("(%d,%d) split: %s, want %s", r.i, r.j, got, r.split)
		}
	}
}

// The seed's Blackwell tensor-memory placement: TLane = l, TCol = 112a + c.
func TestTIRxTensorMemorySheet(t *testing.T) {
	rows := [][5]int{{0, 0, 0, 0, 0}, {0, 5, 3, 5, 3}, {1, 0, 0, 0, 112}, {1, 127, 111, 127, 223}}
	var src strings.Builder
	src.WriteString("acc = S[(2,128,112):(112@TCol,1@TLane,1@TCol)]\nassert size(acc) == 28672\nassert tirx_replicas(acc) == 1\n")
	for k, r := range rows {
		fmt.Fprintf(&src, "e%d = tirx_map(acc, (%d,%d,%d), (2,128,112))\n", k, r[0], r[1], r[2])
		// The shape equal to the extents makes the split the identity.
		fmt.Fprintf(&src, "assert tirx_split(acc, (%d,%d,%d), (2,128,112)) == (%d,%d,%d)\n", r[0], r[1], r[2], r[0], r[1], r[2])
	}
	s := analyzeClean(t, src.String())
	for k, r := range rows {
		want := fmt.Sprintf("{TCol:%d, TLane:%d}", r[4], r[3])
		if got := boundString(t, s, fmt.Sprintf("e%d", k)); got != want {
			t.Errorf("(%d,%d,%d): %s, want %s", r[0], r[1], r[2], got, want)
		}
	}
}

// An extent may be a sheet name bound to an integer (the seed's scale-factor atom).
func TestTIRxSymbolicExtent(t *testing.T) {
	s := analyzeClean(t, "sf_per_mma = 4\nSF = S[(32, sf_per_mma):(1@TLane, 1@TCol)] + R[4:32@TLane]\nassert size(SF) == 128\np = tirx_map(SF, (3,2), (32,4))\n")
	if got := boundString(t, s, "SF"); got != "S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]" {
		t.Errorf("SF = %s", got)
	}
	if got := boundString(t, s, "p"); got != "{TLane:3, TCol:2} | {TLane:35, TCol:2} | {TLane:67, TCol:2} | {TLane:99, TCol:2}" {
		t.Errorf("p = %s", got)
	}
	// The name is read: it is used, and renaming it would follow.
	if uses := s.References(s.Names["sf_per_mma"], false); len(uses) != 1 || uses[0].Pos.Line != 2 {
		t.Errorf("uses of sf_per_mma: %v", uses)
	}
}

// String prints what the grammar reads back to the same layout.
func TestTIRxRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	axes := []tirx.Axis{tirx.MemoryAxis, "laneid", "warpid", "TCol"}
	iter := func() tirx.Iter {
		return tirx.Iter{Extent: 1 + r.Int64N(9), Stride: r.Int64N(40) - 10, Axis: axes[r.IntN(len(axes))]}
	}
	for range 500 {
		var l tirx.Layout
		for range 1 + r.IntN(4) {
			l.Shard = append(l.Shard, iter())
		}
		for range r.IntN(3) {
			l.Replica = append(l.Replica, iter())
		}
		for _, a := range axes {
			if r.IntN(3) == 0 {
				l.Offset = append(l.Offset, tirx.AxisValue{Axis: a, Value: r.Int64N(40) - 10})
			}
		}
		v, err := EvalString(l.String())
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		back, ok := v.(tirx.Layout)
		if !ok || back.String() != l.String() || fmt.Sprint(back) != fmt.Sprint(l) {
			t.Fatalf("%s reads back as %#v", l, v)
		}
	}
}

// Each binding error points at the term that breaks it, in the user's numbers.
func TestTIRxBindingFindings(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // the one finding: "LINE:COL-ENDCOL code: message prefix"
	}{
		{"zero extent", "T = S[(8,0):(4@laneid,1)]\n", "1:10-1:11 non-positive-shape: extent 0 of iter 1 of S[...]"},
		{"negative replica extent", "T = S[8:1] + R[-2:4@warpid]\n", "1:16-1:18 non-positive-shape: extent -2 of iter 0 of R[...]"},
		{"duplicate offset axis", "T = S[8:1] + 5@warpid + 3@warpid\n", "1:25-1:33 precondition: a second offset on axis warpid: 3@warpid after 5@warpid (one offset term per axis; write their sum, 8@warpid)"},
		{"duplicate memory offset", "T = S[8:1] + 2 + 3\n", "1:18-1:19 precondition: a second offset on axis m: 3 after 2 (one offset term per axis; write their sum, 5)"},
		{"rank mismatch", "T = S[(8,2):(4@laneid)]\n", "1:7-1:23 incongruent: S[...] has 2 extents and 1 strides"},
		{"nested extents", "T = S[(8,(2,2)):(4@laneid,1)]\n", "1:10-1:15 type-mismatch: a TIRx extent is an integer: TIRx iters are flat, (2,2) is a nested tuple"},
		{"mode number axis", "T = S[(8,2):(4@0,1)]\n", "1:16-1:17 type-mismatch: @0 is a CuTe mode number; a TIRx stride names an axis"},
		{"two axes", "T = S[8:1@x@y]\n", "1:9-1:14 type-mismatch: a TIRx stride is on one axis, as in 4@laneid; 1@x@y names 2 axes"},
		{"unknown extent", "T = S[?:1]\n", "1:7-1:8 unknown-value: a TIRx extent needs a value known before run time"},
		{"unknown stride", "T = S[4:?@x]\n", "1:9-1:12 unknown-value: a TIRx stride needs a value known before run time"},
		{"fractional stride", "T = S[4:1/2@x]\n", "1:9-1:12 non-integral-basis: basis count 1/2 is not an integer"},
		{"undefined extent", "T = S[(32,k):(1@TLane,1@TCol)]\n", "1:11-1:12 undefined-name: undefined: k"},
		{"extent bound to a layout", "k = 4:1\nT = S[(32,k):(1@TLane,1@TCol)]\n", "2:11-2:12 type-mismatch: k is a layout 4:1, not an integer: a TIRx extent is an integer"},
		{"extent bound to an unknown", "k = ?\nT = S[(32,k):(1@TLane,1@TCol)]\n", "2:11-2:12 unknown-value: k is ?: a TIRx extent needs a value known before run time"},
		{"replica alone", "T = R[4:32@TLane]\n", "1:5-1:18 precondition: a TIRx layout starts with its shard S[...]"},
		{"shard size overflow", "T = S[(4294967296,4294967296):(1,1)]\n", "1:19-1:29 overflow: the shard extents overflow int64 at iter 1: 4294967296 elements before it, times extent 4294967296"},
		{"point overflow", "T = S[8:4611686018427387904@x]\n", "1:5-1:31 overflow: TileLayout: the points of S[8:4611686018427387904@x] reach past int64 on axis x"},
		{"offset overflow", "T = S[2:9223372036854775807] + 1\n", "1:5-1:33 overflow: TileLayout: the points of S[2:9223372036854775807] + 1 reach past int64 on axis m"},
		{"too many replicas", "T = S[2:1] + R[(1024,128):(1@a,1@b)]\n", "1:22-1:25 precondition: replica iter 1 makes more than 65536 replica combinations (1024 before it, times extent 128)"},
		{"coordinate out of range", "T = S[(8,2):(4@laneid,1)]\np = tirx_map(T, (8,0), (8,2))\n", "2:5-2:30 precondition: tirx_map: coordinate (8,0) is outside shape (8,2): mode 0 is 8, not in [0, 8)"},
		{"index out of range", "T = S[(8,2):(4@laneid,1)]\np = tirx_map(T, 16)\n", "2:5-2:20 precondition: tirx_map: element index 16 is outside [0, 16)"},
		{"shape not admitted", "T = S[(8,2):(4@laneid,1)]\np = tirx_map(T, (1,2), (3,5))\n", "2:5-2:30 precondition: tirx_map: shape (3,5) has 15 elements, S[(8,2):(4@laneid,1)] maps 16"},
		{"coordinate without its shape", "T = S[(8,2):(4@laneid,1)]\np = tirx_map(T, (1,2))\n", "2:5-2:23 type-mismatch: tirx_map: coordinate (1,2) needs the logical shape it indexes"},
		{"not a TIRx layout", "p = tirx_map(8:1, 0)\n", "1:5-1:21 type-mismatch: tirx_map: expected a TIRx layout"},
		{"a CuTe operation on a TIRx layout", "T = S[8:1]\nc = coalesce(T)\n", "2:14-2:15 type-mismatch: argument 1 of coalesce: expected a layout, got S[8:1] (a TIRx layout)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := AnalyzeSheet("t.cute", []byte(tc.src))
			var got []string
			for _, f := range s.Findings {
				if f.Code == CodeUnused {
					continue
				}
				got = append(got, fmt.Sprintf("%d:%d-%d:%d %s: %s", f.Range.Pos.Line, f.Range.Pos.Column, f.Range.End.Line, f.Range.End.Column, f.Code, f.Message))
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
				t.Errorf("findings:\n%s\nwant one starting\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}

// A duplicate offset's finding points back at the first offset on the axis.
func TestTIRxDuplicateOffsetRelated(t *testing.T) {
	_, err := EvalString("S[8:1] + 5@warpid + 3@warpid")
	ee, ok := err.(*EvalError)
	if !ok || len(ee.Related) != 1 || ee.Related[0].Range.Pos.Column != 10 || ee.Related[0].Range.End.Column != 18 {
		t.Fatalf("error %#v, want one related range at 5@warpid", err)
	}
}

// The example sheet of TIRx layouts evaluates without a finding.
func TestTIRxExampleSheetIsClean(t *testing.T) {
	src, err := os.ReadFile("../examples/tirx.cute")
	if err != nil {
		t.Fatal(err)
	}
	s := AnalyzeSheet("tirx.cute", src)
	for _, f := range s.Findings {
		if f.Code != CodeUnused {
			t.Errorf("%d:%d %s: %s", f.Range.Pos.Line, f.Range.Pos.Column, f.Code, f.Message)
		}
	}
	if got := boundString(t, s, "last"); got != "{laneid:31, warpid:6, m:1} | {laneid:31, warpid:10, m:1}" {
		t.Errorf("last = %s", got)
	}
	if got := boundString(t, s, "corner"); got != "{TCol:223, TLane:127}" {
		t.Errorf("corner = %s", got)
	}
}
