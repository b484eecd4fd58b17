package analysis

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// SymbolAt is the binding that the name at offset defines or reads, or nil.
func (s *Sheet) SymbolAt(offset int) *Symbol {
	i := s.StatementAt(offset)
	if i < 0 {
		return nil
	}
	path := PathAt(s.File.Statements[i], offset-s.File.Base(i).Offset)
	if len(path) == 0 {
		return nil
	}
	name, ok := path[len(path)-1].(*grammar.Name)
	if !ok {
		return nil
	}
	if b, ok := s.File.Statements[i].(*grammar.Binding); ok && b.Name == name {
		return s.symbolAt(i)
	}
	return s.refAt(i, name)
}

// References are the ranges where sym is read, and its binding's name first
// when includeDecl is set.
func (s *Sheet) References(sym *Symbol, includeDecl bool) []grammar.Range {
	var out []grammar.Range
	if includeDecl {
		out = append(out, s.File.Range(sym.Stmt, sym.Def.Name.Range))
	}
	s.eachUse(sym, func(i int, u *grammar.Name) { out = append(out, s.File.Range(i, u.Range)) })
	return out
}

// identifier matches a sheet name. It is compiled on first use (a rename),
// not at the start of every command.
var identifier = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// Rename is the edits that rename the binding at offset, and every use of
// it, to newName; an error says why it cannot be done.
func (s *Sheet) Rename(offset int, newName string) ([]Edit, error) {
	sym := s.SymbolAt(offset)
	if sym == nil {
		return nil, fmt.Errorf("there is no sheet name here to rename")
	}
	switch {
	case !identifier().MatchString(newName):
		return nil, fmt.Errorf("%q is not a name: use letters, digits and _, not starting with a digit", newName)
	case newName == "assert" || newName == "is" || newName == "o":
		return nil, fmt.Errorf("%q is a keyword of sheets", newName)
	case tags[newName] != "":
		return nil, fmt.Errorf("%q is a layout tag", newName)
	}
	if _, isOp := LookupOp(newName); isOp {
		return nil, fmt.Errorf("%q is a CuTe operation", newName)
	}
	for _, other := range s.Symbols {
		if other.Name == newName && other != sym {
			return nil, fmt.Errorf("%s is already bound on line %d; renaming would change which binding its uses read", newName, other.Line)
		}
	}
	var edits []Edit
	for _, r := range s.References(sym, true) {
		edits = append(edits, Edit{Range: r, NewText: newName})
	}
	return edits, nil
}

// Outline is one entry of a document's outline: a binding and its value.
type Outline struct {
	Name   string
	Range  grammar.Range // the whole statement
	Select grammar.Range // the name
	Kind   string        // what the value is: "layout", "composed layout", ...
	Detail string        // the value, or the error
}

// Outline lists the sheet's bindings in order.
func (s *Sheet) Outline() []Outline {
	out := make([]Outline, 0, len(s.Symbols))
	for _, sym := range s.Symbols {
		o := Outline{Name: sym.Name, Range: s.File.Range(sym.Stmt, sym.Def.Range), Select: s.File.Range(sym.Stmt, sym.Def.Name.Range)}
		switch {
		case sym.Err != nil:
			o.Kind, o.Detail = "error", CapMessage(sym.Err.Error())
		case sym.Value != nil:
			o.Kind, o.Detail = kindOf(sym.Value), Show(sym.Value, ShowDetailBytes)
		}
		out = append(out, o)
	}
	return out
}

// InlayHint is a piece of text shown after a statement: what it evaluated to.
type InlayHint struct {
	At    grammar.Position
	Label string
}

// maxInlayLength keeps hints to a glance; the hover has the whole value.
const maxInlayLength = 60

// InlayHints are the results of the bindings and expression statements
// that lie within [start, end) (byte offsets), shown when the value is not
// written out already (a binding of a literal shows nothing).
func (s *Sheet) InlayHints(start, end int) []InlayHint {
	var out []InlayHint
	for i, st := range s.File.Statements {
		r := s.File.StatementRange(i)
		if int(r.End.Offset) < start || int(r.Pos.Offset) > end {
			continue
		}
		res := s.Results[i]
		if res.Value == nil {
			continue
		}
		var expr grammar.Node
		switch st := st.(type) {
		case *grammar.Binding:
			expr = st.Value
		case *grammar.ExprStmt:
			expr = st.X
		default:
			continue
		}
		if !computes(expr) {
			continue
		}
		s := layout.FormatLimited(res.Value, false, maxInlayLength)
		label := s.Text
		if s.Cut || len(label) > maxInlayLength {
			label = truncateUTF8(label, maxInlayLength-1) + "…"
		}
		out = append(out, InlayHint{At: r.End, Label: " = " + label})
	}
	return out
}

// computes reports whether an expression's value differs from its text: a
// call, a name, a composed chain.
func computes(n grammar.Node) bool {
	switch n := n.(type) {
	case *grammar.Call, *grammar.Name:
		return true
	case *grammar.Composed:
		for _, st := range n.Stages {
			if computes(st) {
				return true
			}
		}
	}
	return false
}
