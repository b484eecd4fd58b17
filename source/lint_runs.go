package source

import "slices"

// Lint's read for findings reads the statements that call the algebra, and
// leaves out runs of statements that call none of it (the thousands of
// "template <...> using SM90_... = ...;" and MMA_Traits bodies of a traits
// header around a few layout atoms), where it changes no finding (verified
// on each read, below).
//
// A run is a sequence of whole statements at one block level (file or
// namespace scope, a struct's or a function's body): it starts right after
// a ";" or "{" of that level and ends with a ";" of it, its brackets pair
// among themselves, and no token of it is a name of FindingCalls followed
// by "(" or "<" (a call a finding can be made at) or the namespace of
// "using namespace". The run's tokens are dropped but for its last ";".
// A run does not end before "else" (the if's statement goes on: the else
// of an if constexpr is a branch constexprBranches finds from the if), nor
// before "while" (a do statement's body may end there). A block's tail, the
// statements from after its last ";" read to its "}", is a run too where
// it ends with a compound statement (an if constexpr chain, a loop) and
// is known a block of statements (blockTail): the "}" is kept where the
// ";" would be, and follows the ";" or "{" before the run.
// What the reader does with the tokens left is then what it did with them
// in the full stream, but for what names bound or changed in the run:
//
//   - around the run: the token before it is ";" or "{" and the one after
//     the dropped tokens is the run's own ";", so every rule that looks at
//     a token's neighbours (a name before "=", a type before a name, "++",
//     "using" before a name, the statement start lint's parameter drops
//     look back to) sees what it saw; the forward scans (a template
//     clause's entity, a parameter list's body, a struct's base list) stop
//     at ";" or "{" before the run or jump over it with bracket partners,
//     which pair as before (the run is balanced);
//   - expressions: none holds a ";", so none spans a run; one entering a
//     run through the "{" before it (a braced list) fails at a ";" inside
//     it in the full stream and at the run's ";" without it: no node either
//     way, and the reader goes on from the same token;
//   - names: a binding made in the run (visible after it to the end of its
//     block), a name of the file assigned or declared again in it (which
//     marks a binding Reassigned or untrusted), an alias template or a
//     templated atom it declares (which changes how "<" after the name
//     parses), an alias it declares anywhere (after which "Alias x{}"
//     declares x), a struct it defines (read from outside as
//     Struct::Member, when one struct of the file has that name).
//
// So the read is verified by names: no word of the tokens left (which holds
// every name of the read's roots and values, each component of a qualified
// one, every name it binds, every name before "<" and of "Alias x{") may
// be written in a dropped run where it may be bound, declared, assigned or
// made a template (bindingAt, generous: a read taken for a binding only
// costs another round). Where one is, its statement is kept and the runs
// are found again, up to maxRunRounds times; then, or where little would be
// left out, every token is read. The statements of a block after ")" (a
// function's body, a loop's) that holds a call are all kept (those of the
// blocks in them may be left out): they mostly read one another's names,
// each a round; their tails may (mma_sm90.hpp's selector functions hold
// a size<2> call in each branch, then an if constexpr chain of 30
// returns). The writes of
// names (File.Writes) come from the full read anyway (the read is
// Deferred), and a stale comment's binding from a full read (File.Partial).
//
// Cost: the file is tokenized in full (the runs are found on tokens, so
// comments, strings and preprocessor lines are what the reader takes them
// for), then each round is a pass over the tokens and one over those left
// out; the read is of what is left. mma_traits_sm90_gmma.hpp (284 KB,
// 50,600 tokens, 9 calls of the algebra) keeps 2,200 tokens after two
// rounds.

// runDrops are the runs dropped from a file's tokens: toks[from:to], the
// run's ";" at to kept.
type runDrops struct {
	ranges [][2]int32
	levels []int32 // the depth of the level of each run (dropRuns)
	depths []int32 // the braces open before each run, in the whole file
}

// runLevel is one open bracket (or the file) as dropRuns follows them.
type runLevel struct {
	kind     byte  // '{', '(', '[', or 0 for the file
	runStart int32 // the index in toks where the current run starts
	depth    int32 // the braces open before runStart, in the whole file
	clean    bool  // no token of readAt since runStart
	// code marks a block of statements after ")" (a function's, a
	// loop's): one that holds a token of readAt is read whole, its
	// statements mostly read one another's names.
	code    bool
	tainted bool // a token of readAt since the block opened
	open    int32
}

// runMarks finds, in one pass over toks, what dropRuns acts on: read, the
// indices of the tokens whose statements lint reads (a name of calls
// before "(" or "<", a call a finding can be made at; the namespace of
// "using namespace", the file's File.UsesCute), and structural, the
// indices of the brackets and ";" (a fifth of a traits header's tokens:
// found once per file, they spare each round the pass over every token).
// structural, names and read are buffers reused from file to file (their
// contents are not read).
//
// The pass makes no call, so that the compiler keeps its few values in
// registers (a call on any path spills them at every token): it writes
// each token's index to structural and moves on by one where the token is
// structural (no branch), and notes in names the names whose shape fits
// one of calls; callMarks.mark looks at those afterwards, in order.
func runMarks(src []byte, toks []token, calls *Names, structural, names, read []int32) (_, _, _ []int32) {
	m := callMarks{src: src, toks: toks, calls: calls, read: read[:0]}
	// A name's first byte and length, then its last byte and length, must
	// fit a word of calls (or "namespace"): half the names the first test
	// alone lets through fail the second.
	shapes, ends := calls.first, calls.last // copies: "namespace" joins them for this pass
	shapes.add("namespace")
	ends.addEnd("namespace")
	if cap(structural) < len(toks) {
		structural = make([]int32, len(toks))
	}
	if cap(names) < len(toks) {
		names = make([]int32, len(toks))
	}
	structural, names = structural[:len(toks)], names[:len(toks)]
	ns, nn := 0, 0
	for k := range toks {
		t := &toks[k] // not a copy: most tokens are looked at for their kind alone
		if t.kind != tIdent {
			structural[ns] = int32(k)
			ns += int(structuralStep[t.punct])
			continue
		}
		if n := uint64(1) << min(t.end-t.start, 63); shapes[src[t.start]]&n != 0 && ends[src[t.end-1]]&n != 0 {
			names[nn] = int32(k)
			nn++
		}
	}
	for _, k := range names[:nn] {
		m.mark(int(k))
	}
	return m.read, structural[:ns], names[:0]
}

// callMarks are runMarks' names of calls, with what it asks them.
type callMarks struct {
	src   []byte
	toks  []token
	calls *Names
	memo  wordMemo
	read  []int32
}

// mark notes toks[k] in read if it is a name of calls before "(" or "<",
// or the namespace of "using namespace"; its shape fits one of them.
func (m *callMarks) mark(k int) {
	src, toks := m.src, m.toks
	if k+1 == len(toks) {
		return
	}
	t := &toks[k]
	w := src[t.start:t.end]
	called, known := m.memo.lookup(src, w)
	if !known {
		called = m.calls.set[string(w)] // runMarks tested its shape
		m.memo.remember(src, t.start, t.end, called)
	}
	if called {
		if n := toks[k+1].punct; n == '(' || n == '<' {
			m.read = append(m.read, int32(k))
		}
	}
	if string(w) == "namespace" && k > 0 && toks[k-1].kind == tIdent && string(src[toks[k-1].start:toks[k-1].end]) == "using" {
		m.read = append(m.read, int32(k))
	}
}

// structuralStep is 1 at the punctuators of runMarks' structural tokens,
// 0 elsewhere: one load where a switch compares most tokens seven times.
var structuralStep = [256]uint8{'{': 1, '}': 1, '(': 1, ')': 1, '[': 1, ']': 1, ';': 1}

// dropRuns finds the runs of toks lint may leave out: those without a
// token of readAt (sorted). structural are toks' brackets and ";"
// (runMarks): a token of readAt marks the levels open at it dirty, and
// they are read only at the next of those.
func dropRuns(src []byte, toks []token, structural, readAt []int32, buf *runBuffers) runDrops {
	if buf == nil {
		buf = new(runBuffers)
	}
	// Every list has room for a push at each structural token, so that
	// pushes are made in place: the loop makes no call, and the compiler
	// keeps its values in registers.
	if n := len(structural) + 1; cap(buf.levels) < n {
		buf.levels = make([]runLevel, 0, n)
		buf.ranges = make([][2]int32, 0, n)
		buf.runLevels = make([]int32, 0, n)
		buf.depths = make([]int32, 0, n)
	}
	d := runDrops{ranges: buf.ranges[:0], levels: buf.runLevels[:0], depths: buf.depths[:0]}
	levels := buf.levels[:1]
	levels[0] = runLevel{clean: true}
	braces := int32(0) // as bindingSites counts them
	for _, k32 := range structural {
		k, t := int(k32), toks[k32]
		if len(readAt) > 0 && readAt[0] <= k32 {
			for len(readAt) > 0 && readAt[0] <= k32 {
				readAt = readAt[1:]
			}
			for l := range levels {
				levels[l].clean, levels[l].tainted = false, true
			}
		}
		switch c := t.punct; c {
		case '{':
			braces++
		case '}':
			braces--
		}
		switch c := t.punct; c {
		case '{', '(', '[':
			code := c == '{' && k > 0 && isPunctByte(src, toks[k-1], ')')
			levels = levels[:len(levels)+1]
			levels[len(levels)-1] = runLevel{kind: c, runStart: int32(k + 1), depth: braces, clean: true, code: code, open: int32(k)}
		case '}', ')', ']':
			top := len(levels) - 1
			if top > 0 && levels[top].kind == opener(c) {
				if l := levels[top]; l.code && l.tainted {
					// Its own statements are read; those of the blocks in them
					// (a branch's body) may still be left out.
					n := len(d.ranges)
					for n > 0 && d.ranges[n-1][0] > l.open {
						n--
					}
					kept := n
					for i := n; i < len(d.ranges); i++ {
						if d.levels[i] != int32(top) {
							d.ranges[kept], d.levels[kept], d.depths[kept] = d.ranges[i], d.levels[i], d.depths[i]
							kept++
						}
					}
					d.ranges, d.levels, d.depths = d.ranges[:kept], d.levels[:kept], d.depths[:kept]
				}
				if l := levels[top]; c == '}' && l.clean && int32(k) > l.runStart && blockTail(src, toks, l.runStart, k, d.ranges, l.code || tokenIs(src, toks, int(l.open)-1, "else") || tokenIs(src, toks, int(l.open)-1, "do")) {
					from := l.runStart
					for len(d.ranges) > 0 && d.ranges[len(d.ranges)-1][0] >= from {
						d.ranges = d.ranges[:len(d.ranges)-1] // a run inside the tail, or the one it goes on
						d.levels = d.levels[:len(d.levels)-1]
						d.depths = d.depths[:len(d.depths)-1]
					}
					n := len(d.ranges)
					d.ranges, d.levels, d.depths = d.ranges[:n+1], d.levels[:n+1], d.depths[:n+1]
					d.ranges[n], d.levels[n], d.depths[n] = [2]int32{from, int32(k)}, int32(top), l.depth
				}
				levels = levels[:top]
				continue
			}
			// A closer without its opener on top: brackets pair across
			// what would be runs. Nothing open now is dropped.
			for l := range levels {
				levels[l].clean, levels[l].tainted = false, true
			}
			for j := top; j > 0; j-- {
				if levels[j].kind == opener(c) {
					levels = levels[:j]
					break
				}
			}
		case ';':
			top := &levels[len(levels)-1]
			if top.kind != '{' && top.kind != 0 {
				continue // for (a; b; c): not a statement's end
			}
			if !top.clean {
				top.runStart, top.depth, top.clean = int32(k+1), braces, true
				continue
			}
			if tokenIs(src, toks, k+1, "else") || tokenIs(src, toks, k+1, "while") {
				// if (c) a; else ...: the if's statement goes on (an if
				// constexpr's else is disabled with it); so does a do
				// statement's after its body's ";" (do a; while (c);).
				// A statement followed by a while loop only makes a longer run.
				continue
			}
			if from := top.runStart; int32(k) > from {
				if n := len(d.ranges); n > 0 && d.ranges[n-1][0] == from {
					// The run found at this level's last ";" goes on (nothing
					// nested in it was found since, or it would be last).
					d.ranges[n-1][1] = int32(k)
					continue
				}
				for len(d.ranges) > 0 && d.ranges[len(d.ranges)-1][0] >= from {
					d.ranges = d.ranges[:len(d.ranges)-1] // a run inside this one
					d.levels = d.levels[:len(d.levels)-1]
					d.depths = d.depths[:len(d.depths)-1]
				}
				n := len(d.ranges)
				d.ranges, d.levels, d.depths = d.ranges[:n+1], d.levels[:n+1], d.depths[:n+1]
				d.ranges[n], d.levels[n], d.depths[n] = [2]int32{from, int32(k)}, int32(len(levels)-1), top.depth
			}
		}
	}
	return d
}

// blockTail reports whether toks[from:end], clean of calls, from a
// statement's start (after a ";" or "{" of its block) to the "}" at end
// that closes the block, is whole statements lint may leave out as a run
// whose kept token is that "}": a compound statement last (it ends with
// "}", as an if constexpr chain of a selector function does), and either
// an if, for, while, switch or do first, or, in a block of code (after
// ")", else or do: a function's body, a branch's; code), a run of statements ending
// with ";" before it (one of ranges starts at from: its block is a block
// of statements, which a braced list is not). Left out, the "}" follows
// the ";" or "{" before from instead of a "}", and brackets pair as before
// (the tail is balanced). A struct's member functions after its last ";"
// are not such a tail: their parameters' names are often those of the
// file's code (mma_traits_sm90_gmma.hpp's DescriptorIterator: the i of
// operator[] took verify a round more than it saved).
func blockTail(src []byte, toks []token, from int32, end int, ranges [][2]int32, code bool) bool {
	if toks[end-1].punct != '}' {
		return false
	}
	for n := len(ranges) - 1; code && n >= 0 && ranges[n][0] >= from; n-- {
		if ranges[n][0] == from {
			return true // the runs of blocks in the tail come after it
		}
	}
	t := &toks[from]
	if t.kind != tIdent {
		return false
	}
	switch string(src[t.start:t.end]) {
	case "if", "for", "while", "switch", "do":
		return true
	}
	return false
}

// runBuffers are dropRuns' lists, reused from round to round and file to
// file (the read's scratch): the runs a round finds are read before the
// next round's.
type runBuffers struct {
	levels            []runLevel
	ranges            [][2]int32
	runLevels, depths []int32
}

// left is how many tokens d's runs leave out.
func (d *runDrops) left() int {
	n := 0
	for _, r := range d.ranges {
		n += int(r[1] - r[0])
	}
	return n
}

// keptTokens appends to kept the tokens of toks outside d's runs.
func (d *runDrops) keptTokens(toks, kept []token) []token {
	kept = slices.Grow(kept, len(toks)-d.left()) // copied once, not as it grows
	at := int32(0)
	for _, r := range d.ranges {
		kept = append(kept, toks[at:r[0]]...)
		at = r[1]
	}
	return append(kept, toks[at:]...)
}

// verify reports the names in d's runs that would make the read of kept
// (toks without the runs) other than what the full read gives lint (see
// above), by their indices in toks: none, and the read stands. The names
// the read holds are taken to be every word of kept (its roots' and
// values' names, each component of a qualified one, the names it binds,
// the names before "<" and of "Alias x{" among them). sites are toks'
// bindingCandidates: bindingAt is asked of those of a word of kept alone
// (a few hundred of a traits header's thousands), once over the rounds.
func (d *runDrops) verify(src []byte, toks, kept []token, sites []bindingCandidate) []int32 {
	var refused []int32
	// A file's tokens read hold a word per eight or so (171 words in the
	// 1,719 tokens read of mma_traits_sm90_gmma.hpp): sized once, the map
	// is not grown again and again. Its keys are the words' bytes in src,
	// not copies: the map lives while src is read.
	needed := make(map[string]bool, len(kept)/8)
	var shapes, ends wordShapes
	var memo wordMemo           // the words of kept known to be in needed
	var aliases map[string]bool // the words of "Alias x{" and "Alias x;" kept
	var aliasShapes wordShapes  // their first test
	for k := range kept {
		t := &kept[k] // not a copy: most tokens are looked at for their kind alone
		if t.kind != tIdent {
			continue
		}
		w := src[t.start:t.end]
		if _, known := memo.lookup(src, w); !known {
			if shapes[w[0]]&(1<<min(len(w), 63)) == 0 || !needed[string(w)] {
				needed[string(w)] = true
				shapes.add(string(w))
				ends.addEnd(string(w))
			}
			memo.remember(src, t.start, t.end, true)
		}
		if k+2 < len(kept) && kept[k+1].kind == tIdent && (kept[k+2].punct == '{' || kept[k+2].punct == ';') {
			if aliases == nil {
				aliases = map[string]bool{}
			}
			aliases[string(w)] = true
			aliasShapes.add(string(w))
		}
	}
	si := 0
	for ri, r := range d.ranges {
		for si < len(sites) && sites[si].at < r[0] {
			si++
		}
		for ; si < len(sites) && sites[si].at < r[1]; si++ {
			site := &sites[si]
			if n := uint64(1) << site.n; shapes[site.first]&n == 0 || ends[site.last]&n == 0 {
				continue // no word of kept
			}
			t := &toks[site.at]
			w := src[t.start:t.end]
			if !needed[string(w)] {
				continue
			}
			if !site.looked {
				site.look(src, toks)
			}
			if !site.outer || site.depth > d.depths[ri] && !site.nested && !(site.alias && aliasShapes.mayHave(string(w)) && aliases[string(w)]) {
				continue // bound nowhere, or declared inside braces of the run: visible there alone
			}
			refused = append(refused, site.at)
		}
	}
	return refused
}

// surelyRead reports, from the tokens around a name, what bindingAt says
// at most names of a file: an operand between punctuators, after one that
// is no type's end (">", "&", "*") and no half of "++"/"--", before one
// that assigns nothing ("=", a compound assignment's operator, "++", "--").
func surelyRead(src []byte, prev, next token) bool {
	if prev.punct == 0 || next.punct == 0 {
		return false
	}
	switch prev.punct {
	case '>', '&', '*', '+', '-':
		return false
	}
	switch next.punct {
	case '=', '+', '-', '*', '/', '%', '&', '|', '^', '<':
		return false
	}
	return true
}

// bindingCandidate is a name a run dropped around it may bind there
// (bindingAt at the run's own level) where bindingCandidates' quick
// rejections do not tell it cannot, with the braces open before it in the
// whole file and whether it lies in a template clause; once looked at,
// what bindingAt says of it: whether it may bind there (outer), inside
// braces of the run too (nested), and whether it is an alias's (using x =
// ...): wherever it is, the reader takes "x y{}" and "x y;" after it for
// declarations of y (cppReader.isAlias).
type bindingCandidate struct {
	at, depth int32
	// The name's first and last bytes and its length (63 for any longer):
	// verify tests its shape without a look at the token and the text.
	first, last, n       byte
	inClause             bool
	looked               bool // bindingAt was asked: outer, nested and alias hold its answer
	outer, nested, alias bool
}

// look asks bindingAt of the candidate.
func (c *bindingCandidate) look(src []byte, toks []token) {
	j := int(c.at)
	c.outer, c.nested = bindingAt(src, toks, j, c.inClause)
	c.alias = c.outer && tokenIs(src, toks, j-1, "using") && tokenIs(src, toks, j+1, "=")
	c.looked = true
}

// bindingCandidates are the names of toks a run dropped around them may
// bind, in order, bindingAt not asked yet (see bindingAt; a template
// clause's extent is the reader's, found without the run's bounds: within
// a run the clause's own ";" or "{" ends it first). verify asks bindingAt
// of those it needs, the words a round reads: a traits header's names are
// mostly none of them. sites is a buffer whose contents are not read.
func bindingCandidates(src []byte, toks []token, sites []bindingCandidate) []bindingCandidate {
	sites = sites[:0]
	depth, clauseEnd := int32(0), -1
	for j := range toks {
		t := &toks[j] // not a copy: most tokens are looked at for their kind alone
		if t.kind != tIdent {
			// Only a punctuator's punct is set: a brace, or none of these.
			if t.punct == '{' {
				depth++
			} else if t.punct == '}' {
				depth--
			}
			continue
		}
		if t.end-t.start == len("template") && string(src[t.start:t.end]) == "template" && j > clauseEnd {
			clauseEnd = templateClauseEnd(src, toks, j+1, len(toks))
		}
		if j+1 == len(toks) || toks[j+1].kind != tPunct {
			// Before a word (a type's before the declared name, a keyword)
			// or last: bindingAt looks further only after "+", "-" (++x,
			// --x), "struct" or "class" (most names are none of these).
			if j == 0 {
				continue
			}
			switch p := &toks[j-1]; p.punct {
			case '+', '-':
			case 0:
				if n := p.end - p.start; n != len("struct") && n != len("class") {
					continue
				}
			default:
				continue
			}
		} else {
			n := &toks[j+1]
			if n.end-n.start == 2 && src[n.start] == ':' || n.punct == '<' && src[t.start] != 'S' && src[t.start] != 'M' {
				continue // a qualifier, a template-id's name (bindingAt)
			}
			if j > 0 && surelyRead(src, toks[j-1], *n) {
				continue
			}
			if n.punct == '(' && j > 0 && textIs(src, &toks[j-1], "if") && !(j+2 < len(toks) && toks[j+2].punct == '=' && n.end == toks[j+2].start) {
				continue // if constexpr (: no binding (bindingAt)
			}
		}
		sites = append(sites, bindingCandidate{at: int32(j), depth: depth, first: src[t.start], last: src[t.end-1],
			n: byte(min(t.end-t.start, 63)), inClause: j < clauseEnd})
	}
	return sites
}

// templateClauseEnd is the index of the ">" that ends the template clause
// whose "<" is toks[lt], as the reader finds it (templateClause: parentheses
// passed over, a ";" or "{" inside ends it as no clause), looking no
// further than to; -1 where there is none.
func templateClauseEnd(src []byte, toks []token, lt, to int) int {
	if lt >= to || !isPunctByte(src, toks[lt], '<') {
		return -1
	}
	depth, parens := 0, 0
	for j := lt; j < to; j++ {
		t := toks[j]
		if t.punct == 0 {
			continue
		}
		switch t.punct {
		case '(':
			parens++
		case ')':
			parens--
		case '<':
			if parens == 0 {
				depth++
			}
		case '>':
			if parens == 0 {
				if depth--; depth == 0 {
					return j
				}
			}
		case ';', '{':
			if parens == 0 {
				return -1
			}
		}
	}
	return -1
}

// notDeclaringWord reports whether w, before a name, does not make it a
// declared one (cppReader.declares). A switch, not a map: bindingSites
// asks at most names of a file.
func notDeclaringWord(w []byte) bool {
	switch string(w) {
	case "return", "case", "goto", "else", "do", "throw", "co_return", "co_yield", "new", "delete", "operator", "sizeof":
		return true
	}
	return false
}

// bindingAt reports whether the name at toks[j] of a dropped run may be
// bound, assigned or made a template there where code outside the run
// sees it (outer), and whether inside braces of the run too (nested):
// false only where it surely is not. Anywhere: an assignment (x = ...,
// x += ..., ++x, x--, but a declaration's "=" inside braces, which binds
// the name in that block alone; template <...> using x = ... makes x a
// template for the whole file), a struct's or class's name (read from
// outside as x::Member), a templated atom's name before "<" (which makes
// it a template for the whole file). At the run's own level (outer alone;
// template clauses' parameters aside, visible in their entity alone): a
// name after a type (a word or ">", past const, volatile, &, &&, *)
// before "=", "{", "(", ";", ",", ")" or ":" (a binding, a declaration, a
// parameter). One pass answers both: bindingSites asks at most names of a
// file.
func bindingAt(src []byte, toks []token, j int, inClause bool) (outer, nested bool) {
	// The name's neighbours, looked at once (nil past either end), and
	// their one-byte punctuators (0 for none).
	var prev, next *token
	var pc, nc byte
	if j > 0 {
		prev = &toks[j-1]
		pc = prev.punct
	}
	if j+1 < len(toks) {
		next = &toks[j+1]
		nc = next.punct
	}
	if next == nil || next.kind != tPunct {
		// Every case below but a struct's name before "final" and "++x",
		// "--x" looks at a punctuator after the name: a name before a
		// word (a type's before the declared name, a keyword) is none.
		// The word before is tested by its punctuator byte and its length
		// first: most are neither "struct" nor "class".
		if prev == nil {
			return false, false
		}
		switch pc {
		case '+', '-':
		case 0:
			if n := prev.end - prev.start; n != len("struct") && n != len("class") || !textIs(src, prev, "struct") && !textIs(src, prev, "class") {
				return false, false
			}
		default:
			return false, false
		}
	}
	if pc == '.' || textIs(src, prev, "->") || textIs(src, prev, "::") || textIs(src, next, "::") {
		return false, false // a member, a qualified name, a qualifier
	}
	if nc == '<' {
		t := atomTemplate(string(src[toks[j].start:toks[j].end]))
		return t, t
	}
	if nc == '=' && textIs(src, prev, "using") && tokenIs(src, toks, j-2, ">") {
		return true, true // an alias template's name, wherever it is (cppReader.templateNames)
	}
	if inClause {
		return false, false
	}
	if textIs(src, prev, "struct") || textIs(src, prev, "class") {
		s := nc == '{' || nc == ':' || textIs(src, next, "final")
		return s, s
	}
	if textIs(src, next, "++") || textIs(src, next, "--") || nc == '+' && tokenIs(src, toks, j+2, "+") || nc == '-' && tokenIs(src, toks, j+2, "-") ||
		pc == '+' && tokenIs(src, toks, j-2, "+") || pc == '-' && tokenIs(src, toks, j-2, "-") {
		return true, true
	}
	if j+2 < len(toks) && next.kind == tPunct && next.end-next.start <= 2 && nc != '=' &&
		toks[j+2].punct == '=' && next.end == toks[j+2].start {
		return true, true // x += ..., x <<= ...
	}
	// A type before the name, past const, volatile, &, &&, *.
	k := j - 1
	for k >= 0 && isQualifierToken(src, toks[k]) {
		k--
	}
	typed := k >= 0 && (isPunctByte(src, toks[k], '>') || toks[k].kind == tIdent && !notDeclaringWord(src[toks[k].start:toks[k].end]))
	if nc == '=' {
		// Typed, a declaration: inside braces it binds the name there alone
		// (an alias template's name returned above).
		return true, !typed
	}
	if !typed || next == nil {
		return false, false
	}
	switch nc {
	case '(':
		// "if constexpr (": the reader binds no name before "(", and one
		// after "if" is no declaration's either.
		return !textIs(src, prev, "if"), false
	case '{', ';', ',', ')', ':':
		return true, false
	}
	return false, false
}

// textIs reports whether t (nil: none) is the token text.
func textIs(src []byte, t *token, text string) bool {
	return t != nil && t.end-t.start == len(text) && string(src[t.start:t.end]) == text
}

// tokenIs reports whether toks[k] is text (one byte long: a punctuator).
func tokenIs(src []byte, toks []token, k int, text string) bool {
	if k < 0 || k >= len(toks) {
		return false
	}
	if len(text) == 1 { // a constant punctuator at every call: one byte's test
		return toks[k].punct == text[0]
	}
	return toks[k].end-toks[k].start == len(text) && string(src[toks[k].start:toks[k].end]) == text
}

// denseCalls is the number of tokens per statement read (a call of the
// algebra, a using namespace) under which readCppRunsIn reads every token of
// a file of denseMinTokens or more without looking for runs: over CUTLASS's
// include/cute and examples/cute, every file with runs to leave out has 199
// tokens or more per call, and the files with fewer than 64 (the
// tutorials, layout.hpp) leave out too little to be read with runs. Which
// files are read in full changes the time the read takes alone, not what
// it finds. Smaller files cost little either way, and are looked at for
// runs as before: the fuzzers compare the read with runs left out with the
// full read on texts of a few KB.
const (
	denseCalls     = 64
	denseMinTokens = 2048
)

// maxRunRounds bounds how often readCppRunsIn reads again with more kept.
const maxRunRounds = 4

// readCppRunsIn is lint's read for findings with runs left out (Partial),
// or, where verify keeps refusing or little is left out, of every token,
// in scratch. The statements where verify refuses a name are read the next
// round (the binding of a name a kept statement reads, most often).
func readCppRunsIn(scratch *readScratch, src []byte, calls *Names) *File {
	scratch.toks = cppTokensFor(src, scratch.toks[:0], nil)
	read, structural, names := runMarks(src, scratch.toks, calls, scratch.structural, scratch.names, scratch.read)
	scratch.structural, scratch.names, scratch.read = structural, names, read
	if len(read) == 0 {
		// No call of calls among the tokens: no finding (lint_read.go).
		return &File{Partial: true}
	}
	pre := directives(src)
	if len(scratch.toks) >= denseMinTokens && len(read)*denseCalls > len(scratch.toks) {
		// Calls (and statements read) everywhere: the runs between them
		// would leave out little, and finding them would cost more.
		return readTokens(src, scratch, scratch.toks, true, &pre)
	}
	if pre.elses != nil {
		// An else written through a macro: a run may end before it, and
		// leave out the if constexpr whose else it is.
		return readTokens(src, scratch, scratch.toks, true, &pre)
	}
	for round := range maxRunRounds {
		d := dropRuns(src, scratch.toks, scratch.structural, read, &scratch.runs)
		if len(d.ranges) == 0 {
			break
		}
		if 2*d.left() < len(scratch.toks) {
			break // little left out: the runs' verification would cost more than it saves
		}
		scratch.kept = d.keptTokens(scratch.toks, scratch.kept[:0])
		if round == 0 {
			scratch.sites = bindingCandidates(src, scratch.toks, scratch.sites)
		}
		refused := d.verify(src, scratch.toks, scratch.kept, scratch.sites)
		if len(refused) == 0 {
			f := readTokens(src, scratch, scratch.kept, true, &pre)
			f.Partial = true
			return f
		}
		read = append(slices.Clone(read), refused...)
		slices.Sort(read)
	}
	return readTokens(src, scratch, scratch.toks, true, &pre)
}
