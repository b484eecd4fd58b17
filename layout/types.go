package layout

import (
	"fmt"
	"strings"
)

// Layout is CuTe's Layout: a shape and a stride tree, congruent, mapping a
// coordinate to the inner product of the coordinate with the strides.
type Layout struct {
	Shape  IntTuple
	Stride IntTuple
	box    *Layout // the Value holding these trees (a result's block, newResult), which Box returns
}

// Make is the layout Shape:Stride as given; it checks nothing (see MakeLayout for the checked constructor).
func Make(shape, stride IntTuple) Layout { return Layout{Shape: shape, Stride: stride} }

// SameAs reports whether l and m are the same trees, not merely equal ones.
// An operation that changes nothing returns its argument's own trees, so a
// caller holding that argument as a Value can return it instead of a copy.
func (l *Layout) SameAs(m *Layout) bool {
	return l.Shape.sameAs(&m.Shape) && l.Stride.sameAs(&m.Stride)
}

// String prints l as CuTe does, without static marks: 8:1, (2,(2,2)):(4,(2,1)), (3):(1).
func (l Layout) String() string { return l.Format(false) }

// Format prints l as CuTe's print() does; with static, compile-time integers get "_".
func (l Layout) Format(static bool) string {
	return l.Shape.Format(static) + ":" + l.Stride.Format(static)
}

// Swizzle is CuTe's Swizzle<B,M,S>: it XORs the B bits at [M+max(0,S), ...)
// onto the B bits at [M-min(0,S)...), i.e. y = x ^ ((x & yyy_mask) >> S),
// shifting left for negative S.
type Swizzle struct {
	B, M, S int
}

func (s Swizzle) String() string { return fmt.Sprintf("Sw<%d,%d,%d>", s.B, s.M, s.S) }

// Composed is CuTe's ComposedLayout<Swizzle, Offset, Layout>: the function
// i -> Outer(Offset + Inner(i)). Offset is an integer offset (CuTe prints it
// as "_0" when static zero).
type Composed struct {
	Outer  Swizzle
	Offset IntTuple
	Inner  Layout
	// OffsetRunTimeBits, when not 0, are the bits of Offset known only at
	// run time, the rest being static: CuTe's MixedBits, which slicing a
	// swizzled layout by a run-time coordinate makes of the offset.
	OffsetRunTimeBits int64
}

func (c Composed) String() string { return c.Format(false) }

// Format prints c as CuTe does: Sw<3,4,3> o _0 o (_8,_64):(_64,_1) with
// static marks, and a mixed offset as CuTe prints MixedBits<S,F>{d}:
// M_S|(d&F)=value.
func (c Composed) Format(static bool) string {
	off := c.Offset.Format(static)
	if f := c.OffsetRunTimeBits; static && f != 0 && !c.Offset.IsTuple() {
		v := c.Offset.Value()
		off = fmt.Sprintf("M_%d|(%d&%d)=%d", v&^f, v&f, f, v)
	}
	return c.Outer.String() + " o " + off + " o " + c.Inner.Format(static)
}

// TilerMode is one mode of a Tiler: a layout, "_" (leave that mode alone), or a nested tiler.
type TilerMode struct {
	Layout Layout
	Skip   bool   // cute::_
	Sub    *Tiler // nested tiler; nil otherwise
	// Int marks a mode written as a bare integer N; Layout is then N:1.
	// CuTe reads N as N:1 in composition but as make_layout(N) in the
	// divides and products, which is 1:0 when N is 1.
	Int bool
}

// Tiler is CuTe's make_tile(T0, T1, ...): one mode per mode of the layout it tiles.
// An integer N in a tiler means the layout N:1.
type Tiler struct {
	Modes []TilerMode
}

// String prints the tiler as the CuTe DSL prints !cute.tile: [4:1;_;(2,2):(1,8)].
func (t Tiler) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, m := range t.Modes {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(m.String())
	}
	b.WriteByte(']')
	return b.String()
}

func (m TilerMode) String() string {
	switch {
	case m.Skip:
		return "_"
	case m.Sub != nil:
		return m.Sub.String()
	}
	return m.Layout.String()
}

// Tag is one of CuTe's layout tags, LayoutLeft (column-major) or LayoutRight (row-major).
type Tag string

const (
	LayoutLeft  Tag = "LayoutLeft"
	LayoutRight Tag = "LayoutRight"
)

func (t Tag) String() string { return string(t) }
