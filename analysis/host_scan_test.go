package analysis

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The reference versions of cppRegions and newLineIndex, as they were
// before they passed over bytes in bulk: the fast ones must give the same.

func cppRegionsReference(s string) []region {
	var out []region
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "//"):
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			out = append(out, region{start: i + 2, end: i + end})
			i += end
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				out = append(out, region{start: i + 2, end: len(s)})
				return out
			}
			out = append(out, region{start: i + 2, end: i + 2 + end})
			i += 2 + end + 2
		case s[i] == 'R' && strings.HasPrefix(s[i+1:], "\"") && (i == 0 || !isIdentByte(s[i-1])):
			// R"delim( ... )delim"
			open := strings.IndexByte(s[i+2:], '(')
			if open < 0 {
				i++
				continue
			}
			delim := s[i+2 : i+2+open]
			bodyStart := i + 2 + open + 1
			end := strings.Index(s[bodyStart:], ")"+delim+"\"")
			if end < 0 {
				return out
			}
			out = append(out, region{start: bodyStart, end: bodyStart + end, literal: true})
			i = bodyStart + end + len(delim) + 2
		case s[i] == '"':
			end := quotedEnd(s, i+1, '"')
			out = append(out, region{start: i + 1, end: end, literal: true})
			i = end + 1
		case s[i] == '\'':
			i = quotedEnd(s, i+1, '\'') + 1
		default:
			i++
		}
	}
	return out
}

func newLineIndexReference(text string) *lineIndex {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{text: text, starts: starts}
}

func sameHostScan(t *testing.T, name, src string) {
	t.Helper()
	if got, want := cppRegions(src), cppRegionsReference(src); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: cppRegions gives %d regions, the reference %d", name, len(got), len(want))
	}
	if got, want := newLineIndex(src), newLineIndexReference(src); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: newLineIndex gives %d line starts, the reference %d", name, len(got.starts), len(want.starts))
	}
}

func TestHostScanMatchesReference(t *testing.T) {
	for _, src := range []string{"", "\n", "a\n", "x // (2,2):(1,2)\n/* (4,8) */ \"(8,4)\" 'c' R\"d((2,3))d\" uR\"(x)\"", "/* open", "\"open", "R\"x(open", "'\\''"} {
		sameHostScan(t, src, src)
	}
	root := os.Getenv("CUTLASS")
	if root == "" {
		root = "/work/cutlass"
	}
	filepath.WalkDir(filepath.Join(root, "include", "cute"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if src, err := os.ReadFile(p); err == nil {
				sameHostScan(t, p, string(src))
			}
		}
		return nil
	})
}

func FuzzHostScanMatchesReference(f *testing.F) {
	f.Add("x // (2,2):(1,2)\n/* (4,8) */ \"(8,4)\" 'c' R\"d((2,3))d\"")
	f.Fuzz(func(t *testing.T, src string) { sameHostScan(t, "fuzz", src) })
}
