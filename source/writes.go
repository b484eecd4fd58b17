package source

import "slices"

// Writes are the places where a bound name may be bound again or changed
// without the reader recording a Binding there: C++ declarations it does
// not read as bindings (Foo x(3); std::tuple<int,int> x; for (auto x : r);
// auto [x, y] = ...), and Python assignments to a
// target it does not bind (a, x = f(); for x in ...; with ... as x;
// x += ...; x[0] = ...; x.append(...); import x; del x; global x). A
// value read from a binding with a write of its name in its scope may not
// be the value where it is used: analysis reports nothing it cannot be
// sure of there. A write is a guess from the tokens around the name, made
// generously: a read taken for a write costs a finding, never a false one.

// NameRef is an occurrence of a name.
type NameRef struct {
	Name string
	At   Range
}

// boundNames are the names of f's bindings, and the starts of the names
// its bindings are written at (those occurrences are the bindings).
func boundNames(f *File) (map[string]bool, map[int]bool) {
	names := make(map[string]bool, len(f.Bindings))
	at := make(map[int]bool, len(f.Bindings))
	for _, b := range f.Bindings {
		names[b.Name] = true
		if b.NameAt.End > b.NameAt.Start {
			at[b.NameAt.Start] = true
		}
	}
	return names, at
}

// nameSet is the set of the bound names, for the look-up of every
// identifier of a file: most are not bound, and the first byte and the
// length of a name turn most of them away. The map behind is made when
// first asked: a traits header binds 12,000 names, and the mentions of
// them that pass the first test are mostly their uses, which cppWrites
// turns away before it asks.
type nameSet struct {
	lengths  [256]uint64 // by first byte, bit min(len, 63) for each length of a name
	bindings []Binding
	names    map[string]bool
}

func newNameSet(bindings []Binding) *nameSet {
	s := &nameSet{bindings: bindings}
	for _, b := range bindings {
		if b.Name != "" {
			s.lengths[b.Name[0]] |= 1 << min(len(b.Name), 63)
		}
	}
	return s
}

func (s *nameSet) has(name string) bool {
	if !s.mayHave(name) {
		return false
	}
	if s.names == nil {
		s.names = make(map[string]bool)
		// A name bound again soon after (every struct of a traits header
		// binds ALayout) is met in recent first: a string comparison, no
		// hashing.
		var recent [256]string
		for _, b := range s.bindings {
			n := b.Name
			if n == "" {
				continue
			}
			h := (len(n)*7 + int(n[0]) + int(n[len(n)-1])*13) & 255
			if recent[h] == n {
				continue
			}
			recent[h] = n
			if !s.names[n] { // a look-up costs less than a store
				s.names[n] = true
			}
		}
	}
	return s.names[name]
}

// mayHave is has without the map: false when name is not in the set.
func (s *nameSet) mayHave(name string) bool {
	return name != "" && s.lengths[name[0]]&(1<<min(len(name), 63)) != 0
}

// bindingStarts is the sorted starts of the names bindings are written at.
func bindingStarts(bindings []Binding) []int {
	at := make([]int, 0, len(bindings))
	for _, b := range bindings {
		if b.NameAt.End > b.NameAt.Start {
			at = append(at, b.NameAt.Start)
		}
	}
	if !slices.IsSorted(at) {
		slices.Sort(at)
	}
	return at
}

// cppWrites finds the writes of bound names in C++ tokens. The tokens come
// in the order of their starts, so the binding starts are walked beside
// them (no map of the starts).
func (r *cppReader) cppWrites() []NameRef {
	if len(r.f.Bindings) == 0 {
		return nil
	}
	names, bindingAt := newNameSet(r.f.Bindings), bindingStarts(r.f.Bindings)
	clauses := r.clauses
	var out []NameRef
	for j, t := range r.toks {
		// The name's shape first, the map last: a traits header's bound
		// names (ALayout, tnspA) are written thousands of times, mostly
		// where they are bound or read, not declared again.
		if t.kind != tIdent || !names.mayHave(r.str[t.start:t.end]) {
			continue
		}
		for len(bindingAt) > 0 && bindingAt[0] < t.start {
			bindingAt = bindingAt[1:]
		}
		if len(bindingAt) > 0 && bindingAt[0] == t.start {
			continue // the binding itself
		}
		for len(clauses) > 0 && clauses[0].End <= t.start {
			clauses = clauses[1:]
		}
		if len(clauses) > 0 && clauses[0].Start <= t.start {
			continue // a template parameter: bound by its clause, or visible in it alone
		}
		if r.isPunctAt(j-1, ".") || r.isPunctAt(j-1, "->") || r.isPunctAt(j-1, "::") {
			continue // a member or a qualified name
		}
		if (r.declaresAny(j) || r.inStructuredBinding(j) || r.isEnumerator(j)) && names.has(r.str[t.start:t.end]) {
			out = append(out, NameRef{Name: r.word(j), At: Range{t.start, t.end}})
		}
	}
	return out
}

// declaresAny reports whether the name at i may be declared, whatever
// follows it: a type word or a template-id's ">" before it (see declares),
// or "decltype(...)" and other parenthesised types.
func (r *cppReader) declaresAny(i int) bool {
	if r.declares(i) {
		return true
	}
	j := r.typeWordBefore(i)
	return r.isPunctAt(j, ")") && (r.isPunctAt(i+1, ";") || r.isPunctAt(i+1, "{") || r.isPunctAt(i+1, "="))
}

// inStructuredBinding reports whether the name at i is one of the names of
// "auto [a, b] = ..." (after "auto", "auto&", "const auto&"...).
func (r *cppReader) inStructuredBinding(i int) bool {
	j := i - 1
	for j >= 0 && (r.isPunctAt(j, ",") || r.isIdent(j)) {
		if i-j > maxTargetTokens {
			return false // no structured binding names that many
		}
		j--
	}
	if !r.isPunctAt(j, "[") {
		return false
	}
	return r.isWordAt(r.typeWordBefore(j), "auto")
}

// pyWriteWords are the Python words after which a name is bound.
var pyWriteWords = setOf("for", "as", "global", "nonlocal", "del", "import", "lambda", "def", "class")

// pyMutators are the list and dict methods that change their object.
var pyMutators = setOf("append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update", "setdefault", "popitem")

// pyWrites finds the writes of bound names in Python tokens.
func pyWrites(p *parser, f *File) []NameRef {
	names, bindingAt := boundNames(f)
	var out []NameRef
	lineStart, depth := 0, 0
	for j, t := range p.toks {
		if t.indent >= 0 {
			lineStart, depth = j, 0
		}
		depth += bracketStep(p, j)
		if t.kind != tIdent || bindingAt[t.start] || !names[p.text(j)] || p.is(j-1, ".") {
			continue
		}
		if pyWrite(p, j, lineStart, depth) {
			out = append(out, NameRef{Name: p.text(j), At: Range{t.start, t.end}})
		}
	}
	return out
}

// pyWrite reports whether the name at j (on the logical line starting at
// token lineStart, at bracket depth depth there) may be bound or changed there.
func pyWrite(p *parser, j, lineStart, depth int) bool {
	adjacent := func(a, b int) bool { return b < len(p.toks) && p.toks[a].end == p.toks[b].start }
	// x = ..., x := ..., x += ... (at the line's bracket depth 0 for "=":
	// f(x=1) is a keyword argument).
	if p.is(j+1, "=") && depth == 0 {
		return true
	}
	if p.is(j+1, ":") && p.is(j+2, "=") && adjacent(j+1, j+2) {
		return true
	}
	if j+2 < len(p.toks) && p.toks[j+1].kind == tPunct && p.is(j+2, "=") && adjacent(j+1, j+2) && !p.is(j+1, "=") && !p.is(j+1, "!") && !p.is(j+1, "<") && !p.is(j+1, ">") {
		return true // augmented assignment
	}
	if p.is(j+1, ">") && p.is(j+2, ">") && p.is(j+3, "=") && adjacent(j+1, j+2) && adjacent(j+2, j+3) {
		return true // x >>= n
	}
	// x[...] = ..., x.attr = ..., x.append(...)
	if p.is(j+1, "[") {
		if k := closing(p, j+1); k > 0 && p.is(k+1, "=") {
			return true
		}
	}
	if p.is(j+1, ".") && p.isIdent(j+2) && (p.is(j+3, "=") || pyMutators[p.text(j+2)] && p.is(j+3, "(")) {
		return true
	}
	// for x in, with ... as x, import x, lambda x: and their lists; a
	// tuple target (a, x = ...).
	k := j - 1
	for k >= lineStart && (p.is(k, ",") || p.is(k, "(") || p.is(k, "[") || p.is(k, "*") || p.isIdent(k) && !pyWriteWords[p.text(k)]) {
		if j-k > maxTargetTokens {
			return true // a list too long to look through: taken for a target
		}
		k--
	}
	if k >= lineStart && p.isIdent(k) && pyWriteWords[p.text(k)] {
		return true
	}
	if k < lineStart {
		// The names from the line's start: a target list if a "=" at
		// depth 0 follows them.
		d := depth
		for m := j + 1; m < len(p.toks) && p.toks[m].kind != tNewline; m++ {
			if m-j > maxTargetTokens {
				return true
			}
			d += bracketStep(p, m)
			switch {
			case p.is(m, "=") && d == 0:
				return true
			case p.is(m, ",") || p.is(m, ")") || p.is(m, "]") || p.is(m, "(") || p.is(m, "[") || p.is(m, "*") || p.isIdent(m):
				continue
			}
			break
		}
	}
	if p.toks[lineStart].kind == tIdent && (p.text(lineStart) == "import" || p.text(lineStart) == "from") {
		return true
	}
	return false
}

// maxTargetTokens bounds the tokens looked through around a name for a
// target list (for a, b in; a, b = ...): a line of a million names costs
// no more than this per name.
const maxTargetTokens = 256

// bracketStep is how token k changes the bracket depth: +1 for an
// opener, -1 for a closer.
func bracketStep(p *parser, k int) int {
	switch {
	case p.is(k, "("), p.is(k, "["), p.is(k, "{"):
		return 1
	case p.is(k, ")"), p.is(k, "]"), p.is(k, "}"):
		return -1
	}
	return 0
}

// closing is the index of the bracket closing the one at open (-1 if none
// on the line).
func closing(p *parser, open int) int {
	depth := 0
	for k := open; k < len(p.toks) && p.toks[k].kind != tNewline && k-open <= maxTargetTokens; k++ {
		switch {
		case p.is(k, "("), p.is(k, "["), p.is(k, "{"):
			depth++
		case p.is(k, ")"), p.is(k, "]"), p.is(k, "}"):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}
