package source

import (
	"strings"
	"testing"
)

// TestDisabledRegions: "#if 0" bodies and the #else of "#if 1" are never
// compiled; other conditions are not judged, and directives nest.
func TestDisabledRegions(t *testing.T) {
	src := `a1
#if 0
d1
#if X
d2
#endif
d3
#else
a2
#endif
#if 1
a3
#else
d4
#endif
#ifdef X
a4
#else
a5
#endif
#if 0 // old
d5
#elif Y
a6
#else
a7
#endif
  #  if false
d6
#endif
#if 0
d7`
	var disabled []string
	for _, line := range strings.Split(src, "\n") {
		off := strings.Index(src, line)
		if line != "" && line[0] != '#' && line[0] != ' ' && (ReadCpp([]byte(src)).DisabledAt(off)) {
			disabled = append(disabled, line)
		}
	}
	if got, want := strings.Join(disabled, " "), "d1 d2 d3 d4 d5 d6 d7"; got != want {
		t.Errorf("disabled lines %q, want %q", got, want)
	}
}
