package analysis

import (
	"strings"
	"testing"
)

// TestAssertComparesTIRxMappings: "==" on TIRx layouts compares the set of
// points of every element, whatever the iters that produce them.
func TestAssertComparesTIRxMappings(t *testing.T) {
	same := "A = S[(2,2):(2@laneid,1@laneid)] + R[2:4@warpid]\n" +
		"B = S[(4):(1@laneid)] + R[2:4@warpid] + 0@m\n" +
		"assert A == B\n"
	if got := findingsOf(same); len(got) != 0 {
		t.Errorf("equal mappings: %q", got)
	}
	differ := "A = S[(2,2):(1@laneid,2@laneid)]\nB = S[(4):(1@laneid)]\nassert A == B\n"
	got := findingsOf(differ)
	if len(got) != 1 || !strings.Contains(got[0], "element 1 maps to {laneid:2} on the left and to {laneid:1} on the right") {
		t.Errorf("different mappings: %q", got)
	}
	sizes := "A = S[(2,2):(1@laneid,2@laneid)]\nB = S[(8):(1@laneid)]\nassert A == B\n"
	if got := findingsOf(sizes); len(got) != 1 || !strings.Contains(got[0], "sizes differ: 4 and 8") {
		t.Errorf("different sizes: %q", got)
	}
	replicas := "A = S[(4):(1@laneid)] + R[2:4@warpid]\nB = S[(4):(1@laneid)] + R[2:8@warpid]\nassert A == B\n"
	if got := findingsOf(replicas); len(got) != 1 || !strings.Contains(got[0], "element 0 maps to") {
		t.Errorf("different replicas: %q", got)
	}
	huge := "A = S[(8388608):(1@laneid)]\nassert A == A\n"
	if got := findingsOf(huge); len(got) != 1 || !strings.Contains(got[0], "too large to compare element by element") {
		t.Errorf("too large: %q", got)
	}
}
