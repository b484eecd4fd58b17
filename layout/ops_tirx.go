package layout

import "errors"

// Sheet operations on TIRx layouts (tirx.go), and size(T): the product of
// the shard extents, the number of logical elements T maps.
//
// A logical element is named either by its flat index x, 0 <= x < size(T),
// or by a coordinate c of a logical shape S that T admits (size(S) ==
// size(T)), which stands for its row-major index x = sum c_d * prod_{e>d} S_e.
// The shape has no default: a coordinate without its shape is an error, as
// the same layout reads a coordinate differently under each admitted shape.

func init() {
	registerOverload("size", func(args []Value) (Value, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		t, ok := args[0].(TileLayout)
		if !ok {
			return nil, false, nil
		}
		n, err := t.Size()
		if err != nil {
			return nil, true, renamed("size", err)
		}
		return Int(n), true, nil
	})
	register(Op{Name: "tirx_map", Signature: "tirx_map(T, x) / tirx_map(T, c, S)",
		Doc:   "L(x) = { D(x) + r + O | r in R }: the points element x (or coordinate c of the admitted shape S, flattened row-major) lives at",
		Apply: applyTIRxMap})
	register(Op{Name: "tirx_split", Signature: "tirx_split(T, x) / tirx_split(T, c, S)",
		Doc:   "the shard components of element x: c_k = floor(x / prod_{l>k} e_l) mod e_k, last iter fastest",
		Apply: applyTIRxSplit})
	register(Op{Name: "tirx_axes", Signature: "tirx_axes(T)",
		Doc:   "the axes T places elements on, in order of first appearance (shard, replica, offset)",
		Apply: applyTIRxAxes})
	register(Op{Name: "tirx_replicas", Signature: "tirx_replicas(T)",
		Doc:   "the number of replica combinations of T: the product of its replica extents (1 without R)",
		Apply: applyTIRxReplicas})
}

// TIRxMap is tirx_map(T, x): the point set L(x) of the flat index x.
func TIRxMap(t TileLayout, flat int64) (PointSet, error) {
	ps, err := t.MapIndex(flat)
	return ps, renamed("tirx_map", err)
}

// TIRxMapCoord is tirx_map(T, c, S): the point set of coordinate c of the
// shape S, which T must admit. It equals TIRxMap(T, RowMajorIndex(S, c)).
func TIRxMapCoord(t TileLayout, coord, shape []int64) (PointSet, error) {
	ps, err := t.Map(shape, coord)
	return ps, renamed("tirx_map", err)
}

func applyTIRxMap(args []Value) (Value, error) {
	t, flat, err := tirxElementArgs("tirx_map", args)
	if err != nil {
		return nil, err
	}
	return TIRxMap(t, flat)
}

func applyTIRxSplit(args []Value) (Value, error) {
	t, flat, err := tirxElementArgs("tirx_split", args)
	if err != nil {
		return nil, err
	}
	c, err := t.Split(flat)
	if err != nil {
		return nil, renamed("tirx_split", err)
	}
	return Ints(c...), nil
}

// soleTIRxArg reads the one argument, a TIRx layout, of op.
func soleTIRxArg(op string, args []Value) (TileLayout, error) {
	if err := argCount(op, args, 1, 1); err != nil {
		return TileLayout{}, err
	}
	return tirxLayoutArg(op, args[0])
}

func applyTIRxAxes(args []Value) (Value, error) {
	t, err := soleTIRxArg("tirx_axes", args)
	if err != nil {
		return nil, err
	}
	return AxisList(t.Axes()), nil
}

func applyTIRxReplicas(args []Value) (Value, error) {
	t, err := soleTIRxArg("tirx_replicas", args)
	if err != nil {
		return nil, err
	}
	n, err := t.ReplicaCount()
	if err != nil {
		return nil, renamed("tirx_replicas", err)
	}
	return Int(n), nil
}

// tirxElementArgs reads (T, x) or (T, c, S) and returns T and the flat
// index of the element, checked against T's size.
func tirxElementArgs(op string, args []Value) (TileLayout, int64, error) {
	if err := argCount(op, args, 2, 3); err != nil {
		return TileLayout{}, 0, err
	}
	t, err := tirxLayoutArg(op, args[0])
	if err != nil {
		return TileLayout{}, 0, err
	}
	if err := t.Validate(); err != nil {
		return TileLayout{}, 0, renamed(op, err)
	}
	if len(args) == 2 {
		x, ok := args[1].(IntTuple)
		switch {
		case ok && x.IsUnknown():
			return TileLayout{}, 0, errorf(op, CondUnknown, "element index ? of %v", t)
		case ok && x.IsTuple():
			return TileLayout{}, 0, kindErrorf(op, "coordinate %v needs the logical shape it indexes: %s(T, %v, S) with size(S) == %d", x, op, x, mustSize(t))
		case !ok || !x.isPlainInt():
			return TileLayout{}, 0, kindErrorf(op, "expected an element index, got %v (%s)", args[1], coreKindName(args[1]))
		}
		size := mustSize(t)
		if x.Value() < 0 || x.Value() >= size {
			return TileLayout{}, 0, errorf(op, CondTIRxCoord, "element index %d is outside [0, %d), the %d elements of %v", x.Value(), size, size, t)
		}
		return t, x.Value(), nil
	}
	coord, err := tirxFlatInts(op, "coordinate", args[1])
	if err != nil {
		return TileLayout{}, 0, err
	}
	shape, err := tirxFlatInts(op, "shape", args[2])
	if err != nil {
		return TileLayout{}, 0, err
	}
	if err := t.Admits(shape); err != nil {
		return TileLayout{}, 0, renamed(op, err)
	}
	flat, err := RowMajorIndex(shape, coord)
	if err != nil {
		return TileLayout{}, 0, renamed(op, err)
	}
	return t, flat, nil
}

// mustSize is the size of a validated layout (Validate has checked it).
func mustSize(t TileLayout) int64 {
	n, _ := t.Size()
	return n
}

func tirxLayoutArg(op string, v Value) (TileLayout, error) {
	if t, ok := v.(TileLayout); ok {
		return t, nil
	}
	return TileLayout{}, kindErrorf(op, "expected a TIRx layout such as S[(8,2):(4@laneid,1)], got %v (%s)", v, coreKindName(v))
}

// tirxFlatInts reads a coordinate or shape: an integer (rank 1) or a flat
// tuple of integers. TIRx shapes are flat; a nested tuple is refused.
func tirxFlatInts(op, what string, v Value) ([]int64, error) {
	t, ok := v.(IntTuple)
	if !ok {
		return nil, kindErrorf(op, "expected a %s, got %v (%s)", what, v, coreKindName(v))
	}
	elems := []IntTuple{t}
	if t.IsTuple() {
		elems = t.Elems()
	}
	out := make([]int64, len(elems))
	for i, e := range elems {
		switch {
		case e.IsUnknown():
			return nil, errorf(op, CondUnknown, "%s %v has ? in mode %d", what, t, i)
		case !e.isPlainInt():
			return nil, kindErrorf(op, "a %s is an integer or a flat tuple of integers; mode %d of %v is %v", what, i, t, e)
		}
		out[i] = e.Value()
	}
	return out, nil
}

// renamed is err with its operation set to op: the algebra's checks name
// TileLayout, the user called op.
func renamed(op string, err error) error {
	var le *Error
	if err == nil || !errors.As(err, &le) {
		return err
	}
	c := *le
	c.Op = op
	return &c
}
