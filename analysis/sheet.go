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
	Results  []Result // one per statement, in order
	Names    map[string]*Symbol
	Findings []Finding
}

// Result is what one statement evaluated to.
type Result struct {
	Stmt  grammar.Stmt
	Value layout.Value // the binding's or expression's value; nil on failure or for asserts
	Err   error        // the statement's failure, if any
}

// Symbol is a sheet name: where it is bound and where it is used.
type Symbol struct {
	Name    string
	Def     *grammar.Binding
	Uses    []*grammar.Name
	Value   layout.Value
	Err     error
	defined bool // the binding has been evaluated (uses before it are undefined)
}

// sheetEnv resolves names to the bindings evaluated so far.
type sheetEnv struct {
	names map[string]*Symbol
}

func (e sheetEnv) Lookup(name string) (layout.Value, bool, error) {
	s, ok := e.names[name]
	if !ok || !s.defined {
		return nil, false, nil
	}
	if s.Err != nil {
		return nil, true, s.Err
	}
	return s.Value, true, nil
}

// AnalyzeSheet parses and evaluates a sheet.
func AnalyzeSheet(filename string, src []byte) *Sheet {
	f, _ := grammar.ParseFile(filename, src)
	return AnalyzeFile(f)
}

// AnalyzeFile evaluates a parsed sheet.
func AnalyzeFile(f *grammar.File) *Sheet {
	s := &Sheet{File: f, Names: map[string]*Symbol{}}
	env := sheetEnv{names: s.Names}
	for _, st := range f.Statements {
		s.collectUses(st)
		r := Result{Stmt: st}
		switch st := st.(type) {
		case *grammar.BadStmt:
			s.Findings = append(s.Findings, syntaxFinding(st.Err))
		case *grammar.Binding:
			r.Value, r.Err = Eval(st.Value, env)
			sym := s.Names[st.Name.Name]
			if sym != nil && sym.Def != nil {
				s.Findings = append(s.Findings, Finding{Range: st.Name.Range, Severity: SeverityWarning, Code: CodeRedefined,
					Message: fmt.Sprintf("%s is bound again; the earlier binding is shadowed from here on", st.Name.Name),
					Related: []Related{{sym.Def.Name.Range, "earlier binding of " + st.Name.Name}}})
				sym = &Symbol{Name: st.Name.Name, Uses: sym.Uses}
			}
			if sym == nil {
				sym = &Symbol{Name: st.Name.Name}
			}
			sym.Def, sym.Value, sym.Err, sym.defined = st, r.Value, r.Err, true
			s.Names[st.Name.Name] = sym
		case *grammar.ExprStmt:
			r.Value, r.Err = Eval(st.X, env)
		case *grammar.Assert:
			r.Err = s.checkAssert(st, env)
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

// collectUses records the names a statement reads, before it is evaluated,
// so that a use in a binding's own right-hand side counts as a use.
func (s *Sheet) collectUses(st grammar.Stmt) {
	grammar.Inspect(st, func(n grammar.Node) bool {
		if b, ok := n.(*grammar.Binding); ok {
			grammar.Inspect(b.Value, func(n grammar.Node) bool { s.use(n); return true })
			return false
		}
		s.use(n)
		return true
	})
}

func (s *Sheet) use(n grammar.Node) {
	name, ok := n.(*grammar.Name)
	if !ok {
		return
	}
	if _, isTag := tags[name.Name]; isTag {
		return
	}
	sym := s.Names[name.Name]
	if sym == nil {
		sym = &Symbol{Name: name.Name}
		s.Names[name.Name] = sym
	}
	sym.Uses = append(sym.Uses, name)
}

func (s *Sheet) unusedNames() {
	for _, sym := range s.Names {
		if sym.Def != nil && len(sym.Uses) == 0 && sym.Name[0] != '_' {
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
