package tiled

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
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
func (c TiledCopy) tilerOf() layout.Value {
	if c.TilerModes == nil {
		return c.TilerMN
	}
	t := layout.Tiler{Modes: make([]layout.TilerMode, len(c.TilerModes))}
	for i, m := range c.TilerModes {
		t.Modes[i] = layout.TilerMode{Layout: m}
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
func newTiledCopyModes(op string, atom CopyAtom, tv layout.Layout, modes []layout.Layout) (TiledCopy, error) {
	shapes := make([]layout.IntTuple, len(modes))
	for i, m := range modes {
		shapes[i] = m.Shape
	}
	c, err := NewTiledCopy(op, atom, tv, layout.Tup(shapes...))
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
func unitModes(op string, s layout.IntTuple, tv layout.Layout) ([]layout.Layout, error) {
	n := max(s.Rank(), 1)
	out := make([]layout.Layout, n)
	for i := range n {
		e := make([]layout.IntTuple, n)
		for j := range e {
			e[j] = layout.Int(0)
		}
		e[i] = layout.Int(1)
		stride := layout.Tup(e...)
		if !s.IsTuple() {
			stride = e[0]
		}
		proj, err := layout.MakeLayoutStride(s, stride)
		if err != nil {
			return nil, layout.InOp(op, "", err)
		}
		c, err := layout.Composition(&proj, &tv)
		if err != nil {
			return nil, layout.InOp(op, fmt.Sprintf("composition(%v, %v)", proj, tv), err)
		}
		if out[i], err = layout.Filter(*c); err != nil {
			return nil, layout.InOp(op, fmt.Sprintf("filter(%v)", *c), err)
		}
	}
	return out, nil
}

// tileTV is the (thread, value) -> tile coordinate layout of tv, whose
// image lies in the tensor of shape s, once the by-mode tiler modes has cut
// the tile out of that tensor:
//
//	composition(left_inverse(composition(make_layout(s), modes)), tv)
func tileTV(op string, s layout.IntTuple, modes []layout.Layout, tv layout.Layout) (layout.Layout, error) {
	ref, err := layout.MakeLayout(s)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	t := layout.Tiler{Modes: make([]layout.TilerMode, len(modes))}
	for i, m := range modes {
		t.Modes[i] = layout.TilerMode{Layout: m}
	}
	tile2ref, err := layout.CompositionTiler(ref, t)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("composition(%v, %v)", ref, t), err)
	}
	inv, err := layout.LeftInverse(tile2ref)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("left_inverse(%v)", tile2ref), err)
	}
	out, err := layout.Composition(&inv, &tv)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("composition(%v, %v)", inv, tv), err)
	}
	return *out, nil
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
		return TiledCopy{}, layout.Renamed(op, err)
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
		return TiledCopy{}, layout.Errorf(op, "", "%v moves %d values per thread, more than the %d of C that each thread of the TiledMMA holds (%v)", atom, copyV.Value(), nv.Value(), layoutC)
	}
	first, err := layout.MakeLayout(layout.Tup(nt, copyV))
	if err != nil {
		return TiledCopy{}, layout.InOp(op, "", err)
	}
	tv, err := layout.Composition(&layoutC, &first)
	if err != nil {
		return TiledCopy{}, layout.InOp(op, fmt.Sprintf("composition(%v, %v)", layoutC, first), err)
	}
	tm, err := m.TileSize(0)
	if err != nil {
		return TiledCopy{}, layout.Renamed(op, err)
	}
	tn, err := m.TileSize(1)
	if err != nil {
		return TiledCopy{}, layout.Renamed(op, err)
	}
	mn := layout.Tup(tm, tn)
	modes, err := unitModes(op, mn, *tv)
	if err != nil {
		return TiledCopy{}, err
	}
	copyTV, err := tileTV(op, mn, modes, *tv)
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
func MakeCotiledCopy(atom CopyAtom, atomTV, data layout.Layout) (TiledCopy, error) {
	const op = "make_cotiled_copy"
	// CuTe instantiates the Copy_Atom, and checks its element type, first.
	if _, _, _, err := atom.ValLayouts(op); err != nil {
		return TiledCopy{}, err
	}
	if atomTV.Rank() < 2 {
		return TiledCopy{}, layout.Errorf(op, CondTiledCopyTV, "the atom's thread-value layout %v has rank %d", atomTV, atomTV.Rank())
	}
	inv, err := layout.LeftInverse(data)
	if err != nil {
		return TiledCopy{}, layout.InOp(op, fmt.Sprintf("left_inverse(%v)", data), err)
	}
	pad := layout.Make(layout.Int(1), layout.Int(0))
	invPad := layout.MakeLayoutOf(inv, pad)
	tvData, err := layout.Composition(&invPad, &atomTV)
	if err != nil {
		return TiledCopy{}, layout.InOp(op, fmt.Sprintf("composition((%v, 1:0), %v)", inv, atomTV), err)
	}
	vals, err := tvData.Get(1)
	if err != nil {
		return TiledCopy{}, layout.InOp(op, "", err)
	}
	dataPad := layout.MakeLayoutOf(data, pad)
	reached, err := layout.Composition(&dataPad, &vals)
	if err != nil {
		return TiledCopy{}, layout.InOp(op, fmt.Sprintf("composition((%v, 1:0), %v)", data, vals), err)
	}
	if reached, err = layout.Coalesce(reached); err != nil {
		return TiledCopy{}, layout.InOp(op, "", err)
	}
	vals1, err := atomTV.Get(1)
	if err != nil {
		return TiledCopy{}, layout.InOp(op, "", err)
	}
	want, err := layout.Coalesce(&vals1)
	if err != nil {
		return TiledCopy{}, layout.InOp(op, "", err)
	}
	if reached.String() != want.String() {
		return TiledCopy{}, layout.Errorf(op, CondCotiledData, "a thread's values are at the addresses %v of %v, but the data layout %v gives back %v for them", *want, atomTV, data, *reached)
	}
	flat, err := layout.ProductEach(data.Shape)
	if err != nil {
		return TiledCopy{}, layout.Renamed(op, err)
	}
	modes, err := unitModes(op, flat, *tvData)
	if err != nil {
		return TiledCopy{}, err
	}
	tv, err := tileTV(op, flat, modes, *tvData)
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
		return TiledCopy{}, layout.Renamed(op, err)
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
func (c TiledCopy) Retile(l layout.Layout) (layout.Layout, error) {
	const op = "retile"
	if err := layout.CheckCongruent(op, l.Shape, l.Stride); err != nil {
		return layout.Layout{}, err
	}
	v, err := modeProduct(op, l.Shape, 0)
	if err != nil {
		return layout.Layout{}, err
	}
	nt, err := modeProduct(op, c.TiledTV.Shape, 0)
	if err != nil {
		return layout.Layout{}, err
	}
	inv, err := layout.RightInverse(&c.TiledTV)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("right_inverse(%v)", c.TiledTV), err)
	}
	tile, err := layout.MakeLayout(c.TilerMN)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	shaped, err := layout.Composition(inv, &tile)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("%v.with_shape(%v)", inv, c.TilerMN), err)
	}
	frgMN, err := layout.Upcast(*shaped, nt.Value()*v.Value())
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("upcast<%d>(%v)", nt.Value()*v.Value(), *shaped), err)
	}
	vl, err := layout.MakeLayout(v)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	back, err := layout.RightInverse(&frgMN)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("right_inverse(%v)", frgMN), err)
	}
	prod, err := layout.LogicalProduct(&vl, back)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("logical_product(%v, %v)", vl, back), err)
	}
	av, err := modeProduct(op, c.ValRef.Shape, 1)
	if err != nil {
		return layout.Layout{}, err
	}
	atomVals, err := layout.MakeLayout(av)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	frgV, err := layout.ZippedDivide(*prod, layout.Box(atomVals))
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("zipped_divide(%v, %v)", prod, atomVals), err)
	}
	each, err := layout.ProductEach(frgMN.Shape)
	if err != nil {
		return layout.Layout{}, layout.Renamed(op, err)
	}
	tiler := layout.Tup(append([]layout.IntTuple{v}, each.Elems()...)...)
	if !frgMN.Shape.IsTuple() {
		tiler = layout.Tup(v, each)
	}
	divided, err := layout.ZippedDivide(l, tiler)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("zipped_divide(%v, %v)", l, tiler), err)
	}
	composed, err := layout.CompositionTiler(divided, layout.Tiler{Modes: []layout.TilerMode{{Layout: frgV}, {Skip: true}}})
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("composing %v with %v", divided, frgV), err)
	}
	// (_, append<R>(0, _)): the first tile of the rest, R = rank(l).
	rest := layout.Int(0)
	if r := l.Rank(); r > 1 {
		modes := make([]layout.IntTuple, r)
		modes[0] = layout.Int(0)
		for i := 1; i < r; i++ {
			modes[i] = layout.Underscore()
		}
		rest = layout.Tup(modes...)
	}
	out, err := layout.Slice(layout.Tup(layout.Underscore(), rest), composed)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	return out, nil
}
