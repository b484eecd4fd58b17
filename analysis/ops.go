package analysis

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Op is an operation sheets, C++/Python code, hover and `cute-lsp eval`
// call by its CuTe name: an entry of the one table of operations, opTable
// (ops_table.go).
type Op struct {
	Name      string
	Signature string // e.g. "composition(A, B)"; shown by completion and signature help
	Doc       string // one line: the definition
	// Apply reads the arguments, resolving CuTe's overloads on their kinds
	// (an integer N where a layout is expected means N:1, a tiler applies by
	// mode, a swizzled layout's inner layout, ...), and calls the algebra or
	// an analysis with typed arguments. Template parameters (group<0,2>,
	// upcast<N>) come as integer arguments right after the first, in CuTe's order.
	Apply func(args []layout.Value) (layout.Value, error)
	// Keywords are bare words the operation reads as arguments (an
	// instruction kind, "ldmatrix_x4"): a name in its argument list that
	// is one of them and not bound in the sheet reaches Apply as a Keyword.
	Keywords []string
	// Check, when set, reports what a call that evaluated says about the
	// sheet (warnings at the call, with quick fixes); sheets run it on
	// every call in bindings, expressions and asserts.
	Check func(c *CallSite) []CallFinding
	// Analysis marks the analyses of layouts that are no CuTe function
	// (bank conflicts, atoms by name, descriptors): they take no template
	// arguments, and C++/Python code does not call them.
	Analysis bool
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

// opSlots finds an entry of opTable by name: an open-addressed table of
// the entries' indices plus one (0: empty), placed by opHash with linear
// probing. Every call by name looks its entry up (binder.call, ApplyOp), and
// hashing four bytes of the name costs half of a map's look-up of it.
var opSlots = func() (slots [opSlotCount]uint8) {
	for i := range opTable {
		op := &opTable[i]
		if i > 0 && opTable[i-1].Name >= op.Name {
			panic("analysis: opTable is not sorted by name, or lists " + op.Name + " twice")
		}
		h := opHash(op.Name)
		for slots[h%opSlotCount] != 0 {
			h++
		}
		slots[h%opSlotCount] = uint8(i + 1)
	}
	return slots
}()

// opSlotCount is the size of opSlots: a power of two, at least four times
// the table's entries (short probes), which must number below 256.
const opSlotCount = 1024

var _ [255 - len(opTable)]struct{} // opSlots holds an entry's index+1 in a byte

// opHash mixes a name's length with its first and last bytes: names that
// share all three (get_layoutA_TV ... get_layoutS_TV, compact_col_major and
// compact_row_major, is_bijective and is_injective, raked_product and
// recast_layout, shape and slice) lie in neighbouring slots. A middle byte
// would part none of them and would put lookupOp over the compiler's
// budget for inlining, which its callers (ApplyOp, binder.call) save.
func opHash(name string) uint {
	n := len(name)
	if n == 0 {
		return 0
	}
	return uint(n)*0x9E3779B1 ^ uint(name[0])*0x85EBCA77 ^ uint(name[n-1])*0x27D4EB2F
}

// lookupOp is the table's entry for name: callers resolve it once per
// call and then call its Apply.
func lookupOp(name string) (*Op, bool) {
	for h := opHash(name); ; h++ {
		i := opSlots[h%opSlotCount]
		if i == 0 {
			return nil, false
		}
		if op := &opTable[i-1]; op.Name == name {
			return op, true
		}
	}
}

// LookupOp finds an operation by its CuTe name.
func LookupOp(name string) (Op, bool) {
	if op, ok := lookupOp(name); ok {
		return *op, true
	}
	return Op{}, false
}

// Ops lists every operation, sorted by name.
func Ops() []Op {
	return append([]Op(nil), opTable[:]...)
}

// ApplyOp calls the operation named name on args: the table's look-up and
// the entry's Apply, the path every caller by name takes.
func ApplyOp(name string, args ...layout.Value) (layout.Value, error) {
	op, ok := lookupOp(name)
	if !ok {
		return nil, &layout.Error{Op: name, Detail: "no such operation"}
	}
	return op.Apply(args)
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

// result is an operation's result as a Value: the box the algebra
// returns (its block, a shared small leaf or an argument, which nothing
// writes), nil with an error.
func result(l *layout.Layout, err error) (layout.Value, error) {
	if err != nil {
		return nil, err
	}
	return l, nil
}

// opArgError is an OpError for argument arg of op.
func opArgError(op string, arg int, format string, args ...any) *OpError {
	return &OpError{Op: op, Arg: arg, Message: fmt.Sprintf(format, args...)}
}

func (Keyword) IsValue() {} // a layout.Value
