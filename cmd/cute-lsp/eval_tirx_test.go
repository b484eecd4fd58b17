package main

import "testing"

// TIRx layouts and the point sets they map to print through eval as any value does.
func TestEvalTIRx(t *testing.T) {
	const tile = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"
	for _, tc := range []struct {
		expr   string
		code   int
		stdout string
	}{
		{tile, 0, tile + "\n"},
		{"S[(8,2):(4@laneid,1)] + R[2:4@warpid] + 5@warpid", 0, "S[(8,2):(4@laneid,1)] + R[2:4@warpid] + 5@warpid\n"},
		{"tirx_map(" + tile + ", (7,15), (8,16))", 0, "{laneid:31, warpid:6, m:1} | {laneid:31, warpid:10, m:1}\n"},
		{"tirx_map(S[(2,128,112):(112@TCol,1@TLane,1@TCol)], (1,127,111), (2,128,112))", 0, "{TCol:223, TLane:127}\n"},
		{"size(S[(2,128,112):(112@TCol,1@TLane,1@TCol)])", 0, "28672\n"},
		{"tirx_axes(" + tile + ")", 0, "(laneid, warpid, m)\n"},
		{"S[(8,0):(4@laneid,1)]", 1, "error: 1:6: extent 0 of iter 1 of S[...]: an iter takes at least one step (iter extents must be positive) (in 0)\n"},
		{"tirx_map(S[(8,2):(4@laneid,1)], (1,2), (3,5))", 1, "error: 1:1: tirx_map: shape (3,5) has 15 elements, S[(8,2):(4@laneid,1)] maps 16 (a shape is admitted when its size equals the product of the shard extents) (in tirx_map(S[(8,2):(4@laneid,1)], (1,2), (3,5)))\n"},
	} {
		code, stdout, stderr := runCLI(t, "", "eval", tc.expr)
		if code != tc.code || stdout != tc.stdout {
			t.Errorf("eval %q: exit %d, stdout %q (stderr %q); want exit %d, %q", tc.expr, code, stdout, stderr, tc.code, tc.stdout)
		}
	}
}
