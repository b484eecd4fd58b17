package layout

import "sort"

// Value is anything a CuTe operation takes or returns: an IntTuple (plain
// integers included), a Layout, a Composed layout, a Swizzle, a Tiler or a Tag.
type Value interface {
	String() string
}

// Op is a CuTe operation callable by its CuTe name, with CuTe's overloads
// resolved on the kinds of its arguments (an integer N where a layout is
// expected means N:1, a tiler where a layout is expected applies by mode, ...).
// Template parameters (group<0,2>, upcast<N>, recast_layout<T_old,T_new>)
// are passed as trailing integer arguments, in CuTe's order.
type Op struct {
	Name      string
	Signature string // e.g. "composition(A, B)"; shown by completion and signature help
	Doc       string // one line: the definition
	Apply     func(args []Value) (Value, error)
}

var ops = map[string]Op{}

// overload answers an operation for argument kinds its main definition does
// not know (CuTe's ComposedLayout and Swizzle overloads); handled is false
// when the arguments are not its kind.
type overload func(args []Value) (result Value, handled bool, err error)

// overloads are consulted, in registration order, before an operation's own Apply.
// Each list is held by pointer so that an operation's Apply finds its
// overloads without a map look-up per call, whichever init registers first.
var overloads = map[string]*[]overload{}

func overloadsOf(name string) *[]overload {
	fs, ok := overloads[name]
	if !ok {
		fs = new([]overload)
		overloads[name] = fs
	}
	return fs
}

func register(op Op) {
	if _, dup := ops[op.Name]; dup {
		panic("layout: operation registered twice: " + op.Name)
	}
	base, fs := op.Apply, overloadsOf(op.Name)
	op.Apply = func(args []Value) (Value, error) {
		for _, f := range *fs {
			if v, handled, err := f(args); handled {
				return v, err
			}
		}
		return base(args)
	}
	ops[op.Name] = op
}

// registerOverload adds an overload of the operation name, whether or not
// the operation itself is registered yet (init order across files is free).
func registerOverload(name string, f overload) {
	fs := overloadsOf(name)
	*fs = append(*fs, f)
}

// LookupOp finds an operation by its CuTe name.
func LookupOp(name string) (Op, bool) {
	op, ok := ops[name]
	return op, ok
}

// Ops lists every operation, sorted by name.
func Ops() []Op {
	out := make([]Op, 0, len(ops))
	for _, op := range ops {
		out = append(out, op)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Apply calls the operation named name on args.
func Apply(name string, args ...Value) (Value, error) {
	op, ok := ops[name]
	if !ok {
		return nil, &Error{Op: name, Detail: "no such operation"}
	}
	return op.Apply(args)
}
