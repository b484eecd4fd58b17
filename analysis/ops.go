package analysis

import (
	"errors"
	"fmt"
	"sort"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Op is an operation sheets can call beyond the layout algebra's own
// (layout.Ops): analyses of layouts, such as shared-memory bank conflicts.
// Name, Signature, Doc and Apply mean what they mean in layout.Op; calls
// look these up first, so an analysis operation may not reuse an
// algebra name.
type Op struct {
	Name      string
	Signature string // e.g. "bank_conflicts(smem, access, bits [, op] [, vector_bits])"
	Doc       string // one line: what it computes
	Apply     func(args []layout.Value) (layout.Value, error)
	// Keywords are bare words the operation reads as arguments (an
	// instruction kind, "ldmatrix_x4"): a name in its argument list that
	// is one of them and not bound in the sheet reaches Apply as a Keyword.
	Keywords []string
	// Check, when set, reports what a call that evaluated says about the
	// sheet (warnings at the call, with quick fixes); sheets run it on
	// every call in bindings, expressions and asserts.
	Check func(c *CallSite) []CallFinding
}

// Keyword is a bare word passed to an operation that reads it (Op.Keywords).
type Keyword string

func (k Keyword) String() string { return string(k) }

// CallSite is a call of an operation with a Check that evaluated.
type CallSite struct {
	Call   *grammar.Call
	Op     Op
	Args   []layout.Value // as evaluated (annotated values unwrapped)
	Result layout.Value
}

// CallFinding is a finding at a call; Replace, when set, offers to
// rewrite one of the call's arguments.
type CallFinding struct {
	Finding
	Replace *ArgReplacement
}

// ArgReplacement is a quick fix that writes Text in place of argument Arg
// (0-based) of the call: the argument itself when it is written as a
// literal, or the right-hand side of the binding it names when that is a
// literal. Anywhere else (a call, a name bound to a call) no edit is offered.
type ArgReplacement struct {
	Arg   int
	Title string
	Text  string
}

// OpError is an analysis operation's refusal of its arguments: Arg is the
// 1-based argument it concerns (0: the call as a whole), Code the finding
// code (CodeType when empty).
type OpError struct {
	Op      string
	Arg     int
	Code    string
	Message string
	Err     error
	// Suggest are texts that could replace argument Arg (quick fixes).
	Suggest []string
}

func (e *OpError) Error() string { return e.Op + ": " + e.Message }

func (e *OpError) Unwrap() error { return e.Err }

// Annotated is a value an analysis operation computed together with what
// explains it (a report, an advice) for hovers; Plain is the value itself,
// which the algebra, asserts and other operations use.
type Annotated interface {
	layout.Value
	Plain() layout.Value
}

// plain unwraps annotated values.
func plain(v layout.Value) layout.Value {
	for {
		a, ok := v.(Annotated)
		if !ok {
			return v
		}
		v = a.Plain()
	}
}

var sheetOps = map[string]Op{}

// RegisterOp adds an operation to sheets. Operations are registered from
// init functions, one call each (see ops_bank.go); a name registered twice
// or already an algebra operation is a programming error and panics.
func RegisterOp(op Op) {
	if _, dup := sheetOps[op.Name]; dup {
		panic("analysis: operation registered twice: " + op.Name)
	}
	if _, dup := layout.LookupOp(op.Name); dup {
		panic("analysis: operation already in the layout algebra: " + op.Name)
	}
	sheetOps[op.Name] = op
}

// LookupOp finds an operation sheets can call: an analysis operation or a
// CuTe operation of the algebra.
func LookupOp(name string) (Op, bool) {
	if op, ok := sheetOps[name]; ok {
		return op, true
	}
	if op, ok := layout.LookupOp(name); ok {
		return Op{Name: op.Name, Signature: op.Signature, Doc: op.Doc, Apply: op.Apply}, true
	}
	return Op{}, false
}

// Ops lists every operation sheets can call, sorted by name.
func Ops() []Op {
	var out []Op
	for _, op := range layout.Ops() {
		out = append(out, Op{Name: op.Name, Signature: op.Signature, Doc: op.Doc, Apply: op.Apply})
	}
	for _, op := range sheetOps {
		out = append(out, op)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// isKeyword reports whether name is a bare word op reads.
func (op Op) isKeyword(name string) bool {
	for _, k := range op.Keywords {
		if k == name {
			return true
		}
	}
	return false
}

// sheetCall evaluates a call of an analysis operation.
func (b binder) sheetCall(n *grammar.Call, op Op) (layout.Value, error) {
	args := make([]layout.Value, len(n.Args))
	for i, a := range n.Args {
		if name, ok := a.(*grammar.Name); ok && op.isKeyword(name.Name) {
			if _, bound, _ := b.env.Lookup(name.Name); !bound {
				args[i] = Keyword(name.Name)
				continue
			}
		}
		v, err := b.value(a)
		if err != nil {
			return nil, err
		}
		args[i] = plain(v)
	}
	v, err := op.Apply(args)
	if err != nil {
		var oe *OpError
		if errors.As(err, &oe) {
			at := n.Span()
			if oe.Arg >= 1 && oe.Arg <= len(n.Args) {
				at = n.Args[oe.Arg-1].Span()
			}
			code := oe.Code
			if code == "" {
				code = CodeType
			}
			e := &EvalError{Range: at, Code: code, Message: err.Error(), Err: err}
			if oe.Arg >= 1 && oe.Arg <= len(n.Args) {
				for _, text := range oe.Suggest {
					e.Fixes = append(e.Fixes, Fix{Title: "Change to " + text, Edits: []Edit{{at, text}}})
				}
			}
			return nil, e
		}
		return nil, b.algebraError(n, op.Name, err, n.Args...)
	}
	if op.Check != nil && b.sites != nil {
		*b.sites = append(*b.sites, CallSite{Call: n, Op: op, Args: args, Result: v})
	}
	return v, nil
}

// callFinding is a finding of a call as a statement's result keeps it: its
// fix on a binding elsewhere in the sheet (rebind) is resolved each time
// the sheet is analysed, since that binding may have moved.
type callFinding struct {
	Finding
	rebind      string // the name whose binding's right-hand side the fix replaces
	title, text string
}

// callFindings runs the checks of the calls a statement made.
func callFindings(sites []CallSite, scope scopeEnv) []callFinding {
	var out []callFinding
	for i := range sites {
		site := &sites[i]
		for _, cf := range site.Op.Check(site) {
			f := callFinding{Finding: cf.Finding}
			if r := cf.Replace; r != nil && r.Arg >= 0 && r.Arg < len(site.Call.Args) {
				switch arg := site.Call.Args[r.Arg].(type) {
				case *grammar.Name:
					if sym := scope[arg.Name]; sym != nil && sym.Def != nil && isLiteral(sym.Def.Value) {
						f.rebind, f.title, f.text = arg.Name, r.Title, r.Text
					}
				default:
					if isLiteral(arg) {
						f.Fixes = append(f.Fixes, Fix{Title: r.Title, Edits: []Edit{{arg.Span(), r.Text}}})
					}
				}
			}
			out = append(out, f)
		}
	}
	return out
}

// resolve is the finding with its fix on the binding of rebind, read in scope.
func (f callFinding) resolve(scope scopeEnv) Finding {
	out := f.Finding
	if f.rebind == "" {
		return out
	}
	if sym := scope[f.rebind]; sym != nil && sym.Def != nil {
		out.Fixes = append(append([]Fix(nil), out.Fixes...), Fix{Title: f.title, Edits: []Edit{{sym.Def.Value.Span(), f.text}}})
	}
	return out
}

// isLiteral reports whether a node is written out: no name, no call.
func isLiteral(n grammar.Node) bool {
	lit := true
	grammar.Inspect(n, func(m grammar.Node) bool {
		switch m.(type) {
		case *grammar.Name, *grammar.Call:
			lit = false
		}
		return lit
	})
	return lit
}

// opArgError is an OpError for argument arg of op.
func opArgError(op string, arg int, format string, args ...any) *OpError {
	return &OpError{Op: op, Arg: arg, Message: fmt.Sprintf(format, args...)}
}
