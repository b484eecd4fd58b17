package analysis

import (
	"path/filepath"
	"strings"
)

// Language is the kind of source a document holds, by file extension.
type Language int

const (
	LangNone   Language = iota // not a file cute-lsp reads
	LangSheet                  // .cute layout sheets
	LangMLIR                   // .mlir: !cute.* types and attributes
	LangCpp                    // .cu .cuh .cpp .hpp .h .cc: descriptors in comments and strings
	LangPython                 // .py: descriptors in comments and strings
)

// LanguageOf is the language of a file name by its extension.
func LanguageOf(filename string) Language {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".cute":
		return LangSheet
	case ".mlir":
		return LangMLIR
	case ".cu", ".cuh", ".cpp", ".hpp", ".h", ".cc", ".cxx", ".hxx":
		return LangCpp
	case ".py", ".pyi":
		return LangPython
	}
	return LangNone
}

// Analyze analyzes a file of any language cute-lsp reads and returns its
// findings; ok is false for a language it does not read.
func Analyze(filename string, src []byte) (findings []Finding, ok bool) {
	switch LanguageOf(filename) {
	case LangSheet:
		return AnalyzeSheet(filename, src).Findings, true
	case LangMLIR, LangCpp, LangPython:
		return AnalyzeHost(filename, src).Findings, true
	}
	return nil, false
}
