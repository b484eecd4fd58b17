package analysis

import (
	"sort"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// PathAt is the chain of nodes under root that contain offset, outermost
// first; empty when root does not contain it. A node contains the offsets
// from its start up to and including its end, so a cursor just after a
// name still finds the name.
func PathAt(root grammar.Node, offset int) []grammar.Node {
	var path []grammar.Node
	grammar.Inspect(root, func(n grammar.Node) bool {
		r := n.Span()
		if offset < int(r.Pos.Offset) || offset > int(r.End.Offset) {
			return false
		}
		path = append(path, n)
		return true
	})
	return path
}

// StatementAt is the index of the statement containing offset, or -1.
func (s *Sheet) StatementAt(offset int) int {
	f := s.File
	lo, hi := 0, len(f.Statements)
	for lo < hi {
		mid := (lo + hi) / 2
		if int(f.StatementRange(mid).End.Offset) < offset {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(f.Statements) && int(f.StatementRange(lo).Pos.Offset) <= offset {
		return lo
	}
	return -1
}

// EnvAt resolves names as statement i sees them: the latest binding of each
// name among the statements before it.
// It reads the sheet's names and allocates nothing per name: a hover runs
// it on every request, and a scope map of a long sheet costs more than
// the hover itself.
func (s *Sheet) EnvAt(i int) Env {
	return envAt{s, i}
}

// envAt is the scope before statement stmt of a sheet: the last binding of
// a name, then the bindings it replaced, latest first.
type envAt struct {
	sheet *Sheet
	stmt  int
}

func (e envAt) Lookup(name string) (layout.Value, bool, error) {
	sym := e.sheet.Names[name]
	for sym != nil && sym.Stmt >= e.stmt {
		sym = sym.earlier
	}
	if sym == nil {
		return nil, false, nil
	}
	return sym.Value, true, sym.Err
}

// Evaluable reports whether a node stands for a value of its own (as
// opposed to a part of one, such as a swizzle parameter or a basis mode).
func Evaluable(n grammar.Node) bool {
	switch n.(type) {
	case *grammar.Name, *grammar.Call, *grammar.Layout, *grammar.Composed, *grammar.Swizzle,
		*grammar.Tiler, *grammar.AngleList, *grammar.MLIRType, *grammar.Tuple, *grammar.Int, *grammar.Basis,
		*grammar.TirxLayout:
		return true
	}
	return false
}

// Target is what a position in a sheet points at: the innermost evaluable
// node, its statement, and its value there. The nodes' positions are
// relative to the statement (File.Range(Stmt, ...) places them).
type Target struct {
	Stmt  int           // the statement's index
	Node  grammar.Node  // the innermost evaluable node at the position
	Range grammar.Range // the node's range in the file
	Path  []grammar.Node
	Value layout.Value
	Err   error
	// Symbol is set when the node is a name (its binding or a use).
	Symbol *Symbol
	// Env resolves names as the target's statement sees them.
	Env Env
}

// TargetAt finds what offset points at and evaluates it; ok is false when
// the offset is in no statement or on nothing evaluable (a comment, "=").
// A binding's name evaluates to the binding's value.
func (s *Sheet) TargetAt(offset int) (Target, bool) {
	i := s.StatementAt(offset)
	if i < 0 {
		return Target{}, false
	}
	path := PathAt(s.File.Statements[i], offset-s.File.Base(i).Offset)
	k := targetIndex(path)
	if k < 0 {
		return Target{}, false
	}
	n := path[k]
	t := Target{Stmt: i, Node: n, Range: s.File.Range(i, n.Span()), Path: path[:k+1], Env: s.EnvAt(i)}
	if name, ok := n.(*grammar.Name); ok {
		t.Symbol = s.refAt(i, name)
		if t.Symbol == nil && k > 0 {
			// ldmatrix_x4 in bank_conflicts(..., ldmatrix_x4): a word the
			// operation reads, not a sheet name.
			if call, isCall := path[k-1].(*grammar.Call); isCall {
				if _, ok := KeywordMeaning(call.Fun.Name, name.Name); ok {
					t.Value = Keyword(name.Name)
					return t, true
				}
			}
		}
		if b, ok := s.File.Statements[i].(*grammar.Binding); ok && b.Name == name {
			t.Symbol = s.symbolAt(i)
			t.Value, t.Err = s.Results[i].Value, s.Results[i].Err
			return t, true
		}
	}
	t.Value, t.Err = Eval(n, t.Env)
	return t, true
}

// targetIndex picks the node of path a position stands for: the innermost
// name or call, where an operation's name stands for its call, and a piece
// of a literal (a shape leaf, a swizzle parameter) stands for the whole
// literal; -1 when nothing there has a value.
func targetIndex(path []grammar.Node) int {
	k := len(path) - 1
	for k >= 0 && !Evaluable(path[k]) {
		k--
	}
	if k < 0 {
		return -1
	}
	if k > 0 {
		if call, ok := path[k-1].(*grammar.Call); ok && call.Fun == path[k] {
			return k - 1
		}
	}
	for k > 0 && absorbsParts(path[k-1]) {
		k--
	}
	return k
}

// absorbsParts reports whether a node's children are parts of one value
// rather than values of their own.
func absorbsParts(n grammar.Node) bool {
	switch n.(type) {
	case *grammar.Layout, *grammar.Swizzle, *grammar.Basis, *grammar.Tuple, *grammar.Composed, *grammar.MLIRType,
		*grammar.TirxLayout, *grammar.TirxPart:
		return true
	}
	return false
}

// symbolAt is the symbol bound by statement i, or nil.
func (s *Sheet) symbolAt(i int) *Symbol {
	k := sort.Search(len(s.Symbols), func(k int) bool { return s.Symbols[k].Stmt >= i })
	if k < len(s.Symbols) && s.Symbols[k].Stmt == i {
		return s.Symbols[k]
	}
	return nil
}
