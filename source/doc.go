// Package source reads the layouts users write as code: CuTe C++ (in .cu,
// .cuh, .cpp, .hpp, .h, .cc files) and the CuTe DSL in Python. It turns a
// file into a small AST of the expressions that matter to CuTe (calls,
// template-ids, integer literals, tuples, arithmetic) and the names bound
// to them, with byte ranges; analysis evaluates that AST.
//
// # Why a hand-written reader, not tree-sitter
//
// The reader is a tolerant scanner (comments, string and raw-string
// literals, preprocessor lines, and character literals are skipped exactly)
// followed by a small Pratt parser for CuTe's expression subset, started
// only where a CuTe name or a declaration appears. tree-sitter
// (smacker/go-tree-sitter with the cpp and python grammars) was weighed and
// set aside:
//
//   - Speed: tree-sitter's cpp grammar takes about 6 ms for sgemm_sm80.cu
//     (the design card's measurement): 100 files/s, where lint aims at
//     10,000 files/s. This reader tokenizes and reads the 933 C++/Python
//     files (32 MB) of CUTLASS's include/cute, examples, test/unit/cute
//     and CuTe DSL in well under a second of CPU, evaluation included in
//     about one more (lint --code-stats), and skips files naming nothing
//     of CuTe's before tokenizing (CodeCandidate). Editors read the code
//     of an open file only when it is hovered or hinted.
//   - Set-up: go-tree-sitter needs cgo and a C compiler; `make test` must
//     work on a fresh machine with Go alone.
//   - Half-typed code and macros: CUDA kernels are full of macros
//     (CUTE_HOST_DEVICE, CUTLASS_PRAGMA_UNROLL), attributes and
//     __global__ qualifiers; a full C++ grammar must recover from all of
//     them, while CuTe's templates need name knowledge to read "a < b" as a
//     template argument list anyway (C++ is not context-free there).
//     Reading only from known CuTe names outward, a broken line elsewhere
//     costs nothing, and a broken CuTe expression just yields no node.
//
// Templates: "name<" opens a template argument list only when name is a
// CuTe template (Layout, Shape, Int, get, size, ...) or an alias template
// declared in the same file (template<int N> using X = ...;); anywhere
// else "<" is less-than.
//
// Certainty: a binding's value is the value of its name where the reader
// resolves it, unless the name is bound or changed again where the reader
// does not follow (File.Writes: declarations it does not read as bindings,
// Python assignment targets, mutations), or the code is never compiled
// (File.Disabled: #if 0). Hover lives with the reader's guess; analysis
// reports an error or a stale comment only where neither applies.
//
// Lint: a read for findings alone (ReadCppForLint) reads only what a
// finding can come from: nothing of a file that calls none of the
// algebra's operations (FindingCalls), and of one that does, the
// statements that call them and those that bind what they read (runs of
// other statements left out, verified by names: lint_runs.go). Its File is
// Partial and its Writes Deferred; analysis reads the file again in full
// where a stale comment or a rejected call's certainty needs more.
//
// Everything here is bounded: one pass to tokenize, parsing depth capped at
// MaxDepth, and every node's range lies inside the file.
package source
