package source

import (
	"reflect"
	"testing"
)

// templateNamesReference is templateNames as first written: every name
// compared with "template", "using" and the atoms' first bytes in the loop.
func (r *cppReader) templateNamesReference() (names map[string]bool, bindings int) {
	names = cppTemplates
	bindings = 8
	add := func(name string) {
		if len(names) == len(cppTemplates) {
			copied := make(map[string]bool, len(cppTemplates)+4)
			for k := range cppTemplates {
				copied[k] = true
			}
			names = copied
		}
		names[name] = true
	}
	for i := 0; i+1 < len(r.toks); i++ {
		t := r.toks[i]
		if t.kind != tIdent {
			if t.punct == '=' {
				bindings++
			}
			continue
		}
		w := r.str[t.start:t.end]
		if w == "template" {
			bindings += 3
			continue
		}
		if w[0] == 'S' || w[0] == 'M' {
			// SM80_CP_ASYNC_CACHEALWAYS<uint128_t>: a templated atom op.
			if r.isPunctAt(i+1, "<") && atomTemplate(w) && !names[w] { // MMA_Traits<: no atom, no look-up
				add(w)
			}
			continue
		}
		if w != "using" || i == 0 || !r.isPunctAt(i-1, ">") {
			continue
		}
		if i+2 < len(r.toks) && r.toks[i+1].kind == tIdent && r.isPunctAt(i+2, "=") {
			add(r.str[r.toks[i+1].start:r.toks[i+1].end])
		}
	}
	return names, bindings
}

// sameTemplateNames fails t when templateNames finds other names or
// another count than the reference over src's tokens.
func sameTemplateNames(t *testing.T, name string, src []byte) {
	t.Helper()
	r := &cppReader{src: src, str: string(src), toks: cppTokens(src, nil)}
	names, bindings := r.templateNames()
	wantNames, wantBindings := r.templateNamesReference()
	if !reflect.DeepEqual(names, wantNames) || bindings != wantBindings {
		t.Errorf("%s: templateNames %d names, %d bindings; want %d, %d", name, len(names), bindings, len(wantNames), wantBindings)
	}
}
