package analysis

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
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
}

// Code is the CuTe code of a C++/CUDA or Python file (nil when it has
// none), read on first use and evaluated on demand (see code.go): it
// yields no findings, so linting does not read it.
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
}

// region is a stretch of a host file where descriptors may be written: a
// comment's text or a string literal's contents.
type region struct {
	start, end int  // byte offsets in the file
	literal    bool // a string literal (its whole text may be one descriptor)
}

// AnalyzeHost finds and evaluates the descriptors of a host file.
func AnalyzeHost(filename string, src []byte) *Host {
	h := &Host{Src: src, Language: LanguageOf(filename)}
	text := string(src)
	lines := newLineIndex(text)
	var regions []region
	switch h.Language {
	case LangCpp:
		regions = cppRegions(text)
	case LangPython:
		regions = pythonRegions(text)
	case LangMLIR:
		h.mlir(text)
		return h
	default:
		return h
	}
	for _, r := range regions {
		h.scanRegion(text, r, lines)
	}
	return h
}

func (h *Host) add(n grammar.Node) {
	d := &Descriptor{Range: n.Span(), Node: n}
	d.Value, d.Err = Eval(n, nil)
	h.Descriptors = append(h.Descriptors, d)
	if d.Err != nil {
		if f, ok := evalFinding(d.Err, d.Range, h.Src, nil); ok {
			h.Findings = append(h.Findings, f)
		}
	}
}

// scanRegion takes every descriptor of a comment or string: a string whose
// whole contents parse is one descriptor; otherwise each candidate that
// starts like a descriptor and is not plain prose.
func (h *Host) scanRegion(text string, r region, lines lineIndex) {
	body := text[r.start:r.end]
	if r.literal {
		trimmed := strings.TrimSpace(body)
		lead := strings.Index(body, trimmed)
		if trimmed != "" && looksLikeDescriptor(trimmed) {
			if n, err := grammar.ParseExprAt(trimmed, lines.position(r.start+lead)); err == nil && notProse(n) {
				h.add(n)
				return
			}
		}
	}
	for i := 0; i < len(body); {
		start, end, ok := nextCandidate(body, i)
		if !ok {
			return
		}
		cand := body[start:end]
		n, err := grammar.ParseExprAt(cand, lines.position(r.start+start))
		switch {
		case err == nil && notProse(n):
			h.add(n)
		case err != nil && malformedLayout(cand):
			h.Findings = append(h.Findings, syntaxFinding(err))
		}
		i = end
	}
}

// nextCandidate finds the next stretch of body from i that starts like a
// descriptor: a bracket group (with its ":stride" part), a swizzle with its
// composed stages, a tiler.
func nextCandidate(body string, i int) (start, end int, ok bool) {
	for ; i < len(body); i++ {
		c := body[i]
		if i > 0 && isIdentByte(body[i-1]) {
			continue // inside a word: f(x), vec[i]
		}
		switch {
		case c == '(' || c == '[':
			end := groupEnd(body, i)
			end = extendLayout(body, end)
			end = extendComposed(body, end)
			return i, end, true
		case strings.HasPrefix(body[i:], "Sw<") || strings.HasPrefix(body[i:], "Swizzle<") || strings.HasPrefix(body[i:], "SW_"):
			end := i + strings.IndexAny(body[i:]+" ", " \t\n,;")
			if gt := strings.IndexByte(body[i:], '>'); gt >= 0 && !strings.HasPrefix(body[i:], "SW_") {
				end = i + gt + 1
				if strings.HasPrefix(body[end:], "{}") {
					end += 2
				}
			}
			return i, extendComposed(body, end), true
		}
	}
	return 0, 0, false
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
	j = skipSpaces(body, j+1)
	if j < len(body) && body[j] == '(' {
		return groupEnd(body, j)
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

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

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
			if _, ok := m.(*grammar.Layout); ok {
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
func looksLikeDescriptor(s string) bool {
	return strings.ContainsAny(s, ":@<[") || strings.HasPrefix(s, "SW_")
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
func (h *Host) mlir(text string) {
	types, errs := grammar.FindMLIRTypes([]byte(text))
	for len(types) > 0 || len(errs) > 0 {
		if len(errs) == 0 || len(types) > 0 && types[0].Pos.Offset < errs[0].Range.Pos.Offset {
			if !inLineComment(text, types[0].Pos.Offset) {
				h.add(types[0])
			}
			types = types[1:]
			continue
		}
		if !inLineComment(text, errs[0].Range.Pos.Offset) {
			h.Findings = append(h.Findings, syntaxFinding(errs[0]))
		}
		errs = errs[1:]
	}
}

func inLineComment(text string, at int) bool {
	lineStart := strings.LastIndexByte(text[:at], '\n') + 1
	return strings.Contains(text[lineStart:at], "//")
}

// cppRegions splits C++/CUDA source into comments and string literals.
func cppRegions(s string) []region {
	var out []region
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "//"):
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			out = append(out, region{start: i + 2, end: i + end})
			i += end
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				out = append(out, region{start: i + 2, end: len(s)})
				return out
			}
			out = append(out, region{start: i + 2, end: i + 2 + end})
			i += 2 + end + 2
		case s[i] == 'R' && strings.HasPrefix(s[i+1:], "\"") && (i == 0 || !isIdentByte(s[i-1])):
			// R"delim( ... )delim"
			open := strings.IndexByte(s[i+2:], '(')
			if open < 0 {
				i++
				continue
			}
			delim := s[i+2 : i+2+open]
			bodyStart := i + 2 + open + 1
			end := strings.Index(s[bodyStart:], ")"+delim+"\"")
			if end < 0 {
				return out
			}
			out = append(out, region{start: bodyStart, end: bodyStart + end, literal: true})
			i = bodyStart + end + len(delim) + 2
		case s[i] == '"':
			end := quotedEnd(s, i+1, '"')
			out = append(out, region{start: i + 1, end: end, literal: true})
			i = end + 1
		case s[i] == '\'':
			i = quotedEnd(s, i+1, '\'') + 1
		default:
			i++
		}
	}
	return out
}

// quotedEnd is the offset of the closing quote of a literal starting at i
// (backslash escapes; an unterminated literal ends at the line's end).
func quotedEnd(s string, i int, quote byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case quote, '\n':
			return i
		}
	}
	return len(s)
}

// pythonRegions splits Python source into comments and string literals.
func pythonRegions(s string) []region {
	var out []region
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '#':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			out = append(out, region{start: i + 1, end: i + end})
			i += end
		case c == '"' || c == '\'':
			triple := strings.Repeat(string(c), 3)
			if strings.HasPrefix(s[i:], triple) {
				end := strings.Index(s[i+3:], triple)
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
		default:
			i++
		}
	}
	return out
}

// lineIndex converts byte offsets to positions (rune columns).
type lineIndex struct {
	text   string
	starts []int
}

func newLineIndex(text string) lineIndex {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return lineIndex{text: text, starts: starts}
}

func (l lineIndex) position(offset int) grammar.Position {
	lo, hi := 0, len(l.starts)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if l.starts[mid] <= offset {
			lo = mid
		} else {
			hi = mid
		}
	}
	return grammar.Position{Offset: offset, Line: lo + 1, Column: utf8.RuneCountInString(l.text[l.starts[lo]:offset]) + 1}
}
