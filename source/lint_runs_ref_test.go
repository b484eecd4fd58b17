package source

import (
	"reflect"
	"slices"
	"testing"
)

// The passes of lint's runs as they were first written, one pass over
// every token each: runMarks and bindingSites must find what they found.

// readAtReference is runMarks' read: the names of calls before "(" or "<",
// the namespace of "using namespace".
func readAtReference(src []byte, toks []token, calls *Names) []int32 {
	shapes := shapesOf(calls.set)
	shapes.add("namespace")
	var memo wordMemo
	var at []int32
	for k, t := range toks {
		if t.kind != tIdent || k+1 == len(toks) {
			continue
		}
		w := src[t.start:t.end]
		if shapes[w[0]]&(1<<min(len(w), 63)) == 0 {
			continue // neither a call's name nor "namespace"
		}
		called, known := memo.lookup(src, w)
		if !known {
			called = calls.set[string(w)]
			memo.remember(src, t.start, t.end, called)
		}
		if called {
			if n := toks[k+1].punct; n == '(' || n == '<' {
				at = append(at, int32(k))
			}
		}
		if string(w) == "namespace" && k > 0 && toks[k-1].kind == tIdent && string(src[toks[k-1].start:toks[k-1].end]) == "using" {
			at = append(at, int32(k))
		}
	}
	return at
}

// structuralTokensReference is runMarks' structural: the brackets and ";".
func structuralTokensReference(src []byte, toks []token, at []int32) []int32 {
	for k, t := range toks {
		if structuralStep[t.punct] != 0 {
			at = append(at, int32(k))
		}
	}
	return at
}

// bindingSite is a name a run dropped around it may bind there, as the
// reference finds it (bindingSitesReference): with the braces open before
// it, whether it may inside braces of the run too, and whether it is an
// alias's.
type bindingSite struct {
	at     int32
	depth  int32
	nested bool
	alias  bool
}

// bindingSites are the bindingCandidates of toks that bindingAt says may
// bind, as bindingSites (the reference's) are.
func bindingSites(src []byte, toks []token) []bindingSite {
	var sites []bindingSite
	for _, c := range bindingCandidates(src, toks, nil) {
		if c.look(src, toks); c.outer {
			sites = append(sites, bindingSite{at: c.at, depth: c.depth, nested: c.nested, alias: c.alias})
		}
	}
	return sites
}

// bindingSitesReference is bindingSites without its quick rejections,
// over bindingAtReference.
func bindingSitesReference(src []byte, toks []token) []bindingSite {
	var sites []bindingSite
	depth, clauseEnd := int32(0), -1
	for j, t := range toks {
		switch t.kind {
		case tPunct:
			if isPunctByte(src, t, '{') {
				depth++
			} else if isPunctByte(src, t, '}') {
				depth--
			}
			continue
		case tIdent:
		default:
			continue
		}
		w := src[t.start:t.end]
		if string(w) == "template" && j > clauseEnd {
			clauseEnd = templateClauseEnd(src, toks, j+1, len(toks))
		}
		if j+1 < len(toks) {
			if n := toks[j+1]; n.kind == tPunct && (n.end-n.start == 2 && src[n.start] == ':' || n.punct == '<' && w[0] != 'S' && w[0] != 'M') {
				continue // a qualifier, a template-id's name (bindingAt)
			}
		}
		if j > 0 && j+1 < len(toks) && surelyRead(src, toks[j-1], toks[j+1]) {
			continue
		}
		if outer, nested := bindingAtReference(src, toks, j, j < clauseEnd); outer {
			alias := tokenIs(src, toks, j-1, "using") && tokenIs(src, toks, j+1, "=")
			sites = append(sites, bindingSite{at: int32(j), depth: depth, nested: nested, alias: alias})
		}
	}
	return sites
}

// bindingAtReference is bindingAt as first written: each neighbour looked
// at again by each of its tests.
func bindingAtReference(src []byte, toks []token, j int, inClause bool) (outer, nested bool) {
	is := func(k int, text string) bool { return tokenIs(src, toks, k, text) }
	if j+1 == len(toks) || toks[j+1].kind != tPunct {
		// Every case below but a struct's name before "final" and "++x",
		// "--x" looks at a punctuator after the name: a name before a
		// word (a type's before the declared name, a keyword) is none.
		// The word before is tested by its punctuator byte and its length
		// first: most are neither "struct" nor "class".
		if j == 0 {
			return false, false
		}
		switch p := toks[j-1]; p.punct {
		case '+', '-':
		case 0:
			if n := p.end - p.start; n != len("struct") && n != len("class") || !is(j-1, "struct") && !is(j-1, "class") {
				return false, false
			}
		default:
			return false, false
		}
	}
	if is(j-1, ".") || is(j-1, "->") || is(j-1, "::") || is(j+1, "::") {
		return false, false // a member, a qualified name, a qualifier
	}
	if is(j+1, "<") {
		t := atomTemplate(string(src[toks[j].start:toks[j].end]))
		return t, t
	}
	if is(j-1, "using") && is(j-2, ">") && is(j+1, "=") {
		return true, true // an alias template's name, wherever it is (cppReader.templateNames)
	}
	if inClause {
		return false, false
	}
	if is(j-1, "struct") || is(j-1, "class") {
		s := is(j+1, "{") || is(j+1, ":") || is(j+1, "final")
		return s, s
	}
	if is(j+1, "++") || is(j+1, "--") || is(j+1, "+") && is(j+2, "+") || is(j+1, "-") && is(j+2, "-") ||
		is(j-1, "+") && is(j-2, "+") || is(j-1, "-") && is(j-2, "-") {
		return true, true
	}
	if j+2 < len(toks) && toks[j+1].kind == tPunct && toks[j+1].end-toks[j+1].start <= 2 && !is(j+1, "=") &&
		isPunctByte(src, toks[j+2], '=') && toks[j+1].end == toks[j+2].start {
		return true, true // x += ..., x <<= ...
	}
	// A type before the name, past const, volatile, &, &&, *.
	k := j - 1
	for k >= 0 && isQualifierToken(src, toks[k]) {
		k--
	}
	typed := k >= 0 && (isPunctByte(src, toks[k], '>') || toks[k].kind == tIdent && !notDeclaringWord(src[toks[k].start:toks[k].end]))
	if is(j+1, "=") {
		// Typed, a declaration: inside braces it binds the name there alone
		// (an alias template's name returned above).
		return true, !typed
	}
	if !typed || j+1 >= len(toks) {
		return false, false
	}
	switch toks[j+1].punct {
	case '(':
		return !is(j-1, "if"), false
	case '{', ';', ',', ')', ':':
		return true, false
	}
	return false, false
}

// dropRunsReference is dropRuns as first written: a run that goes on
// past another ";" is taken off the list and put back longer.
func dropRunsReference(src []byte, toks []token, structural, readAt []int32) runDrops {
	var d runDrops
	levels := make([]runLevel, 1, 16)
	levels[0] = runLevel{clean: true}
	dirty := func() {
		for k := range levels {
			levels[k].clean, levels[k].tainted = false, true
		}
	}
	braces := int32(0) // as bindingSites counts them
	for _, k32 := range structural {
		k, t := int(k32), toks[k32]
		if len(readAt) > 0 && readAt[0] <= k32 {
			for len(readAt) > 0 && readAt[0] <= k32 {
				readAt = readAt[1:]
			}
			dirty()
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
			levels = append(levels, runLevel{kind: c, runStart: int32(k + 1), depth: braces, clean: true, code: code, open: int32(k)})
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
					for len(d.ranges) > 0 && d.ranges[len(d.ranges)-1][0] >= l.runStart {
						d.ranges = d.ranges[:len(d.ranges)-1]
						d.levels = d.levels[:len(d.levels)-1]
						d.depths = d.depths[:len(d.depths)-1]
					}
					d.ranges = append(d.ranges, [2]int32{l.runStart, int32(k)})
					d.levels = append(d.levels, int32(top))
					d.depths = append(d.depths, l.depth)
				}
				levels = levels[:top]
				continue
			}
			// A closer without its opener on top: brackets pair across
			// what would be runs. Nothing open now is dropped.
			dirty()
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
				for len(d.ranges) > 0 && d.ranges[len(d.ranges)-1][0] >= from {
					d.ranges = d.ranges[:len(d.ranges)-1] // a run inside this one
					d.levels = d.levels[:len(d.levels)-1]
					d.depths = d.depths[:len(d.depths)-1]
				}
				d.ranges = append(d.ranges, [2]int32{from, int32(k)})
				d.levels = append(d.levels, int32(len(levels)-1))
				d.depths = append(d.depths, top.depth)
			}
		}
	}
	return d
}

// verifyReference is verify as first written.
func (d *runDrops) verifyReference(src []byte, toks, kept []token, sites []bindingSite) []int32 {
	var refused []int32
	needed := map[string]bool{}
	var shapes wordShapes
	var memo wordMemo           // the words of kept known to be in needed
	var aliases map[string]bool // the words of "Alias x{" and "Alias x;" kept
	for k, t := range kept {
		if t.kind == tIdent {
			w := src[t.start:t.end]
			if _, known := memo.lookup(src, w); !known {
				if shapes[w[0]]&(1<<min(len(w), 63)) == 0 || !needed[string(w)] {
					needed[string(w)] = true
					shapes.add(string(w))
				}
				memo.remember(src, t.start, t.end, true)
			}
			if k+2 < len(kept) && kept[k+1].kind == tIdent && (isPunctByte(src, kept[k+2], '{') || isPunctByte(src, kept[k+2], ';')) {
				if aliases == nil {
					aliases = map[string]bool{}
				}
				aliases[string(w)] = true
			}
		}
	}
	si := 0
	for ri, r := range d.ranges {
		for si < len(sites) && sites[si].at < r[0] {
			si++
		}
		for ; si < len(sites) && sites[si].at < r[1]; si++ {
			site := sites[si]
			t := toks[site.at]
			w := src[t.start:t.end]
			if site.depth > d.depths[ri] && !site.nested && !(site.alias && aliases[string(w)]) {
				continue // declared inside braces of the run: visible there alone
			}
			if shapes[w[0]]&(1<<min(len(w), 63)) != 0 && needed[string(w)] {
				refused = append(refused, site.at)
			}
		}
	}
	return refused
}

// sameRunMarks fails t when runMarks or bindingSites find other tokens
// than the references over src's tokens.
func sameRunMarks(t *testing.T, name string, src []byte) {
	t.Helper()
	toks := cppTokens(src, nil)
	read, structural, _ := runMarks(src, toks, runCalls, nil, make([]int32, 3, 5), []int32{1, 2})
	if want := readAtReference(src, toks, runCalls); !slices.Equal(read, want) {
		t.Errorf("%s: runMarks read %v, want %v", name, read, want)
	}
	if want := structuralTokensReference(src, toks, nil); !slices.Equal(structural, want) {
		t.Errorf("%s: runMarks structural %v, want %v", name, structural, want)
	}
	// The runs around the calls, and around more statements read (every
	// seventh name, as rounds of refusals add them).
	more := slices.Clone(read)
	for k := range toks {
		if toks[k].kind == tIdent && k%7 == 0 {
			more = append(more, int32(k))
		}
	}
	slices.Sort(more)
	buf := new(runBuffers) // reused, as the read's scratch is
	for _, marks := range [][]int32{more, read} {
		got, want := dropRuns(src, toks, structural, marks, buf), dropRunsReference(src, toks, structural, marks)
		if !slices.Equal(got.ranges, want.ranges) || !slices.Equal(got.levels, want.levels) || !slices.Equal(got.depths, want.depths) {
			t.Errorf("%s: dropRuns %v, want %v", name, got.ranges, want.ranges)
		}
		kept, sites := want.keptTokens(toks, nil), bindingSitesReference(src, toks)
		if got, want := want.verify(src, toks, kept, bindingCandidates(src, toks, nil)), want.verifyReference(src, toks, kept, sites); !slices.Equal(got, want) {
			t.Errorf("%s: verify refuses %v, want %v", name, got, want)
		}
	}
	if got, want := bindingSites(src, toks), bindingSitesReference(src, toks); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: bindingSites %v, want %v", name, got, want)
	}
}
