package source

import (
	"slices"
	"strings"
	"sync"
)

// ReadCpp reads the CuTe code of a C++/CUDA file: its bindings and the
// expressions that call CuTe's layout functions or name its types.
func ReadCpp(src []byte) *File { return readCpp(src, nil) }

// readCpp is ReadCpp; with lint, the tokens of unread parameters are dropped (lint_read.go).
func readCpp(src []byte, lint *paramDrops) *File { return readCppDeferring(src, lint, false) }

// readCppDeferring is readCpp, without looking for the File's Writes when
// deferred (File.Deferred).
func readCppDeferring(src []byte, lint *paramDrops, deferred bool) *File {
	scratch := scratchPool.Get().(*readScratch)
	defer scratch.release()
	return readCppIn(scratch, src, lint, deferred)
}

// readCppIn is readCppDeferring with scratch.
func readCppIn(scratch *readScratch, src []byte, lint *paramDrops, deferred bool) *File {
	scratch.toks = cppTokensFor(src, scratch.toks[:0], lint)
	return readTokens(src, scratch, scratch.toks, deferred, nil)
}

// readTokens is readCppDeferring on the tokens toks of src; scratch holds
// what the read needs only while it reads, and pre what src's directives
// say (read here when nil).
func readTokens(src []byte, scratch *readScratch, toks []token, deferred bool, pre *preprocessed) *File {
	// The words are slices of a copy: what is made from them (a cached
	// finding's message) may outlive src, and src may be written again.
	r := &cppReader{src: src, str: string(src), toks: toks, deferred: deferred}
	templates, bindings := r.templateNames()
	// Most bindings and roots are written with "=" (using X = ...), and a
	// template clause binds a few parameters: sized once, the slices are
	// not copied as they grow (a traits header binds 12,000 names).
	if m := scratch.reuse; m != nil {
		// Lint's reader (LintReader): the last File it read is dropped.
		m.nodes.reset()
		r.f.Bindings = slices.Grow(m.bindings[:0], bindings)
		r.f.Roots = slices.Grow(m.roots[:0], bindings)
	} else {
		r.f.Bindings = make([]Binding, 0, bindings)
		r.f.Roots = make([]Node, 0, bindings)
	}
	r.p = parser{src: src, str: r.str, toks: r.toks, cpp: true, templates: templates, templateShapes: cppTemplateShapes}
	if m := scratch.reuse; m != nil {
		r.p.nodes.spare, r.p.nodes.stack = &m.nodes, m.stack[:0]
	}
	if len(templates) != len(cppTemplates) {
		r.p.templateShapes = shapesOf(templates)
	}
	scratch.match = matchBrackets(r.p, scratch.match[:0])
	r.match = scratch.match
	r.braces, r.parens = scratch.braces, scratch.parens
	r.pending, r.paramsWork = scratch.params[0][:0], scratch.params[1][:0]
	r.usings, r.ifEnds = scratch.usings[:0], scratch.ifEnds[:0]
	r.read()
	scratch.braces, scratch.parens = r.braces, r.parens
	scratch.params = [2][]templateParam{r.pending, r.paramsWork}
	for k := range r.f.Bindings {
		// In broken code brackets pair across a name ("({(})A A)", "{A A=A((})"):
		// the block "ending" before the name holds none of its uses.
		if v := &r.f.Bindings[k].Visible; v.End < v.Start {
			v.End = v.Start
		}
	}
	if deferred {
		r.f.Deferred = true
	} else {
		r.f.Writes = r.cppWrites()
	}
	if pre == nil {
		p := directives(src)
		pre = &p
	}
	r.elses = pre.elses
	r.f.Disabled = append(pre.disabled, r.constexprBranches()...)
	scratch.usings, scratch.ifEnds = r.usings, r.ifEnds
	if m := scratch.reuse; m != nil {
		m.bindings, m.roots, m.stack = r.f.Bindings, r.f.Roots, r.p.nodes.stack
	}
	f := r.f // not &r.f: the tokens go back to the pool, the File stays
	return &f
}

// readScratch is what a read needs only while it reads (tokens, bracket
// partners): reused from read to read, as lint and an editor's edits read
// file after file.
type readScratch struct {
	toks  []token
	match []int
	kept  []token // lint's read for findings: the tokens it reads (lint_runs.go)
	// structural are the indices of toks' brackets and ";", names and
	// read buffers of runMarks', runs dropRuns' lists (lint's read for
	// findings).
	structural, names, read []int32
	runs                    runBuffers
	sites                   []bindingCandidate // bindingCandidates' list
	// braces and parens are read's stacks (cppReader.braces), params the
	// lists of template parameters it fills in turn (cppReader.pending).
	braces, parens []int
	params         [2][]templateParam
	// usings and ifEnds are the read's lists of them (cppReader.usings,
	// cppReader.ifEnds).
	usings []int32
	ifEnds []ifEnd
	// reuse, where set (LintReader's scratch, never a pooled one), is
	// the memory of the last File read, which the next read writes over.
	reuse *fileMemory
}

// fileMemory is what a File read with LintReader is made in: the
// parser's node chunks, the Bindings and Roots, the parser's stack.
type fileMemory struct {
	nodes    arenaChunks
	bindings []Binding
	roots    []Node
	stack    []Node
}

var scratchPool = sync.Pool{New: func() any { return new(readScratch) }}

// maxPooledTokens bounds what a pooled scratch keeps: a huge file's
// tokens are left to the collector.
const maxPooledTokens = 1 << 20

func (s *readScratch) release() {
	if cap(s.toks) > maxPooledTokens || cap(s.kept) > maxPooledTokens || cap(s.sites) > maxPooledTokens || cap(s.braces) > maxPooledTokens {
		*s = readScratch{}
	}
	scratchPool.Put(s)
}

type cppReader struct {
	src   []byte
	str   string // src as a string: words are slices of it
	toks  []token
	p     parser
	match []int // for each bracket token, the index of its partner; -1 if none
	f     File
	// template parameters of the template clause just read, for the
	// declaration that follows it.
	pending    []templateParam // named in binding only when an alias template follows
	pendingEnd int             // token index right after the clause's ">"
	paramsWork []templateParam // the parameters of the clause being read
	// clauses are the template clauses read, in order (cppWrites'); none
	// are noted where the read is deferred (File.Deferred: no writes).
	clauses  []Range
	deferred bool
	// aliases are the names declared by "using X = ...;" so far: the
	// bindings usings lists, put in the map when it is asked (in a traits
	// header, thousands of usings and no question).
	aliases    map[string]bool
	usings     []int32 // indices of bindings of "using X = ..."
	usingsSeen int     // how many of usings are in aliases
	cuteBlocks []Range // the bodies of namespace cute (and cute::...) blocks so far
	// ifEnds are the ends of the file's if statements, by decreasing
	// index of their "if" (findIfEnds).
	ifEnds []ifEnd
	// elses are the names the file's #defines make "else" (directives).
	elses map[string]bool
	// braces and parens are read's stacks of open brackets (the read's
	// scratch).
	braces, parens []int
}

// templateNames adds the file's alias templates (template<...> using X =)
// to CuTe's template names; bindings is about how many names the file
// binds: its "=" and template clauses.
func (r *cppReader) templateNames() (names map[string]bool, bindings int) {
	names = cppTemplates
	bindings = 8
	// The loop holds few values and tells most tokens apart by their
	// kind and first byte; the few names that may be templates are
	// looked at by addTemplate.
	src, toks := r.src, r.toks
	for i := 0; i+1 < len(toks); i++ {
		t := &toks[i] // not a copy: most tokens are looked at for their kind alone
		if t.kind != tIdent {
			if t.punct == '=' {
				bindings++
			}
			continue
		}
		switch src[t.start] {
		case 't':
			if t.end-t.start == len("template") && string(src[t.start:t.end]) == "template" {
				bindings += 3
			}
		case 'S', 'M':
			// SM80_CP_ASYNC_CACHEALWAYS<uint128_t>: a templated atom op.
			if toks[i+1].punct == '<' {
				names = r.addTemplate(names, i, false)
			}
		case 'u':
			// template <...> using X = ...: an alias template.
			if t.end-t.start == len("using") && i > 0 && toks[i-1].punct == '>' && i+2 < len(toks) &&
				toks[i+1].kind == tIdent && toks[i+2].punct == '=' && string(src[t.start:t.end]) == "using" {
				names = r.addTemplate(names, i+1, true)
			}
		}
	}
	return names, bindings
}

// addTemplate adds the name at token i to names (CuTe's template names
// and the file's so far) when it is an alias template's (alias: the
// caller found "template <...> using" before it) or a templated atom
// op's (MMA_Traits<: no atom, no look-up); CuTe's map is copied before
// the first name is added.
func (r *cppReader) addTemplate(names map[string]bool, i int, alias bool) map[string]bool {
	w := r.word(i)
	if !alias && !atomTemplate(w) || names[w] {
		return names
	}
	if len(names) == len(cppTemplates) {
		copied := make(map[string]bool, len(cppTemplates)+4)
		for k := range cppTemplates {
			copied[k] = true
		}
		names = copied
	}
	names[w] = true
	return names
}

func (r *cppReader) isPunctAt(i int, s string) bool {
	if i < 0 || i >= len(r.toks) {
		return false
	}
	t := r.toks[i]
	if len(s) == 1 { // a constant at every call: the test below is one byte's
		return t.punct == s[0]
	}
	return t.kind == tPunct && t.end-t.start == len(s) && r.str[t.start:t.end] == s
}

// punct is the character of token i when it is a one-character
// punctuator, else 0.
func (r *cppReader) punct(i int) byte {
	if i < 0 || i >= len(r.toks) {
		return 0
	}
	return r.toks[i].punct
}

// isWordAt reports whether token i is the identifier w: its length is
// compared first, which turns away most tokens before their text is.
func (r *cppReader) isWordAt(i int, w string) bool {
	if i < 0 || i >= len(r.toks) {
		return false
	}
	t := r.toks[i]
	return t.kind == tIdent && t.end-t.start == len(w) && r.str[t.start:t.end] == w
}

func (r *cppReader) word(i int) string {
	if i < 0 || i >= len(r.toks) || r.toks[i].kind != tIdent {
		return ""
	}
	return r.str[r.toks[i].start:r.toks[i].end]
}

// matchBrackets pairs (), [] and {} tokens; unmatched ones get -1.
func matchBrackets(p parser, match []int) []int {
	// Every entry is written below: a reused slice is not cleared first.
	if cap(match) < len(p.toks) {
		match = make([]int, len(p.toks))
	}
	match = match[:len(p.toks)]
	var stack []int
	for i, t := range p.toks {
		match[i] = -1
		if t.punct == 0 {
			continue
		}
		switch c := t.punct; c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			open := byte('(')
			switch c {
			case ']':
				open = '['
			case '}':
				open = '{'
			}
			// Pop to the nearest opener of this kind: a stray closer of
			// another kind (half-typed code) does not unbalance the rest.
			for k := len(stack) - 1; k >= 0; k-- {
				if p.toks[stack[k]].punct == open {
					match[stack[k]], match[i] = i, stack[k]
					stack = stack[:k]
					break
				}
			}
		}
	}
	return match
}

// blockEnd is the end offset of the innermost {...} enclosing token i (the
// file's end at top level).
func (r *cppReader) blockEnd(open []int) int {
	for k := len(open) - 1; k >= 0; k-- {
		if m := r.match[open[k]]; m >= 0 {
			return r.toks[m].end
		}
	}
	return len(r.src)
}

// integral type names: a parameter or declaration of one of these is an integer.
var cppIntegral = setOf("int", "unsigned", "long", "short", "size_t", "int32_t", "int64_t", "uint32_t",
	"uint64_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "index_t", "ptrdiff_t", "char")

func (r *cppReader) read() {
	// The open '{' and '(' token indices: skipQuiet pushes them in place,
	// and stops at a bracket its stack has no room for.
	braces, parens := r.braces[:0], r.parens[:0]
	for i := 0; i < len(r.toks); {
		// Up to the next name read may act at, the brackets followed.
		if i, braces, parens = r.skipQuiet(i, braces, parens); i == len(r.toks) {
			break
		}
		if c := r.toks[i].punct; c != 0 {
			// A bracket with no room left on its stack: it grows here.
			if c == '{' {
				braces = append(braces, i)
			} else {
				parens = append(parens, i)
			}
			i++
			continue
		}
		if r.quiet(i) {
			i++
			continue
		}
		w := r.word(i)
		switch {
		case w == "namespace":
			r.namespace(i)
			i++
			continue
		case (w == "struct" || w == "class") && !r.isWordAt(i-1, "enum") && r.isIdent(i+1):
			r.scope(i + 1)
		case w == "template" && r.isPunctAt(i+1, "<"):
			i = r.templateClause(i+1, braces)
			continue
		case w == "using" && r.isIdent(i+1) && r.isPunctAt(i+2, "="):
			i = r.binding(i+1, i+3, braces)
			continue
		case r.isPunctAt(i+1, "=") && !r.isPunctAt(i-1, ".") && !r.isPunctAt(i-1, "->") && !r.isPunctAt(i-1, "::") && r.declares(i):
			if len(parens) > 0 {
				r.parameter(i, parens[len(parens)-1], braces)
				i++
				continue
			}
			i = r.binding(i, i+2, braces)
			continue
		case len(parens) > 0 && (r.isPunctAt(i+1, ",") || r.isPunctAt(i+1, ")")) && r.declaresParameter(i):
			r.parameter(i, parens[len(parens)-1], braces)
			i++
			continue
		}
		if r.isPunctAt(i-1, "::") || r.isPunctAt(i-1, ".") || r.isPunctAt(i-1, "->") {
			i++
			continue
		}
		if r.assigns(i) {
			r.reassigned(w, r.toks[i].start)
		}
		if c := r.lastComponent(i); codeNameShapes.mayHave(c) && codeNames[c] {
			i = r.root(i, braces)
			continue
		}
		if r.isIdent(i+1) && (r.isPunctAt(i+2, "{") || r.isPunctAt(i+2, ";")) && r.isAlias(w) {
			// X x{}; with X an alias declared above: x holds X's value.
			i = r.root(i, braces)
			continue
		}
		i++
	}
}

// skipQuiet steps from token i over the tokens read does nothing at but
// follow the brackets (braces and parens, pushed in place), and over the
// names quiet says so of by their shapes alone; it returns at the first
// other name, at a bracket its stack has no room for (read grows it), or at
// the end. Its loop makes no call, so that the compiler keeps its values
// in registers.
func (r *cppReader) skipQuiet(i int, braces, parens []int) (int, []int, []int) {
	toks, src := r.toks, r.src
	for ; i < len(toks); i++ {
		t := &toks[i]
		if t.punct != 0 {
			switch t.punct {
			case '{':
				if len(braces) == cap(braces) {
					return i, braces, parens // read grows the stack
				}
				braces = braces[:len(braces)+1]
				braces[len(braces)-1] = i
			case '}':
				if len(braces) > 0 {
					braces = braces[:len(braces)-1]
				}
			case '(':
				if len(parens) == cap(parens) {
					return i, braces, parens
				}
				parens = parens[:len(parens)+1]
				parens[len(parens)-1] = i
			case ')':
				if len(parens) > 0 {
					parens = parens[:len(parens)-1]
				}
			case ';':
				parens = parens[:0]
			}
			continue
		}
		if t.kind != tIdent {
			continue
		}
		// quiet, but a name that may be a CuTe name is left to it (its
		// test looks the name up).
		switch t.end - t.start {
		case len("namespace"), len("struct"), len("class"), len("template"): // len("using") == len("class")
			switch src[t.start] {
			case 'n', 's', 'c', 't', 'u':
				return i, braces, parens
			}
		}
		if i > 0 {
			if c := toks[i-1].punct; c == '+' || c == '-' {
				return i, braces, parens
			}
		}
		if i+1 < len(toks) {
			next := &toks[i+1]
			switch next.kind {
			case tPunct:
				if quietAfter[next.punct] || next.punct == 0 && (src[next.start] == ':' || src[next.start] == '<') {
					return i, braces, parens
				}
			case tIdent:
				if i+2 < len(toks) && (toks[i+2].punct == '{' || toks[i+2].punct == ';') {
					return i, braces, parens
				}
			}
		}
		if codeNameShapes[src[t.start]]&(1<<min(t.end-t.start, 63)) != 0 {
			return i, braces, parens
		}
	}
	return i, braces, parens
}

// quiet reports whether read does nothing at the name at i but step past
// it, as it finds at most names of a file: the name is no keyword read
// opens a construct at (namespace, struct, class, template, using) nor a
// CuTe name a root starts at, and its neighbours make no binding, no
// parameter, no assignment and no qualified name of it: the token after
// it is none of "=", ",", ")", "::", "<<", an arithmetic operator, nor a
// name before "{" or ";" (an alias's declaration), and the one before it
// neither "+" nor "-". One look at each neighbour, where read's rules ask
// each several times. skipQuiet makes the same tests in its loop but the
// look-up (as a function they would be a call there, which costs more than
// they do).
func (r *cppReader) quiet(i int) bool {
	toks, src := r.toks, r.src
	t := &toks[i]
	switch n := t.end - t.start; n {
	case len("namespace"), len("struct"), len("class"), len("template"): // len("using") == len("class")
		switch src[t.start] {
		case 'n', 's', 'c', 't', 'u':
			return false
		}
	}
	if i > 0 {
		if c := toks[i-1].punct; c == '+' || c == '-' {
			return false
		}
	}
	if i+1 < len(toks) {
		next := &toks[i+1]
		switch next.kind {
		case tPunct:
			if quietAfter[next.punct] || next.punct == 0 && (src[next.start] == ':' || src[next.start] == '<') {
				return false // ::, <<; the other two-byte punctuators assign nothing
			}
		case tIdent:
			if i+2 < len(toks) && (toks[i+2].punct == '{' || toks[i+2].punct == ';') {
				return false
			}
		}
	}
	w := src[t.start:t.end]
	return !codeNameShapes.mayHave(string(w)) || !codeNames[string(w)]
}

// quietAfter marks the punctuators after a name where quiet says false:
// "=", ",", ")" and the operators of compound assignments, "++" and "--".
var quietAfter = [256]bool{'=': true, ',': true, ')': true, '+': true, '-': true, '*': true, '/': true, '%': true, '&': true, '|': true, '^': true}

// isAlias reports whether w was declared by "using w = ...;" so far.
func (r *cppReader) isAlias(w string) bool {
	if r.usingsSeen < len(r.usings) && r.aliases == nil {
		r.aliases = map[string]bool{}
	}
	for ; r.usingsSeen < len(r.usings); r.usingsSeen++ {
		r.aliases[r.f.Bindings[r.usings[r.usingsSeen]].Name] = true
	}
	return r.aliases[w]
}

// assigns reports whether the name at i is assigned to (x = ..., x += ...,
// ++x, x--) rather than declared or read.
func (r *cppReader) assigns(i int) bool {
	next, after := i+1, i+2
	switch {
	case r.isPunctAt(next, "=") && !r.declares(i):
		return true
	case r.adjacent(next, after) && r.isPunctAt(after, "=") && r.isCompoundOp(next):
		return true
	case r.adjacent(next, after) && (r.isPunctAt(next, "+") && r.isPunctAt(after, "+") || r.isPunctAt(next, "-") && r.isPunctAt(after, "-")):
		return true
	case r.adjacent(i-2, i-1) && (r.isPunctAt(i-2, "+") && r.isPunctAt(i-1, "+") || r.isPunctAt(i-2, "-") && r.isPunctAt(i-1, "-")):
		return true
	}
	return false
}

func (r *cppReader) adjacent(a, b int) bool {
	return a >= 0 && b < len(r.toks) && r.toks[a].end == r.toks[b].start
}

func (r *cppReader) isCompoundOp(i int) bool {
	for _, op := range []string{"+", "-", "*", "/", "%", "<<", "&", "|", "^"} {
		if r.isPunctAt(i, op) {
			return true
		}
	}
	return false
}

// reassigned marks the binding of name visible at off as assigned again.
func (r *cppReader) reassigned(name string, off int) {
	for k := len(r.f.Bindings) - 1; k >= 0; k-- {
		b := &r.f.Bindings[k]
		if b.Name == name && b.Visible.Start <= off && off < b.Visible.End {
			b.Reassigned = true
			return
		}
	}
}

// namespace notes "using namespace cute" and the blocks of other namespaces.
func (r *cppReader) namespace(i int) {
	name := ""
	j := i + 1
	for ; j < len(r.toks) && (r.isIdent(j) || r.isPunctAt(j, "::")); j++ {
		name += r.str[r.toks[j].start:r.toks[j].end]
	}
	if r.isWordAt(i-1, "using") {
		if name == "cute" || name == "::cute" {
			r.f.UsesCute = true
		}
		return
	}
	if !r.isPunctAt(j, "{") || r.match[j] < 0 || name == "" {
		return
	}
	body := Range{r.toks[j].start, r.toks[r.match[j]].end}
	if strings.Contains(name, "cute") {
		r.cuteBlocks = append(r.cuteBlocks, body)
		return
	}
	for _, c := range r.cuteBlocks {
		if c.Start < body.Start && body.End <= c.End {
			return // namespace cute { namespace UMMA { ... } }: cute's names are visible inside
		}
	}
	r.f.Foreign = append(r.f.Foreign, body)
}

// scope records the body of the struct or class named at i (struct X {,
// struct X : Base<T> {, struct X final {); a declaration (struct X;), a
// template parameter (class T>) or an elaborated type (struct X x;) has none.
func (r *cppReader) scope(i int) {
	j := i + 1
	if r.isWordAt(j, "final") {
		j++
	}
	if r.isPunctAt(j, ":") && !r.isPunctAt(j+1, ":") {
		// Base classes: names, "::", template arguments, commas, up to "{".
		depth := 0
		for j++; j < len(r.toks) && j < i+256; j++ {
			switch {
			case r.isPunctAt(j, "<"):
				depth++
			case r.isPunctAt(j, ">"):
				depth--
			case r.isPunctAt(j, "{") && depth <= 0:
				goto body
			case r.isPunctAt(j, ";") || r.isPunctAt(j, "{") || r.isPunctAt(j, "}") || r.isPunctAt(j, "(") || r.isPunctAt(j, ")"):
				return
			}
		}
		return
	}
body:
	if !r.isPunctAt(j, "{") || r.match[j] < 0 {
		return
	}
	r.f.Scopes = append(r.f.Scopes, Scope{Name: r.word(i), Body: Range{r.toks[j].start, r.toks[r.match[j]].end}})
}

// lastComponent is the last name of the qualified name starting at i.
func (r *cppReader) lastComponent(i int) string {
	for r.isPunctAt(i+1, "::") && r.isIdent(i+2) {
		i += 2
	}
	return r.word(i)
}

// typeWordBefore is the index of the type word before the declared name at
// i, looking past "const", "&", "*" and "&&".
func (r *cppReader) typeWordBefore(i int) int {
	j := i - 1
	for j >= 0 && (r.isWordAt(j, "const") || r.isWordAt(j, "volatile") || r.isPunctAt(j, "&") || r.isPunctAt(j, "&&") || r.isPunctAt(j, "*")) {
		j--
	}
	return j
}

// declares reports whether the name at i (followed by "=") is being
// declared: a type (a word that is not a keyword, or a template-id's ">")
// comes before it.
func (r *cppReader) declares(i int) bool {
	j := r.typeWordBefore(i)
	if j < 0 {
		return false
	}
	if r.isPunctAt(j, ">") {
		return true
	}
	switch w := r.word(j); w {
	case "", "return", "case", "goto", "else", "do", "throw", "co_return", "co_yield", "new", "delete", "operator", "sizeof":
		return false
	}
	return true
}

// templateClause reads "<...>" at lt, remembers its parameter names for
// the declaration that follows, binds its parameters there (each at its
// name in the clause: the clause declares it once; integers as unknowns,
// types without a value) and returns the index after ">".
func (r *cppReader) templateClause(lt int, braces []int) int {
	depth := 0
	params := r.paramsWork[:0]
	defer func() { r.paramsWork = params[:0] }() // reused by the next clause
	segStart := lt + 1
	end := -1
	for j := lt; j < len(r.toks); j++ {
		c := r.punct(j)
		if c == '(' && r.match[j] > j {
			j = r.match[j] // a default's (a, b) or (N > 2): no parameter's end
			continue
		}
		switch c {
		case '<':
			depth++
		case '>', ',':
			if c == '>' {
				depth--
			}
			if depth == 0 && c == '>' || depth == 1 && c == ',' {
				if p, ok := r.templateParam(segStart, j); ok {
					params = append(params, p)
				}
				segStart = j + 1
			}
			if depth == 0 {
				end = j
			}
		case ';', '{':
			if depth > 0 {
				return j
			}
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return lt + 1
	}
	// Nothing in the clause binds a name again beyond its parameters: the
	// names a nested template parameter declares (template <class U> class
	// X) are visible only in the clause.
	if !r.deferred {
		r.clauses = append(r.clauses, Range{r.toks[lt].start, r.toks[end].end})
	}
	// The parameters shadow outer names in the entity the clause declares:
	// up to its ";" or the end of its body.
	visibleEnd := r.entityEnd(end+1, braces)
	for _, p := range params {
		if p.at < 0 {
			continue // template <class, int = 0>: nothing to name
		}
		at := Range{r.toks[p.at].start, r.toks[p.at].end}
		r.f.Bindings = append(r.f.Bindings, Binding{Name: p.name(r), NameAt: at, Unknown: p.integral, Visible: Range{r.toks[end].end, visibleEnd}})
	}
	// The parameters wait for the declaration; the last clause's list is
	// the next one's to fill.
	r.pending, params, r.pendingEnd = params, r.pending, end+1
	return end + 1
}

// templateParam is one parameter of a template clause: the token of its
// name (-1 for an unnamed one), and whether it is an integer (not a type).
type templateParam struct {
	at       int
	integral bool
}

func (p templateParam) name(r *cppReader) string {
	if p.at < 0 {
		return ""
	}
	return r.word(p.at)
}

// templateParamKeywords are the words that may end a template parameter
// that has no name (template <class>, template <unsigned int = 0>).
var templateParamKeywords = setOf("class", "typename", "template", "int", "unsigned", "signed", "long", "short", "char", "bool", "auto")

// templateParam reads one template parameter "int N", "class T = X",
// "class... Ts", "template <class> class X" in tokens [from, to); ok is
// false where the tokens are empty (template <>). An unnamed parameter
// (template <class, int = 0>) keeps its place in the clause.
func (r *cppReader) templateParam(from, to int) (templateParam, bool) {
	end := to
	for j := from; j < to; j++ {
		if r.isPunctAt(j, "=") {
			end = j
			break
		}
	}
	if end <= from {
		return templateParam{}, false
	}
	typeParam := false
	switch r.word(from) {
	case "class", "typename", "template":
		typeParam = true
	}
	at := end - 1
	if w := r.word(at); w == "" || templateParamKeywords[w] || r.isPunctAt(at-1, "::") || !typeParam && at == from {
		at = -1 // template <class>, <class...>, <class = void>, <std::size_t>, <int>
	}
	return templateParam{at: at, integral: !typeParam}, true
}

// entityEnd is the end offset of the declaration starting at token i: its
// ";" at depth 0, or the end of its first {...} body.
func (r *cppReader) entityEnd(i int, braces []int) int {
	for j := i; j < len(r.toks); j++ {
		switch c := r.punct(j); c {
		case ';':
			return r.toks[j].end
		case '{', '(', '[':
			if m := r.match[j]; m > j {
				if c == '{' {
					return r.toks[m].end
				}
				j = m
			}
		case '}':
			return r.toks[j].start
		}
	}
	return r.blockEnd(braces)
}

// binding reads "name = expr" with the name at nameAt and the value at
// valueAt; the name is visible after the value to the end of the block.
func (r *cppReader) binding(nameAt, valueAt int, braces []int) int {
	r.p.pos = valueAt
	v := r.p.expr(0)
	if v == nil {
		return valueAt
	}
	b := Binding{Name: r.word(nameAt), NameAt: Range{r.toks[nameAt].start, r.toks[nameAt].end}, Value: v}
	if r.isWordAt(nameAt-1, "using") {
		r.usings = append(r.usings, int32(len(r.f.Bindings)))
	}
	if r.pendingEnd > 0 && (r.pendingEnd == nameAt-1 || r.pendingEnd == nameAt) {
		b.Params, b.Template = make([]string, len(r.pending)), true
		for k, p := range r.pending {
			b.Params[k] = p.name(r)
		}
	}
	_, e := v.Span()
	b.Visible = Range{e, r.blockEnd(braces)}
	r.f.Bindings = append(r.f.Bindings, b)
	r.f.Roots = append(r.f.Roots, v)
	return r.p.pos
}

// declaresWith reports whether x can be the type of a declaration that
// follows it: a template-id (Layout<...>) or a plain name (an alias).
func declaresWith(x Node) bool {
	switch x := x.(type) {
	case *Call:
		return x.HasTArgs && !x.Paren && !x.Braced
	case *Ident:
		return true
	}
	return false
}

// declaresParameter reports whether the name at i (before "," or ")")
// follows a type: a word, a template-id's ">", "&", "*".
func (r *cppReader) declaresParameter(i int) bool {
	j := r.typeWordBefore(i)
	if j < 0 || j == i-1 && !r.isIdent(j) && !r.isPunctAt(j, ">") {
		return false
	}
	if r.isPunctAt(j, ">") {
		return true
	}
	switch r.word(j) {
	case "", "return", "case", "sizeof", "new", "delete", "throw":
		return false
	}
	return true
}

func (r *cppReader) isIdent(i int) bool { return i >= 0 && i < len(r.toks) && r.toks[i].kind == tIdent }

// parameter binds a function parameter at i, visible in the function's
// body: a run-time integer whose value is unknown when its type is
// integral; anything else shadows outer names and has no value.
func (r *cppReader) parameter(i, open int, braces []int) {
	integral := cppIntegral[r.word(r.typeWordBefore(i))]
	end := r.toks[i].end
	if m := r.match[open]; m > 0 {
		end = r.toks[m].end
		for j := m + 1; j < len(r.toks) && j < m+24; j++ {
			if r.isPunctAt(j, ";") {
				break
			}
			if r.isPunctAt(j, "{") {
				if mm := r.match[j]; mm > j {
					end = r.toks[mm].end
				}
				break
			}
		}
	}
	r.f.Bindings = append(r.f.Bindings, Binding{Name: r.word(i), NameAt: Range{r.toks[i].start, r.toks[i].end}, Unknown: integral, Visible: Range{r.toks[i].end, end}})
}

// root reads the expression starting at i; when a declared name follows a
// type (Layout<...> x{}; Layout<...> x = ...;), it binds the name.
func (r *cppReader) root(i int, braces []int) int {
	r.p.pos = i
	x := r.p.expr(0)
	if x == nil {
		return i + 1
	}
	j := r.p.pos
	r.f.Roots = append(r.f.Roots, x)
	if declaresWith(x) && r.isIdent(j) {
		name := j
		switch {
		case r.isPunctAt(j+1, "="):
			return r.binding(name, j+2, braces)
		case r.isPunctAt(j+1, "{") || r.isPunctAt(j+1, "("):
			var value Node = x
			if m := r.match[j+1]; m != j+2 {
				value = nil // constructed from arguments: not read
			}
			b := Binding{Name: r.word(name), NameAt: Range{r.toks[name].start, r.toks[name].end}, Value: value, Visible: Range{r.toks[name].end, r.blockEnd(braces)}}
			r.f.Bindings = append(r.f.Bindings, b)
			return j + 1
		case r.isPunctAt(j+1, ";"):
			b := Binding{Name: r.word(name), NameAt: Range{r.toks[name].start, r.toks[name].end}, Value: x, Visible: Range{r.toks[name].end, r.blockEnd(braces)}}
			r.f.Bindings = append(r.f.Bindings, b)
			return j + 1
		}
	}
	return j
}
