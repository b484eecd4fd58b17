package analysis

import (
	"errors"
	"fmt"
	"sort"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Sheet is the analysis of one layout sheet (.cute file): every statement
// evaluated in order, the names it binds, and the findings.
type Sheet struct {
	File     *grammar.File
	Results  []Result                  // one per statement, in order
	Symbols  []*Symbol                 // every binding, in order
	Names    map[string]*Symbol        // the last binding of each name
	Refs     map[*grammar.Name]*Symbol // each use of a name: the binding it reads (nil when undefined)
	Findings []Finding
}

// Result is what one statement evaluated to.
type Result struct {
	Stmt  grammar.Stmt
	Value layout.Value // the binding's or expression's value; nil on failure or for asserts
	Err   error        // the statement's failure, if any
}

// Symbol is one binding of a sheet name: where it is bound and where it is read.
type Symbol struct {
	Name  string
	Def   *grammar.Binding
	Stmt  int // the binding's statement index
	Uses  []*grammar.Name
	Value layout.Value
	Err   error
}

// scopeEnv resolves names to the bindings evaluated so far.
type scopeEnv map[string]*Symbol

func (e scopeEnv) Lookup(name string) (layout.Value, bool, error) {
	s, ok := e[name]
	if !ok {
		return nil, false, nil
	}
	return s.Value, true, s.Err
}

// AnalyzeSheet parses and evaluates a sheet.
func AnalyzeSheet(filename string, src []byte) *Sheet {
	f, _ := grammar.ParseFile(filename, src)
	return AnalyzeFile(f)
}

// AnalyzeFile evaluates a parsed sheet.
func AnalyzeFile(f *grammar.File) *Sheet {
	s := &Sheet{File: f, Names: map[string]*Symbol{}, Refs: map[*grammar.Name]*Symbol{}}
	scope := scopeEnv{}
	for i, st := range f.Statements {
		s.resolveUses(st, scope)
		r := Result{Stmt: st}
		switch st := st.(type) {
		case *grammar.BadStmt:
			s.Findings = append(s.Findings, syntaxFinding(st.Err))
		case *grammar.Binding:
			r.Value, r.Err = Eval(st.Value, scope)
			if prev := scope[st.Name.Name]; prev != nil {
				s.Findings = append(s.Findings, Finding{Range: st.Name.Range, Severity: SeverityWarning, Code: CodeRedefined,
					Message: fmt.Sprintf("%s is bound again; the earlier binding is shadowed from here on", st.Name.Name),
					Related: []Related{{prev.Def.Name.Range, "earlier binding of " + st.Name.Name}}})
			}
			sym := &Symbol{Name: st.Name.Name, Def: st, Stmt: i, Value: r.Value, Err: r.Err}
			s.Symbols = append(s.Symbols, sym)
			scope[sym.Name] = sym
			s.Names[sym.Name] = sym
		case *grammar.ExprStmt:
			r.Value, r.Err = Eval(st.X, scope)
		case *grammar.Assert:
			r.Err = s.checkAssert(st, scope)
		}
		if r.Err != nil {
			if f, ok := evalFinding(r.Err, st); ok {
				s.Findings = append(s.Findings, f)
			}
		}
		s.Results = append(s.Results, r)
	}
	s.unusedNames()
	sort.SliceStable(s.Findings, func(i, j int) bool {
		return s.Findings[i].Range.Pos.Offset < s.Findings[j].Range.Pos.Offset
	})
	return s
}

// resolveUses links each name a statement reads to the binding in scope
// before the statement runs (a binding's right-hand side sees the earlier
// binding of its own name).
func (s *Sheet) resolveUses(st grammar.Stmt, scope scopeEnv) {
	var root grammar.Node = st
	if b, ok := st.(*grammar.Binding); ok {
		root = b.Value
	}
	s.resolveNames(root, scope)
}

func (s *Sheet) resolveNames(root grammar.Node, scope scopeEnv) {
	grammar.Inspect(root, func(n grammar.Node) bool {
		if call, ok := n.(*grammar.Call); ok {
			// The operation's name is not a sheet name.
			for _, a := range call.Args {
				s.resolveNames(a, scope)
			}
			return false
		}
		name, ok := n.(*grammar.Name)
		if !ok {
			return true
		}
		if _, isTag := tags[name.Name]; isTag && scope[name.Name] == nil {
			return true
		}
		sym := scope[name.Name]
		s.Refs[name] = sym
		if sym != nil {
			sym.Uses = append(sym.Uses, name)
		}
		return true
	})
}

func (s *Sheet) unusedNames() {
	for _, sym := range s.Symbols {
		if len(sym.Uses) == 0 && sym.Name[0] != '_' {
			s.Findings = append(s.Findings, Finding{Range: sym.Def.Name.Range, Severity: SeverityHint, Code: CodeUnused,
				Message: fmt.Sprintf("%s is bound but never used", sym.Name)})
		}
	}
}

// checkAssert evaluates both sides and checks the relation.
func (s *Sheet) checkAssert(a *grammar.Assert, env Env) error {
	left, err := Eval(a.Left, env)
	if err != nil {
		return err
	}
	right, err := Eval(a.Right, env)
	if err != nil {
		return err
	}
	var msg string
	switch a.Op {
	case grammar.AssertIs:
		if !SameRepresentation(left, right) {
			msg = fmt.Sprintf("assert failed: %v is not %v", left, right)
		}
	default:
		same, why, err := SameFunction(left, right)
		if err != nil {
			return &EvalError{Range: a.Range, Code: CodeAlgebra, Message: "cannot compare: " + err.Error(), Err: err}
		}
		if !same {
			msg = fmt.Sprintf("assert failed: %v != %v: %s", left, right, why)
		}
	}
	if msg == "" {
		return nil
	}
	return &EvalError{Range: a.Range, Code: CodeAssertFailed, Message: msg,
		Related: []Related{{a.Left.Span(), fmt.Sprintf("left side: %v", left)}, {a.Right.Span(), fmt.Sprintf("right side: %v", right)}}}
}

func syntaxFinding(e *grammar.Error) Finding {
	return Finding{Range: e.Range, Severity: SeverityError, Code: CodeSyntax, Message: e.Message}
}

// evalFinding renders an evaluation error; a use of a failed name is not
// reported again (ok is false).
func evalFinding(err error, st grammar.Stmt) (Finding, bool) {
	if errors.Is(err, errNoValue) {
		return Finding{}, false
	}
	var ee *EvalError
	if errors.As(err, &ee) {
		sev := SeverityError
		if ee.Code == CodeUnknownValue {
			sev = SeverityInfo
		}
		return Finding{Range: ee.Range, Severity: sev, Code: ee.Code, Message: ee.Message, Related: ee.Related}, true
	}
	var pe *grammar.Error
	if errors.As(err, &pe) {
		return syntaxFinding(pe), true
	}
	return Finding{Range: st.Span(), Severity: SeverityError, Code: CodeAlgebra, Message: err.Error()}, true
}
