package analysis

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// mma_atom("NAME") and copy_atom("NAME"): CuTe's atoms by name, with their
// thread-value layouts as CuTe's traits give them.
func applyMMAAtom(args []layout.Value) (layout.Value, error) { return atomOp("mma_atom", args) }

func applyCopyAtom(args []layout.Value) (layout.Value, error) { return atomOp("copy_atom", args) }

// Str is a string argument, as sheets name atoms.
type Str string

func (s Str) String() string { return strconv.Quote(string(s)) }

// AtomValue is an atom a sheet looked up: exactly one of MMA and Copy is
// set. ValType is a copy atom's element type (Copy_Atom<Op, ValType>), ""
// when the sheet named none.
type AtomValue struct {
	MMA     *atom.MMA
	Copy    *atom.Copy
	ValType string
}

func (v AtomValue) String() string {
	switch {
	case v.MMA != nil:
		return fmt.Sprintf("mma_atom(%q)", v.MMA.Name)
	case v.ValType != "":
		return fmt.Sprintf("copy_atom(%q, %q)", v.Copy.Name, v.ValType)
	}
	return fmt.Sprintf("copy_atom(%q)", v.Copy.Name)
}

func atomOp(op string, args []layout.Value) (layout.Value, error) {
	most, want := 1, "one argument, the atom's name in quotes"
	if op == "copy_atom" {
		most, want = 2, "the atom's name in quotes and, for a tiled copy, its element type (\"half_t\")"
	}
	if len(args) < 1 || len(args) > most {
		return nil, &OpError{Op: op, Message: fmt.Sprintf("takes %s, not %d arguments", want, len(args))}
	}
	name, ok := args[0].(Str)
	if !ok {
		return nil, &OpError{Op: op, Arg: 1, Message: fmt.Sprintf("the atom's name is a quoted string such as \"SM80_16x8x16_F32F16F16F32_TN\", not %v", args[0])}
	}
	valType, err := copyValType(op, string(name), args[1:])
	if err != nil {
		return nil, err
	}
	v := AtomValue{ValType: valType}
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

// copyValType is a copy atom's element type: the second argument, or the T
// of a name spelt Copy_Atom<Op, T>; "" when neither gives one.
func copyValType(op, name string, rest []layout.Value) (string, error) {
	_, inName := atom.Unwrap(strings.Join(strings.Fields(name), ""))
	if len(rest) == 0 {
		if inName == "" {
			return "", nil
		}
		if _, ok := atom.ElementBits(inName); !ok {
			return "", &OpError{Op: op, Arg: 1, Message: fmt.Sprintf("the element type %s of %s is not one CuTe's copies move (%s)", inName, name, strings.Join(atom.ElementTypes(), ", "))}
		}
		return inName, nil
	}
	t, ok := rest[0].(Str)
	if !ok {
		return "", &OpError{Op: op, Arg: 2, Message: fmt.Sprintf("the element type is a quoted string such as \"half_t\", not %v", rest[0])}
	}
	if _, ok := atom.ElementBits(string(t)); !ok {
		return "", &OpError{Op: op, Arg: 2, Message: fmt.Sprintf("%q is not an element type CuTe's copies move (%s)", string(t), strings.Join(atom.ElementTypes(), ", ")),
			Suggest: []string{`"half_t"`, `"float"`}}
	}
	if inName != "" && inName != string(t) {
		return "", &OpError{Op: op, Arg: 2, Message: fmt.Sprintf("the name %s already gives the element type %s, not %s", name, inName, string(t))}
	}
	return string(t), nil
}

// TiledMMAAtom is what make_tiled_mma reads of an MMA atom.
func (v AtomValue) TiledMMAAtom() (tiled.MMAAtom, error) {
	if v.MMA == nil {
		return tiled.MMAAtom{}, fmt.Errorf("%v is a copy atom, not an MMA atom", v)
	}
	a := v.MMA
	return tiled.MMAAtom{Name: a.Name, ShapeMNK: a.ShapeMNK, ThrID: a.ThrID, A: a.ALayout, B: a.BLayout, C: a.CLayout}, nil
}

// TiledCopyAtom is what the tiled copies read of a copy atom: CuTe's
// Copy_Atom<Op, T> needs T.
func (v AtomValue) TiledCopyAtom() (tiled.CopyAtom, error) {
	if v.Copy == nil {
		return tiled.CopyAtom{}, fmt.Errorf("%v is an MMA atom, not a copy atom", v)
	}
	if v.ValType == "" {
		return tiled.CopyAtom{}, fmt.Errorf("%v has no element type: name it as CuTe's Copy_Atom does, copy_atom(%q, \"half_t\")", v, v.Copy.Name)
	}
	bits, _ := atom.ElementBits(v.ValType)
	c := v.Copy
	return tiled.CopyAtom{Name: c.Name, ValType: v.ValType, ValBits: int64(bits), ThrID: c.ThrID, Src: c.SrcLayout, Dst: c.DstLayout, Ref: c.RefLayout}, nil
}

func (Str) IsValue() {} // a layout.Value

func (AtomValue) IsValue() {} // a layout.Value
