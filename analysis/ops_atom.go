package analysis

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/layout"
)

// mma_atom("NAME") and copy_atom("NAME"): CuTe's atoms by name, with their
// thread-value layouts as CuTe's traits give them.
func init() {
	RegisterOp(Op{Name: "mma_atom", Signature: `mma_atom("NAME")`,
		Doc:   "the MMA atom CuTe names NAME (SM70/75/80 mma.sync, SM89 fp8, SM90 GMMA, SM100 UMMA): its tile, threads, PTX and A/B/C thread-value layouts",
		Apply: func(args []layout.Value) (layout.Value, error) { return atomOp("mma_atom", args) }})
	RegisterOp(Op{Name: "copy_atom", Signature: `copy_atom("NAME")`,
		Doc:   "the copy atom CuTe names NAME (ldmatrix/stmatrix, cp.async, universal copies, TMA): its threads, PTX and source/destination layouts",
		Apply: func(args []layout.Value) (layout.Value, error) { return atomOp("copy_atom", args) }})
}

// Str is a string argument, as sheets name atoms.
type Str string

func (s Str) String() string { return strconv.Quote(string(s)) }

// AtomValue is an atom a sheet looked up: exactly one of MMA and Copy is set.
type AtomValue struct {
	MMA  *atom.MMA
	Copy *atom.Copy
}

func (v AtomValue) String() string {
	if v.MMA != nil {
		return fmt.Sprintf("mma_atom(%q)", v.MMA.Name)
	}
	return fmt.Sprintf("copy_atom(%q)", v.Copy.Name)
}

func atomOp(op string, args []layout.Value) (layout.Value, error) {
	if len(args) != 1 {
		return nil, &OpError{Op: op, Message: fmt.Sprintf("takes one argument, the atom's name in quotes, not %d", len(args))}
	}
	name, ok := args[0].(Str)
	if !ok {
		return nil, &OpError{Op: op, Arg: 1, Message: fmt.Sprintf("the atom's name is a quoted string such as \"SM80_16x8x16_F32F16F16F32_TN\", not %v", args[0])}
	}
	var err error
	var v AtomValue
	if op == "mma_atom" {
		v.MMA, err = atom.LookupMMA(string(name))
	} else {
		v.Copy, err = atom.LookupCopy(string(name))
	}
	if err != nil {
		code := CodeType
		var suggest []string
		var nf *atom.NotFound
		if errors.As(err, &nf) {
			code = CodeUnknownAtom
			for _, s := range nf.Suggestion {
				suggest = append(suggest, strconv.Quote(s))
			}
		}
		return nil, &OpError{Op: op, Arg: 1, Code: code, Message: err.Error(), Err: err, Suggest: suggest}
	}
	return v, nil
}
