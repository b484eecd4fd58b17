package layout

import (
	"strconv"
	"strings"
)

// The sheet's names for CuTe's get<I...>, slice_and_offset and the
// properties the analyzer computes (is_injective, ... image).
func init() {
	register(Op{Name: "get", Signature: "get<I...>(X)", Doc: "mode I... of a layout (as layout<I...>) or of an integer tuple", Apply: applyGet})
	register(Op{Name: "slice_and_offset", Signature: "slice_and_offset(c, L)", Doc: "slice(c, L) and the offset of c with each _ read as 0", Apply: applySliceAndOffset})
	registerOverload("slice_and_offset", func(args []Value) (Value, bool, error) {
		coord, c, ok := composedSliceArgs(args)
		if !ok {
			return nil, false, nil
		}
		v, off, err := SliceAndOffsetComposed(coord, c)
		if err != nil {
			return nil, true, err
		}
		return ComposedPartition{Layout: v, Offset: off}, true, nil
	})
	predicate := func(name, doc string, f func(Value) (bool, error)) {
		register(Op{Name: name, Signature: name + "(L)", Doc: doc, Apply: func(args []Value) (Value, error) {
			if err := argCount(name, args, 1, 1); err != nil {
				return nil, err
			}
			ok, err := f(propertyArg(args[0]))
			return Bool(ok), err
		}})
	}
	predicate("is_injective", "whether distinct indices map to distinct offsets", IsInjective)
	predicate("is_surjective", "whether the offsets are exactly [0, cosize)", IsSurjective)
	predicate("is_bijective", "whether L is a bijection of [0, size) onto [0, cosize)", IsBijective)
	predicate("is_compact", "whether the offsets are exactly [0, size), each reached once", IsCompact)
	register(Op{Name: "image", Signature: "image(L)", Doc: "the offsets L reaches, as sorted disjoint intervals [lo,hi)", Apply: func(args []Value) (Value, error) {
		if err := argCount("image", args, 1, 1); err != nil {
			return nil, err
		}
		iv, err := Image(propertyArg(args[0]))
		return Intervals(iv), err
	}})
}

// propertyArg reads an integer N as the layout N:1, as CuTe's operations do.
func propertyArg(v Value) Value {
	if t, ok := v.(IntTuple); ok && t.isPlainInt() {
		return Layout{Shape: t, Stride: Int(1)}
	}
	return v
}

func applyGet(args []Value) (Value, error) {
	if err := argCount("get", args, 2, -1); err != nil {
		return nil, err
	}
	if t, ok := args[0].(IntTuple); ok {
		is, err := coreIndexArgs("get", args[1:])
		if err != nil {
			return nil, err
		}
		return getMode("get", t, is)
	}
	l, is, err := layoutAndIndices("get", args, 1, -2)
	if err != nil {
		return nil, err
	}
	return l.Get(is...)
}

func applySliceAndOffset(args []Value) (Value, error) {
	c, l, err := sliceArgs("slice_and_offset", args)
	if err != nil {
		return nil, err
	}
	s, off, err := SliceAndOffset(c, l)
	if err != nil {
		return nil, err
	}
	return Partition{Layout: s, Offset: off}, nil
}

// Intervals is a set of offsets as sorted disjoint half-open intervals,
// printed [0,8) u [16,24).
type Intervals []Interval

func (iv Intervals) String() string {
	if len(iv) == 0 {
		return "{}"
	}
	var b strings.Builder
	for i, r := range iv {
		if i > 0 {
			b.WriteString(" u ")
		}
		b.WriteByte('[')
		b.WriteString(strconv.FormatInt(r.Lo, 10))
		b.WriteByte(',')
		b.WriteString(strconv.FormatInt(r.Hi, 10))
		b.WriteByte(')')
	}
	return b.String()
}
