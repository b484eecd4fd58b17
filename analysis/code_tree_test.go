package analysis

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCodeTree reads and evaluates the CuTe code of every C++/CUDA and
// Python file under the folders in CUTE_CODE_TREE (separated by ":"), as
// a check by hand over a real tree such as CUTLASS's: no panic, every
// value's range inside its file; it logs how many expressions were found,
// how many have a value, and how many of those are layouts.
func TestCodeTree(t *testing.T) {
	roots := os.Getenv("CUTE_CODE_TREE")
	if roots == "" {
		t.Skip("CUTE_CODE_TREE is not set")
	}
	var files, codeFiles, exprs, evaluated, layouts int
	var bytes int64
	start := time.Now()
	for _, root := range strings.Split(roots, ":") {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			lang := LanguageOf(p)
			if lang != LangCpp && lang != LangPython {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files++
			bytes += int64(len(src))
			c := ReadCode(lang, src)
			if c == nil {
				return nil
			}
			codeFiles++
			for _, r := range c.File.Roots {
				if s, e := r.Span(); s < 0 || e > len(src) || s > e {
					t.Errorf("%s: expression at [%d,%d) outside the file", p, s, e)
				}
			}
			counts := c.Counts()
			n, ev, l := counts.Roots, counts.Evaluated, counts.Layouts
			exprs, evaluated, layouts = exprs+n, evaluated+ev, layouts+l
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d files (%d MB), %d read as code; %d expressions, %d with a value, %d of them layouts; %v",
		files, bytes>>20, codeFiles, exprs, evaluated, layouts, time.Since(start))
}
