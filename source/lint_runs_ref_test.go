package source

import (
	"reflect"
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
		if isStructural[t.punct] {
			at = append(at, int32(k))
		}
	}
	return at
}

// bindingSitesReference is bindingSites without its quick rejections.
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
		if outer, nested := bindingAt(src, toks, j, j < clauseEnd); outer {
			alias := tokenIs(src, toks, j-1, "using") && tokenIs(src, toks, j+1, "=")
			sites = append(sites, bindingSite{at: int32(j), depth: depth, nested: nested, alias: alias})
		}
	}
	return sites
}

// sameRunMarks fails t when runMarks or bindingSites find other tokens
// than the references over src's tokens.
func sameRunMarks(t *testing.T, name string, src []byte) {
	t.Helper()
	toks := cppTokens(src, nil)
	read, structural := runMarks(src, toks, runCalls, nil)
	if want := readAtReference(src, toks, runCalls); !reflect.DeepEqual(read, want) {
		t.Errorf("%s: runMarks read %v, want %v", name, read, want)
	}
	if want := structuralTokensReference(src, toks, nil); !reflect.DeepEqual(structural, want) {
		t.Errorf("%s: runMarks structural %v, want %v", name, structural, want)
	}
	if got, want := bindingSites(src, toks), bindingSitesReference(src, toks); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: bindingSites %v, want %v", name, got, want)
	}
}
