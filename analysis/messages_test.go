package analysis

import (
	"strings"
	"testing"
)

// TestLiteralErrorsNameNoInternalFunction: a literal the user wrote is
// refused with the reason alone, never with the name of the function the
// algebra checked it with (make_layout, Swizzle), which the user never called.
func TestLiteralErrorsNameNoInternalFunction(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"(2,2):(4,1,1)", "the shape (2,2) has 2 modes but the stride (4,1,1) has 3"},
		{"[4:1;(2,2):(1,1,1)]", "the shape (2,2) has 2 modes"},
		{`!cute.layout<"(2,2):(1,1,1)">`, "the shape (2,2) has 2 modes"},
		{"Sw<3,4,1>", "Sw<3,4,1> shifts by |S| = 1"},
	} {
		_, err := EvalString(tc.src)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a message starting %q", tc.src, err, tc.want)
		}
	}
}
