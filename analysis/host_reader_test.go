package analysis

import (
	"reflect"
	"testing"
)

// findingsReaderTexts are texts lint reads for findings: the shapes made to
// catch its partial read out (bare and among statements it leaves out,
// LintRunsMinBytes and more), the call scan's seeds, and a pair where one
// binds the names the other calls with.
func findingsReaderTexts() [][]byte {
	var texts [][]byte
	for _, shape := range lintAdversarialShapes {
		texts = append(texts, []byte("using namespace cute;\n"+shape), lintAdversarialSource(shape))
	}
	for _, src := range callScanSeeds {
		texts = append(texts, []byte(src))
	}
	return append(texts,
		[]byte("using namespace cute;\nusing A = Layout<Shape<_4,_3>>;\nauto B = make_layout(make_shape(_2{}, _8{}));\nauto r = composition(A{}, B); // (4,3):(1,4)\n"),
		[]byte("using namespace cute;\nauto s = composition(A{}, B) + logical_divide(B, A{}); // A and B bound only in the file before\n"),
		[]byte("int main() { return 0; }\n"),
	)
}

// sameFindingsWithReader fails t when reader's findings of src differ from
// AnalyzeHostForFindings' of src alone.
func sameFindingsWithReader(t *testing.T, name string, reader *FindingsReader, src []byte) {
	t.Helper()
	want := AnalyzeHostForFindings(name, src).Findings
	if got := reader.AnalyzeHostForFindings(name, src).Findings; !reflect.DeepEqual(got, want) {
		t.Errorf("%s %.60q: a FindingsReader's findings differ from the file's alone:\n got %v\nwant %v", name, src, got, want)
	}
}

// TestFindingsReaderFilesAlone: the findings of a file analyzed by a
// FindingsReader after others, as a lint worker analyzes file after file,
// are those of the file alone (nothing of one file's code leaks into the
// next's). Checked to fail with the code's binding indices (byName) not
// cleared from file to file.
func TestFindingsReaderFilesAlone(t *testing.T) {
	texts := findingsReaderTexts()
	var reader FindingsReader
	for k := 0; k < 2; k++ {
		for _, src := range texts {
			sameFindingsWithReader(t, "a.cu", &reader, src)
		}
	}
	// Backwards too: each text after another that reads more (or less).
	for i := len(texts) - 1; i >= 0; i-- {
		sameFindingsWithReader(t, "a.cu", &reader, texts[i])
	}
	// Not vacuous: some texts have findings of code.
	n := 0
	for _, src := range texts {
		for _, f := range AnalyzeHostForFindings("a.cu", src).Findings {
			if f.Code == CodeAlgebra || f.Code == CodeStaleComment {
				n++
			}
		}
	}
	if n == 0 {
		t.Error("no text has a finding of code")
	}
}

// FuzzFindingsReader: any text's findings, analyzed by a FindingsReader
// after a file that binds and calls, and again after itself, are its
// findings alone.
func FuzzFindingsReader(f *testing.F) {
	texts := findingsReaderTexts()
	for _, src := range texts {
		f.Add(string(src))
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		var reader FindingsReader
		b := []byte("using namespace cute;\n" + src)
		reader.AnalyzeHostForFindings("a.cu", texts[len(texts)-3])
		sameFindingsWithReader(t, "a.cu", &reader, b)
		sameFindingsWithReader(t, "a.cu", &reader, b)
		sameFindingsWithReader(t, "a.cu", &reader, texts[len(texts)-2])
	})
}
