package hover

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/analysis/gmma"
	"github.com/cute-lsp/cute-lsp/analysis/prop"
	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/tiled"
	"github.com/cute-lsp/cute-lsp/tirx"
)

// Options are what the user can configure about hovers.
type Options struct {
	Limits TableLimits
	// Element is the element type assumed for a layout (its bytes, and the
	// width of the GMMA descriptor shown for a canonical layout).
	Element Element
	// Arch is the target architecture: sm90 (GMMA) or sm100 (UMMA)
	// descriptors are shown for canonical layouts; other targets show none.
	Arch string
}

// Element is an element type by name and width.
type Element struct {
	Name string
	Bits int
}

// DefaultOptions are the settings before any configuration arrives.
var DefaultOptions = Options{Limits: DefaultLimits, Element: Element{"half_t", 16}, Arch: "sm90"}

// elementBits are CuTe's element type names by width.
var elementBits = map[string]int{
	"half_t": 16, "bfloat16_t": 16, "float": 32, "tfloat32_t": 32, "double": 64,
	"float_e4m3_t": 8, "float_e5m2_t": 8, "int8_t": 8, "uint8_t": 8, "int32_t": 32,
	"uint32_t": 32, "int16_t": 16, "uint16_t": 16, "int64_t": 64, "uint64_t": 64,
	"int4b_t": 4, "uint4b_t": 4, "float_e2m1_t": 4, "float_e3m2_t": 6, "float_e2m3_t": 6,
}

// ElementNamed is the element type CuTe calls name (half_t, float, int8_t, ...).
func ElementNamed(name string) (Element, bool) {
	bits, ok := elementBits[name]
	return Element{Name: name, Bits: bits}, ok
}

// Target renders the hover for what a position in a sheet points at.
func Target(t analysis.Target, opts Options) string {
	var b strings.Builder
	if kw, ok := t.Value.(analysis.Keyword); ok && len(t.Path) > 1 {
		if call, ok := t.Path[len(t.Path)-2].(*grammar.Call); ok {
			if meaning, ok := analysis.KeywordMeaning(call.Fun.Name, string(kw)); ok {
				return fmt.Sprintf("**%s**: keyword of `%s`\n\n%s\n", kw, call.Fun.Name, meaning)
			}
		}
	}
	if name, ok := t.Node.(*grammar.Name); ok {
		if t.Symbol != nil && t.Symbol.Def != nil {
			fmt.Fprintf(&b, "**%s** (bound on line %d)\n\n", name.Name, t.Symbol.Line)
		} else {
			fmt.Fprintf(&b, "**%s**\n\n", name.Name)
		}
	}
	if call, ok := t.Node.(*grammar.Call); ok {
		if op, ok := analysis.LookupOp(call.Fun.Name); ok {
			fmt.Fprintf(&b, "`%s`", op.Signature)
			if op.Doc != "" {
				b.WriteString(": " + op.Doc)
			}
			b.WriteString("\n\n")
		}
	}
	if t.Err != nil {
		fmt.Fprintf(&b, "**error:** %s\n", analysis.CapMessage(t.Err.Error()))
		return b.String()
	}
	b.WriteString(Value(t.Value, opts))
	if call, ok := t.Node.(*grammar.Call); ok {
		if steps := Steps(call, t.Env); steps != "" {
			b.WriteString("\n" + steps)
		}
	}
	return b.String()
}

// Value renders a value: its notation, its properties and its offset table.
func Value(v layout.Value, opts Options) string {
	return valueWith(fmt.Sprintf("```cute\n%s\n```\n", analysis.Show(v, analysis.ShowHoverBytes)), v, opts)
}

// Code is the hover of a value computed from CuTe C++ or DSL code: the
// value as CuTe C++ prints it (static integers with "_"), how far it holds
// where it is hovered (a name bound again), then what Value shows of it,
// and for a composition, divide or product the steps sheets show.
func Code(h analysis.CodeHover, opts Options) string {
	head := fmt.Sprintf("```cpp\n%s\n```\n", h.Printed)
	if h.Name != "" {
		head = fmt.Sprintf("**%s**\n\n", h.Name) + head
	}
	if h.Note != "" {
		head += "\n" + h.Note + "\n"
	}
	steps := ""
	if h.Op != "" {
		if s := StepsOf(h.Op, h.Args); s != "" {
			steps = "\n" + s
		}
	}
	v := h.Value
	if p, ok := v.(analysis.PointerComposed); ok {
		off, ok := p.Offsets()
		if !ok {
			return head + fmt.Sprintf("\nthe swizzle acts on the bytes of %d-bit elements; no swizzle on element offsets is the same\n", p.Bits) + steps
		}
		head += fmt.Sprintf("\non %d-bit element offsets: `%s`\n", p.Bits, off.Format(true))
		v = off
	}
	return valueWith(head, v, opts) + steps
}

// valueWith is Value's text after the given heading.
func valueWith(head string, v layout.Value, opts Options) string {
	var b strings.Builder
	b.WriteString(head)
	switch a := v.(type) {
	case analysis.BankValue:
		b.WriteString(bankReport(a))
		return b.String()
	case analysis.AdviceValue:
		b.WriteString(adviceText(a))
		v = a.Layout
	case analysis.DescValue:
		fmt.Fprintf(&b, "```text\n%s```\n", a.Report)
		return b.String()
	case analysis.AtomValue:
		b.WriteString(atomText(a, opts))
		return b.String()
	}
	switch v := v.(type) {
	case layout.Swizzle:
		b.WriteString(swizzleFacts(v))
		return b.String()
	case tiled.TiledMMA:
		b.WriteString(tiledMMAText(v, opts))
		return b.String()
	case tiled.TiledCopy:
		b.WriteString(tiledCopyText(v, opts))
		return b.String()
	case layout.Tiler:
		fmt.Fprintf(&b, "tiler with %d modes\n", len(v.Modes))
		return b.String()
	case layout.Tag, tirx.AxisList:
		return b.String()
	case tirx.Layout:
		b.WriteString(tirxText(v, opts.Limits))
		return b.String()
	case tirx.PointSet:
		b.WriteString(pointSetText(v))
		return b.String()
	case layout.IntTuple:
		if v.IsTuple() {
			size, err := layout.Product(v)
			if err == nil {
				fmt.Fprintf(&b, "rank %d · depth %d · size %v\n", v.Rank(), v.Depth(), size)
			}
			return b.String()
		}
		if v.IsBasis() || v.IsUnknown() {
			return b.String()
		}
		// An integer: as a layout it is N:1, which is what most hovers on one want.
		return b.String()
	}
	b.WriteString(facts(v))
	b.WriteString(memoryFacts(v, opts))
	if table, err := Table(v, opts.Limits); err == nil {
		fmt.Fprintf(&b, "\n```text\n%s```\n", table)
	} else {
		fmt.Fprintf(&b, "\n_no offset table: %s_\n", analysis.CapMessage(err.Error()))
	}
	return b.String()
}

// facts is the one-line summary of a layout's numbers and properties.
func facts(v layout.Value) string {
	var parts []string
	shape, _, ok := domainShape(v)
	if ok {
		parts = append(parts, fmt.Sprintf("rank %d", shape.Rank()), fmt.Sprintf("depth %d", shape.Depth()))
	}
	if s, err := analysis.ApplyOp("size", v); err == nil {
		parts = append(parts, "size "+s.String())
	}
	if c, err := analysis.ApplyOp("cosize", v); err == nil {
		parts = append(parts, "cosize "+c.String())
	}
	var props []string
	if inj, err := prop.IsInjective(v); err == nil {
		if bij, err := prop.IsBijective(v); err == nil && bij {
			props = append(props, "bijective onto [0, cosize)")
		} else if inj {
			props = append(props, "injective")
		} else {
			props = append(props, "not injective")
		}
	}
	if n, err := prop.Contiguity(v); err == nil && n > 1 {
		props = append(props, fmt.Sprintf("first %d elements contiguous", n))
	}
	out := strings.Join(parts, " · ") + "\n"
	if len(props) > 0 {
		out += "\n" + strings.Join(props, " · ") + "\n"
	}
	if l, ok := v.(*layout.Layout); ok {
		if c, err := layout.Coalesce(l); err == nil && !(c.Shape.Equal(l.Shape) && c.Stride.Equal(l.Stride)) {
			out += fmt.Sprintf("\ncoalesced: `%s`\n", analysis.Show(c, analysis.ShowHoverBytes))
		}
	}
	return out
}

// swizzleFacts shows which bits a swizzle reads and writes, and how it
// permutes the units of one row: row y moves unit x to x ^ y.
func swizzleFacts(s layout.Swizzle) string {
	var b strings.Builder
	if err := s.Validate("Swizzle"); err != nil {
		fmt.Fprintf(&b, "**invalid:** %s\n", err)
		return b.String()
	}
	unit := int64(1) << s.M
	fmt.Fprintf(&b, "XORs the %d bits at [%d, %d) into the bits at [%d, %d): ", s.B, s.M+max(0, s.S), s.M+max(0, s.S)+s.B, s.M-min(0, s.S), s.M-min(0, s.S)+s.B)
	fmt.Fprintf(&b, "units of %d elements are permuted within each row of %d units.\n", unit, 1<<s.B)
	if s.B == 0 || s.B > 4 {
		return b.String()
	}
	rows := 1 << s.B
	b.WriteString("\n```text\nrow | where units 0.. of the row land\n")
	for y := 0; y < rows; y++ {
		fmt.Fprintf(&b, "%3d |", y)
		for x := 0; x < rows; x++ {
			fmt.Fprintf(&b, " %2d", x^y)
		}
		b.WriteByte('\n')
	}
	b.WriteString("```\n")
	return b.String()
}

// memoryFacts is what a layout means in shared memory for the configured
// element type and target: its bytes, and for a canonical GMMA/UMMA layout
// the descriptor of its first instruction block.
func memoryFacts(v layout.Value, opts Options) string {
	if opts.Element.Bits <= 0 || isCoordinateLayout(v) {
		return ""
	}
	var b strings.Builder
	if c, err := analysis.ApplyOp("cosize", v); err == nil {
		if n, ok := c.(layout.IntTuple); ok && n.IsLeaf() && !n.IsUnknown() {
			fmt.Fprintf(&b, "\nspans %d bytes of %s\n", n.Value()*int64(opts.Element.Bits)/8, opts.Element.Name)
		}
	}
	arch, ok := map[string]gmma.Arch{"sm90": gmma.SM90, "sm90a": gmma.SM90, "sm100": gmma.SM100, "sm100a": gmma.SM100}[opts.Arch]
	if !ok {
		return b.String()
	}
	if r, err := gmma.Analyze(arch, gmma.Operand{Smem: v, Bits: opts.Element.Bits}); err == nil && r.Tiling != nil {
		fmt.Fprintf(&b, "\nas a %s operand of %s: %v, descriptor 0x%016x (`gmma_desc` decodes it)\n", arch, opts.Element.Name, *r.Tiling, r.Desc.Encode())
	}
	return b.String()
}
