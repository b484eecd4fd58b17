package source

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// TestDisabledRegions: "#if 0" bodies and the #else of "#if 1" are never
// compiled; other conditions are not judged, and directives nest. The
// "#" may be spelled "%:", and a condition may hold comments and
// parentheses.
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
%:if 0
d8
%:endif
 %: if 1
a8
%:else
d9
%:endif
#if 0 /* off */
d10
#endif
#if (0) // off
d11
#endif
#if /* on? */ 1
a9
#else
d12
#endif
#if 0 /* the condition goes on
  */ || X
a10
#endif
#if (0) || (X)
a11
#endif
#if 0
d7`
	var disabled []string
	for _, line := range strings.Split(src, "\n") {
		off := strings.Index(src, line)
		if line != "" && line[0] != '#' && line[0] != ' ' && line[0] != '%' && line[0] != '*' && (ReadCpp([]byte(src)).DisabledAt(off)) {
			disabled = append(disabled, line)
		}
	}
	if got, want := strings.Join(disabled, " "), "d1 d2 d3 d4 d5 d6 d8 d9 d10 d11 d12 d7"; got != want {
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

// disabledRegionsReference is the disabled regions as found before the
// walk looked for "#" (and "%:") with IndexByte: every line trimmed and
// tested.
func disabledRegionsReference(src []byte) []Range {
	type cond struct {
		constant int
		start    int
	}
	var out []Range
	var stack []cond
	disabledDepth := -1
	for at := 0; at < len(src); {
		end := bytes.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += at
		}
		line := bytes.TrimSpace(src[at:end])
		mark := 0 // the length of the line's "#" or "%:"
		switch {
		case bytes.HasPrefix(line, []byte("#")):
			mark = 1
		case bytes.HasPrefix(line, []byte("%:")):
			mark = 2
		}
		if mark > 0 && len(line) > mark {
			w, rest := directive(line[mark:])
			switch word := string(w); word {
			case "if", "ifdef", "ifndef":
				c := cond{constant: -1, start: -1}
				if word == "if" {
					switch string(rest) {
					case "0", "false":
						c.constant = 0
					case "1", "true":
						c.constant = 1
					}
				}
				if c.constant == 0 && disabledDepth < 0 {
					c.start, disabledDepth = end, len(stack)
				}
				stack = append(stack, c)
			case "else", "elif", "elifdef", "elifndef":
				if len(stack) == 0 {
					break
				}
				top := &stack[len(stack)-1]
				switch {
				case disabledDepth == len(stack)-1 && top.start >= 0:
					out = append(out, Range{top.start, at})
					top.start, disabledDepth = -1, -1
					if top.constant == 0 && word != "else" {
						top.constant = -1
					}
				case disabledDepth < 0 && top.constant == 1:
					top.start, disabledDepth = end, len(stack)-1
				}
			case "endif":
				if len(stack) == 0 {
					break
				}
				if disabledDepth == len(stack)-1 {
					out = append(out, Range{stack[len(stack)-1].start, at})
					disabledDepth = -1
				}
				stack = stack[:len(stack)-1]
			}
		}
		at = end + 1
	}
	if disabledDepth >= 0 {
		out = append(out, Range{stack[disabledDepth].start, len(src)})
	}
	return out
}

// sameDisabled fails t when directives' disabled regions differ from the reference on src.
func sameDisabled(t *testing.T, name string, src []byte) {
	t.Helper()
	if got, want := directives(src).disabled, disabledRegionsReference(src); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: disabled regions %v, want %v", name, got, want)
	}
}

func TestDisabledRegionsAsReference(t *testing.T) {
	for _, src := range []string{"", "#", "#if 0\nx\n#endif", " \t#if 0\nx\n# else\ny\n#endif\n", "a #if 0\nb\n#endif",
		"#if 1\na\n#else\nb # c\n#endif", "x\n\u00a0#if 0\ny\n#endif", "#if 0\r\na\r\n#endif\r\n", "##\n#if 0", "#if 0 // off\n#elif 1\n#endif",
		"%:if 0\nx\n%:endif", " %: if 1\na\n%:else\nb\n%:endif", "%:\n%:if 0", "a %:if 0\nb\n%:endif", "x%:y\n#if (0) /* off */\nz\n#endif"} {
		sameDisabled(t, src, []byte(src))
	}
}
