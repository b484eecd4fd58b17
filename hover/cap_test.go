package hover

import (
	"strings"
	"testing"
)

// TestTableCapBoundsRowsInAll: the row cap bounds the rows of every slice
// shown together: with a cap of 16, a rank-3 layout of 16-row slices shows
// one slice (not four of 16 rows), one of 4-row slices shows four.
func TestTableCapBoundsRowsInAll(t *testing.T) {
	lim := TableLimits{MaxRows: 16, MaxCols: 16, MaxSlices: 4}
	for _, tc := range []struct {
		src    string
		slices int
		more   string
	}{
		{"(16,2,4):(1,16,32)", 1, "... 3 more slices not shown"},
		{"(4,2,8):(1,4,8)", 4, "... 4 more slices not shown"},
		{"(2,2,4):(1,2,4)", 4, ""},
	} {
		table, err := Table(mustEval(t, tc.src), lim)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(table, "(modes 2.. at index"); got != tc.slices {
			t.Errorf("%s: %d slices shown, want %d:\n%s", tc.src, got, tc.slices, table)
		}
		if tc.more != "" && !strings.Contains(table, tc.more) {
			t.Errorf("%s: no %q", tc.src, tc.more)
		}
	}
}

// TestCoordinateLayoutsHaveNoByteFacts: a layout that maps to coordinates
// (basis strides, an identity tensor's ArithTuple iterator) is not memory:
// its hover says nothing of bytes, while an offset layout's does.
func TestCoordinateLayoutsHaveNoByteFacts(t *testing.T) {
	for _, src := range []string{"(4,8):(1@0,1@1)", "ArithTuple(_0,0) o (_128,_64,4):(_1@1,_1@0,_64@0)"} {
		if text := Value(mustEval(t, src), DefaultOptions); strings.Contains(text, "bytes") {
			t.Errorf("%s: hover speaks of bytes:\n%s", src, text)
		}
	}
	if text := Value(mustEval(t, "(4,8):(1,4)"), DefaultOptions); !strings.Contains(text, "spans 64 bytes of half_t") {
		t.Errorf("an offset layout lost its byte facts:\n%s", text)
	}
}
