package analysis

import (
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// Sheet operations on TIRx layouts (tirx.go), and size(T): the product of
// the shard extents, the number of logical elements T maps.
//
// A logical element is named either by its flat index x, 0 <= x < size(T),
// or by a coordinate c of a logical shape S that T admits (size(S) ==
// size(T)), which stands for its row-major index x = sum c_d * prod_{e>d} S_e.
// The shape has no default: a coordinate without its shape is an error, as
// the same layout reads a coordinate differently under each admitted shape.

// sizeOfTIRx is size(T) of a TIRx layout: the product of its shard extents.
func sizeOfTIRx(t tirx.Layout) (layout.Value, error) {
	n, err := t.Size()
	if err != nil {
		return nil, layout.Renamed("size", err)
	}
	return layout.Int(n), nil
}

func applyTIRxMap(args []layout.Value) (layout.Value, error) {
	t, flat, err := tirxElementArgs("tirx_map", args)
	if err != nil {
		return nil, err
	}
	return tirx.MapAt(t, flat)
}

func applyTIRxSplit(args []layout.Value) (layout.Value, error) {
	t, flat, err := tirxElementArgs("tirx_split", args)
	if err != nil {
		return nil, err
	}
	c, err := t.Split(flat)
	if err != nil {
		return nil, layout.Renamed("tirx_split", err)
	}
	return layout.Ints(c...), nil
}

// soleTIRxArg reads the one argument, a TIRx layout, of op.
func soleTIRxArg(op string, args []layout.Value) (tirx.Layout, error) {
	if err := argCount(op, args, 1, 1); err != nil {
		return tirx.Layout{}, err
	}
	return tirxLayoutArg(op, args[0])
}

func applyTIRxAxes(args []layout.Value) (layout.Value, error) {
	t, err := soleTIRxArg("tirx_axes", args)
	if err != nil {
		return nil, err
	}
	return tirx.AxisList(t.Axes()), nil
}

func applyTIRxReplicas(args []layout.Value) (layout.Value, error) {
	t, err := soleTIRxArg("tirx_replicas", args)
	if err != nil {
		return nil, err
	}
	n, err := t.ReplicaCount()
	if err != nil {
		return nil, layout.Renamed("tirx_replicas", err)
	}
	return layout.Int(n), nil
}

// tirxElementArgs reads (T, x) or (T, c, S) and returns T and the flat
// index of the element, checked against T's size.
func tirxElementArgs(op string, args []layout.Value) (tirx.Layout, int64, error) {
	if err := argCount(op, args, 2, 3); err != nil {
		return tirx.Layout{}, 0, err
	}
	t, err := tirxLayoutArg(op, args[0])
	if err != nil {
		return tirx.Layout{}, 0, err
	}
	if err := t.Validate(); err != nil {
		return tirx.Layout{}, 0, layout.Renamed(op, err)
	}
	if len(args) == 2 {
		x, ok := args[1].(layout.IntTuple)
		switch {
		case ok && x.IsUnknown():
			return tirx.Layout{}, 0, layout.Errorf(op, layout.CondUnknown, "element index ? of %v", t)
		case ok && x.IsTuple():
			return tirx.Layout{}, 0, layout.KindErrorf(op, "coordinate %v needs the logical shape it indexes: %s(T, %v, S) with size(S) == %d", x, op, x, mustSize(t))
		case !ok || !layout.IsPlainInt(x):
			return tirx.Layout{}, 0, layout.KindErrorf(op, "expected an element index, got %v (%s)", args[1], layout.KindName(args[1]))
		}
		size := mustSize(t)
		if x.Value() < 0 || x.Value() >= size {
			return tirx.Layout{}, 0, layout.Errorf(op, tirx.CondCoord, "element index %d is outside [0, %d), the %d elements of %v", x.Value(), size, size, t)
		}
		return t, x.Value(), nil
	}
	coord, err := tirxFlatInts(op, "coordinate", args[1])
	if err != nil {
		return tirx.Layout{}, 0, err
	}
	shape, err := tirxFlatInts(op, "shape", args[2])
	if err != nil {
		return tirx.Layout{}, 0, err
	}
	if err := t.Admits(shape); err != nil {
		return tirx.Layout{}, 0, layout.Renamed(op, err)
	}
	flat, err := tirx.RowMajorIndex(shape, coord)
	if err != nil {
		return tirx.Layout{}, 0, layout.Renamed(op, err)
	}
	return t, flat, nil
}

// mustSize is the size of a validated layout (Validate has checked it).
func mustSize(t tirx.Layout) int64 {
	n, _ := t.Size()
	return n
}

func tirxLayoutArg(op string, v layout.Value) (tirx.Layout, error) {
	if t, ok := v.(tirx.Layout); ok {
		return t, nil
	}
	return tirx.Layout{}, layout.KindErrorf(op, "expected a TIRx layout such as S[(8,2):(4@laneid,1)], got %v (%s)", v, layout.KindName(v))
}

// tirxFlatInts reads a coordinate or shape: an integer (rank 1) or a flat
// tuple of integers. TIRx shapes are flat; a nested tuple is refused.
func tirxFlatInts(op, what string, v layout.Value) ([]int64, error) {
	t, ok := v.(layout.IntTuple)
	if !ok {
		return nil, layout.KindErrorf(op, "expected a %s, got %v (%s)", what, v, layout.KindName(v))
	}
	elems := []layout.IntTuple{t}
	if t.IsTuple() {
		elems = t.Elems()
	}
	out := make([]int64, len(elems))
	for i, e := range elems {
		switch {
		case e.IsUnknown():
			return nil, layout.Errorf(op, layout.CondUnknown, "%s %v has ? in mode %d", what, t, i)
		case !layout.IsPlainInt(e):
			return nil, layout.KindErrorf(op, "a %s is an integer or a flat tuple of integers; mode %d of %v is %v", what, i, t, e)
		}
		out[i] = e.Value()
	}
	return out, nil
}
