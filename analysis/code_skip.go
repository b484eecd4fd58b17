package analysis

import (
	"sync"

	"github.com/cute-lsp/cute-lsp/source"
)

// Lint reads the code of a file only where a finding can come from it:
// most of CuTe's bytes are inline-assembly headers (arch/mma_sm90_gmma*.hpp,
// 7 MB) that name CuTe's namespace but call nothing of its algebra, and
// reading them was half of lint's time.
//
// What can produce a finding of code (code_findings.go, code_comment.go):
//
//   - CodeAlgebra, at a call whose function is one of the table's
//     operations (callError: isAlgebraOp(n.Fun.Name));
//   - CodeStaleComment, at a binding whose value is a Layout or a
//     Composed layout (comparable).
//
// A layout value is made by a call only: integer literals, names of
// integers (_8, kBlockM), Int<N>/C<N>, casts, arithmetic, tuples of
// integers and the tags (LayoutLeft, _) are never layouts, and a name, an
// alias template or a member is a layout only where the value it stands
// for was made by a call first. The calls that make a layout or a value a
// layout is later taken from (a swizzle, a tiler, an atom, a tiled atom,
// a tuple of layouts) are of the names in findingNames: the table's
// operations (which hold the algebra's, the tiled atoms' make_* and
// get_layout*_TV), the names the reader starts code at (source.CodeNames:
// Layout, ComposedLayout, Swizzle, the GMMA atoms, MMA_Atom, TiledMMA,
// ...), the tuple types (tupleTypes) and the other spellings Code.call
// and Code.atomCall evaluate to such values. An MMA op written OP{} is an
// atom of any name, but an atom is a layout, or an operand of the algebra,
// only through a call of the table (get_layoutA_TV, make_tiled_mma, size)
// or a tiled atom's member, whose tiled atom a call of findingNames made.
//
// So every finding needs a Call whose Name is in findingNames, and
// source.MayCall(src, findingNames()) is true wherever the reader can read
// such a call; a file where it is false gets no code finding, and lint
// does not tokenize or read it. TestFindingFilterOverCUTLASS reads every
// C++/Python file of a CUTLASS checkout that the filter refuses with the
// full reader (ReadCode) and checks that it has no finding and no layout;
// FuzzFindingFilter checks on any text that the reader makes no Call of
// findingNames where the filter says no.
//
// Hover and --code-stats read every file that names CuTe (ReadCode,
// ReadCodeForLint): a binding of an integer (constexpr int kBlockM = 64)
// has a value hover shows and an expression the statistics count, with no
// name of findingNames written.
//
// The set is made on first use (a file that may name CuTe), not at init:
// a process that reads no such file (--version, a file of plain C++)
// does not build it.
var findingNames = sync.OnceValue(func() *source.Names {
	var names []string
	for i := range opTable {
		names = append(names, opTable[i].Name)
	}
	names = append(names, source.CodeNames()...)
	for n := range tupleTypes {
		names = append(names, n)
	}
	for n := range atomKinds {
		names = append(names, n)
	}
	names = append(names,
		"Layout", "ComposedLayout", "Swizzle", "smem_ptr_flag_bits", "make_layout_like",
		"make_composed_layout", "make_swizzle", "group_modes", "domain_distribute", "recast_layout",
		"MMA_Atom", "Copy_Atom", "TiledMMA", "MMA_Traits", "Copy_Traits", "UniversalCopy",
		"AutoVectorizingCopyWithAssumedAlignment", "AutoVectorizingCopy", "DefaultCopy", "UniversalFMA",
	)
	return source.NewNames(names...)
})

// ReadCodeForFindings is ReadCodeForLint for findings alone (lint without
// --code-stats): nil, unread, where no finding can come from the code
// (source.MayCall over findingNames; see above).
func ReadCodeForFindings(lang Language, src []byte) *Code {
	if !source.CodeCandidate(src) || !source.MayCall(src, findingNames()) {
		return nil
	}
	return newCode(lang, src, source.ReadCppForLint)
}

// AnalyzeHostForFindings is AnalyzeHostCode(filename, src,
// ReadCodeForFindings(LanguageOf(filename), src)): the host's findings for
// lint without --code-stats. Of a C++ file, MayCall is answered by the
// descriptor scan's pass (callScan, host_calls.go) rather than a pass of
// its own, and the code is read after that pass, where it says a call may
// be written.
func AnalyzeHostForFindings(filename string, src []byte) *Host {
	return analyzeHostForFindings(filename, src, nil)
}

// A FindingsReader analyzes files for lint's findings one after another
// (AnalyzeHostForFindings), the code of each read in the memory of the
// one before (source.LintReader, and the maps of its Code): a Host it
// returns, and all it holds but its Findings, is valid until its next
// analysis. The zero FindingsReader is ready to use; it is not safe for
// concurrent use.
type FindingsReader struct {
	cpp      source.LintReader
	byName   map[string][]int
	memo     map[int]codeResult
	operands asmOperands // the operand lists of the asm statements scanned (callScan)
}

// AnalyzeHostForFindings is AnalyzeHostForFindings(filename, src), its code
// read in r's memory.
func (r *FindingsReader) AnalyzeHostForFindings(filename string, src []byte) *Host {
	return analyzeHostForFindings(filename, src, r)
}

// code is the Code of the C++ src, read by source.ReadCppForLint in r's
// memory.
func (r *FindingsReader) code(src []byte) *Code {
	if r.byName == nil {
		r.byName, r.memo = map[string][]int{}, map[int]codeResult{}
	}
	clear(r.byName)
	clear(r.memo)
	return newCodeIn(LangCpp, src, r.cpp.ReadCppForLint, r.byName, r.memo)
}

// analyzeHostForFindings is AnalyzeHostForFindings, its C++ code read by
// reader where it is set.
func analyzeHostForFindings(filename string, src []byte, reader *FindingsReader) *Host {
	lang := LanguageOf(filename)
	if lang != LangCpp {
		return AnalyzeHostCode(filename, src, ReadCodeForFindings(lang, src))
	}
	h := &Host{Src: src, Language: lang, reader: reader}
	if source.CodeCandidate(src) {
		var operands *asmOperands
		if reader != nil {
			operands = &reader.operands
		}
		h.calls = newCallScan(src, findingNames(), operands)
	} else {
		h.codeOnce.Do(func() {}) // no code: nil
	}
	return h.analyze()
}
