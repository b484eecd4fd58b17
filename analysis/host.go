package analysis

import (
	"iter"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/source"
)

// Host is the analysis of a file that is not a sheet: C++/CUDA and Python
// sources, where descriptors live in comments and string literals
// ("// (_8,_4):(_4,_1)", "(4,8):(1,4)"), and MLIR, where they are the
// payloads of !cute.* types and attributes.
type Host struct {
	Src         []byte
	Language    Language
	Descriptors []*Descriptor
	Findings    []Finding

	code     *Code
	codeOnce sync.Once
	calls    *callScan       // lint's test for calls, answered by the scan (AnalyzeHostForFindings)
	reader   *FindingsReader // where set, what reads the code for calls (FindingsReader)
}

// Code is the CuTe code of a C++/CUDA or Python file (nil when it has
// none), read on first use and evaluated on demand (see code.go); its
// findings (code_findings.go) are the host's too.
func (h *Host) Code() *Code {
	h.codeOnce.Do(func() { h.code = ReadCode(h.Language, h.Src) })
	return h.code
}

// Descriptor is one descriptor found in a host file, with its value.
type Descriptor struct {
	Range grammar.Range
	Node  grammar.Node
	Value layout.Value
	Err   error

	in region // the comment or string literal it was found in (MLIR: none)
}

// region is a stretch of a host file where descriptors may be written: a
// comment's text or a string literal's contents.
type region struct {
	start, end int  // byte offsets in the file
	literal    bool // a string literal (its whole text may be one descriptor)
}

// AnalyzeHost finds and evaluates the descriptors of a host file.
func AnalyzeHost(filename string, src []byte) *Host {
	return (&Host{Src: src, Language: LanguageOf(filename)}).analyze()
}

// analyze finds and evaluates h's descriptors and code findings.
func (h *Host) analyze() *Host {
	defer h.suppress()
	// The scan reads h.Src in place (see hostText): a string copy of the
	// whole file was a tenth of lint's CPU time, in fresh memory's page faults.
	lines := newLineIndexOfBytes(h.Src)
	var regions iter.Seq[region]
	switch h.Language {
	case LangCpp:
		regions = cppRegionSeq(h.Src, true)
		if h.calls != nil {
			regions = cppRegionScan(h.Src, true, h.calls)
		}
	case LangPython:
		regions = slices.Values(pythonRegions(h.Src))
	case LangMLIR:
		h.mlir(h.Src)
		return h
	default:
		return h
	}
	for r := range regions {
		h.scanRegion(h.Src, r, lines)
	}
	if h.calls != nil {
		// Lint's findings alone (AnalyzeHostForFindings): the code is read
		// where a call may be written, which the scan has just answered.
		var code *Code
		switch {
		case !h.calls.mayCall():
		case h.reader != nil:
			code = h.reader.code(h.Src)
		default:
			code = newCode(h.Language, h.Src, source.ReadCppForLint)
		}
		h.codeOnce.Do(func() { h.code = code })
	}
	h.codeFindings()
	return h
}

// suppress drops the findings that the file's suppression comments silence.
func (h *Host) suppress() { h.Findings = Unsuppressed(h.Src, h.Findings) }

// add evaluates a descriptor found in the comment or string in; alone
// says whether it stands alone there (see standsAlone), which decides how
// loud a failure is.
func (h *Host) add(n grammar.Node, alone bool, in region) {
	d := &Descriptor{Range: n.Span(), Node: n, in: in}
	d.Value, d.Err = Eval(n, nil)
	h.Descriptors = append(h.Descriptors, d)
	if d.Err != nil {
		if f, ok := evalFinding(d.Err, d.Range, h.Src, nil); ok {
			h.Findings = append(h.Findings, inProse(f, alone))
		}
	}
}

// addMLIR takes a descriptor of MLIR code, which is never prose.
func (h *Host) addMLIR(n grammar.Node) { h.add(n, true, region{}) }

// scanRegion takes every descriptor of a comment or string: a string whose
// whole contents parse is one descriptor; otherwise each candidate that
// starts like a descriptor and is not plain prose (notProse, bitRange).
// The region is read in place (asString), not copied: lint reuses src for
// the next file, and scanBody copies what it parses. Copies of the regions
// that may hold a descriptor were a megabyte of fresh memory over
// include/cute and examples/cute, each page cleared by the kernel.
func (h *Host) scanRegion(src []byte, r region, lines *lineIndex) {
	if mayHoldDescriptor(src[r.start:r.end], r.literal) {
		h.scanBody(asString(src[r.start:r.end]), r, lines)
	}
}

// scanRegionAll is scanRegion without the test that passes over most
// comments at once.
func (h *Host) scanRegionAll(text string, r region, lines *lineIndex) {
	h.scanBody(text[r.start:r.end], r, lines)
}

// scanBody is scanRegionAll of the region r whose text is body. body may
// be a view of bytes that change once the scan is done (scanRegion): what
// is parsed is a copy (the nodes and errors keep parts of their text), and
// rememberProse copies what it keeps.
func (h *Host) scanBody(body string, r region, lines *lineIndex) {
	if r.literal {
		trimmed := strings.TrimSpace(body)
		lead := strings.Index(body, trimmed)
		if trimmed != "" && looksLikeDescriptor(trimmed) && !startsAsProse(trimmed) && !knownProse(trimmed) {
			n, err := grammar.ParseExprAt(strings.Clone(trimmed), lines.position(r.start+lead))
			if err == nil && notProse(n) {
				h.add(n, true, r)
				return
			}
			if err == nil || !malformedLayout(trimmed) {
				rememberProse(trimmed)
			}
		}
	}
	bits := -1 // whether body speaks of bits, once a bit range asks (-1: not yet known)
	aboutBits := func() bool {
		if bits < 0 {
			bits = 0
			if speaksOfBits(body) {
				bits = 1
			}
		}
		return bits == 1
	}
	for i := 0; i < len(body); {
		start, end, ok := nextCandidate(body, i)
		if !ok {
			return
		}
		cand := body[start:end]
		if !mayBeDescriptor(cand) || knownProse(cand) {
			i = end
			continue
		}
		n, err := grammar.ParseExprAt(strings.Clone(cand), lines.position(r.start+start))
		switch {
		case err == nil && notProse(n):
			if !(bitRange(n) && aboutBits()) {
				h.add(n, standsAlone(body, start, end), r)
			}
		case err != nil && malformedLayout(cand):
			h.Findings = append(h.Findings, inProse(syntaxFinding(err), standsAlone(body, start, end)))
		default:
			rememberProse(cand)
		}
		i = end
	}
}

// proseMemo holds texts that scanBody parsed and found to be prose: they
// parse to nothing notProse keeps, or fail to parse and are no malformed
// layout. Such a text gives nothing wherever it is written (the parse's
// outcome does not depend on its position), and comments repeat them:
// over include/cute and examples/cute, 336 of lint's 865 parses were of
// a text parsed before. Texts up to proseMemoTextBytes are kept; shared by
// the goroutines that scan files (lint's workers, the server's).
var proseMemo textMemo[string, struct{}]

const proseMemoTextBytes = 256

// knownProse reports whether text is in proseMemo.
func knownProse(text string) bool {
	if len(text) > proseMemoTextBytes {
		return false
	}
	_, ok := proseMemo.get(text)
	return ok
}

// rememberProse puts text, which scanBody parsed to nothing, in proseMemo.
func rememberProse(text string) {
	if len(text) <= proseMemoTextBytes {
		proseMemo.put(text, struct{}{})
	}
}

// mayHoldDescriptor reports whether scanRegion can find anything in body,
// exactly as scanBody decides where it parses: every candidate
// nextCandidate gives starts at '(' or '[' (a group, an iterator's print)
// or at a swizzle's name (Sw<...>, Swizzle<...>, SW_..., S<3,4,3>:
// swizzleStart), and a literal is parsed whole only when its trimmed text
// looksLikeDescriptor and does not startAsProse. Nine of ten comments and
// literals of CuTe's GMMA headers hold none of these ("Attempting to use
// SM90::GMMA::... without ...", "// SPARSE GMMA 64x24x64 TN S32+=S8*U8")
// and are passed over without a copy or a candidate search; the bytes
// tested are searched with strings.IndexByte, a few calls a region, on
// the text as a string (asString: the generic helpers are calls that are
// not inlined, through a dictionary).
func mayHoldDescriptor[T hostText](body T, literal bool) bool {
	return mayHoldDescriptorText(asString(body), literal)
}

func mayHoldDescriptorText(body string, literal bool) bool {
	if strings.IndexByte(body, '(') >= 0 || strings.IndexByte(body, '[') >= 0 || swizzleStart(body) {
		return true
	}
	if !literal {
		return false
	}
	trimmed := strings.TrimSpace(body)
	return len(trimmed) > 0 && looksLikeDescriptor(trimmed) && !startsAsProse(trimmed)
}

// swizzleStart reports whether s holds a 'S' where nextCandidate may start
// a swizzle: "Sw<", "Swizzle<", "SW_" or "S<" and a digit (whether a word
// ends before it is not asked: that only says true more often).
func swizzleStart(s string) bool {
	for i := 0; i < len(s); i++ {
		k := strings.IndexByte(s[i:], 'S')
		if k < 0 {
			return false
		}
		i += k
		if strings.HasPrefix(s[i:], "Sw<") || strings.HasPrefix(s[i:], "Swizzle<") || strings.HasPrefix(s[i:], "SW_") ||
			strings.HasPrefix(s[i:], "S<") && i+2 < len(s) && s[i+2] >= '0' && s[i+2] <= '9' {
			return true
		}
	}
	return false
}

// startsAsProse reports whether a literal starts with a word, blanks and a
// word or a number ("Attempting to use SM90::GMMA::... without ...", the
// messages of CuTe's atom headers): the grammar reads a name not followed
// by "(", "<" or "[" as a layout literal's leaf, so the whole literal
// parses, if at all, to a node holding that name, which notProse rejects.
// Words that lex as something else are left to the parse: pycute's
// SW_B_M_S, and the composition's o.
func startsAsProse[T hostText](s T) bool {
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	if len(s) == 0 || !letter(s[0]) || hasPrefixIn(s, "SW") || hasPrefixIn(s, "o") {
		return false
	}
	i := 1
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	return j > i && j < len(s) && (letter(s[j]) || s[j] >= '0' && s[j] <= '9')
}

// mayBeDescriptor reports whether parsing a candidate can give anything:
// what notProse keeps is a layout (a ':' token), a swizzle (a '<' after
// its keyword, or pycute's SW_B_M_S), a composition (the word o, or a
// pointer glued to a swizzle's '>'), an MLIR type ('!'), a TIRx layout or
// a tiler (a layout inside: ':'), a tuple of basis elements ('@' or '/'),
// and a failed parse is reported only for a malformed layout (':'). Three
// of four candidates of include/cute and examples/cute ("(M,N,K)",
// "(i.e. ...)") hold none of these bytes and are not parsed; of those
// that hold an 'o', most hold it inside a word ("(Layout T = Row-Major)",
// "[clear accumulators]"), which the grammar reads as a name (composeWord).
func mayBeDescriptor(cand string) bool {
	return strings.ContainsAny(cand, ":@/<!") || strings.Contains(cand, "SW") || composeWord(cand)
}

// composeWord reports whether s may hold the composition's word o as the
// grammar reads it: an 'o' that no word byte follows (the grammar's words
// take every letter, digit and '_' after their first byte, so an 'o'
// followed by one is inside a word; an 'o' after one may still start a
// token of its own, as in "_8o", and counts).
func composeWord(s string) bool {
	for i := 0; i < len(s); i++ {
		k := strings.IndexByte(s[i:], 'o')
		if k < 0 {
			return false
		}
		i += k
		if i+1 == len(s) || !isIdentByte(s[i+1]) {
			return true
		}
	}
	return false
}

// candidateStops are the bytes where nextCandidate has something to decide:
// a bracket (a group's start, or the '[' or '(' right after an iterator's
// word: gmem_ptr[16b](A), ArithTuple(_0,0)) and the S of a swizzle. Every
// other byte is passed over with one table look-up.
var candidateStops = [256]bool{'(': true, '[': true, 'S': true}

// The candidate stops, eight times over (nextCandidate's word arithmetic;
// parens is host_calls.go's).
const (
	brackets  = '[' * bytesOnes
	swizzleSs = 'S' * bytesOnes
)

// nextCandidate finds the next stretch of body from i that starts like a
// descriptor: a bracket group (with its ":stride" part), a swizzle with its
// composed stages, a tiler, a tensor's print (an iterator such as
// gmem_ptr[16b](A) or ArithTuple(_0,0) and its " o " stages). A bracket
// right after a word or a closing bracket is a call, an index or a slice
// (f(x), vec[i], arr(i)[0:4]), never a descriptor.
//
// It jumps from stop to stop (candidateStops): an iterator's word is
// looked at only where a bracket follows it, the one place iteratorEnd
// can accept it, from the word's start (TestCandidatesParsedAsBefore and
// FuzzCandidatesParsedAsBefore check its candidates, asked from every
// offset, against nextCandidateReference, which tries every word).
func nextCandidate(body string, i int) (start, end int, ok bool) {
	from := i
	for i < len(body) {
		// Eight bytes at a time to the next stop (zeroBytes marks the
		// lowest exactly), then byte by byte for the tail.
		for i+8 <= len(body) {
			x := load64(body, i)
			if m := zeroBytes(x^parens) | zeroBytes(x^brackets) | zeroBytes(x^swizzleSs); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(body) && !candidateStops[body[i]] {
			i++
		}
		if i >= len(body) {
			break
		}
		c := body[i]
		if i > 0 && isIdentByte(body[i-1]) {
			// Inside a word (f(x), vec[i]), or the bracket after an
			// iterator's word, which starts a candidate at the word.
			if c == 'S' {
				i++
				continue
			}
			w := i
			for w > from && isIdentByte(body[w-1]) {
				w--
			}
			if w == i || w > 0 && isIdentByte(body[w-1]) {
				i++
				continue // a word that starts before from is not tried
			}
			p, ok := iteratorEnd(body, w)
			if !ok {
				i++
				continue
			}
			if end := extendComposed(body, p); end > p {
				return w, end, true
			}
			// An iterator without " o " after it is not a descriptor.
			i = p
			continue
		}
		switch {
		case c == '[' && i > 0 && (body[i-1] == ')' || body[i-1] == ']'):
			i++
			continue // a subscript: arr((i, j))[0:4]
		case c == '(' || c == '[':
			end := groupEnd(body, i)
			end = extendLayout(body, end)
			end = extendComposed(body, end)
			return i, end, true
		case strings.HasPrefix(body[i:], "Sw<") || strings.HasPrefix(body[i:], "Swizzle<") || strings.HasPrefix(body[i:], "SW_") ||
			strings.HasPrefix(body[i:], "S<") && i+2 < len(body) && body[i+2] >= '0' && body[i+2] <= '9': // the DSL's S<3,4,3>
			end := len(body)
			if k := strings.IndexAny(body[i:], " \t\n,;"); k >= 0 {
				end = i + k
			}
			if gt := strings.IndexByte(body[i:], '>'); gt >= 0 && !strings.HasPrefix(body[i:], "SW_") {
				end = i + gt + 1
				if strings.HasPrefix(body[end:], "{}") {
					end += 2
				} else if p, ok := iteratorEnd(body, end); ok && body[end] == '_' {
					end = p // a swizzled pointer: Sw<3,4,3>_smem_ptr[16b](A)
				}
			}
			return i, extendComposed(body, end), true
		}
		// An S that starts no swizzle starts a word, which an iterator
		// is only where a bracket follows it: that bracket's stop.
		i++
	}
	return 0, 0, false
}

// maxIteratorArg bounds the parenthesised part of an iterator's print.
const maxIteratorArg = 256

// iteratorEnd is the end of the iterator CuTe prints at i, a word followed
// by "[16b](...)" (gmem_ptr[16b](A), tmem_[32b](0x0000.0000)), or
// ArithTuple(...) or counting_iter(...).
func iteratorEnd(body string, i int) (int, bool) {
	j := i
	for j < len(body) && isIdentByte(body[j]) {
		j++
	}
	if j == i || j == len(body) {
		return 0, false
	}
	switch word := body[i:j]; {
	case word == "ArithTuple" || word == "counting_iter":
		if body[j] != '(' {
			return 0, false
		}
	case body[j] == '[':
		k := j + 1
		for k < len(body) && body[k] >= '0' && body[k] <= '9' {
			k++
		}
		if k == j+1 || !strings.HasPrefix(body[k:], "b](") {
			return 0, false
		}
		j = k + len("b]")
	default:
		return 0, false
	}
	// CuTe prints an iterator's address or origin in a few dozen bytes:
	// looking further for its ')' would make a line of unclosed
	// "ArithTuple(" quadratic.
	end := groupEnd(body[:min(len(body), j+maxIteratorArg)], j)
	if end == len(body) || body[end] == '\n' || end == j+maxIteratorArg {
		// groupEnd stops at the line's end when the group stays open.
		depth := 0
		for _, c := range body[j:end] {
			switch c {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			}
		}
		if depth != 0 {
			return 0, false
		}
	}
	return end, true
}

// groupEnd is the end of the bracket group opening at i (or of the line,
// when it does not close there).
func groupEnd(body string, i int) int {
	depth := 0
	for j := i; j < len(body); j++ {
		switch body[j] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		case '\n':
			return j
		}
	}
	return len(body)
}

// extendLayout takes ":stride" after a shape.
func extendLayout(body string, end int) int {
	j := skipSpaces(body, end)
	if j >= len(body) || body[j] != ':' {
		return end
	}
	colon := j
	j = skipSpaces(body, j+1)
	if j < len(body) && body[j] == '(' {
		return groupEnd(body, j)
	}
	if j > colon+1 {
		return end // a colon of prose: "(192, 1, 1): 6 warps"; a stride that is no tuple hugs its ':'
	}
	k := j
	for k < len(body) && (isIdentByte(body[k]) || body[k] == '-' || body[k] == '@' || body[k] == '?') {
		k++
	}
	if k == j {
		return end
	}
	return k
}

// extendComposed takes " o stage" continuations of a composed layout.
func extendComposed(body string, end int) int {
	for {
		j := skipSpaces(body, end)
		if !strings.HasPrefix(body[j:], "o ") && !strings.HasPrefix(body[j:], "o\t") {
			return end
		}
		k := skipSpaces(body, j+1)
		if k >= len(body) {
			return end
		}
		var next int
		switch {
		case body[k] == '(' || body[k] == '[':
			next = extendLayout(body, groupEnd(body, k))
		default:
			next = k
			for next < len(body) && !strings.ContainsRune(" \t\n,;", rune(body[next])) {
				if body[next] == '(' || body[next] == '[' {
					next = groupEnd(body, next)
					continue
				}
				next++
			}
			next = extendLayout(body, next)
		}
		if next == k {
			return end
		}
		end = next
	}
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// isIdentByte reports whether c may be part of a word: a letter, a digit
// or '_'. It is a table look-up: the scans ask it of most bytes they pass
// (a word's, an asm operand's name), where the four range tests cost
// several times as much.
func isIdentByte(c byte) bool { return identBytes[c] }

var identBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return t
}()

// notProse reports whether a parsed candidate is a descriptor rather than
// ordinary bracketed text: a layout, a basis descriptor, a swizzle, a
// composed layout, a tiler, an MLIR type. A plain tuple "(1, 2)" or a lone
// word is prose.
func notProse(n grammar.Node) bool {
	words := false
	grammar.Inspect(n, func(c grammar.Node) bool {
		switch c.(type) {
		case *grammar.Name, *grammar.Call:
			words = true
		}
		return !words
	})
	if words {
		return false // "(a, b): c" is a sentence, not a layout of names
	}
	switch n := n.(type) {
	case *grammar.Layout, *grammar.Swizzle, *grammar.Composed, *grammar.MLIRType, *grammar.TirxLayout:
		return true
	case *grammar.Tiler:
		for _, m := range n.Modes {
			if l, ok := m.(*grammar.Layout); ok && !rangeFromZero(l) {
				return true
			}
		}
	case *grammar.Tuple:
		hasBasis := false
		grammar.Inspect(n, func(c grammar.Node) bool {
			if _, ok := c.(*grammar.Basis); ok {
				hasBasis = true
			}
			return !hasBasis
		})
		return hasBasis
	}
	return false
}

// looksLikeDescriptor is the cheap test before parsing a whole string literal.
func looksLikeDescriptor[T hostText](s T) bool {
	return containsAnyIn(s, ":@<[") || hasPrefixIn(s, "SW_")
}

// malformedLayout reports whether text that failed to parse is a layout
// with a mistake rather than prose: a bracketed shape and a ':' and nothing
// but the characters layouts are written with.
func malformedLayout(s string) bool {
	if !strings.HasPrefix(s, "(") || !strings.Contains(s, ":") {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789_(),: -@?", c) {
			return false
		}
	}
	return true
}

// mlir takes the payload of every !cute.* type and #cute.* attribute
// outside comments, in source order.
func (h *Host) mlir(text []byte) {
	types, errs := grammar.FindMLIRTypes(text)
	for len(types) > 0 || len(errs) > 0 {
		if len(errs) == 0 || len(types) > 0 && types[0].Pos.Offset < errs[0].Range.Pos.Offset {
			if !inLineComment(text, int(types[0].Pos.Offset)) {
				h.addMLIR(types[0])
			}
			types = types[1:]
			continue
		}
		if !inLineComment(text, int(errs[0].Range.Pos.Offset)) {
			h.Findings = append(h.Findings, syntaxFinding(errs[0]))
		}
		errs = errs[1:]
	}
}

func inLineComment[T hostText](text T, at int) bool {
	lineStart := lastIndexByteIn(text[:at], '\n') + 1
	return indexIn(text[lineStart:at], "//") >= 0
}

// cppRegions splits C++/CUDA source into comments and string literals.
func cppRegions[T hostText](s T) []region { return slices.Collect(cppRegionSeq(s, false)) }

// cppRegionSeq yields the comments and string literals of C++/CUDA source
// in order. With skipAsm, the string literals of an asm statement
// (asm volatile("mma.sync ... [%4];" : "=r"(d) : "r"(a))) are passed
// over: they are PTX and its operand constraints, where no descriptor is
// written, and they are most of the literals of CuTe's atom headers
// (183,000 of them over include/cute and examples/cute, each a candidate
// search). A statement whose closing parenthesis is not found, or that
// holds a comment or a raw string, is scanned as before.
//
// Between regions the scan jumps (regionStarts): only '/', a quote, an
// apostrophe, R" and, with skipAsm, the words asm, __asm and __asm__
// start something, and each is found with strings.IndexByte or
// strings.Index, not byte by byte.
func cppRegionSeq[T hostText](s T, skipAsm bool) iter.Seq[region] {
	return cppRegionScan(s, skipAsm, nil)
}

// cppRegionScan is cppRegionSeq that, with calls (nil: not asked) and
// skipAsm, tests the openers of the asm statements it passes over for
// calls (see callScan; calls.src is s).
func cppRegionScan[T hostText](s T, skipAsm bool, calls *callScan) iter.Seq[region] {
	return cppRegionScanText(asString(s), skipAsm, calls)
}

// cppRegionScanText is cppRegionScan of s read as a string (asString):
// the helpers it calls are then the strings functions, inlined, where the
// generic ones are calls through a dictionary.
func cppRegionScanText(s string, skipAsm bool, calls *callScan) iter.Seq[region] {
	return func(yield func(region) bool) {
		starts := newRegionStarts(s, skipAsm)
		for i := 0; i < len(s); {
			i = starts.next(i)
			if i >= len(s) {
				return
			}
			switch {
			case strings.HasPrefix(s[i:], "//"):
				end := strings.IndexByte(s[i:], '\n')
				if end < 0 {
					end = len(s) - i
				}
				if !yield(region{start: i + 2, end: i + end}) {
					return
				}
				i += end
			case strings.HasPrefix(s[i:], "/*"):
				end := strings.Index(s[i+2:], "*/")
				if end < 0 {
					yield(region{start: i + 2, end: len(s)})
					return
				}
				if !yield(region{start: i + 2, end: i + 2 + end}) {
					return
				}
				i += 2 + end + 2
			case s[i] == 'R' && strings.HasPrefix(s[i+1:], "\"") && (i == 0 || !isIdentByte(s[i-1])):
				// R"delim( ... )delim"
				open := strings.IndexByte(s[i+2:], '(')
				if open < 0 {
					i++
					continue
				}
				delim := string(s[i+2 : i+2+open])
				bodyStart := i + 2 + open + 1
				end := strings.Index(s[bodyStart:], ")"+delim+"\"")
				if end < 0 {
					return
				}
				if !yield(region{start: bodyStart, end: bodyStart + end, literal: true}) {
					return
				}
				i = bodyStart + end + len(delim) + 2
			case s[i] == '"':
				end := quotedEnd(s, i+1, '"')
				if !yield(region{start: i + 1, end: end, literal: true}) {
					return
				}
				i = end + 1
			case s[i] == '\'':
				i = quotedEnd(s, i+1, '\'') + 1
			case skipAsm && (s[i] == 'a' || s[i] == '_') && (i == 0 || !isIdentByte(s[i-1])):
				var end int
				var ok bool
				if calls != nil {
					end, ok = calls.asmStatement(i)
				} else {
					end, ok = asmStatementEnd(s, i)
				}
				if ok {
					i = end
					continue
				}
				i++
			default:
				i++ // a '/' of a division
			}
		}
	}
}

// regionStarts finds the next offset where cppRegionSeq's cases may match:
// the nearest of the next '/', '"' (or the R of R"), '\” and, with
// skipAsm, asm word. Each kind's next offset is kept until the scan passes
// it, so every byte is searched at most once per kind. With skipAsm the
// next asm word is found first, and the three bytes are searched up to it
// only (byteStop): the scan passes over the statement, whose bytes (40%
// of CuTe's GMMA headers) the searches for '/' and '\” read to their
// next occurrence beyond it before.
type regionStarts struct {
	s                  string // the text (asString: its searches are strings.IndexByte, inlined)
	slash, quote, apos byteStop
	asm                int // next start of an asm word (len(s): none; -1: not yet searched)
	skipAsm            bool
}

func newRegionStarts[T hostText](s T, skipAsm bool) *regionStarts {
	none := byteStop{at: -1}
	return &regionStarts{s: asString(s), slash: none, quote: none, apos: none, asm: -1, skipAsm: skipAsm}
}

// byteStop is what regionStarts knows of the next offsets of one byte:
// at holds it (-1: none found yet), and none is where the last search,
// which found none, ended (the byte is not in the stretch it searched).
type byteStop struct{ at, none int }

// before is the first offset from i holding c if it lies before lim, lim
// otherwise (or an offset from lim holding c, found before); it searches
// only the bytes before lim not searched before.
func (b *byteStop) before(s string, i, lim int, c byte) int {
	if b.at >= i {
		return b.at // most calls: a function small enough to be inlined
	}
	return b.search(s, i, lim, c)
}

// search is before where the offset kept lies before i.
func (b *byteStop) search(s string, i, lim int, c byte) int {
	from := max(i, b.none)
	if from >= lim {
		return lim
	}
	if k := strings.IndexByte(s[from:lim], c); k >= 0 {
		b.at = from + k
		return b.at
	}
	b.none = lim
	return lim
}

// nextByteAt is the first offset from i holding c (len(s) if none),
// searched again only when the one kept in *at lies before i.
func nextByteAt(s string, i int, c byte, at *int) int {
	if *at < i {
		if k := strings.IndexByte(s[i:], c); k >= 0 {
			*at = i + k
		} else {
			*at = len(s)
		}
	}
	return *at
}

// next is the first offset from i where a comment, a literal or (with
// skipAsm) an asm statement may start; len(s) if none.
func (r *regionStarts) next(i int) int {
	s := r.s
	lim := len(s)
	if r.skipAsm {
		lim = r.nextAsm(i)
	}
	n := min(r.slash.before(s, i, lim, '/'), r.apos.before(s, i, lim, '\''))
	q := r.quote.before(s, i, lim, '"')
	if q-1 >= i && q < lim && s[q-1] == 'R' && (q-1 == 0 || !isIdentByte(s[q-2])) {
		q-- // R"delim(...)delim"
	}
	return min(n, q, lim)
}

// nextAsm is the first offset from i where a word asm, __asm or __asm__
// starts (len(s) if none): the offsets where cppRegionSeq tries
// asmStatementEnd. It jumps from 'm' to 'm' (strings.IndexByte), the
// rarest of the three letters in source text (in CuTe's GMMA headers one
// byte in 240, against one in 60 for 'a', where strings.Index("asm")
// stops: a quarter of the scan's time).
func (r *regionStarts) nextAsm(i int) int {
	if r.asm >= i {
		return r.asm // most calls: a function small enough to be inlined
	}
	return r.searchAsm(i)
}

// searchAsm is nextAsm where the word kept lies before i.
func (r *regionStarts) searchAsm(i int) int {
	s := r.s
	for j := i + 2; ; {
		k := -1
		if j < len(s) {
			k = strings.IndexByte(s[j:], 'm')
		}
		if k < 0 {
			r.asm = len(s)
			return r.asm
		}
		p := j + k - 2 // where "asm" would start
		j = p + 5      // the next "asm" ends 3 bytes past this 'm' or later: its 'a' and 's' are not this 'm'
		if s[p] != 'a' || s[p+1] != 's' {
			continue
		}
		word := p
		if p >= 2 && s[p-2] == '_' && s[p-1] == '_' {
			word = p - 2
		}
		if word >= i && (word == 0 || !isIdentByte(s[word-1])) {
			r.asm = word
			return word
		}
	}
}

// asmStatementEnd is the offset after the closing parenthesis of the asm
// statement whose keyword (asm, __asm, __asm__) starts at i, with its
// qualifiers (volatile, __volatile__, inline, goto); ok is false when i
// starts no asm statement, when its parentheses do not close, or when a
// comment or a raw string is inside (those are scanned as before).
func asmStatementEnd[T hostText](s T, i int) (end int, ok bool) {
	j, ok := asmOpenParen(s, i)
	if !ok {
		return 0, false
	}
	return asmParensEnd(s, j)
}

// asmOpenParen is the offset of the '(' of the asm statement whose keyword
// starts at i, past its qualifiers; ok is false when i starts none.
func asmOpenParen[T hostText](s T, i int) (open int, ok bool) {
	word := func(j int) int {
		k := j
		for k < len(s) && isIdentByte(s[k]) {
			k++
		}
		return k
	}
	j := word(i)
	switch string(s[i:j]) {
	case "asm", "__asm", "__asm__":
	default:
		return 0, false
	}
	for {
		j = skipBlanks(s, j)
		k := word(j)
		switch string(s[j:k]) {
		case "volatile", "__volatile__", "__volatile", "inline", "__inline__", "goto":
			j = k
			continue
		}
		break
	}
	if j >= len(s) || s[j] != '(' {
		return 0, false
	}
	return j, true
}

// asmStops are the bytes asmParensEnd stops at outside literals; every
// other byte of an asm statement is passed over with one table look-up.
var asmStops = [256]bool{'(': true, ')': true, '"': true, '\'': true, '/': true}

// asmParensEnd is the offset after the parenthesis that closes the one
// opening at j, outside literals (asmStatementEnd's walk); ok is false
// when it does not close, or when a comment, a raw string or an
// unterminated literal comes first. CuTe's GMMA headers are 40% asm
// statements, one literal or parenthesis every 7 bytes ("+r"(d000),):
// the walk looks at each byte once, through asmStops outside literals and
// eight at a time inside them (quotedEnd), with no call between stops.
func asmParensEnd[T hostText](s T, j int) (end int, ok bool) {
	depth := 0
	for j < len(s) {
		c := s[j]
		if !asmStops[c] {
			j++
			continue
		}
		switch c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j + 1, true
			}
		case '"', '\'':
			if c == '"' && j > 0 && s[j-1] == 'R' {
				return 0, false // a raw string: its end is not a quote's
			}
			j = quotedEnd(s, j+1, c)
			if j >= len(s) || s[j] != c {
				return 0, false // unterminated
			}
		case '/':
			if j+1 < len(s) && (s[j+1] == '/' || s[j+1] == '*') {
				return 0, false
			}
		}
		j++
	}
	return 0, false
}

// skipBlanks is the offset of the first byte from i that is not a space,
// a tab or a line break.
func skipBlanks[T hostText](s T, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// quotedEnd is the offset of the closing quote of a literal starting at i
// (backslash escapes; an unterminated literal ends at the line's end, or
// at the text's). It reads eight bytes at a time and finds the first of
// the quote, a backslash or a line end among them with word arithmetic
// (firstOf): most literals are a few bytes ("+r") or a line of PTX, where a
// call of strings.IndexByte for each of the three costs more than the
// bytes it passes over.
func quotedEnd[T hostText](s T, i int, quote byte) int {
	q := uint64(quote) * bytesOnes
	for {
		for i+8 <= len(s) {
			x := load64(s, i)
			if m := zeroBytes(x^q) | zeroBytes(x^backslashes) | zeroBytes(x^newlines); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(s) && s[i] != quote && s[i] != '\\' && s[i] != '\n' {
			i++
		}
		if i >= len(s) {
			return len(s)
		}
		if s[i] != '\\' {
			return i
		}
		i += 2 // the escaped byte, whatever it is
		if i >= len(s) {
			return len(s)
		}
	}
}

// Word arithmetic on eight bytes at a time (quotedEnd).
const (
	bytesOnes   = 0x0101010101010101
	bytesHigh   = 0x8080808080808080
	backslashes = '\\' * bytesOnes
	newlines    = '\n' * bytesOnes
)

// zeroBytes has the high bit of each byte of its result set where x has a
// zero byte, exactly for the lowest one (a borrow may mark bytes above it,
// so only the lowest mark is exact, and of several such results OR'ed
// together, the lowest mark still is).
func zeroBytes(x uint64) uint64 { return (x - bytesOnes) &^ x & bytesHigh }

// load64 is the eight bytes of s from i, the first the lowest (one load:
// the compiler merges the byte loads).
func load64[T hostText](s T, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// pythonRegions splits Python source into comments and string literals,
// jumping from one '#', quote or apostrophe to the next (nextByteAt): only
// those start one.
func pythonRegions[T hostText](s T) []region {
	var out []region
	hash, quote, apos := -1, -1, -1
	text := asString(s)
	for i := 0; i < len(s); {
		i = min(nextByteAt(text, i, '#', &hash), nextByteAt(text, i, '"', &quote), nextByteAt(text, i, '\'', &apos))
		if i >= len(s) {
			break
		}
		switch c := s[i]; {
		case c == '#':
			end := indexByteIn(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			out = append(out, region{start: i + 1, end: i + end})
			i += end
		default: // a quote or an apostrophe
			triple := tripleQuote(c)
			if hasPrefixIn(s[i:], triple) {
				end := indexIn(s[i+3:], triple)
				if end < 0 {
					out = append(out, region{start: i + 3, end: len(s), literal: true})
					return out
				}
				out = append(out, region{start: i + 3, end: i + 3 + end, literal: true})
				i += 3 + end + 3
				continue
			}
			end := quotedEnd(s, i+1, c)
			out = append(out, region{start: i + 1, end: end, literal: true})
			i = end + 1
		}
	}
	return out
}

// lineIndex converts byte offsets to positions (rune columns). It keeps the
// last position it gave: the scanner asks in increasing order, and counting
// the runes of a long line from its start for every candidate on it would
// be quadratic. Asked in increasing order it counts the line ends between
// one offset and the next (strings.Count); the offsets of every line's
// start are found only when an offset before the last one is asked.
type lineIndex struct {
	text   string
	src    []byte // the text as bytes, where it was given so (newLineIndexOfBytes)
	starts []int  // nil until an offset before last is asked
	last   grammar.Position
}

func newLineIndex(text string) *lineIndex {
	return &lineIndex{text: text, last: grammar.Position{Line: 1, Column: 1}}
}

// newLineIndexOfBytes is newLineIndex of src read in place.
func newLineIndexOfBytes(src []byte) *lineIndex {
	return &lineIndex{src: src, last: grammar.Position{Line: 1, Column: 1}}
}

func (l *lineIndex) position(offset int) grammar.Position {
	if l.src != nil {
		return positionIn(l, l.src, offset)
	}
	return positionIn(l, l.text, offset)
}

// positionIn is l.position, text being l's text or bytes.
func positionIn[T hostText](l *lineIndex, text T, offset int) grammar.Position {
	if l.starts == nil && offset >= int(l.last.Offset) {
		from, line, col := int(l.last.Offset), int(l.last.Line), int(l.last.Column)
		between := text[from:offset]
		if n := countNewlinesIn(between); n > 0 {
			line += n
			from, col = from+lastIndexByteIn(between, '\n')+1, 1
		}
		l.last = grammar.Position{Offset: int32(offset), Line: int32(line), Column: int32(col + runeCountIn(text[from:offset]))}
		return l.last
	}
	if l.starts == nil {
		l.starts = lineStartOffsets(text)
	}
	lo, hi := 0, len(l.starts)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if l.starts[mid] <= offset {
			lo = mid
		} else {
			hi = mid
		}
	}
	from, col := l.starts[lo], 1
	if int(l.last.Line) == lo+1 && int(l.last.Offset) <= offset {
		from, col = int(l.last.Offset), int(l.last.Column)
	}
	l.last = grammar.Position{Offset: int32(offset), Line: int32(lo + 1), Column: int32(col + runeCountIn(text[from:offset]))}
	return l.last
}

// lineStartOffsets are the offsets where text's lines start.
func lineStartOffsets[T hostText](text T) []int {
	starts := make([]int, 1, countNewlinesIn(text)+1)
	for i := 0; ; {
		j := indexByteIn(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return starts
}
