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
func readAtReference(src []byte, toks []token, calls map[string]bool) []int32 {
	shapes := shapesOf(calls)
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
			called = calls[string(w)]
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
	case '{', '(', ';', ',', ')', ':':
		return true, false
	}
	return false, false
}

// sameRunMarks fails t when runMarks or bindingSites find other tokens
// than the references over src's tokens.
func sameRunMarks(t *testing.T, name string, src []byte) {
	t.Helper()
	toks := cppTokens(src, nil)
	read, structural, _ := runMarks(src, toks, runCalls, nil, make([]int32, 3, 5))
	if want := readAtReference(src, toks, runCalls); !reflect.DeepEqual(read, want) {
		t.Errorf("%s: runMarks read %v, want %v", name, read, want)
	}
	if want := structuralTokensReference(src, toks, nil); !slices.Equal(structural, want) {
		t.Errorf("%s: runMarks structural %v, want %v", name, structural, want)
	}
	if got, want := bindingSites(src, toks), bindingSitesReference(src, toks); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: bindingSites %v, want %v", name, got, want)
	}
}
