package gmma

import (
	"fmt"

	"github.com/cute-lsp/cute-lsp/layout"
)

// Order is the order in which tile_to_shape repeats an atom.
type Order int

const (
	ColMajor Order = iota // CuTe's default: repeats along M/N first
	RowMajor              // repeats along K first
)

func (o Order) String() string {
	if o == RowMajor {
		return "row-major"
	}
	return "col-major"
}

// Tiling is a shared-memory layout recognised as
// tile_to_shape(Atom, Shape, Order): Reps[i] copies of the atom along mode i.
type Tiling struct {
	Atom  Atom
	Shape [2]int64
	Reps  [2]int64
	Order Order
}

func (t Tiling) String() string {
	return fmt.Sprintf("tile_to_shape(%s, (%d,%d)), %v: %d x %d atoms", t.Atom.Name(), t.Shape[0], t.Shape[1], t.Order, t.Reps[0], t.Reps[1])
}

// TileToShape is CuTe's tile_to_shape(atom, (mn, k), order) of a canonical
// atom, in element units with the atom's element swizzle.
// Law: Recognize of the result finds the same atom, shape and repetitions.
func TileToShape(a Atom, mn, k int64, order Order) (layout.Value, error) {
	v, err := a.Layout()
	if err != nil {
		return nil, err
	}
	sw, _, inner, _ := parts(v)
	var ord layout.Value
	if order == RowMajor {
		ord = layout.LayoutRight
	}
	tiled, err := layout.TileToShape(inner, layout.Ints(mn, k), ord)
	if err != nil {
		return nil, err
	}
	if a.Kind == Interleave {
		return layout.Box(tiled), nil
	}
	return layout.Composed{Outer: sw, Offset: layout.Int(0), Inner: tiled}, nil
}

// Block is the (mn, k) block at block coordinate (i, j) of op's tile, as
// CuTe's local_tile cuts a tensor: the sliced layout, its origin added to
// the offset. Law: the block's offset at (x, y) equals the tile's at
// (i*mn + x, j*k + y).
func Block(op Operand, mn, k, i, j int64) (Operand, error) {
	sw, off, inner, err := parts(op.Smem)
	if err != nil {
		return Operand{}, err
	}
	p, err := layout.LocalTile(inner, layout.Ints(mn, k), layout.Ints(i, j))
	if err != nil {
		return Operand{}, err
	}
	o := p.Offset
	if o.IsTuple() || o.IsUnknown() || o.IsBasis() {
		return Operand{}, fmt.Errorf("the block's origin %v is not an integer offset", o)
	}
	return Operand{Smem: layout.Composed{Outer: sw, Offset: layout.Int(off + o.Value()), Inner: p.Layout}, Bits: op.Bits, Base: op.Base}, nil
}

// maxCompare bounds the element-by-element comparison Recognize makes.
const maxCompare = 1 << 22

// Recognize finds the canonical atom, major-ness and tile_to_shape order
// that produce op's layout: the same swizzle on element offsets, and the
// same offset at every coordinate. Where orders give the same layout (one
// repetition along a mode) it reports col-major, CuTe's default. A layout
// that is no such tiling is an error that names the first coordinate where
// the nearest tiling differs.
// Law: Recognize(TileToShape(a, mn, k, o)) == (a, (mn, k), o) up to that ambiguity.
func Recognize(arch Arch, op Operand) (Tiling, error) {
	if err := checkBits(op.Bits); err != nil {
		return Tiling{}, err
	}
	sw, _, inner, err := parts(op.Smem)
	if err != nil {
		return Tiling{}, err
	}
	if inner.Rank() != 2 {
		return Tiling{}, fmt.Errorf("the layout %v has rank %d, not an (MN, K) tile", inner, inner.Rank())
	}
	bsw, err := ByteSwizzle(sw, op.Bits)
	if err != nil {
		return Tiling{}, err
	}
	kind, err := kindOfByteSwizzle(arch, bsw)
	if err != nil {
		return Tiling{}, fmt.Errorf("the swizzle %v on %d-bit elements: %v", sw, op.Bits, err)
	}
	var ext [2]int64
	for i := range 2 {
		m, _ := inner.Get(i)
		if ext[i], err = m.Size(); err != nil {
			return Tiling{}, err
		}
	}
	n := ext[0] * ext[1]
	if n > maxCompare {
		return Tiling{}, fmt.Errorf("the tile has %d elements, more than the %d compared", n, maxCompare)
	}
	var near *mismatch
	for _, major := range majorsByHint(inner) {
		a := Atom{Major: major, Kind: kind, Bits: op.Bits}
		av, err := a.Layout()
		if err != nil {
			continue
		}
		asw, _, ainner, _ := parts(av)
		if asw != sw && !(kind == Interleave && sw.B == 0) {
			continue
		}
		var aext [2]int64
		for i := range 2 {
			m, _ := ainner.Get(i)
			aext[i], _ = m.Size()
		}
		if ext[0]%aext[0] != 0 || ext[1]%aext[1] != 0 {
			if near == nil {
				near = &mismatch{atom: a, sizes: true, ext: ext, aext: aext}
			}
			continue
		}
		for _, order := range []Order{ColMajor, RowMajor} {
			tv, err := TileToShape(a, ext[0], ext[1], order)
			if err != nil {
				return Tiling{}, err
			}
			_, _, tinner, _ := parts(tv)
			idx, w, g := int64(-1), int64(0), int64(0)
			if !tinner.Shape.Equal(inner.Shape) || !tinner.Stride.Equal(inner.Stride) {
				// Different trees may still be the same function: compare offsets.
				if idx, w, g, err = firstDiff(inner, tinner, n); err != nil {
					return Tiling{}, err
				}
			}
			if idx < 0 {
				return Tiling{Atom: a, Shape: ext, Reps: [2]int64{ext[0] / aext[0], ext[1] / aext[1]}, Order: order}, nil
			}
			if near == nil || (!near.sizes && idx > near.index) {
				near = &mismatch{atom: a, order: order, index: idx, want: w, got: g, ext: ext}
			}
		}
	}
	if near == nil {
		return Tiling{}, fmt.Errorf("no canonical atom has the swizzle %v on %d-bit elements", sw, op.Bits)
	}
	return Tiling{}, near.err()
}

type mismatch struct {
	atom      Atom
	order     Order
	sizes     bool
	ext, aext [2]int64
	index     int64
	want, got int64
}

func (m mismatch) err() error {
	if m.sizes {
		return fmt.Errorf("the tile is (%d,%d) but %s is (%d,%d), which does not divide it", m.ext[0], m.ext[1], m.atom.Name(), m.aext[0], m.aext[1])
	}
	x, y := m.index%m.ext[0], m.index/m.ext[0]
	return fmt.Errorf("not a tiling of %s: at (MN,K) = (%d,%d) the layout gives offset %d, tile_to_shape(%s, (%d,%d)) %v gives %d",
		m.atom.Name(), x, y, m.want, m.atom.Name(), m.ext[0], m.ext[1], m.order, m.got)
}

// majorsByHint tries first the major-ness whose contiguous mode has stride 1.
func majorsByHint(inner layout.Layout) []Major {
	m0, _ := inner.Get(0)
	if hasUnitStride(m0.Stride) {
		return []Major{MajorMN, MajorK}
	}
	return []Major{MajorK, MajorMN}
}

// firstDiff is the first 1-D coordinate below n where a and b differ, with
// their offsets there; -1 where they agree on all of them.
func firstDiff(a, b layout.Layout, n int64) (int64, int64, int64, error) {
	var fa, fb layout.FlatLayout
	if err := a.FlattenInto(&fa); err != nil {
		return 0, 0, 0, err
	}
	if err := b.FlattenInto(&fb); err != nil {
		return 0, 0, 0, err
	}
	for i := range n {
		va, err := fa.Crd2Idx(i)
		if err != nil {
			return 0, 0, 0, err
		}
		vb, err := fb.Crd2Idx(i)
		if err != nil {
			return 0, 0, 0, err
		}
		if va != vb {
			return i, va, vb, nil
		}
	}
	return -1, 0, 0, nil
}
