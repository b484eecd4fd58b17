package tiled

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// CuTe's TiledCopy (cute/atom/copy_atom.hpp): a copy atom of an element
// type repeated over a thread-value layout of a tile, the thread-value
// layouts of its source and destination, and the per-thread partitions.

// Conditions of Copy_Atom and TiledCopy, as CuTe's static_asserts word them.
const (
	CondCopySrcType  = "CopyOperation is not valid for Src of ValType."
	CondCopyDstType  = "CopyOperation is not valid for Dst of ValType."
	CondCopyRefType  = "CopyOperation is not valid for Ref of ValType."
	CondTooFewThrs   = "TiledCopy uses too few thrs for selected CopyAtom"
	CondTooFewVals   = "TiledCopy uses too few vals for selected CopyAtom"
	CondTiledCopyTV  = "TiledCopy needs a (thread, value) layout"
	CondCopyElemType = "Copy_Atom needs its element type"
)

// CopyAtom is CuTe's Copy_Atom<Op, ValType>: the traits' thread layout and
// their source, destination and reference layouts, (thread, value) -> bit,
// with the element type they are recast to.
type CopyAtom struct {
	Name          string
	ValType       string
	ValBits       int64
	ThrID         layout.Layout
	Src, Dst, Ref layout.Layout // in bits, as the traits give them
}

func (a CopyAtom) String() string { return fmt.Sprintf("copy_atom(%q, %q)", a.Name, a.ValType) }

// KindName names the kind for messages (layout.KindName).
func (CopyAtom) KindName() string { return "a copy atom" }

// CopyAtomValue is a value that stands for a copy atom (the sheet's
// copy_atom("OP", "T")); the tiled copies take any of them.
type CopyAtomValue interface {
	layout.Value
	TiledCopyAtom() (CopyAtom, error)
}

// TiledCopyAtom makes CopyAtom a CopyAtomValue.
func (a CopyAtom) TiledCopyAtom() (CopyAtom, error) { return a, nil }

// ValLayouts are the atom's layouts recast from bits to its element type:
// CuTe's ValLayoutSrc, ValLayoutDst and ValLayoutRef, each checked to have
// one thread per thread of ThrID.
func (a CopyAtom) ValLayouts(op string) (src, dst, ref layout.Layout, err error) {
	if a.ValBits <= 0 {
		return layout.Layout{}, layout.Layout{}, layout.Layout{}, layout.Errorf(op, CondCopyElemType, "the element type %q of %s has no width", a.ValType, a.Name)
	}
	threads, err := a.ThrID.Size()
	if err != nil {
		return layout.Layout{}, layout.Layout{}, layout.Layout{}, layout.InOp(op, fmt.Sprintf("size(%v)", a.ThrID), err)
	}
	out := [3]layout.Layout{}
	for i, c := range []struct {
		bits layout.Layout
		cond string
		name string
	}{{a.Src, CondCopySrcType, "source"}, {a.Dst, CondCopyDstType, "destination"}, {a.Ref, CondCopyRefType, "reference"}} {
		if c.bits.Rank() != 2 {
			return layout.Layout{}, layout.Layout{}, layout.Layout{}, layout.Errorf(op, CondTiledCopyTV, "the atom's %s layout %v is not (thread, value)", c.name, c.bits)
		}
		l, err := layout.RecastLayout(c.bits, 1, a.ValBits)
		if err != nil {
			return layout.Layout{}, layout.Layout{}, layout.Layout{}, layout.InOp(op, fmt.Sprintf("recasting the %s layout %v of %s to %d-bit %s", c.name, c.bits, a.Name, a.ValBits, a.ValType), err)
		}
		if l.Rank() != 2 {
			return layout.Layout{}, layout.Layout{}, layout.Layout{}, layout.Errorf(op, c.cond, "%s's %s layout recast to %s is %v, not (thread, value)", a.Name, c.name, a.ValType, l)
		}
		n, err := modeProduct(op, l.Shape, 0)
		if err != nil {
			return layout.Layout{}, layout.Layout{}, layout.Layout{}, err
		}
		if n.Value() != threads {
			return layout.Layout{}, layout.Layout{}, layout.Layout{}, layout.Errorf(op, c.cond, "%s's %s layout recast to %d-bit %s is %v: %d threads, but the atom has %d", a.Name, c.name, a.ValBits, a.ValType, l, n.Value(), threads)
		}
		out[i] = l
	}
	return out[0], out[1], out[2], nil
}

// TiledCopy is CuTe's TiledCopy<Copy_Atom, LayoutCopy_TV, ShapeTiler_MN>.
type TiledCopy struct {
	Atom CopyAtom
	// ValSrc, ValDst and ValRef are the atom's layouts in elements.
	ValSrc, ValDst, ValRef layout.Layout
	TiledTV                layout.Layout   // TiledLayout_TV: (thread, value) -> coordinate in the tile
	TilerMN                layout.IntTuple // the tile's shape, shape(Tiler_MN)
	// TilerModes, when set, is Tiler_MN as a tuple of layouts
	// (make_tiled_copy_C_atom, make_cotiled_copy): the tile is the
	// elements these layouts pick out of a tensor, mode by mode, rather
	// than its first TilerMN elements.
	TilerModes []layout.Layout
}

// KindName names the kind for messages (layout.KindName).
func (TiledCopy) KindName() string { return "a TiledCopy" }

// String is the TiledCopy as CuTe's make_tiled_copy_impl takes it.
func (c TiledCopy) String() string { return c.Format(false) }

// Format prints the TiledCopy, with static marks when asked.
func (c TiledCopy) Format(static bool) string {
	return fmt.Sprintf("TiledCopy(%v, %s, %s)", c.Atom, c.TiledTV.Format(static), c.formatTiler(static))
}

// Size is CuTe's size(TiledCopy): the number of threads, size<0>(TiledTV).
func (c TiledCopy) Size() (int64, error) {
	p, err := modeProduct("size", c.TiledTV.Shape, 0)
	if err != nil {
		return 0, err
	}
	return p.Value(), nil
}

// NewTiledCopy is CuTe's make_tiled_copy_impl(atom, layout_tv, tiler) with
// the checks of Copy_Atom and TiledCopy: the thread and value counts of tv
// must be multiples of the atom's.
func NewTiledCopy(op string, atom CopyAtom, tv layout.Layout, tiler layout.IntTuple) (TiledCopy, error) {
	src, dst, ref, err := atom.ValLayouts(op)
	if err != nil {
		return TiledCopy{}, err
	}
	if err := layout.CheckCongruent(op, tv.Shape, tv.Stride); err != nil {
		return TiledCopy{}, err
	}
	if tv.Rank() < 2 {
		return TiledCopy{}, layout.Errorf(op, CondTiledCopyTV, "the thread-value layout %v has rank %d", tv, tv.Rank())
	}
	sizes := func(l layout.Layout) (thr, val int64, err error) {
		t, err := modeProduct(op, l.Shape, 0)
		if err != nil {
			return 0, 0, err
		}
		v, err := modeProduct(op, l.Shape, 1)
		if err != nil {
			return 0, 0, err
		}
		return t.Value(), v.Value(), nil
	}
	atomThr, atomVal, err := sizes(ref)
	if err != nil {
		return TiledCopy{}, err
	}
	thr, val, err := sizes(tv)
	if err != nil {
		return TiledCopy{}, err
	}
	if atomThr <= 0 || thr%atomThr != 0 {
		return TiledCopy{}, layout.Errorf(op, CondTooFewThrs, "the thread-value layout %v has %d threads, not a multiple of the %d threads of %v", tv, thr, atomThr, atom)
	}
	if atomVal <= 0 || val%atomVal != 0 {
		return TiledCopy{}, layout.Errorf(op, CondTooFewVals, "the thread-value layout %v has %d values per thread, not a multiple of the %d values of %v (%v in %d-bit elements)", tv, val, atomVal, atom, ref, atom.ValBits)
	}
	return TiledCopy{Atom: atom, ValSrc: src, ValDst: dst, ValRef: ref, TiledTV: tv, TilerMN: tiler}, nil
}

// MakeLayoutTV is the thread-value layout CuTe's make_tiled_copy(atom, thr,
// val) builds (the CuTe DSL's make_layout_tv): with
// layout_mn = raked_product(thr, val),
//
//	right_inverse(layout_mn).with_shape((size(thr), size(val)))
//
// and the tile product_each(shape(layout_mn)).
func MakeLayoutTV(op string, thr, val layout.Layout) (tv layout.Layout, tiler layout.IntTuple, err error) {
	mn, err := layout.RakedProduct(thr, val)
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, layout.InOp(op, fmt.Sprintf("raked_product(%v, %v)", thr, val), err)
	}
	inv, err := layout.RightInverse(&mn)
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, layout.InOp(op, fmt.Sprintf("right_inverse(%v)", mn), err)
	}
	nt, err := thr.Size()
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, layout.InOp(op, "", err)
	}
	nv, err := val.Size()
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, layout.InOp(op, "", err)
	}
	shape, err := layout.MakeLayout(layout.Tup(layout.Int(nt), layout.Int(nv)))
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, layout.InOp(op, "", err)
	}
	tvp, err := layout.Composition(inv, &shape)
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, layout.InOp(op, fmt.Sprintf("%v.with_shape(%v)", inv, shape.Shape), err)
	}
	tv = *tvp
	if tiler, err = layout.ProductEach(mn.Shape); err != nil {
		return layout.Layout{}, layout.IntTuple{}, layout.Renamed(op, err)
	}
	return tv, tiler, nil
}

// MakeTiledCopy is CuTe's make_tiled_copy(atom, thr, val).
func MakeTiledCopy(atom CopyAtom, thr, val layout.Layout) (TiledCopy, error) {
	const op = "make_tiled_copy"
	tv, tiler, err := MakeLayoutTV(op, thr, val)
	if err != nil {
		return TiledCopy{}, err
	}
	return NewTiledCopy(op, atom, tv, tiler)
}

// MakeTiledCopyMMA is CuTe's make_tiled_copy_A, _B or _C(atom, mma): the
// copy that moves the operand's tile as the TiledMMA's threads hold it.
func MakeTiledCopyMMA(operand string, atom CopyAtom, m TiledMMA) (TiledCopy, error) {
	op := "make_tiled_copy_" + operand
	x, err := mmaOperandOf(op, operand)
	if err != nil {
		return TiledCopy{}, err
	}
	tv, err := m.LayoutTV(operand)
	if err != nil {
		return TiledCopy{}, layout.Renamed(op, err)
	}
	tp, err := m.TileSize(x.p)
	if err != nil {
		return TiledCopy{}, layout.Renamed(op, err)
	}
	tq, err := m.TileSize(x.q)
	if err != nil {
		return TiledCopy{}, layout.Renamed(op, err)
	}
	return NewTiledCopy(op, atom, tv, layout.Tup(tp, tq))
}

// TileSize is CuTe's tile_size<i>(TiledCopy): size<i>(Tiler_MN); i < 0
// stands for no index, size(Tiler_MN).
func (c TiledCopy) TileSize(i int) (layout.IntTuple, error) {
	const op = "tile_size"
	t := c.TilerMN
	if i >= 0 {
		if !t.IsTuple() && i > 0 || t.IsTuple() && i >= t.Len() {
			return layout.IntTuple{}, layout.Errorf(op, layout.CondIndexRange, "tile_size<%d> of a TiledCopy whose tile %v has rank %d", i, t, t.Rank())
		}
		t = t.At(i)
	}
	p, err := layout.Product(t)
	if err != nil {
		return layout.IntTuple{}, layout.InOp(op, "", err)
	}
	return p, nil
}

// ref2trg is right_inverse(ValRef) o the source (or destination) layout:
// the atom's reference (thread, value) to its source or destination one.
func (c TiledCopy) ref2trg(op string, src bool) (layout.Layout, error) {
	inv, err := layout.RightInverse(&c.ValRef)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("right_inverse(%v)", c.ValRef), err)
	}
	trg := c.ValDst
	if src {
		trg = c.ValSrc
	}
	out, err := layout.Composition(inv, &trg)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("composition(%v, %v)", inv, trg), err)
	}
	return *out, nil
}

// tile2thrfrg is CuTe's TiledCopy::tile2thrfrg: the tensor, whose mode 0
// is the tile, recomposed so that mode 0 becomes (thread, value):
// (Thr, (AtomVal, RestVal), Rest...).
func (c TiledCopy) tile2thrfrg(op string, tensor layout.Layout, ref2trg layout.Layout) (layout.Layout, error) {
	at, err := modeProduct(op, c.ValRef.Shape, 0)
	if err != nil {
		return layout.Layout{}, err
	}
	av, err := modeProduct(op, c.ValRef.Shape, 1)
	if err != nil {
		return layout.Layout{}, err
	}
	atomTV, err := layout.ZippedDivide(c.TiledTV, layout.Tup(at, av))
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("zipped_divide(%v, (%v,%v))", c.TiledTV, at, av), err)
	}
	trg, err := layout.CompositionTiler(atomTV, layout.Tiler{Modes: []layout.TilerMode{{Layout: ref2trg}, {Skip: true}}})
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("composing %v with %v", atomTV, ref2trg), err)
	}
	z, err := layout.Zip(trg)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("zip(%v)", trg), err)
	}
	thrval2mn, err := layout.CoalesceProfile(z, layout.Tup(layout.Int(1), layout.Tup(layout.Int(1), layout.Int(1))))
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("coalesce(%v, (1,(1,1)))", z), err)
	}
	tv, err := layout.CompositionTiler(tensor, layout.Tiler{Modes: []layout.TilerMode{{Layout: thrval2mn}, {Skip: true}}})
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("composing %v with %v", tensor, thrval2mn), err)
	}
	out, err := layout.Slice(layout.Tup(layout.Tup(layout.Underscore(), layout.Underscore()), layout.Underscore()), tv)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	return out, nil
}

// LayoutTV is CuTe's get_layoutS_TV ("S") or get_layoutD_TV ("D"): (thread,
// value) -> the column-major index in the tile of the source or destination.
func (c TiledCopy) LayoutTV(side string) (layout.Layout, error) {
	op := "get_layout" + side + "_TV"
	if side != "S" && side != "D" {
		return layout.Layout{}, layout.Errorf(op, "", "a copy's sides are S and D, not %q", side)
	}
	ref, err := layout.MakeLayout(layout.Tup(c.TilerMN, layout.Int(1)))
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	r2t, err := c.ref2trg(op, side == "S")
	if err != nil {
		return layout.Layout{}, err
	}
	frg, err := c.tile2thrfrg(op, ref, r2t)
	if err != nil {
		return layout.Layout{}, err
	}
	out, err := layout.Slice(layout.Tup(layout.Underscore(), layout.Underscore(), layout.Int(0)), frg)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	return out, nil
}

// Partition is CuTe's get_slice(thread).partition_S ("S") or partition_D
// ("D") of the tensor l: the thread's values (Frg, Rest...) and the offset
// of its first element.
func (c TiledCopy) Partition(side string, thread int64, l layout.Layout) (layout.Partition, error) {
	op := "partition_" + side
	return partitionPlain(op, l, func(l layout.Layout) (layout.Layout, layout.IntTuple, error) {
		return c.partitionCut(op, side, thread, l)
	})
}

// PartitionComposed is Partition of a swizzled tensor Sw o off o L: the same
// cut of Sw o off o tidfrg(L), sliced as CuTe slices a swizzled layout.
func (c TiledCopy) PartitionComposed(side string, thread int64, s layout.Composed) (layout.ComposedPartition, error) {
	op := "partition_" + side
	return partitionSwizzled(op, s, func(l layout.Layout) (layout.Layout, layout.IntTuple, error) {
		return c.partitionCut(op, side, thread, l)
	})
}

// partitionCut is CuTe's tidfrg_S/D of l, (Thr, Frg, Rest...), and the
// coordinate that cuts the thread's values out of it.
func (c TiledCopy) partitionCut(op, side string, thread int64, l layout.Layout) (layout.Layout, layout.IntTuple, error) {
	if side != "S" && side != "D" {
		return layout.Layout{}, layout.IntTuple{}, layout.Errorf(op, "", "a copy's sides are S and D, not %q", side)
	}
	if thread < 0 {
		return layout.Layout{}, layout.IntTuple{}, layout.Errorf(op, "", "the thread index %d is negative", thread)
	}
	if err := layout.CheckCongruent(op, l.Shape, l.Stride); err != nil {
		return layout.Layout{}, layout.IntTuple{}, err
	}
	if l.Rank() < c.TilerMN.Rank() {
		return layout.Layout{}, layout.IntTuple{}, layout.Errorf(op, CondPartitionTV, "the tensor %v has rank %d, the copy's tile %v rank %d", l, l.Rank(), c.TilerMN, c.TilerMN.Rank())
	}
	z, err := layout.ZippedDivide(l, c.tilerOf())
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, layout.InOp(op, fmt.Sprintf("zipped_divide(%v, %s)", l, c.formatTiler(false)), err)
	}
	r2t, err := c.ref2trg(op, side == "S")
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, err
	}
	frg, err := c.tile2thrfrg(op, z, r2t)
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, err
	}
	return frg, layout.Tup(layout.Dyn(thread), layout.Underscore(), layout.Repeat(l.Rank(), layout.Underscore())), nil
}

func (TiledCopy) IsValue() {} // a layout.Value

func (CopyAtom) IsValue() {} // a layout.Value
