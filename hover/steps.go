package hover

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Steps explains how a call's result was built, in CuTe's own terms, for
// the operations whose construction users ask about; "" for the others.
// env resolves the names among its arguments.
func Steps(call *grammar.Call, env analysis.Env) string {
	args := make([]layout.Value, len(call.Args))
	for i, a := range call.Args {
		v, err := analysis.Eval(a, env)
		if err != nil {
			return ""
		}
		args[i] = v
	}
	return StepsOf(call.Fun.Name, args)
}

// StepsOf is Steps of the operation op applied to args (a sheet's call, or
// a call in C++/DSL code with its operands' values).
func StepsOf(op string, args []layout.Value) string {
	if op == "tirx_map" {
		return tirxMapSteps(args)
	}
	if len(args) != 2 {
		return ""
	}
	switch op {
	case "composition":
		return compositionSteps(args[0], args[1])
	case "logical_divide", "zipped_divide", "tiled_divide", "flat_divide":
		return divideSteps(op, args[0], args[1])
	case "logical_product", "zipped_product", "tiled_product", "flat_product":
		return productSteps(op, args[0], args[1])
	}
	return ""
}

// compositionSteps shows A o B mode by mode of B: each mode s:d of B takes
// s elements of A at a step of d.
func compositionSteps(a, b layout.Value) string {
	A, ok := a.(*layout.Layout)
	if !ok {
		return ""
	}
	var modes []layout.Layout
	switch b := b.(type) {
	case *layout.Layout:
		flat := b.Flatten()
		for i := range flat.Shape.Len() {
			modes = append(modes, layout.Make(flat.Shape.At(i), flat.Stride.At(i)))
		}
	default:
		return ""
	}
	if len(modes) < 2 {
		return ""
	}
	var s strings.Builder
	s.WriteString("**Steps** (A o B, mode by mode of B: a mode s:d of B takes s elements of A, d apart):\n\n")
	for i, m := range modes {
		if i == maxStepModes {
			fmt.Fprintf(&s, "- ... %d more modes of B not shown\n", len(modes)-i)
			break
		}
		r, err := layout.Composition(A, &m)
		if err != nil {
			fmt.Fprintf(&s, "- B mode %d `%v`: %s\n", i, short{layout.Box(m)}, analysis.CapMessage(err.Error()))
			continue
		}
		fmt.Fprintf(&s, "- B mode %d `%v` → `%v`\n", i, short{layout.Box(m)}, short{layout.Box(*r)})
	}
	return s.String()
}

// divideSteps shows logical_divide(A, B) = A o (B, complement(B, shape(coalesce(A)))),
// with the complement the algebra takes: against the coalesced shape of A,
// which is A's size when A coalesces to one mode.
func divideSteps(op string, a, b layout.Value) string {
	A, okA := a.(*layout.Layout)
	B, okB := b.(*layout.Layout)
	if !okA || !okB {
		return ""
	}
	c, err := layout.Coalesce(A)
	if err != nil {
		return ""
	}
	comp, err := layout.ComplementTo(B, c.Shape)
	if err != nil {
		return ""
	}
	joined := layout.MakeLayoutOf(*B, *comp)
	var s strings.Builder
	s.WriteString("**Steps**:\n\n")
	if c.Shape.IsTuple() {
		fmt.Fprintf(&s, "1. complement(B, shape(coalesce(A)) = %v) = `%v`: the tiles' positions\n", short{c.Shape}, short{comp})
	} else {
		fmt.Fprintf(&s, "1. complement(B, size(A) = %v) = `%v`: the tiles' positions\n", short{c.Shape}, short{comp})
	}
	fmt.Fprintf(&s, "2. (B, complement) = `%v`\n", short{layout.Box(joined)})
	if ld, err := layout.Composition(A, &joined); err == nil {
		fmt.Fprintf(&s, "3. A o (B, complement) = `%v` (logical_divide)\n", short{layout.Box(*ld)})
	}
	if op != "logical_divide" {
		fmt.Fprintf(&s, "4. %s regroups the tile and rest modes of that result\n", op)
	}
	return s.String()
}

// productSteps shows logical_product(A, B) = (A, complement(A, size(A)*cosize(B)) o B).
func productSteps(op string, a, b layout.Value) string {
	A, okA := a.(*layout.Layout)
	B, okB := b.(*layout.Layout)
	if !okA || !okB {
		return ""
	}
	size, err := A.Size()
	if err != nil {
		return ""
	}
	cosize, err := B.Cosize()
	if err != nil {
		return ""
	}
	comp, err := layout.ComplementTo(A, layout.Int(size*cosize))
	if err != nil {
		return ""
	}
	var s strings.Builder
	s.WriteString("**Steps**:\n\n")
	fmt.Fprintf(&s, "1. complement(A, size(A)·cosize(B) = %d) = `%v`: where copies of A can go\n", size*cosize, short{comp})
	if r, err := layout.Composition(comp, B); err == nil {
		fmt.Fprintf(&s, "2. complement o B = `%v`: the copies B selects\n", short{layout.Box(*r)})
		fmt.Fprintf(&s, "3. (A, complement o B) = `%v` (logical_product)\n", short{layout.Box(layout.MakeLayoutOf(*A, *r))})
	}
	if op != "logical_product" {
		fmt.Fprintf(&s, "4. %s regroups the modes of that result\n", op)
	}
	return s.String()
}

// maxStepModes is how many modes of B the steps of a composition list.
const maxStepModes = 32

// short is a value in a step: printed cut to analysis.ShowDetailBytes.
type short struct{ v layout.Value }

func (s short) String() string { return analysis.Show(s.v, analysis.ShowDetailBytes) }
