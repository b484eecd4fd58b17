package analysis

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// sameValuesForLint fails t when lint's reading of src (ReadCodeForLint)
// gives any value, count or finding other than the full reading's: the
// value of every root and of every bound name, Values, and the findings.
func sameValuesForLint(t *testing.T, name string, src []byte) {
	t.Helper()
	full, lint := ReadCode(LangCpp, src), ReadCodeForLint(LangCpp, src)
	if (full == nil) != (lint == nil) {
		t.Fatalf("%s: one reading found code, the other none", name)
	}
	if full == nil {
		return
	}
	if fc, lc := full.Counts(), lint.Counts(); fc != lc {
		t.Errorf("%s: Counts = %+v for lint, %+v in full", name, lc, fc)
	}
	var offsets []int
	for _, r := range full.File.Roots {
		s, _ := r.Span()
		offsets = append(offsets, s)
	}
	for _, b := range full.File.Bindings {
		if b.Value != nil {
			offsets = append(offsets, b.NameAt.Start)
		}
	}
	for _, off := range offsets {
		fv, fok := full.At(off)
		lv, lok := lint.At(off)
		if fok != lok || fok && (fv.Printed != lv.Printed || fv.Start != lv.Start || fv.End != lv.End || fv.Name != lv.Name) {
			t.Errorf("%s: at %d lint reads %q (%v), the full read %q (%v)", name, off, lv.Printed, lok, fv.Printed, fok)
			return
		}
	}
	path := name + ".cu"
	if f, l := AnalyzeHostCode(path, src, ReadCode(LangCpp, src)).Findings, AnalyzeHostCode(path, src, ReadCodeForLint(LangCpp, src)).Findings; !reflect.DeepEqual(f, l) {
		t.Errorf("%s: lint's findings differ from the full read's:\n got %v\nwant %v", name, l, f)
	}
}

// TestLintReadingKeepsValues: on the reader's fixture of skipped code and
// on every C++ file of CUTLASS's include/cute, examples and test/unit/cute
// (CUTLASS, default /work/cutlass, when present), lint's reading gives the
// values, counts and findings of the full one.
func TestLintReadingKeepsValues(t *testing.T) {
	src, err := os.ReadFile("../source/testdata/skip.cu")
	if err != nil {
		t.Fatal(err)
	}
	sameValuesForLint(t, "skip", src)
	root := os.Getenv("CUTLASS")
	if root == "" {
		root = "/work/cutlass"
	}
	for _, dir := range []string{"include/cute", "examples", "test/unit/cute"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || LanguageOf(p) != LangCpp {
				return nil
			}
			if src, err := os.ReadFile(p); err == nil {
				sameValuesForLint(t, p, src)
			}
			return nil
		})
	}
}
