package layout

import (
	"fmt"
	"strings"
)

// The TiledCopy constructions whose tile is a tuple of layouts rather than a
// shape (make_tiled_copy_C_atom, make_cotiled_copy), the copies that take
// another copy's thread-value layout (make_tiled_copy_S/D), and
// ThrCopy::retile_S/retile_D, as cute/atom/copy_atom.hpp defines them.

// CondCotiledData is make_cotiled_copy's check that every address the
// atom's thread-value layout names is an address of the data layout.
const CondCotiledData = "The memory pointed to by AtomTVLayout does not exist in the DataLayout."

// tilerOf is the TiledCopy's Tiler_MN as zipped_divide takes it: the tuple
// of layouts when the copy has one, else the tile's shape.
func (c TiledCopy) tilerOf() Value {
	if c.TilerModes == nil {
		return c.TilerMN
	}
	t := Tiler{Modes: make([]TilerMode, len(c.TilerModes))}
	for i, m := range c.TilerModes {
		t.Modes[i] = TilerMode{Layout: m}
	}
	return t
}

// formatTiler prints Tiler_MN as CuTe prints it: a shape, or a tuple of layouts.
func (c TiledCopy) formatTiler(static bool) string {
	if c.TilerModes == nil {
		return c.TilerMN.Format(static)
	}
	parts := make([]string, len(c.TilerModes))
	for i, m := range c.TilerModes {
		parts[i] = m.Format(static)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// newTiledCopyModes is make_tiled_copy_impl(atom, tv, tiler) with tiler a
// tuple of layouts: its shape is the tuple of the layouts' shapes.
func newTiledCopyModes(op string, atom CopyAtom, tv Layout, modes []Layout) (TiledCopy, error) {
	shapes := make([]IntTuple, len(modes))
	for i, m := range modes {
		shapes[i] = m.Shape
	}
	c, err := NewTiledCopy(op, atom, tv, Tup(shapes...))
	if err != nil {
		return TiledCopy{}, err
	}
	c.TilerModes = modes
	return c, nil
}

// unitModes are, for each mode i of the shape s, the layouts that keep only
// that coordinate of the tv layout's image, filtered:
//
//	filter(composition(make_layout(s, e_i), tv))
//
// with e_i the stride 1 in mode i and 0 elsewhere. They are the by-mode tiler
// that picks out the elements tv reaches, mode by mode.
func unitModes(op string, s IntTuple, tv Layout) ([]Layout, error) {
	n := max(s.Rank(), 1)
	out := make([]Layout, n)
	for i := range n {
		e := make([]IntTuple, n)
		for j := range e {
			e[j] = Int(0)
		}
		e[i] = Int(1)
		stride := Tup(e...)
		if !s.IsTuple() {
			stride = e[0]
		}
		proj, err := MakeLayoutStride(s, stride)
		if err != nil {
			return nil, inOp(op, "", err)
		}
		c, err := Composition(proj, tv)
		if err != nil {
			return nil, inOp(op, fmt.Sprintf("composition(%v, %v)", proj, tv), err)
		}
		if out[i], err = Filter(c); err != nil {
			return nil, inOp(op, fmt.Sprintf("filter(%v)", c), err)
		}
	}
	return out, nil
}

// tileTV is the (thread, value) -> tile coordinate layout of tv, whose
// image lies in the tensor of shape s, once the by-mode tiler modes has cut
// the tile out of that tensor:
//
//	composition(left_inverse(composition(make_layout(s), modes)), tv)
func tileTV(op string, s IntTuple, modes []Layout, tv Layout) (Layout, error) {
	ref, err := MakeLayout(s)
	if err != nil {
		return Layout{}, inOp(op, "", err)
	}
	t := Tiler{Modes: make([]TilerMode, len(modes))}
	for i, m := range modes {
		t.Modes[i] = TilerMode{Layout: m}
	}
	tile2ref, err := CompositionTiler(ref, t)
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("composition(%v, %v)", ref, t), err)
	}
	inv, err := LeftInverse(tile2ref)
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("left_inverse(%v)", tile2ref), err)
	}
	out, err := Composition(inv, tv)
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("composition(%v, %v)", inv, tv), err)
	}
	return out, nil
}

// MakeTiledCopyCAtom is CuTe's make_tiled_copy_C_atom(atom, mma): the
// smallest TiledCopy that moves the accumulator C as the MMA's threads hold
// it, one copy atom's values per thread at a time (for epilogues that store
// C in sub-tiles). With layoutC = get_layoutC_TV(mma) and V the atom's
// source values,
//
//	tv    = composition(layoutC, make_layout((size<0>(layoutC), V)))
//	tiler = unitModes((tile_size<0>(mma), tile_size<1>(mma)), tv)
//
// and the copy's thread-value layout is tv seen from the tile tiler cuts.
// @pre V <= size<1>(layoutC).
func MakeTiledCopyCAtom(atom CopyAtom, m TiledMMA) (TiledCopy, error) {
	const op = "make_tiled_copy_C_atom"
	src, _, _, err := atom.ValLayouts(op)
	if err != nil {
		return TiledCopy{}, err
	}
	copyV, err := modeProduct(op, src.Shape, 1)
	if err != nil {
		return TiledCopy{}, err
	}
	layoutC, err := m.LayoutTV("C")
	if err != nil {
		return TiledCopy{}, Renamed(op, err)
	}
	nt, err := modeProduct(op, layoutC.Shape, 0)
	if err != nil {
		return TiledCopy{}, err
	}
	nv, err := modeProduct(op, layoutC.Shape, 1)
	if err != nil {
		return TiledCopy{}, err
	}
	if copyV.Value() > nv.Value() {
		return TiledCopy{}, errorf(op, "", "%v moves %d values per thread, more than the %d of C that each thread of the TiledMMA holds (%v)", atom, copyV.Value(), nv.Value(), layoutC)
	}
	first, err := MakeLayout(Tup(nt, copyV))
	if err != nil {
		return TiledCopy{}, inOp(op, "", err)
	}
	tv, err := Composition(layoutC, first)
	if err != nil {
		return TiledCopy{}, inOp(op, fmt.Sprintf("composition(%v, %v)", layoutC, first), err)
	}
	tm, err := m.TileSize(0)
	if err != nil {
		return TiledCopy{}, Renamed(op, err)
	}
	tn, err := m.TileSize(1)
	if err != nil {
		return TiledCopy{}, Renamed(op, err)
	}
	mn := Tup(tm, tn)
	modes, err := unitModes(op, mn, tv)
	if err != nil {
		return TiledCopy{}, err
	}
	copyTV, err := tileTV(op, mn, modes, tv)
	if err != nil {
		return TiledCopy{}, err
	}
	return newTiledCopyModes(op, atom, copyTV, modes)
}

// MakeCotiledCopy is CuTe's make_cotiled_copy(atom, atom_tv, data): the
// TiledCopy whose threads and values move the addresses atom_tv names,
// (thread, value) -> address, within the data layout, coordinate -> address.
// With tvData = composition(make_layout(left_inverse(data), 1:0), atom_tv),
// (thread, value) -> data coordinate, the tiler is unitModes of data's
// flattened shape over tvData and the thread-value layout tvData seen from
// the tile.
// @pre every address of atom_tv is one of data's:
// coalesce(composition(make_layout(data, 1:0), layout<1>(tvData))) == coalesce(layout<1>(atom_tv)).
func MakeCotiledCopy(atom CopyAtom, atomTV, data Layout) (TiledCopy, error) {
	const op = "make_cotiled_copy"
	// CuTe instantiates the Copy_Atom, and checks its element type, first.
	if _, _, _, err := atom.ValLayouts(op); err != nil {
		return TiledCopy{}, err
	}
	if atomTV.Rank() < 2 {
		return TiledCopy{}, errorf(op, CondTiledCopyTV, "the atom's thread-value layout %v has rank %d", atomTV, atomTV.Rank())
	}
	inv, err := LeftInverse(data)
	if err != nil {
		return TiledCopy{}, inOp(op, fmt.Sprintf("left_inverse(%v)", data), err)
	}
	pad := Make(Int(1), Int(0))
	tvData, err := Composition(MakeLayoutOf(inv, pad), atomTV)
	if err != nil {
		return TiledCopy{}, inOp(op, fmt.Sprintf("composition((%v, 1:0), %v)", inv, atomTV), err)
	}
	vals, err := tvData.Get(1)
	if err != nil {
		return TiledCopy{}, inOp(op, "", err)
	}
	reached, err := Composition(MakeLayoutOf(data, pad), vals)
	if err != nil {
		return TiledCopy{}, inOp(op, fmt.Sprintf("composition((%v, 1:0), %v)", data, vals), err)
	}
	if reached, err = Coalesce(reached); err != nil {
		return TiledCopy{}, inOp(op, "", err)
	}
	want, err := atomTV.Get(1)
	if err != nil {
		return TiledCopy{}, inOp(op, "", err)
	}
	if want, err = Coalesce(want); err != nil {
		return TiledCopy{}, inOp(op, "", err)
	}
	if reached.String() != want.String() {
		return TiledCopy{}, errorf(op, CondCotiledData, "a thread's values are at the addresses %v of %v, but the data layout %v gives back %v for them", want, atomTV, data, reached)
	}
	flat, err := productEach(op, data.Shape)
	if err != nil {
		return TiledCopy{}, err
	}
	modes, err := unitModes(op, flat, tvData)
	if err != nil {
		return TiledCopy{}, err
	}
	tv, err := tileTV(op, flat, modes, tvData)
	if err != nil {
		return TiledCopy{}, err
	}
	return newTiledCopyModes(op, atom, tv, modes)
}

// MakeTiledCopySD is CuTe's make_tiled_copy_S ("S") or make_tiled_copy_D
// ("D")(atom, c): a TiledCopy of atom over c's tile whose thread-value
// layout is c's source (destination) one, get_layoutS_TV(c).
func MakeTiledCopySD(side string, atom CopyAtom, c TiledCopy) (TiledCopy, error) {
	op := "make_tiled_copy_" + side
	tv, err := c.LayoutTV(side)
	if err != nil {
		return TiledCopy{}, Renamed(op, err)
	}
	if c.TilerModes != nil {
		return newTiledCopyModes(op, atom, tv, c.TilerModes)
	}
	return NewTiledCopy(op, atom, tv, c.TilerMN)
}

// Retile is CuTe's ThrCopy::retile_S and retile_D (the same function): the
// register fragment l, whose mode 0 holds the first size<0>(l) values of a
// thread in the copy's value order, regrouped as the copy moves them,
// ((AtomVal, RestVal), Rest...). With V = size<0>(l) and T the copy's
// thread count,
//
//	frgMN = upcast<T*V>(right_inverse(TiledLayout_TV).with_shape(shape(Tiler_MN)))
//	frgV  = zipped_divide(logical_product(make_layout(V), right_inverse(frgMN)), make_layout(AtomNumVal))
//
// and the fragment, divided by (V, product_each(shape(frgMN))...), has its
// tile mode composed with frgV and the first tile of the rest taken.
func (c TiledCopy) Retile(l Layout) (Layout, error) {
	const op = "retile"
	if err := checkCongruent(op, l.Shape, l.Stride, nil); err != nil {
		return Layout{}, err
	}
	v, err := modeProduct(op, l.Shape, 0)
	if err != nil {
		return Layout{}, err
	}
	nt, err := modeProduct(op, c.TiledTV.Shape, 0)
	if err != nil {
		return Layout{}, err
	}
	inv, err := RightInverse(c.TiledTV)
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("right_inverse(%v)", c.TiledTV), err)
	}
	tile, err := MakeLayout(c.TilerMN)
	if err != nil {
		return Layout{}, inOp(op, "", err)
	}
	shaped, err := Composition(inv, tile)
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("%v.with_shape(%v)", inv, c.TilerMN), err)
	}
	frgMN, err := Upcast(shaped, nt.Value()*v.Value())
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("upcast<%d>(%v)", nt.Value()*v.Value(), shaped), err)
	}
	vl, err := MakeLayout(v)
	if err != nil {
		return Layout{}, inOp(op, "", err)
	}
	back, err := RightInverse(frgMN)
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("right_inverse(%v)", frgMN), err)
	}
	prod, err := LogicalProduct(vl, back)
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("logical_product(%v, %v)", vl, back), err)
	}
	av, err := modeProduct(op, c.ValRef.Shape, 1)
	if err != nil {
		return Layout{}, err
	}
	atomVals, err := MakeLayout(av)
	if err != nil {
		return Layout{}, inOp(op, "", err)
	}
	frgV, err := ZippedDivide(prod, atomVals)
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("zipped_divide(%v, %v)", prod, atomVals), err)
	}
	each, err := productEach(op, frgMN.Shape)
	if err != nil {
		return Layout{}, err
	}
	tiler := Tup(append([]IntTuple{v}, each.Elems()...)...)
	if !frgMN.Shape.IsTuple() {
		tiler = Tup(v, each)
	}
	divided, err := ZippedDivide(l, tiler)
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("zipped_divide(%v, %v)", l, tiler), err)
	}
	composed, err := CompositionTiler(divided, Tiler{Modes: []TilerMode{{Layout: frgV}, {Skip: true}}})
	if err != nil {
		return Layout{}, inOp(op, fmt.Sprintf("composing %v with %v", divided, frgV), err)
	}
	// (_, append<R>(0, _)): the first tile of the rest, R = rank(l).
	rest := Int(0)
	if r := l.Rank(); r > 1 {
		modes := make([]IntTuple, r)
		modes[0] = Int(0)
		for i := 1; i < r; i++ {
			modes[i] = Underscore()
		}
		rest = Tup(modes...)
	}
	out, err := Slice(Tup(Underscore(), rest), composed)
	if err != nil {
		return Layout{}, inOp(op, "", err)
	}
	return out, nil
}
