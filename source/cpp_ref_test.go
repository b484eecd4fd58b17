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

// readReference is read as first written: every rule asked at every name.
func (r *cppReader) readReference() {
	var braces []int // open '{' token indices
	var parens []int // open '(' token indices
	for i := 0; i < len(r.toks); {
		t := r.toks[i]
		if t.punct != 0 {
			switch t.punct {
			case '{':
				braces = append(braces, i)
			case '}':
				if len(braces) > 0 {
					braces = braces[:len(braces)-1]
				}
			case '(':
				parens = append(parens, i)
			case ')':
				if len(parens) > 0 {
					parens = parens[:len(parens)-1]
				}
			case ';':
				parens = parens[:0]
			}
			i++
			continue
		}
		if t.kind != tIdent {
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

// readTokensReference is readTokens with readReference.
func readTokensReference(src []byte, scratch *readScratch, toks []token, deferred bool) *File {
	// The words are slices of a copy: what is made from them (a cached
	// finding's message) may outlive src, and src may be written again.
	r := &cppReader{src: src, str: string(src), toks: toks}
	templates, bindings := r.templateNames()
	// Most bindings and roots are written with "=" (using X = ...), and a
	// template clause binds a few parameters: sized once, the slices are
	// not copied as they grow (a traits header binds 12,000 names).
	r.f.Bindings = make([]Binding, 0, bindings)
	r.f.Roots = make([]Node, 0, bindings)
	r.p = parser{src: src, str: r.str, toks: r.toks, cpp: true, templates: templates, templateShapes: cppTemplateShapes}
	if len(templates) != len(cppTemplates) {
		r.p.templateShapes = shapesOf(templates)
	}
	scratch.match = matchBrackets(r.p, scratch.match[:0])
	r.match = scratch.match
	r.readReference()
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
	pre := directives(src)
	r.elses = pre.elses
	r.f.Disabled = append(pre.disabled, r.constexprBranches()...)
	f := r.f // not &r.f: the tokens go back to the pool, the File stays
	return &f
}

// sameReadAsReference fails t when ReadCpp finds anything other than
// the read of readReference (quiet's names skipped or not).
func sameReadAsReference(t *testing.T, name string, src []byte) {
	t.Helper()
	scratch := new(readScratch)
	toks := cppTokens(src, nil)
	want := readTokensReference(src, scratch, toks, false)
	if got := ReadCpp(src); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: ReadCpp differs from the reference read: %d bindings, %d roots; want %d, %d", name, len(got.Bindings), len(got.Roots), len(want.Bindings), len(want.Roots))
	}
}
