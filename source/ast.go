package source

// Node is an expression of the CuTe subset, with its byte range [Start, End).
type Node interface {
	Span() (start, end int)
}

// Range is a byte range in the file.
type Range struct{ Start, End int }

// Span returns the range.
func (r Range) Span() (int, int) { return r.Start, r.End }

// Contains reports whether off lies in the range (its end included, as
// editors place the cursor after the last character of a word).
func (r Range) Contains(off int) bool { return r.Start <= off && off <= r.End }

// Ident is a name, qualified or dotted as written (cute::make_layout,
// cute.make_layout, _8, kBlockM); Name is its last component.
type Ident struct {
	Range
	Full string // as written, without spaces
	Name string // the last component
}

// Qualifier is Full without the last component ("cute" for cute::Int, "" for x).
func (n *Ident) Qualifier() string {
	if len(n.Full) > len(n.Name) {
		q := n.Full[:len(n.Full)-len(n.Name)]
		for len(q) > 0 && (q[len(q)-1] == ':' || q[len(q)-1] == '.') {
			q = q[:len(q)-1]
		}
		return q
	}
	return ""
}

// Int is an integer literal. Static is true where the language makes it a
// compile-time constant in CuTe's sense (Python DSL literals).
type Int struct {
	Range
	Value  int64
	Static bool
}

// Call is a call, a template-id, a braced construction or a member call:
//
//	make_layout(s, d)     Fun=make_layout, Args
//	Layout<S, D>          Fun=Layout, TArgs, HasTArgs
//	Int<8>{}              Fun=Int, TArgs, Braced
//	get<0>(x)             Fun=get, TArgs, Args
//	x.shape()             Recv=x, Fun=shape, Args
//	cute.make_layout((4,8), stride=(8,1))   Args, Keywords
type Call struct {
	Range
	Recv     Node // receiver of a member call, nil otherwise
	Fun      *Ident
	TArgs    []Node
	HasTArgs bool
	Args     []Node
	Keywords []Keyword
	Paren    bool // written with (...)
	Braced   bool // written with {...}
}

// Keyword is a Python keyword argument (stride=(8,1)).
type Keyword struct {
	Name  string
	Value Node
}

// Binary is an arithmetic or comparison expression.
type Binary struct {
	Range
	Op   string
	X, Y Node
}

// Unary is -x, +x, !x or ~x.
type Unary struct {
	Range
	Op string
	X  Node
}

// Tuple is a Python tuple or list, (4, 8) or [0].
type Tuple struct {
	Range
	Elems []Node
}

// Attr is a Python attribute read that is not a call: layout.shape.
type Attr struct {
	Range
	X    Node
	Name string
}

// Binding is a name bound to a value: auto x = E; using X = T;
// Layout<...> x{}; constexpr int k = 64; x = E (Python).
type Binding struct {
	Name   string
	NameAt Range
	Value  Node // nil for an integer declared without a value (a parameter)
	Params []string
	// Visible is where the name can be used: from after its declaration to
	// the end of the enclosing block.
	Visible  Range
	Template bool // an alias template: Params are its template parameters
	// Unknown marks a run-time integer whose value is not known here: a
	// function parameter of integral type (C++), a def parameter (Python).
	Unknown bool
	// Reassigned marks a C++ variable assigned again after its declaration
	// (M = 512; M += 2; ++M): only a static value (one its type holds)
	// stays known. The three flags share a word: a Binding is 96 bytes,
	// and a traits header has 12,000.
	Reassigned bool
}

// File is what a reader found in one file.
type File struct {
	Bindings []Binding
	// Roots are the outermost expressions found, in source order (the
	// bindings' values among them).
	Roots []Node
	// Modules are the qualifiers that name CuTe (Python: cute, cutlass.cute,
	// cutlass and the aliases the file imports them as).
	Modules map[string]bool
	// Foreign are the C++ namespace blocks other than cute's (namespace
	// cutlass { ... }), where an unqualified Coord or Layout is that
	// namespace's own, unless the file says "using namespace cute" (UsesCute).
	Foreign  []Range
	UsesCute bool
	// Writes are the occurrences of bound names that may bind or change
	// them without being a Binding (writes.go): a value read through such
	// a name may not be the one its binding gives.
	Writes []NameRef
	// Disabled are the stretches of C++ that a build may not compile: "#if
	// 0" bodies and the #else of "#if 1" (preprocessor.go), and the
	// branches of "if constexpr", which a template's instantiations may
	// all discard (branches.go).
	Disabled []Range
	// Scopes are the bodies of the C++ structs and classes (struct Traits
	// { ... }): a binding directly in a body is a member, read from
	// outside as Traits::X.
	Scopes []Scope
	// ForLint marks a file read once, for findings and counts alone
	// (ReadCppForLint, ReadCppForCounts), not kept and read again after
	// edits.
	ForLint bool
	// Partial marks a read for lint's findings of the algebra alone
	// (ReadCppForLint) that left code out: a finding at a call of
	// FindingCalls comes out of it as out of the full read, but a binding
	// that only a stale comment reads may be missing (read it again with
	// ReadCppForCounts).
	Partial bool
	// Deferred marks a read for lint's findings (ReadCppForLint) that did
	// not look for Writes, which only the certainty of a call the algebra
	// rejects and a stale comment need (few calls are rejected):
	// ReadCppForCounts finds them, and the same Bindings and Roots.
	Deferred bool
}

// Scope is a named struct or class body, its braces included.
type Scope struct {
	Name string
	Body Range
}

// DisabledAt reports whether off lies in code a build may not compile.
func (f *File) DisabledAt(off int) bool {
	for _, r := range f.Disabled {
		if r.Start <= off && off < r.End {
			return true
		}
	}
	return false
}

// CuteAt reports whether an unqualified name at off may be CuTe's.
func (f *File) CuteAt(off int) bool {
	if f.UsesCute {
		return true
	}
	for _, r := range f.Foreign {
		if r.Start <= off && off < r.End {
			return false
		}
	}
	return true
}

// String is a string literal: it has no value, but it is not nothing
// (("a" "b") is not an empty tuple).
type String struct{ Range }

// MaxDepth bounds expression nesting; deeper text yields no node.
const MaxDepth = 200

// Inspect calls f on n and its children, depth first, while f returns true.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	switch n := n.(type) {
	case *Call:
		if n.Recv != nil {
			Inspect(n.Recv, f)
		}
		Inspect(n.Fun, f)
		for _, a := range n.TArgs {
			Inspect(a, f)
		}
		for _, a := range n.Args {
			Inspect(a, f)
		}
		for _, k := range n.Keywords {
			Inspect(k.Value, f)
		}
	case *Binary:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *Unary:
		Inspect(n.X, f)
	case *Tuple:
		for _, e := range n.Elems {
			Inspect(e, f)
		}
	case *Attr:
		Inspect(n.X, f)
	}
}

// Path is the chain of nodes of root whose ranges contain off, outermost
// first; empty when off is outside root.
func Path(root Node, off int) []Node {
	var path []Node
	Inspect(root, func(n Node) bool {
		s, e := n.Span()
		if off < s || off > e {
			return false
		}
		path = append(path, n)
		return true
	})
	return path
}
