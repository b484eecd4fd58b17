package analysis

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateHostCorpus = flag.Bool("update", false, "rewrite the .golden files of testdata/host")

// TestHostCorpus reads the lines CUTLASS taught the host scanner
// (testdata/host) and compares every descriptor and finding with the
// file's .golden.
func TestHostCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "host", "*.*"))
	n := 0
	for _, path := range files {
		if LanguageOf(path) != LangCpp && LanguageOf(path) != LangPython {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h := AnalyzeHost(path, src)
			var b strings.Builder
			for _, d := range descriptorsOf(h) {
				fmt.Fprintln(&b, d)
			}
			for _, f := range h.Findings {
				fmt.Fprintf(&b, "%d:%d %v %s: %s\n", f.Range.Pos.Line, f.Range.Pos.Column, f.Severity, f.Code, f.Message)
			}
			golden := path + ".golden"
			if *updateHostCorpus {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./analysis -run HostCorpus -update writes it)", err)
			}
			if b.String() != string(want) {
				t.Errorf("%s:\ngot:\n%s\nwant:\n%s", path, b.String(), want)
			}
		})
	}
	if n == 0 {
		t.Fatal("no host corpus files in ../testdata/host")
	}
}
