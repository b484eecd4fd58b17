package source

import (
	"slices"
	"sort"
)

// Lint without --code-stats asks for findings alone, and a finding of code
// is made at a call of one of the algebra's operations (FindingCalls, which
// package analysis sets: the calls it evaluates for findings), or at a
// binding a layout comment states (a stale comment). A file where MayCall
// finds no call of FindingCalls holds no call a finding can be made at:
// ReadCppForLint reads nothing of it and says so (File.Partial), and the
// bindings a stale comment needs are read again in full where a comment
// states a layout (rare: no traits header has one). CuTe's largest traits
// headers (mma_traits_sm90_gmma_ext.hpp, 635 KB, 12,000 bindings) call no
// operation of the algebra: MayCall tells so at 3 GB/s, where the read
// took 4 ms. In a file that may call one, the writes of names are looked
// for only when the certainty of a rejected call or a stale comment asks
// (File.Deferred): the algebra rejects few calls (no read of include/cute
// or examples/cute needs them), and looking for them was an eighth of the
// read.

// FindingCalls are the functions at whose calls lint's findings of code
// are made (package analysis sets them, from its operations of the
// algebra, before any read); nil: ReadCppForLint reads every file in full.
var FindingCalls *Names

// LintRunsMinBytes is the size under which ReadCppForLint reads a file
// that may call one of FindingCalls in full (Deferred), without looking
// for runs of statements to leave out (lint_runs.go): below it, finding
// the runs and verifying them (runMarks' pass over every token, the runs,
// the binding candidates, a round or more of verify) cost more than the
// statements left out save. Over CUTLASS's include/cute + examples/cute
// (80 files may call), a lint's instructions with the size at 8, 16, 32,
// 48, 64, 100, 140 and 200 KB: 312.9M, 310.6M, 306.7M, 304.5M, 304.7M,
// 305.9M, 305.8M, 307.9M, against 313.5M with runs looked for in every
// file; the traits headers of thousands of statements and a few calls,
// where the runs pay, are larger (mma_traits_sm100.hpp, 176 KB, reads
// 8,582 of its 33,467 tokens). What lint finds is the same either way.
// Tests that check the runs through ReadCppForLint on small texts set it
// to 0.
var LintRunsMinBytes = 64 << 10

// ReadCppForLint is ReadCpp for lint's findings alone: where src may call
// one of FindingCalls, ReadCppForCounts' read without the Writes
// (Deferred), with runs of statements left out where src is
// LintRunsMinBytes or more; else a File with nothing in it, Partial.
func ReadCppForLint(src []byte) *File { return readForFindings(src, nil) }

// A LintReader reads files for lint's findings one after another
// (ReadCppForLint), each in the memory the one before it was read in: a
// File it returns is valid until its next read. Lint keeps nothing of a
// file's read but its findings, which are strings, so that one reader per
// worker makes the nodes, bindings and tokens of a run once (the largest
// file's worth), where a fresh read of each file made about 9 MB of them
// over include/cute + examples/cute, memory the kernel zeroes page by
// page and the collector then sweeps. The zero LintReader is ready to use;
// it is not safe for concurrent use.
type LintReader struct {
	scratch readScratch
	memory  fileMemory
}

// ReadCppForLint is ReadCppForLint(src) read in r's memory: valid until
// r's next read.
func (r *LintReader) ReadCppForLint(src []byte) *File {
	r.scratch.reuse = &r.memory
	return readForFindings(src, &r.scratch)
}

// readForFindings is ReadCppForLint, read with scratch where it is set
// (else with a pooled one).
func readForFindings(src []byte, scratch *readScratch) *File {
	if FindingCalls == nil {
		return ReadCppForCounts(src)
	}
	if !MayCall(src, FindingCalls) {
		return &File{ForLint: true, Partial: true}
	}
	if scratch == nil {
		scratch = scratchPool.Get().(*readScratch)
		defer scratch.release()
	}
	var f *File
	if len(src) < LintRunsMinBytes {
		scratch.toks = cppTokensFor(src, scratch.toks[:0], nil)
		if !callsIn(src, scratch.toks, FindingCalls) {
			return &File{ForLint: true, Partial: true}
		}
		f = readTokens(src, scratch, scratch.toks, true, nil)
	} else {
		f = readCppRunsIn(scratch, src, FindingCalls)
	}
	f.ForLint = true
	return f
}

// MayCall is a test of bytes: a name of FindingCalls before "(" or "<" in
// a comment, a string, a preprocessor line or an inert asm statement (the
// tokenizer leaves them out), or after a name that ends with one ("max("
// in "std::max(", "fmax("), is one to it. Over CUTLASS's include/cute, 10
// files it lets through have no such call among their tokens
// (arch/mma_sm80.hpp, 72 KB; atom/mma_traits_sm80.hpp; numeric/
// integral_constant.hpp, ...): a read of them makes no Call of
// FindingCalls, so no finding, and lint reads nothing of them (Partial,
// as where MayCall says no) once their tokens say so (callsIn, runMarks'
// read).

// callsIn reports whether a name of calls is a token of toks before a
// "(" or "<": where none is, the reader makes no Call of calls (a call's
// name is the token before its "(" or template arguments' "<"; one before
// "{" is a braced initializer, which the algebra does not evaluate).
func callsIn(src []byte, toks []token, calls *Names) bool {
	for k := 0; k+1 < len(toks); k++ {
		t := &toks[k]
		if t.kind != tIdent {
			continue
		}
		if n := toks[k+1].punct; n != '(' && n != '<' {
			continue
		}
		if calls.Has(src[t.start:t.end]) {
			return true
		}
	}
	return false
}

// Lint asks the reader for findings and counts alone, where an editor asks
// for the value of any name it hovers. CuTe's generated MMA headers are
// made of functions such as
//
//	CUTE_HOST_DEVICE static void
//	fma(uint64_t const& desc_a, uint32_t& d000, ... uint32_t& d127, ...)
//	{ asm volatile(...); }
//
// whose hundred parameters become bindings (51,628 in
// mma_sm90_gmma_ext.hpp) that no expression ever reads: the body holds no
// CuTe code. ReadCppForCounts leaves out the inside of such parameter lists
// before the reader sees it, then checks on what it read that nothing could
// have read a parameter left out, and reads the file again in full when
// something could. What lint reports is the same either way; what hover
// would show on a parameter name is not, so only lint reads this way.
//
// A parameter list is left out, as the tokenizer meets it, when it is
// "name ( ... ) {" (const may come before "{"), where
//   - the tokens from the statement's start (the last ";" or "{"; a "}" is
//     looked past) to the name hold no parenthesis, bracket or "=", no CuTe
//     name, and as many "<" as ">", so that no expression or template clause
//     the reader reads is open there, and the reader's search for the body of
//     an earlier parameter list stops before it (at that ";" or "{");
//   - the inside is balanced parentheses and holds no ";", brace, bracket,
//     CuTe name, nor template, using, namespace, if, constexpr or auto: nothing
//     there starts an expression, a binding outside the function, a template
//     clause, a namespace, a branch or a structured binding, and brackets pair
//     outside as before.
//
// What the parameters' bindings could change is then checked on the File
// read without them (verify): no root and no binding with a value lies
// between the function's name and the end of its body (where the
// parameters are visible: nothing is evaluated there, so nothing looked
// them up, or any other binding visible only there), and no name inside a
// left-out list has a binding visible where it is written (where it could
// have been a write, an assignment or a redeclaration of it). Otherwise the
// file is read in full.

// ReadCppForCounts is ReadCpp for findings and counts (lint
// --code-stats): the same roots, values and findings, without the
// parameters no expression reads.
func ReadCppForCounts(src []byte) *File { return readCppForLint(src, false) }

// readCppForLint is ReadCppForCounts, deferring the Writes when deferred
// (verify does not read them).
func readCppForLint(src []byte, deferred bool) *File {
	d := &paramDrops{}
	f := readCppDeferring(src, d, deferred)
	if len(d.dropped) > 0 && !d.verify(f, src) {
		f = readCppDeferring(src, nil, deferred)
	}
	f.ForLint = true
	return f
}

// paramDrops follows the tokens of a file as they are appended and drops
// the insides of the parameter lists lint may leave out; verify checks
// the read afterwards.
type paramDrops struct {
	src   []byte
	base  int // where this file's tokens start
	state paramState
	decl  int // the offset where the declaration's statement starts (paramsInside, paramsAfter)
	open  int // the "(" index
	close int // the ")" index (paramsAfter)
	in    inertParams
	// depth counts '{' less '}' so far; bodies are the bodies of the
	// candidate functions open now, innermost last.
	depth  int
	bodies []openBody
	// clean counts the bodies still clean: with none, only braces and
	// "(" change anything, and the tokenizer hands over no other token.
	clean int
	// dropped are the functions whose lists were left out, from the
	// declaration's start to the body's end; lists the lists' insides.
	dropped []Range
	lists   []Range
}

type paramState uint8

const (
	paramsNone   paramState = iota
	paramsInside            // inside a candidate list, droppable so far
	paramsAfter             // after its ")", before "{"
)

// openBody is the body of a function whose parameters are left out when
// it closes with nothing in it the reader reads (clean).
type openBody struct {
	depth       int // depth once its "{" counted
	decl        int
	open, close int // its parameter list's "(" and ")" indices
	clean       bool
}

func (d *paramDrops) start(src []byte, base int) { d.src, d.base = src, base }

// asmDropped is told that an asm statement's inside was just dropped from
// toks, leaving n tokens: a list followed into it is given up (none can
// start there: its name would be an asm keyword, or a "(" would come
// before it in its statement).
func (d *paramDrops) asmDropped(n int) {
	if d.state != paramsNone && d.open >= n-3 {
		d.state = paramsNone
	}
}

// step takes the token just appended to toks and returns toks, with the
// inside of a parameter list dropped once its function's body closes
// clean.
func (d *paramDrops) step(toks []token) []token {
	src := d.src
	last := len(toks) - 1
	t := toks[last]
	if d.clean > 0 && d.readable(toks, last) {
		for k := range d.bodies {
			d.bodies[k].clean = false
		}
		d.clean = 0
	}
	if t.punct != 0 {
		switch t.punct {
		case '{':
			d.depth++
		case '}':
			d.depth--
			if n := len(d.bodies); n > 0 && d.depth < d.bodies[n-1].depth {
				b := d.bodies[n-1]
				d.bodies = d.bodies[:n-1]
				if b.clean {
					d.clean--
					toks = d.drop(toks, b, t.end)
				}
			}
		}
	}
	switch d.state {
	case paramsNone:
		d.candidate(toks)
	case paramsInside:
		switch {
		case !d.in.next(src, toks[d.open:], last-d.open):
			d.state = paramsNone
		case d.in.closed:
			d.state, d.close = paramsAfter, last
		}
	case paramsAfter:
		switch {
		case t.kind == tIdent && string(src[t.start:t.end]) == "const":
		case isPunctByte(src, t, '{'):
			d.state = paramsNone
			d.bodies = append(d.bodies, openBody{depth: d.depth, decl: d.decl, open: d.open, close: d.close, clean: true})
			d.clean++
		default:
			d.state = paramsNone
			d.candidate(toks)
		}
	}
	return toks
}

// readable reports whether toks[last], inside a candidate's body, is where
// the reader may read something: a CuTe name, a construct's keyword, "="
// (a binding), or "A b {" / "A b ;" (a declaration with an alias's value).
func (d *paramDrops) readable(toks []token, last int) bool {
	src := d.src
	t := toks[last]
	switch t.kind {
	case tIdent:
		w := src[t.start:t.end]
		return mayBlock(w) && (codeNames[string(w)] || inertBlockers[string(w)] && string(w) != "if" && string(w) != "auto")
	case tPunct:
		switch t.punct {
		case '=':
			return true
		case '{', ';':
			return last-2 >= d.base && toks[last-1].kind == tIdent && toks[last-2].kind == tIdent
		}
	}
	return false
}

// drop leaves out the inside of b's parameter list from toks, whose last
// token closes b's body at offset end.
func (d *paramDrops) drop(toks []token, b openBody, end int) []token {
	d.dropped = append(d.dropped, Range{b.decl, end})
	d.lists = append(d.lists, Range{toks[b.open].end, toks[b.close].start})
	// A list followed now began inside the body: the "}" ends it anyway.
	d.state = paramsNone
	n := copy(toks[b.open+1:], toks[b.close:])
	return toks[:b.open+1+n]
}

// notFunctionNames are the words before "(" that do not name a function.
var notFunctionNames = setOf("if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "alignas",
	"decltype", "noexcept", "static_assert", "constexpr", "requires", "operator", "throw", "defined",
	"asm", "__asm__", "__asm", "volatile", "__volatile__", "__volatile", "inline", "__inline__", "goto")

// maxDeclaratorTokens bounds how far back from a function's name its
// statement's start is looked for.
const maxDeclaratorTokens = 32

// candidate starts following a parameter list when the token just appended
// is a "(" after a function's name, where the statement holds nothing the
// reader reads open (see above).
func (d *paramDrops) candidate(toks []token) {
	src := d.src
	last := len(toks) - 1
	if last-1 < d.base || !isPunctByte(src, toks[last], '(') || toks[last-1].kind != tIdent ||
		notFunctionNames[string(src[toks[last-1].start:toks[last-1].end])] {
		return
	}
	angles := 0
	decl := -1 // the index where the declaration starts: after the last ";", "{" or "}"
	k := last - 1
	for ; ; k-- {
		if k < d.base {
			break
		}
		t := toks[k]
		if last-k > maxDeclaratorTokens {
			return
		}
		if c := t.punct; c != 0 {
			if c == ';' || c == '{' {
				break
			}
			if c == '}' && decl < 0 {
				decl = k + 1
			}
			switch c {
			case '(', ')', '=', '[', ']':
				return
			case '<':
				angles++
			case '>':
				angles--
			}
			continue
		}
		if t.kind == tIdent {
			if w := src[t.start:t.end]; mayBlock(w) && (codeNames[string(w)] || inertBlockers[string(w)] && string(w) != "template") {
				return
			}
		}
	}
	if angles != 0 {
		return
	}
	if decl < 0 {
		decl = k + 1
	}
	d.state, d.decl, d.open, d.in = paramsInside, toks[decl].start, last, inertParams{}
}

// inertParams follows the tokens inside a parameter list, one at a time,
// and tells whether the list may be left out so far.
type inertParams struct {
	depth  int
	closed bool // set by the ")" that closes the list
}

// next reports whether in[j] keeps the list droppable; in[0] is its "(".
func (p *inertParams) next(src []byte, in []token, j int) bool {
	t := in[j]
	switch t.kind {
	case tPunct:
		switch t.punct {
		case '(':
			p.depth++
		case ')':
			if p.depth == 0 {
				p.closed = true
				return true
			}
			p.depth--
		case ';', '{', '}', '[', ']':
			return false
		}
	case tIdent:
		if w := src[t.start:t.end]; mayBlock(w) && (codeNames[string(w)] || inertBlockers[string(w)]) {
			return false
		}
	}
	return true
}

// verify reports whether the read f, made without the dropped lists, is
// what lint would get from the full read (see above).
func (d *paramDrops) verify(f *File, src []byte) bool {
	// The functions' ranges by start, with the greatest end up to each, so
	// that "does [s, e) meet a function" is one search.
	fns := slices.Clone(d.dropped)
	slices.SortFunc(fns, func(a, b Range) int { return a.Start - b.Start })
	maxEnd := make([]int, len(fns))
	for i, r := range fns {
		maxEnd[i] = r.End
		if i > 0 {
			maxEnd[i] = max(maxEnd[i], maxEnd[i-1])
		}
	}
	meets := func(s, e int) bool {
		// The functions starting before e; one of them ends after s?
		k := sort.Search(len(fns), func(i int) bool { return fns[i].Start >= max(e, s+1) })
		return k > 0 && maxEnd[k-1] > s
	}
	for _, r := range f.Roots {
		if s, e := r.Span(); meets(s, e) {
			return false
		}
	}
	byName := make(map[string][]int, len(f.Bindings))
	for i, b := range f.Bindings {
		byName[b.Name] = append(byName[b.Name], i)
		if b.Value == nil {
			continue // a parameter or a declaration without a value: read only through a root
		}
		if meets(b.NameAt.Start, b.NameAt.End) {
			return false
		}
		if s, e := b.Value.Span(); meets(s, e) {
			return false
		}
	}
	// A name written inside a left-out list could have been a write, an
	// assignment or a redeclaration of a binding visible there: one that is
	// visible beyond the declaration could be read elsewhere. Every word of
	// the list is taken for a name (those in comments and literals too).
	var shapes [256]uint32
	for name := range byName {
		if name != "" {
			shapes[name[0]] |= 1 << min(len(name), 31)
		}
	}
	for k, list := range d.lists {
		fn := d.dropped[k]
		for i := list.Start; i < list.End; {
			if !isIdentStart(src[i]) {
				i++
				continue
			}
			j := i + 1
			for j < list.End && isIdentByte(src[j]) {
				j++
			}
			w := src[i:j]
			if shapes[w[0]]&(1<<min(len(w), 31)) != 0 {
				for _, b := range byName[string(w)] {
					v := f.Bindings[b].Visible
					if v.Start <= i && i < v.End && (v.Start < fn.Start || v.End > fn.End) {
						return false
					}
				}
			}
			i = j
		}
	}
	return true
}
