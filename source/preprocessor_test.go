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

// TestConstexprBranches: every branch of an "if constexpr" chain, braced
// or not, and nothing after it.
func TestConstexprBranches(t *testing.T) {
	src := `template <int N> void f() {
  if constexpr (N == 1) {
    d1;
  } else if constexpr (N == 2) {
    d2;
  } else {
    d3;
  }
  a1;
  if constexpr (N == 3) d4;
  else d5;
  a2;
  if (N == 4) { a3; }
}`
	f := ReadCpp([]byte(src))
	var disabled []string
	for _, w := range []string{"d1", "d2", "d3", "d4", "d5", "a1", "a2", "a3"} {
		if f.DisabledAt(strings.Index(src, w)) {
			disabled = append(disabled, w)
		}
	}
	if got, want := strings.Join(disabled, " "), "d1 d2 d3 d4 d5"; got != want {
		t.Errorf("in branches: %q, want %q", got, want)
	}
}
