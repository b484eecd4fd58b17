package analysis

import (
	"strings"

	"github.com/cute-lsp/cute-lsp/source"
)

// A finding needs more certainty than a hover: the value of every name an
// operand reads must be the value its binding gives wherever the code runs.
// The reader resolves a name to the latest binding visible at its place;
// that is the value unless the name is bound or changed again somewhere
// the reader does not follow:
//
//   - C++: another binding of the name in the same block (the branches of
//     an #if read one after the other), or a declaration the reader does
//     not read as a binding (Foo x(3); for (auto x : r); auto [x, y] = ...)
//     between the binding and the use;
//   - Python: the name bound again anywhere in the binding's scope (an
//     if/else, a loop: Python has no block scope, so the binding before
//     the use is not the only one that may reach it), or written to in a
//     way the reader does not bind (a, x = f(); for x in ...; x += ...;
//     x.append(...)).
//
// source.File.Writes lists those writes; trusted checks every name an
// expression reads, through the bindings it reads them from.

// trusted reports whether every name n reads (through the bindings it
// reads, transitively) has the value its binding gives.
func (c *Code) trusted(n source.Node) bool {
	return c.trustedFrom(n, map[int]bool{}, 0)
}

func (c *Code) trustedFrom(n source.Node, seen map[int]bool, depth int) bool {
	if depth > maxEvalDepth {
		return false
	}
	ok := true
	source.Inspect(n, func(x source.Node) bool {
		if call, isCall := x.(*source.Call); isCall && call.Recv == nil && !castNames[call.Fun.Name] && !c.importedFromCute(call.Fun) {
			if _, bound := c.lookup(call.Fun.Name, call.Start); !bound {
				ok = false // make_layout(...) in Python without an import from CuTe: maybe the file's own
			}
		}
		id, isIdent := x.(*source.Ident)
		if !ok || !isIdent {
			return ok
		}
		name, use := id.Name, id.Start
		i, found := 0, false
		if id.Qualifier() != "" && !c.python {
			// Traits::X: the member of a struct of this file, read where
			// its struct ends; cute::Int: not a name bound here.
			if i, found = c.scopedBinding(id); !found {
				return true
			}
			use = c.File.Bindings[i].Visible.End
		} else {
			if id.Qualifier() != "" {
				name = firstDotted(id.Full) // L.shape reads L
			}
			if i, found = c.lookup(name, id.Start); !found {
				return true
			}
		}
		if !c.bindingTrusted(i, use) {
			ok = false
			return false
		}
		if !seen[i] {
			seen[i] = true
			ok = c.valueTrusted(i, seen, depth)
		} else if t, done := c.trustMemo[i]; done && !t {
			ok = false // met before on another path (a value in progress is a cycle: no value)
		}
		return ok
	})
	return ok
}

// valueTrusted reports whether the names binding i's value reads are
// trusted (memoized: it does not depend on where the binding is used).
func (c *Code) valueTrusted(i int, seen map[int]bool, depth int) bool {
	if t, ok := c.trustMemo[i]; ok {
		return t
	}
	v := c.File.Bindings[i].Value
	t := v == nil || !c.pythonList(v) && c.trustedFrom(v, seen, depth+1)
	if c.trustMemo == nil {
		c.trustMemo = map[int]bool{}
	}
	c.trustMemo[i] = t
	return t
}

// pythonList reports whether n is a Python list display ([2, 2]): a
// list may be changed by any function it is passed to.
func (c *Code) pythonList(n source.Node) bool {
	start, _ := n.Span()
	_, isTuple := n.(*source.Tuple)
	return c.python && isTuple && start < len(c.src) && c.src[start] == '['
}

// bindingTrusted reports whether binding i's value is the value of its
// name at use.
func (c *Code) bindingTrusted(i, use int) bool {
	b := c.File.Bindings[i]
	for _, j := range c.byName[b.Name] {
		if j == i {
			continue
		}
		other := c.File.Bindings[j]
		if c.python {
			if b.NameAt.Start < other.NameAt.Start && other.NameAt.Start < b.Visible.End {
				return false
			}
		} else if other.Visible.End == b.Visible.End {
			return false
		}
	}
	scopeEnd := use
	if c.python {
		scopeEnd = b.Visible.End
	}
	for _, w := range c.writesOf(b.Name) {
		if b.NameAt.End <= w.Start && w.Start < scopeEnd {
			return false
		}
	}
	return true
}

// writesOf are the writes of name (source.File.Writes), grouped by name on
// first use.
func (c *Code) writesOf(name string) []source.Range {
	if c.writes == nil {
		c.complete()
		c.writes = map[string][]source.Range{}
		for _, w := range c.File.Writes {
			c.writes[w.Name] = append(c.writes[w.Name], w.At)
		}
	}
	return c.writes[name]
}

// expectsFailure reports whether the Python code at off runs inside a
// block that expects an exception (with pytest.raises(...):, with
// self.assertRaises(...):): a call there that CuTe rejects is the test's point.
func (c *Code) expectsFailure(off int) bool {
	if !c.python {
		return false
	}
	if c.raising == nil {
		c.raising = raisingBlocks(c.src)
	}
	for _, r := range c.raising {
		if r.Start <= off && off < r.End {
			return true
		}
	}
	return false
}

// raisingBlocks are the bodies of the "with ... raises ...:" blocks of a
// Python file (one pass over its lines, with a stack of open blocks).
func raisingBlocks(src []byte) []source.Range {
	out := []source.Range{}
	type open struct{ indent, start int }
	var stack []open
	for at := 0; at < len(src); {
		end := at
		for end < len(src) && src[end] != '\n' {
			end++
		}
		line := src[at:end]
		text := strings.TrimSpace(string(line))
		if text != "" && !strings.HasPrefix(text, "#") {
			indent := indentOf(line)
			for len(stack) > 0 && indent <= stack[len(stack)-1].indent {
				out = append(out, source.Range{Start: stack[len(stack)-1].start, End: at})
				stack = stack[:len(stack)-1]
			}
			if strings.HasPrefix(text, "with ") && strings.Contains(strings.ToLower(text), "raises") && strings.HasSuffix(text, ":") {
				stack = append(stack, open{indent, end})
			}
		}
		at = end + 1
	}
	for _, o := range stack {
		out = append(out, source.Range{Start: o.start, End: len(src)})
	}
	return out
}

// indentOf is the number of leading blanks of a line.
func indentOf(line []byte) int {
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	return n
}

// importedFromCute reports whether a called name is CuTe's for certain: in
// C++ always (the reader already left out other namespaces); in Python a
// dotted name (cute.logical_divide, checked by the reader against the
// modules imported as CuTe's) or a name the file imports from a CuTe
// module ("from cutlass.cute import logical_divide", or "*"): a bare
// logical_divide may be the file's own function.
func (c *Code) importedFromCute(fun *source.Ident) bool {
	if !c.python || fun.Qualifier() != "" {
		return true
	}
	if c.fromCute == nil {
		c.fromCute = cuteImports(c.src)
	}
	return c.fromCute[fun.Name] || c.fromCute["*"]
}

// cuteImports are the names a Python file imports from a module whose
// name ends in "cute" under their own names (and "*" for a star import).
func cuteImports(src []byte) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(string(src), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 4 || fields[0] != "from" || !strings.HasSuffix(fields[1], "cute") || fields[2] != "import" {
			continue
		}
		list := strings.Trim(strings.Join(fields[3:], " "), "()\\ ")
		for _, item := range strings.Split(list, ",") {
			words := strings.Fields(item)
			if len(words) == 1 || len(words) == 3 && words[1] == "as" && words[2] == words[0] {
				out[words[0]] = true
			}
		}
	}
	return out
}
