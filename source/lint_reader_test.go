package source

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sameWithLintReader fails t when a LintReader's read of a text differs
// from ReadCppForLint's fresh one, read after each of before (and before
// again after it, the reader's memory now the text's): nothing of one
// file's read may show in the next's.
func sameWithLintReader(t *testing.T, name string, src []byte, before ...[]byte) {
	t.Helper()
	want := ReadCppForLint(src)
	var r LintReader
	if got := r.ReadCppForLint(src); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: a new LintReader's read differs from a fresh one:\n got %+v\nwant %+v", name, got, want)
	}
	for _, prev := range before {
		r.ReadCppForLint(prev)
		if got := r.ReadCppForLint(src); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the LintReader's read after %.40q differs from a fresh one:\n got %+v\nwant %+v", name, prev, got, want)
		}
		if got, want := r.ReadCppForLint(prev), ReadCppForLint(prev); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the LintReader's read of %.40q after it differs from a fresh one", name, prev)
		}
	}
}

// lintReaderTexts are texts for the reader's reuse: the seeds, a traits
// header whose runs are left out (LintRunsMinBytes), one that binds the
// names another reads, and files with nothing to read.
func lintReaderTexts(t testing.TB) [][]byte {
	names, _ := filepath.Glob(filepath.Join("testdata", "*.cu"))
	var texts [][]byte
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, data)
	}
	filler := "template <class Q> struct Filler { using X = Layout<Shape<_1,_2,_3,_4>, Stride<_4,_3,_2,_1>>; using Y = Q; };\n"
	call := "using A = Layout<Shape<_4,_3>>;\nauto r = composition(A{}, make_layout(_2{}));\n"
	return append(texts,
		[]byte("namespace cute {\n"+strings.Repeat(filler, LintRunsMinBytes/len(filler)+1)+call+"}\n"),
		[]byte("using namespace cute;\nconstexpr int k = 4;\nusing B = Layout<Shape<Int<k>,_8>>;\nauto x = size(B{}) + take<0,1>(B{});\nauto y = coalesce(make_layout(make_shape(k, 2)));\n"),
		[]byte("auto z = size(A{}) + select<1>(B{}); // A and B bound only in the file before\n"),
		[]byte("int main() { return 0; }\n"),
		[]byte("void f() { size(x); }\n"),
		nil,
	)
}

// TestLintReaderReadsEachFileAlone: a LintReader's read of a file is
// ReadCppForLint's, whatever it read before. The check fails when the
// reader's memory leaks from file to file: with the Bindings appended
// after the last file's (readTokens without m.bindings[:0]).
func TestLintReaderReadsEachFileAlone(t *testing.T) {
	defer func(calls *Names) { FindingCalls = calls }(FindingCalls)
	FindingCalls = runCalls
	texts := lintReaderTexts(t)
	for i, src := range texts {
		sameWithLintReader(t, string(rune('a'+i)), src, texts...)
	}
	// One reader through every text in turn, as a lint worker reads.
	var r LintReader
	for k := 0; k < 2; k++ {
		for i, src := range texts {
			if got, want := r.ReadCppForLint(src), ReadCppForLint(src); !reflect.DeepEqual(got, want) {
				t.Errorf("text %d, round %d: the LintReader's read differs from a fresh one", i, k)
			}
		}
	}
}

// sameWithLintReaderOver is sameWithLintReader with runCalls for
// FindingCalls, after a text that binds and calls and after src itself
// (FuzzSkipping).
func sameWithLintReaderOver(t *testing.T, name string, src []byte) {
	t.Helper()
	defer func(calls *Names) { FindingCalls = calls }(FindingCalls)
	FindingCalls = runCalls
	binds := []byte("using namespace cute;\ntemplate <int N> using L = Layout<Shape<Int<N>,_8>>;\nconstexpr int k = 4;\nauto x = size(L<k>{}) + take<0,1>(make_layout(k));\nvoid f(int m) { auto y = coalesce(L<2>{}); }\n")
	sameWithLintReader(t, name, src, binds, src)
}
