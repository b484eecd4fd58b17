package analysis

import (
	"errors"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// The TIRx operations through the table (ops_tirx.go), on the register
// tile of the TIRx seed ((8,16) over 2 warps of 32 lanes, replicated to
// warps +4, offset 5 on warpid) and a tensor-memory tile.
var (
	tensorCoreTile = tirx.Layout{
		Shard: []tirx.Iter{
			{Extent: 8, Stride: 4, Axis: "laneid"},
			{Extent: 2, Stride: 1, Axis: "warpid"},
			{Extent: 4, Stride: 1, Axis: "laneid"},
			{Extent: 2, Stride: 1, Axis: tirx.MemoryAxis},
		},
		Replica: []tirx.Iter{{Extent: 2, Stride: 4, Axis: "warpid"}},
		Offset:  []tirx.AxisValue{{Axis: "warpid", Value: 5}},
	}
	tensorMemoryTile = tirx.Layout{Shard: []tirx.Iter{
		{Extent: 2, Stride: 112, Axis: "TCol"},
		{Extent: 128, Stride: 1, Axis: "TLane"},
		{Extent: 112, Stride: 1, Axis: "TCol"},
	}}
)

func TestTIRxOpsOfTheTable(t *testing.T) {
	for _, c := range []struct {
		op   string
		args []layout.Value
		want string
	}{
		{"size", []layout.Value{tensorCoreTile}, "128"},
		{"size", []layout.Value{tensorMemoryTile}, "28672"},
		{"tirx_map", []layout.Value{tensorCoreTile, layout.Int(0)}, "{laneid:0, warpid:5, m:0} | {laneid:0, warpid:9, m:0}"},
		{"tirx_map", []layout.Value{tensorCoreTile, layout.Int(127)}, "{laneid:31, warpid:6, m:1} | {laneid:31, warpid:10, m:1}"},
		{"tirx_map", []layout.Value{tensorCoreTile, layout.Ints(0, 8), layout.Ints(8, 16)}, "{laneid:0, warpid:6, m:0} | {laneid:0, warpid:10, m:0}"},
		{"tirx_map", []layout.Value{tensorCoreTile, layout.Int(109), layout.Int(128)}, "{laneid:26, warpid:6, m:1} | {laneid:26, warpid:10, m:1}"},
		{"tirx_map", []layout.Value{tensorMemoryTile, layout.Ints(1, 127, 111), layout.Ints(2, 128, 112)}, "{TCol:223, TLane:127}"},
		{"tirx_split", []layout.Value{tensorCoreTile, layout.Ints(7, 15), layout.Ints(8, 16)}, "(7,1,3,1)"},
		{"tirx_split", []layout.Value{tensorCoreTile, layout.Int(16)}, "(1,0,0,0)"},
		{"tirx_axes", []layout.Value{tensorCoreTile}, "(laneid, warpid, m)"},
		{"tirx_axes", []layout.Value{tensorMemoryTile}, "(TCol, TLane)"},
		{"tirx_replicas", []layout.Value{tensorCoreTile}, "2"},
		{"tirx_replicas", []layout.Value{tensorMemoryTile}, "1"},
	} {
		got, err := ApplyOp(c.op, c.args...)
		if err != nil {
			t.Errorf("%s%v: %v", c.op, c.args, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s%v = %s, want %s", c.op, c.args, got, c.want)
		}
	}
}

func TestTIRxOpErrorsOfTheTable(t *testing.T) {
	huge := tirx.Layout{Shard: []tirx.Iter{{Extent: 4, Stride: 1 << 62, Axis: "m"}}}
	for _, c := range []struct {
		name   string
		op     string
		args   []layout.Value
		cond   string
		kind   bool
		detail string // a substring of the message
	}{
		{"no arguments", "tirx_map", nil, "", true, "takes 2 to 3 arguments, got 0"},
		{"not a TIRx layout", "tirx_map", []layout.Value{layout.Box(layout.Make(layout.Int(8), layout.Int(1))), layout.Int(0)}, "", true, "expected a TIRx layout"},
		{"index past the size", "tirx_map", []layout.Value{tensorCoreTile, layout.Int(128)}, tirx.CondCoord, false, "element index 128 is outside [0, 128)"},
		{"negative index", "tirx_map", []layout.Value{tensorCoreTile, layout.Int(-1)}, tirx.CondCoord, false, "element index -1"},
		{"unknown index", "tirx_map", []layout.Value{tensorCoreTile, layout.Unknown()}, layout.CondUnknown, false, "element index ?"},
		{"coordinate without shape", "tirx_map", []layout.Value{tensorCoreTile, layout.Ints(0, 8)}, "", true, "needs the logical shape it indexes"},
		{"index of another kind", "tirx_map", []layout.Value{tensorCoreTile, layout.Basis(1, 0)}, "", true, "expected an element index"},
		{"shape not admitted", "tirx_map", []layout.Value{tensorCoreTile, layout.Ints(0, 0), layout.Ints(8, 8)}, tirx.CondAdmit, false, "shape (8,8) has 64 elements, " + tensorCoreTile.String() + " maps 128"},
		{"shape overflow", "tirx_map", []layout.Value{tensorCoreTile, layout.Ints(0, 0), layout.Ints(1<<40, 1<<40)}, layout.CondOverflow, false, "size of shape"},
		{"coordinate outside", "tirx_map", []layout.Value{tensorCoreTile, layout.Ints(8, 0), layout.Ints(8, 16)}, tirx.CondCoord, false, "coordinate (8,0) is outside shape (8,16): mode 0 is 8, not in [0, 8)"},
		{"coordinate rank", "tirx_map", []layout.Value{tensorCoreTile, layout.Ints(0, 0, 0), layout.Ints(8, 16)}, tirx.CondCoord, false, "coordinate (0,0,0) has rank 3, shape (8,16) rank 2"},
		{"nested coordinate", "tirx_map", []layout.Value{tensorCoreTile, layout.Tup(layout.Int(0), layout.Ints(0, 0)), layout.Ints(8, 16)}, "", true, "flat tuple of integers"},
		{"unknown coordinate", "tirx_map", []layout.Value{tensorCoreTile, layout.Tup(layout.Int(0), layout.Unknown()), layout.Ints(8, 16)}, layout.CondUnknown, false, "has ? in mode 1"},
		{"shape of another kind", "tirx_map", []layout.Value{tensorCoreTile, layout.Int(0), tensorCoreTile}, "", true, "expected a shape"},
		{"invalid layout", "tirx_map", []layout.Value{tirx.Layout{Shard: []tirx.Iter{{Extent: 0, Stride: 1, Axis: "m"}}}, layout.Int(0)}, tirx.CondExtent, false, "extent 0"},
		{"point overflow", "tirx_map", []layout.Value{huge, layout.Int(3)}, layout.CondOverflow, false, "axis m: 0 plus 3*4611686018427387904"},
		{"split outside", "tirx_split", []layout.Value{tensorCoreTile, layout.Int(200)}, tirx.CondCoord, false, "element index 200"},
		{"axes of a layout", "tirx_axes", []layout.Value{layout.Box(layout.Make(layout.Int(8), layout.Int(1)))}, "", true, "expected a TIRx layout"},
		{"axes arity", "tirx_axes", []layout.Value{tensorCoreTile, tensorCoreTile}, "", true, "takes 1 arguments, got 2"},
		{"replicas of a layout", "tirx_replicas", []layout.Value{layout.Int(3)}, "", true, "expected a TIRx layout"},
		{"replicas arity", "tirx_replicas", nil, "", true, "takes 1 arguments, got 0"},
		{"too many replicas", "tirx_replicas", []layout.Value{tirx.Layout{Shard: []tirx.Iter{{Extent: 2, Stride: 1, Axis: "m"}}, Replica: []tirx.Iter{{Extent: 1 << 10, Stride: 1, Axis: "a"}, {Extent: 1 << 10, Stride: 1, Axis: "b"}}}}, tirx.CondReplica, false, "past 65536"},
		{"size overflow", "size", []layout.Value{tirx.Layout{Shard: []tirx.Iter{{Extent: 1 << 40, Stride: 1, Axis: "m"}, {Extent: 1 << 40, Stride: 1, Axis: "m"}}}}, layout.CondOverflow, false, "product of the shard extents"},
		{"cosize is not defined", "cosize", []layout.Value{tensorCoreTile}, "", true, "a TIRx layout"},
	} {
		_, err := ApplyOp(c.op, c.args...)
		var le *layout.Error
		if !errors.As(err, &le) {
			t.Errorf("%s: %s%v = %v, want an *Error", c.name, c.op, c.args, err)
			continue
		}
		wantOp := c.op
		if le.Op != wantOp || le.Condition != c.cond || le.Kind != c.kind || !strings.Contains(le.Error(), c.detail) {
			t.Errorf("%s: got %#v, want op %s, condition %q, kind %v, detail containing %q", c.name, le, wantOp, c.cond, c.kind, c.detail)
		}
	}
}

// tirx_map of a coordinate names the operation in its errors, not the method.
func TestTIRxMapCoordErrorNamesTheOp(t *testing.T) {
	_, err := ApplyOp("tirx_map", tensorCoreTile, layout.Ints(6, 13), layout.Ints(8, 8))
	if err == nil || !strings.HasPrefix(err.Error(), "tirx_map: ") {
		t.Errorf("a shape not admitted: %v", err)
	}
}
