package tiled

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
)

// CuTe's TiledMMA (cute/atom/mma_atom.hpp): an MMA atom repeated over a
// layout of atoms and a permutation of the M, N and K modes, and the
// thread-value layouts and per-thread partitions it gives. Every function
// here is CuTe's definition written with package layout's algebra, so
// results carry CuTe's shapes and strides, not just the same mapping.

// Conditions of TiledMMA, as CuTe's static_asserts word them.
const (
	CondTiledMMARank = "TiledMMA requires rank-3 AtomLayoutMNK"
	CondTiledMMAPerm = "TiledMMA requires rank-3 PermutationMNK"
	CondPartitionTV  = "Rank of tensor to be partitioned too small."
)

// MMAAtom is what a TiledMMA reads of CuTe's MMA_Atom: its tile (M,N,K),
// its thread layout ThrID and the thread-value layouts of its operands
// (A: (thr,val) -> m + M*k, B: n + N*k, C: m + M*n).
type MMAAtom struct {
	Name     string
	ShapeMNK layout.IntTuple
	ThrID    layout.Layout
	A, B, C  layout.Layout
}

func (a MMAAtom) String() string { return fmt.Sprintf("mma_atom(%q)", a.Name) }

// KindName names the kind for messages (layout.KindName).
func (MMAAtom) KindName() string { return "an MMA atom" }

// MMAAtomValue is a value that stands for an MMA atom (the sheet's
// mma_atom("NAME")); make_tiled_mma takes any of them.
type MMAAtomValue interface {
	layout.Value
	TiledMMAAtom() (MMAAtom, error)
}

// TiledMMAAtom makes MMAAtom an MMAAtomValue.
func (a MMAAtom) TiledMMAAtom() (MMAAtom, error) { return a, nil }

// TiledMMA is CuTe's TiledMMA<Atom, AtomLayoutMNK, PermutationMNK>.
type TiledMMA struct {
	Atom MMAAtom
	// AtomLayoutMNK lays the atoms out over (M,N,K); ThrLayoutVMNK is
	// tiled_product(ThrID, AtomLayoutMNK): (thread in atom, M, N, K) -> thread.
	AtomLayoutMNK layout.Layout
	ThrLayoutVMNK layout.Layout
	// Permutation is the permutation of M, N and K; a Skip mode is CuTe's _
	// (the atom's extent times the atoms along that mode).
	Permutation [3]layout.TilerMode
}

// KindName names the kind for messages (layout.KindName).
func (TiledMMA) KindName() string { return "a TiledMMA" }

// String is the TiledMMA as make_tiled_mma would build it again.
func (m TiledMMA) String() string { return m.Format(false) }

// Format prints the TiledMMA, with static marks when asked.
func (m TiledMMA) Format(static bool) string {
	perm := make([]string, 3)
	for i, p := range m.Permutation {
		perm[i] = p.String()
	}
	return fmt.Sprintf("make_tiled_mma(%v, %s, [%s])", m.Atom, m.AtomLayoutMNK.Format(static), strings.Join(perm, ";"))
}

// Size is CuTe's size(TiledMMA): the number of threads.
func (m TiledMMA) Size() (int64, error) { return m.ThrLayoutVMNK.Size() }

// MakeTiledMMA is CuTe's make_tiled_mma(atom, thr_layout, permutations):
// thr_layout padded with 1:0 to rank 3, perm padded with _ to 3 modes.
func MakeTiledMMA(atom MMAAtom, thr layout.Layout, perm layout.Tiler) (TiledMMA, error) {
	const op = "make_tiled_mma"
	if err := checkAtomMNK(op, atom); err != nil {
		return TiledMMA{}, err
	}
	if err := layout.CheckCongruent(op, thr.Shape, thr.Stride); err != nil {
		return TiledMMA{}, err
	}
	if thr.Rank() > 3 {
		return TiledMMA{}, layout.Errorf(op, CondTiledMMARank, "the atom layout %v has rank %d", thr, thr.Rank())
	}
	mnk, err := layout.AppendN(thr, 3, layout.Make(layout.Int(1), layout.Int(0)))
	if err != nil {
		return TiledMMA{}, layout.InOp(op, "", err)
	}
	if len(perm.Modes) > 3 {
		return TiledMMA{}, layout.Errorf(op, CondTiledMMAPerm, "the permutation %v has %d modes", perm, len(perm.Modes))
	}
	vmnk, err := layout.TiledProduct(atom.ThrID, layout.Box(mnk))
	if err != nil {
		return TiledMMA{}, layout.InOp(op, fmt.Sprintf("tiled_product(%v, %v)", atom.ThrID, mnk), err)
	}
	m := TiledMMA{Atom: atom, AtomLayoutMNK: mnk, ThrLayoutVMNK: vmnk}
	for i := range m.Permutation {
		m.Permutation[i] = layout.TilerMode{Skip: true}
		if i < len(perm.Modes) {
			m.Permutation[i] = perm.Modes[i]
		}
	}
	for i := range m.Permutation {
		if _, err := m.TileSize(i); err != nil {
			return TiledMMA{}, err
		}
	}
	return m, nil
}

// checkAtomMNK checks what every TiledMMA computation assumes of its atom:
// a rank-3 tile and a thread layout. The operands' layouts are checked
// where they are used (checkAtomTV): CuTe's own headers hold an atom whose
// A layout is not congruent (SM80_16x8x128_S32U1U1S32_TN_XORPOPC), and
// its B and C still work there.
func checkAtomMNK(op string, a MMAAtom) error {
	if !a.ShapeMNK.IsTuple() || a.ShapeMNK.Len() != 3 {
		return layout.Errorf(op, "", "the atom's tile %v is not (M,N,K)", a.ShapeMNK)
	}
	return layout.CheckCongruent(op, a.ThrID.Shape, a.ThrID.Stride)
}

// checkAtomTV checks the atom's layout of operand x: congruent and (thread, value).
func checkAtomTV(op string, x mmaOperand, l layout.Layout) error {
	if err := layout.CheckCongruent(op, l.Shape, l.Stride); err != nil {
		return layout.InOp(op, "the atom's "+x.name+" layout", err)
	}
	if l.Rank() != 2 {
		return layout.Errorf(op, "", "the atom's %s layout %v is not a (thread, value) layout", x.name, l)
	}
	return nil
}

// mmaOperand names the modes of (M,N,K) an operand spans: A is (M,K), B is
// (N,K), C is (M,N).
type mmaOperand struct {
	name string
	p, q int
}

var (
	operandA = mmaOperand{"A", 0, 2}
	operandB = mmaOperand{"B", 1, 2}
	operandC = mmaOperand{"C", 0, 1}
)

func (m TiledMMA) atomTV(x mmaOperand) layout.Layout {
	switch x.name {
	case "A":
		return m.Atom.A
	case "B":
		return m.Atom.B
	}
	return m.Atom.C
}

// vmnkSize is size<i>(ThrLayoutVMNK).
func (m TiledMMA) vmnkSize(op string, i int) (layout.IntTuple, error) {
	if m.ThrLayoutVMNK.Rank() != 4 {
		return layout.IntTuple{}, layout.Errorf(op, "", "the thread layout %v is not (V,M,N,K)", m.ThrLayoutVMNK)
	}
	return modeProduct(op, m.ThrLayoutVMNK.Shape, i)
}

// modeProduct is CuTe's size<i> of a shape: the product of its mode i,
// which must exist (the TV types' fields are exported, so any may be off).
func modeProduct(op string, t layout.IntTuple, i int) (layout.IntTuple, error) {
	if i < 0 || i >= t.Len() {
		return layout.IntTuple{}, layout.Errorf(op, layout.CondIndexRange, "size<%d>(%v): it has %d modes", i, t, t.Len())
	}
	p, err := layout.Product(t.At(i))
	if err != nil {
		return layout.IntTuple{}, layout.InOp(op, fmt.Sprintf("size<%d>(%v)", i, t), err)
	}
	if !p.IsLeaf() || p.IsBasis() || p.IsUnknown() {
		return layout.IntTuple{}, layout.Errorf(op, layout.CondUnknown, "size<%d>(%v) is %v, not a number", i, t, p)
	}
	return p, nil
}

// permMode is CuTe's permutation_mnk<i>(): the permutation's mode i, or for
// _ the integer size<i>(AtomShape) * size<i+1>(ThrLayoutVMNK).
func (m TiledMMA) permMode(op string, i int) (layout.TilerMode, error) {
	p := m.Permutation[i]
	if !p.Skip {
		return p, nil
	}
	if !m.Atom.ShapeMNK.IsTuple() || m.Atom.ShapeMNK.Len() != 3 {
		return layout.TilerMode{}, layout.Errorf(op, "", "the atom's tile %v is not (M,N,K)", m.Atom.ShapeMNK)
	}
	a, err := modeProduct(op, m.Atom.ShapeMNK, i)
	if err != nil {
		return layout.TilerMode{}, err
	}
	t, err := m.vmnkSize(op, i+1)
	if err != nil {
		return layout.TilerMode{}, err
	}
	n, ok := layout.MulChecked(a.Value(), t.Value())
	if !ok {
		return layout.TilerMode{}, layout.Errorf(op, layout.CondOverflow, "%v*%v overflows int64", a, t)
	}
	return layout.TilerMode{Layout: layout.Make(layout.Int(n), layout.Int(1)), Int: true}, nil
}

// TileSize is CuTe's tile_size<i>(TiledMMA): the extent of the tile along
// M (0), N (1) or K (2), size(permutation_mnk<i>()).
func (m TiledMMA) TileSize(i int) (layout.IntTuple, error) {
	const op = "tile_size"
	if i < 0 || i > 2 {
		return layout.IntTuple{}, layout.Errorf(op, layout.CondIndexRange, "tile_size<%d> of a TiledMMA: its modes are 0 (M), 1 (N) and 2 (K)", i)
	}
	p, err := m.permMode(op, i)
	if err != nil {
		return layout.IntTuple{}, err
	}
	n, err := tilerModeSize(op, p)
	if err != nil {
		return layout.IntTuple{}, err
	}
	return layout.Int(n), nil
}

// tilerModeSize is CuTe's size of one mode of a tile: a layout's size, an
// integer N itself, a nested tile the product of its modes' sizes.
func tilerModeSize(op string, t layout.TilerMode) (int64, error) {
	switch {
	case t.Skip:
		return 0, layout.Errorf(op, "", "_ has no size")
	case t.Sub != nil:
		n := int64(1)
		for _, s := range t.Sub.Modes {
			k, err := tilerModeSize(op, s)
			if err != nil {
				return 0, err
			}
			var ok bool
			if n, ok = layout.MulChecked(n, k); !ok {
				return 0, layout.Errorf(op, layout.CondOverflow, "the size of %v overflows int64", t)
			}
		}
		return n, nil
	}
	n, err := t.Layout.Size()
	if err != nil {
		return 0, layout.InOp(op, fmt.Sprintf("size(%v)", t.Layout), err)
	}
	return n, nil
}

// thrfrg is CuTe's thrfrg_A/B/C: the tensor l of the operand's (M,K),
// (N,K) or (M,N) coordinates divided by the permutation, by the atom and
// by the atom layout, giving ((ThrV,(ThrP,ThrQ)),(FrgV,(RestP,RestQ,...))).
func (m TiledMMA) thrfrg(op string, x mmaOperand, l layout.Layout) (layout.Layout, error) {
	if l.Rank() < 2 {
		return layout.Layout{}, layout.Errorf(op, CondPartitionTV, "the %s tensor %v has rank %d; the operand needs 2", x.name, l, l.Rank())
	}
	if err := checkAtomTV(op, x, m.atomTV(x)); err != nil {
		return layout.Layout{}, err
	}
	pp, err := m.permMode(op, x.p)
	if err != nil {
		return layout.Layout{}, err
	}
	pq, err := m.permMode(op, x.q)
	if err != nil {
		return layout.Layout{}, err
	}
	t, err := layout.LogicalDivide(&l, layout.Tiler{Modes: []layout.TilerMode{pp, pq}})
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("dividing %v by the permutation", l), err)
	}
	ap, err := modeProduct(op, m.Atom.ShapeMNK, x.p)
	if err != nil {
		return layout.Layout{}, err
	}
	aq, err := modeProduct(op, m.Atom.ShapeMNK, x.q)
	if err != nil {
		return layout.Layout{}, err
	}
	c, err := layout.ZippedDivide(*t, layout.Tiler{Modes: []layout.TilerMode{intMode(ap), intMode(aq)}})
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("dividing %v by the atom's tile (%v,%v)", t, ap, aq), err)
	}
	tv, err := layout.CompositionTiler(c, layout.Tiler{Modes: []layout.TilerMode{{Layout: m.atomTV(x)}, {Skip: true}}})
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("composing %v with the atom's %s layout", c, x.name), err)
	}
	tp, err := m.vmnkSize(op, x.p+1)
	if err != nil {
		return layout.Layout{}, err
	}
	tq, err := m.vmnkSize(op, x.q+1)
	if err != nil {
		return layout.Layout{}, err
	}
	thr := layout.Tiler{Modes: []layout.TilerMode{intMode(tp), intMode(tq)}}
	out, err := layout.ZippedDivide(tv, layout.Tiler{Modes: []layout.TilerMode{{Skip: true}, {Sub: &thr}}})
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("dividing %v by the atom layout (%v,%v)", tv, tp, tq), err)
	}
	return out, nil
}

// intMode is the integer n as a mode of a tile (make_tile(n, ...)), which the
// divides read as make_layout(n).
func intMode(n layout.IntTuple) layout.TilerMode {
	return layout.TilerMode{Layout: layout.Make(n, layout.Int(1)), Int: true}
}

// thrIdx2ThrID is CuTe's thridx_2_thrid: thread index -> position in
// (ThrV,ThrM,ThrN,ThrK), composition((T,1):(1,0), right_inverse((vmnk, complement(vmnk)))).
func (m TiledMMA) thrIdx2ThrID(op string) (layout.Layout, error) {
	vmnk := m.ThrLayoutVMNK
	comp, err := layout.Complement(&vmnk)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("complement(%v)", vmnk), err)
	}
	vmnkComp := layout.MakeLayoutOf(vmnk, *comp)
	inv, err := layout.RightInverse(&vmnkComp)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, fmt.Sprintf("right_inverse of %v", vmnk), err)
	}
	n, err := vmnk.Size()
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	out, err := layout.Composition(&layout.Layout{Shape: layout.Tup(layout.Int(n), layout.Int(1)), Stride: layout.Tup(layout.Int(1), layout.Int(0))}, inv)
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	return *out, nil
}

// LayoutTV is CuTe's get_layoutA_TV / get_layoutB_TV / get_layoutC_TV for
// operand "A", "B" or "C": (thread index, value) -> the operand's
// column-major coordinate index in the tile (tile_size<p>, tile_size<q>).
func (m TiledMMA) LayoutTV(operand string) (layout.Layout, error) {
	op := "get_layout" + operand + "_TV"
	x, err := mmaOperandOf(op, operand)
	if err != nil {
		return layout.Layout{}, err
	}
	tp, err := m.TileSize(x.p)
	if err != nil {
		return layout.Layout{}, err
	}
	tq, err := m.TileSize(x.q)
	if err != nil {
		return layout.Layout{}, err
	}
	ref, err := layout.MakeLayout(layout.Tup(tp, tq))
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	frg, err := m.thrfrg(op, x, ref)
	if err != nil {
		return layout.Layout{}, err
	}
	if x.name != "C" {
		// (ThrV,(ThrP,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK)): the thread
		// index counts every (M,N,K) position, so the operand's thread
		// mode is spread over the one it does not span.
		s1, err := m.vmnkSize(op, 1)
		if err != nil {
			return layout.Layout{}, err
		}
		s2, err := m.vmnkSize(op, 2)
		if err != nil {
			return layout.Layout{}, err
		}
		d := layout.Tup(layout.Int(1), layout.Int(0))
		if x.name == "B" {
			d = layout.Tup(layout.Int(0), layout.Int(1))
		}
		inner := layout.Tiler{Modes: []layout.TilerMode{{Layout: layout.Make(layout.Tup(s1, s2), d)}, {Skip: true}}}
		spread := layout.Tiler{Modes: []layout.TilerMode{{Skip: true}, {Sub: &inner}}}
		if frg, err = layout.CompositionTiler(frg, layout.Tiler{Modes: []layout.TilerMode{{Sub: &spread}, {Skip: true}}}); err != nil {
			return layout.Layout{}, layout.InOp(op, "", err)
		}
	}
	idx, err := m.thrIdx2ThrID(op)
	if err != nil {
		return layout.Layout{}, err
	}
	out, err := layout.CompositionTiler(frg, layout.Tiler{Modes: []layout.TilerMode{{Layout: idx}, {Skip: true}}})
	if err != nil {
		return layout.Layout{}, layout.InOp(op, "", err)
	}
	return out, nil
}

func mmaOperandOf(op, name string) (mmaOperand, error) {
	switch name {
	case "A":
		return operandA, nil
	case "B":
		return operandB, nil
	case "C":
		return operandC, nil
	}
	return mmaOperand{}, layout.Errorf(op, "", "an MMA's operands are A, B and C, not %q", name)
}

// Partition is CuTe's get_slice(thread).partition_A/B/C(tensor) of the
// operand "A", "B" or "C" on the layout l: the thread's values as
// (FrgV, RestP, RestQ, ...), plus the offset of its first element. The
// thread index wraps as CuTe's get_flat_coord does.
func (m TiledMMA) Partition(operand string, thread int64, l layout.Layout) (layout.Partition, error) {
	op := "partition_" + operand
	return partitionPlain(op, l, func(l layout.Layout) (layout.Layout, layout.IntTuple, error) {
		return m.partitionCut(op, operand, thread, l)
	})
}

// partitionPlain cuts the tensor l as cut cuts it (the thread-value tensor
// and the thread's coordinate in it): the thread's values and the offset of
// its first element, a run-time integer as the thread index is.
func partitionPlain(op string, l layout.Layout, cut func(layout.Layout) (layout.Layout, layout.IntTuple, error)) (layout.Partition, error) {
	frg, coord, err := cut(l)
	if err != nil {
		return layout.Partition{}, err
	}
	s, off, err := layout.SliceAndOffset(coord, frg)
	if err != nil {
		return layout.Partition{}, layout.InOp(op, fmt.Sprintf("slicing %v at %v", frg, coord), err)
	}
	return layout.Partition{Layout: s, Offset: off.WithStatic(false)}, nil
}

// PartitionComposed is Partition of a swizzled tensor Sw o off o L: the same
// cut of Sw o off o thrfrg(L), sliced as CuTe slices a swizzled layout.
func (m TiledMMA) PartitionComposed(operand string, thread int64, c layout.Composed) (layout.ComposedPartition, error) {
	op := "partition_" + operand
	return partitionSwizzled(op, c, func(l layout.Layout) (layout.Layout, layout.IntTuple, error) {
		return m.partitionCut(op, operand, thread, l)
	})
}

// partitionSwizzled cuts the swizzled tensor c as cut cuts its inner
// layout (the thread-value tensor and the thread's coordinate in it):
// SliceAndOffsetComposed of Sw o off o tensor at the coordinate.
func partitionSwizzled(op string, c layout.Composed, cut func(layout.Layout) (layout.Layout, layout.IntTuple, error)) (layout.ComposedPartition, error) {
	if err := c.Outer.Validate(op); err != nil {
		return layout.ComposedPartition{}, err
	}
	frg, coord, err := cut(c.Inner)
	if err != nil {
		return layout.ComposedPartition{}, err
	}
	r, off, err := layout.SliceAndOffsetComposed(coord, layout.Composed{Outer: c.Outer, Offset: c.Offset, Inner: frg})
	if err != nil {
		return layout.ComposedPartition{}, layout.Renamed(op, err)
	}
	return layout.ComposedPartition{Layout: r, Offset: off}, nil
}

// partitionCut is the thread-value tensor of l, ((thread),(value,rest)),
// and the coordinate that cuts the thread's values out of it.
func (m TiledMMA) partitionCut(op, operand string, thread int64, l layout.Layout) (layout.Layout, layout.IntTuple, error) {
	x, err := mmaOperandOf(op, operand)
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, err
	}
	if thread < 0 {
		return layout.Layout{}, layout.IntTuple{}, layout.Errorf(op, "", "the thread index %d is negative", thread)
	}
	frg, err := m.thrfrg(op, x, l)
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, err
	}
	c, err := layout.FlatCoord(m.ThrLayoutVMNK, thread)
	if err != nil {
		return layout.Layout{}, layout.IntTuple{}, layout.Renamed(op, err)
	}
	if c.Len() != 4 {
		return layout.Layout{}, layout.IntTuple{}, layout.Errorf(op, "", "the thread layout %v is not (V,M,N,K)", m.ThrLayoutVMNK)
	}
	if frg.Shape.Len() != 2 || frg.Shape.At(1).Len() != 2 {
		return layout.Layout{}, layout.IntTuple{}, layout.Errorf(op, "", "the thread-value tensor %v is not ((thread),(value,rest))", frg)
	}
	rest := frg.Shape.At(1).At(1)
	n := 1
	if rest.IsTuple() {
		n = rest.Len()
	}
	// The thread index is a run-time integer in CuTe, and so is its coordinate.
	at := func(i int) layout.IntTuple { return c.At(i).WithStatic(false) }
	return frg, layout.Tup(layout.Tup(at(0), layout.Tup(at(x.p+1), at(x.q+1))), layout.Tup(layout.Underscore(), layout.Repeat(n, layout.Underscore()))), nil
}

func (TiledMMA) IsValue() {} // a layout.Value

func (MMAAtom) IsValue() {} // a layout.Value
