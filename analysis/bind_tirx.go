package analysis

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// tirxIter is a bound iter with the nodes it was written as, so that a
// check on it points at its own extent or stride.
type tirxIter struct {
	tirx.Iter
	extent, stride grammar.Node
}

// tirx binds S[shape:strides] + R[shape:strides]... + n@axis... to a
// TileLayout. Extents are integers or sheet names bound to integers;
// strides are integers (on the memory axis m) or n@axis. Every check of
// TileLayout.Validate is made here first, on the term that breaks it.
func (b binder) tirx(n *grammar.TirxLayout) (tirx.Layout, error) {
	if n.Shard == nil {
		return tirx.Layout{}, b.fail(n, CodeAlgebra,
			"a TIRx layout starts with its shard S[...]: replicas alone place no element (%s)", tirx.CondShard)
	}
	shard, err := b.tirxIters(n.Shard)
	if err != nil {
		return tirx.Layout{}, err
	}
	var replicas []tirxIter
	for _, r := range n.Replicas {
		its, err := b.tirxIters(r)
		if err != nil {
			return tirx.Layout{}, err
		}
		replicas = append(replicas, its...)
	}
	// The running product, through TileLayout's own checked arithmetic:
	// the iter at which it overflows is the one to point at.
	var t tirx.Layout
	for k, it := range shard {
		t.Shard = append(t.Shard, it.Iter)
		if _, err := t.Size(); err != nil {
			before, _ := tirx.Layout{Shard: t.Shard[:k]}.Size()
			return tirx.Layout{}, &EvalError{Range: it.extent.Span(), Code: CodeOverflow, Err: err,
				Message: fmt.Sprintf("the shard extents overflow int64 at iter %d: %d elements before it, times extent %d", k, before, it.Extent)}
		}
	}
	for k, it := range replicas {
		t.Replica = append(t.Replica, it.Iter)
		if _, err := t.ReplicaCount(); err != nil {
			before, _ := tirx.Layout{Replica: t.Replica[:k]}.ReplicaCount()
			return tirx.Layout{}, &EvalError{Range: it.extent.Span(), Code: CodeAlgebra, Err: err,
				Message: fmt.Sprintf("replica iter %d makes more than %d replica combinations (%d before it, times extent %d): too many to enumerate", k, tirx.MaxReplicas, before, it.Extent)}
		}
	}
	seen := map[tirx.Axis]grammar.Node{}
	for _, o := range n.Offsets {
		av, err := b.tirxOffset(o)
		if err != nil {
			return tirx.Layout{}, err
		}
		if first, dup := seen[av.Axis]; dup {
			return tirx.Layout{}, &EvalError{Range: o.Span(), Code: CodeAlgebra,
				Message: fmt.Sprintf("a second offset on axis %s: %s after %s (%s; write their sum, %s)",
					av.Axis, grammar.Print(o, grammar.Cute), grammar.Print(first, grammar.Cute), tirx.CondOffset, offsetSum(t.Offset, av)),
				Related: []Related{{first.Span(), "the first offset on " + string(av.Axis)}}}
		}
		seen[av.Axis] = o
		t.Offset = append(t.Offset, av)
	}
	// Span reaches the extreme value of each axis, so it overflows exactly
	// when some element's point does.
	if _, err := t.Span(); err != nil {
		return tirx.Layout{}, &EvalError{Range: n.Range, Code: CodeOverflow, Err: err,
			Message: err.Error()}
	}
	if err := t.Validate(); err != nil { // what the checks above missed, if anything
		return tirx.Layout{}, &EvalError{Range: n.Range, Code: CodeAlgebra, Message: err.Error(), Err: err}
	}
	return t, nil
}

// offsetSum is the single offset term that replaces av and the earlier
// term on its axis, or a description when their sum overflows.
func offsetSum(offsets []tirx.AxisValue, av tirx.AxisValue) string {
	for _, o := range offsets {
		if o.Axis != av.Axis {
			continue
		}
		sum := o.Value + av.Value
		if (o.Value >= 0) == (av.Value >= 0) && (sum >= 0) != (o.Value >= 0) {
			return "one term (their sum overflows int64)"
		}
		if av.Axis == tirx.MemoryAxis {
			return fmt.Sprint(sum)
		}
		return fmt.Sprintf("%d@%s", sum, av.Axis)
	}
	return "one term"
}

// tirxIters binds the iters of one S[...] or R[...] part.
func (b binder) tirxIters(p *grammar.TirxPart) ([]tirxIter, error) {
	l := p.Layout
	if l == nil || l.Stride == nil {
		return nil, b.fail(p, CodeType, "%s[...] needs extents and strides: %s[(8,2):(4@laneid,1)]", p.Kind, p.Kind)
	}
	extents, strides := tirxModes(l.Shape), tirxModes(l.Stride)
	if len(extents) != len(strides) {
		return nil, &EvalError{Range: l.Range, Code: CodeIncongruent,
			Message: fmt.Sprintf("%s[...] has %d extents and %d strides: each iter is one extent and one stride", p.Kind, len(extents), len(strides)),
			Related: []Related{{l.Shape.Span(), "the extents"}, {l.Stride.Span(), "the strides"}}}
	}
	its := make([]tirxIter, len(extents))
	for k := range extents {
		e, err := b.tirxInt(extents[k], "extent")
		if err != nil {
			return nil, err
		}
		if e <= 0 {
			return nil, &EvalError{Range: extents[k].Span(), Code: CodeNonPositiveShape,
				Message: fmt.Sprintf("extent %d of iter %d of %s[...]: an iter takes at least one step (%s)", e, k, p.Kind, tirx.CondExtent)}
		}
		stride, axis, err := b.tirxTerm(strides[k], "stride")
		if err != nil {
			return nil, err
		}
		its[k] = tirxIter{Iter: tirx.Iter{Extent: e, Stride: stride, Axis: axis}, extent: extents[k], stride: strides[k]}
	}
	return its, nil
}

// tirxModes is the flat list of modes of an S[...] or R[...] shape or
// stride: the elements of a tuple, or the one node written alone.
func tirxModes(n grammar.Node) []grammar.Node {
	if t, ok := n.(*grammar.Tuple); ok {
		return t.Elems
	}
	return []grammar.Node{n}
}

// tirxInt binds an extent (or a bare stride): an integer, or a sheet name
// bound to one.
func (b binder) tirxInt(n grammar.Node, what string) (int64, error) {
	switch n := n.(type) {
	case *grammar.Int:
		return n.Value, nil
	case *grammar.Name:
		v, err := b.name(n)
		if err != nil {
			return 0, err
		}
		if t, ok := plain(v).(layout.IntTuple); ok && t.IsLeaf() && !t.IsBasis() && !t.IsUnknown() && !t.IsUnderscore() {
			return t.Value(), nil
		}
		if t, ok := plain(v).(layout.IntTuple); ok && t.IsUnknown() {
			return 0, &EvalError{Range: n.Range, Code: CodeUnknownValue, Message: fmt.Sprintf("%s is ?: a TIRx %s needs a value known before run time", n.Name, what)}
		}
		return 0, b.fail(n, CodeType, "%s is %s %s %v, not an integer: a TIRx %s is an integer", n.Name, article(kindOf(v)), kindOf(v), v, what)
	case *grammar.Unknown:
		return 0, b.fail(n, CodeUnknownValue, "a TIRx %s needs a value known before run time, not ?", what)
	case *grammar.Tuple:
		return 0, b.fail(n, CodeType, "a TIRx %s is an integer: TIRx iters are flat, %s is a nested tuple", what, grammar.Print(n, grammar.Cute))
	}
	return 0, b.fail(n, CodeType, "a TIRx %s is an integer or a name bound to one", what)
}

// tirxTerm binds a stride or an offset term: n@axis, or n alone on the
// memory axis m.
func (b binder) tirxTerm(n grammar.Node, what string) (int64, tirx.Axis, error) {
	basis, ok := n.(*grammar.Basis)
	if !ok {
		v, err := b.tirxInt(n, what)
		return v, tirx.MemoryAxis, err
	}
	if _, unknown := basis.Count.(*grammar.Unknown); unknown {
		return 0, "", b.fail(n, CodeUnknownValue, "a TIRx %s needs a value known before run time, not ?", what)
	}
	v, _, perr := basis.IntegralCount()
	if perr != nil {
		return 0, "", &EvalError{Range: perr.Range, Code: CodeNonIntegralBasis, Message: perr.Message}
	}
	if len(basis.Modes) != 1 {
		return 0, "", b.fail(n, CodeType, "a TIRx %s is on one axis, as in 4@laneid; %s names %d axes", what, grammar.Print(n, grammar.Cute), len(basis.Modes))
	}
	m := basis.Modes[0]
	if m.Axis == "" {
		return 0, "", &EvalError{Range: m.Range, Code: CodeType,
			Message: fmt.Sprintf("@%s is a CuTe mode number; a TIRx %s names an axis, as in %d@laneid (or is written bare for the memory axis m)", m.Text, what, v)}
	}
	return v, tirx.Axis(m.Axis), nil
}

// tirxOffset binds one "+ n@axis" term.
func (b binder) tirxOffset(n grammar.Node) (tirx.AxisValue, error) {
	switch n.(type) {
	case *grammar.Int, *grammar.Basis:
	default:
		return tirx.AxisValue{}, b.fail(n, CodeType, "a TIRx offset is an integer or a term such as 5@warpid")
	}
	v, axis, err := b.tirxTerm(n, "offset")
	return tirx.AxisValue{Axis: axis, Value: v}, err
}

func article(noun string) string {
	if noun != "" && (noun[0] == 'a' || noun[0] == 'e' || noun[0] == 'i' || noun[0] == 'o' || noun[0] == 'u') {
		return "an"
	}
	return "a"
}
