package analysis

import (
	"sort"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/layout"
	"github.com/cute-lsp/cute-lsp/source"
	"github.com/cute-lsp/cute-lsp/tiled"
)

// CuTe's atoms written as C++ types, evaluated through the table's
// mma_atom and copy_atom (ops_atom.go) and its TiledMMA and TiledCopy
// entries (ops_tv.go), as sheets evaluate mma_atom("NAME"):
//
//	MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{}      mma_atom("SM80_16x8x16_F32F16F16F32_TN")
//	MMA_Atom<MMA_Traits<OP>>, OP{} where CuTe takes an atom (make_tiled_mma(OP{}, ...) converts it)
//	Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}       copy_atom("SM75_U32x4_LDSM_N", "half_t")
//	TiledMMA<MMA_Atom<OP>, Layout<Shape<_2,_2,_1>>, Tile<...>>   make_tiled_mma(atom, layout, tile)
//
// An op is named exactly as the catalogue names it (atom.Key): its
// template arguments are integers, element types (known to the catalogue,
// or aliases the file binds to them) and enumerators (UMMA::Major::K); a
// GMMA op's majors and scales leave its layouts as they are (atom.Key
// drops them), and UniversalFMA's element types may be anything, template
// parameters included. An op or element type the catalogue does not know,
// or another op's template parameter, gives no value.

// atomAliases are CuTe's aliases of catalogued copy ops (cute/arch/copy.hpp).
var atomAliases = map[string]string{
	"DefaultCopy":         "AutoVectorizingCopyWithAssumedAlignment<8>",
	"AutoVectorizingCopy": "AutoVectorizingCopyWithAssumedAlignment<128>",
}

// atomCall is the value of a call or type naming an atom or a TiledMMA;
// ok is false where n is none of them (the caller goes on), and v is nil
// with ok true where it is one without a value here.
func (c *Code) atomCall(n *source.Call, sc scope, depth int) (layout.Value, bool, error) {
	if c.python || n.Recv != nil || n.Paren || len(n.Keywords) > 0 {
		return nil, false, nil
	}
	switch n.Fun.Name {
	case "MMA_Atom", "Copy_Atom", "TiledMMA":
		if !c.cuteQualified(n.Fun) {
			return nil, false, nil
		}
		if len(n.Args) > 0 || !n.HasTArgs {
			return nil, true, errUnresolved
		}
		v, err := c.atomType(n, sc, depth)
		return v, true, err
	}
	if !n.Braced || len(n.Args) > 0 {
		return nil, false, nil
	}
	// OP{}: an MMA op where CuTe takes an atom (make_tiled_mma(OP{}, ...)
	// makes MMA_Atom<OP>); a copy op alone has no element type.
	name, ok := c.atomOpName(n, sc, depth)
	if !ok {
		return nil, false, nil
	}
	if _, err := atom.LookupMMA(name); err != nil {
		return nil, true, errUnresolved
	}
	v, err := apply("mma_atom", Str(name))
	return v, true, err
}

// atomType is MMA_Atom<OP>, Copy_Atom<OP, T> or TiledMMA<Atom, Layout, Tile>.
func (c *Code) atomType(n *source.Call, sc scope, depth int) (layout.Value, error) {
	switch n.Fun.Name {
	case "MMA_Atom":
		if len(n.TArgs) != 1 {
			return nil, errUnresolved
		}
		name, ok := c.atomOpName(traitsOp(n.TArgs[0], "MMA_Traits"), sc, depth)
		if !ok {
			return nil, errUnresolved
		}
		return apply("mma_atom", Str(name))
	case "Copy_Atom":
		if len(n.TArgs) != 2 {
			return nil, errUnresolved
		}
		name, ok := c.atomOpName(traitsOp(n.TArgs[0], "Copy_Traits"), sc, depth)
		if !ok {
			return nil, errUnresolved
		}
		t, ok := c.atomElementName(n.TArgs[1], sc, 0)
		if !ok {
			return nil, errUnresolved
		}
		return apply("copy_atom", Str(name), Str(t))
	}
	// TiledMMA<MMA_Atom<...>, AtomLayoutMNK [, PermutationMNK]>: CuTe
	// static_asserts rank 3 of both (make_tiled_mma pads them; the type does not).
	if len(n.TArgs) < 2 || len(n.TArgs) > 3 {
		return nil, errUnresolved
	}
	args, err := c.values(n.TArgs, sc, depth)
	if err != nil {
		return nil, err
	}
	if _, ok := args[0].(AtomValue); !ok {
		return nil, errUnresolved
	}
	if l, ok := args[1].(*layout.Layout); !ok || l.Rank() != 3 {
		return nil, errUnresolved
	}
	if len(args) == 3 {
		switch p := args[2].(type) {
		case layout.Tiler:
			if len(p.Modes) != 3 {
				return nil, errUnresolved
			}
		case layout.IntTuple:
			if !p.IsTuple() || p.Len() != 3 {
				return nil, errUnresolved
			}
		default:
			return nil, errUnresolved
		}
	}
	return apply("make_tiled_mma", args...)
}

// traitsOp is OP of MMA_Traits<OP> (Copy_Traits<OP>), n itself otherwise.
func traitsOp(n source.Node, traits string) source.Node {
	if t, ok := n.(*source.Call); ok && t.Fun.Name == traits && t.HasTArgs && len(t.TArgs) == 1 && !t.Paren && len(t.Args) == 0 {
		return t.TArgs[0]
	}
	return n
}

// atomOpName is the catalogue's name of the op n names (an identifier or a
// template-id, braced or not): SM80_16x8x16_F32F16F16F32_TN,
// SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, SM100_MMA_F16BF16_SS<half_t, ...>;
// ok is false where it names none the catalogue holds.
func (c *Code) atomOpName(n source.Node, sc scope, depth int) (string, bool) {
	var id *source.Ident
	var targs []source.Node
	switch n := n.(type) {
	case *source.Ident:
		id = n
	case *source.Call:
		if n.Recv != nil || n.Paren || len(n.Args) > 0 {
			return "", false
		}
		id, targs = n.Fun, n.TArgs
		if n.HasTArgs && len(targs) == 0 {
			return "", false
		}
	default:
		return "", false
	}
	name, ok := c.atomBaseName(id)
	if !ok {
		return "", false
	}
	if alias, ok := atomAliases[name]; ok {
		if targs != nil {
			return "", false
		}
		return alias, true
	}
	if len(targs) == 0 || strings.HasPrefix(name, "SM90_64x") {
		// GMMA's majors and scales (SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,
		// GMMA::Major::K>) do not change its layouts; the catalogue names it without them.
		return name, catalogued(name, false)
	}
	if !catalogued(name, true) {
		return "", false
	}
	if len(targs) > 0 {
		parts := make([]string, len(targs))
		for i, t := range targs {
			if parts[i], ok = c.atomTemplateArg(t, sc, depth); !ok {
				if name != "UniversalFMA" {
					return "", false
				}
				// UniversalFMA's traits do not depend on its element types
				// (atom.LookupMMA): a template parameter, as in CuTe's
				// tutorials' UniversalFMA<TC,TA,TB>, names the atom too.
				start, end := t.Span()
				parts[i] = strings.TrimPrefix(strings.Join(strings.Fields(string(c.src[start:end])), " "), "typename ")
			}
		}
		name += "<" + strings.Join(parts, ",") + ">"
	}
	if _, _, err := atom.Lookup(name); err != nil {
		return "", false
	}
	return name, true
}

// catalogued reports cheaply whether the catalogue names the op name
// (family: some template-id of the family name<...>), before a look-up
// that would look for the nearest names of a name it does not hold.
func catalogued(name string, family bool) bool {
	names := atom.Names()
	if family {
		name += "<"
	}
	i := sort.SearchStrings(names, name)
	if i == len(names) {
		return false
	}
	if family {
		return strings.HasPrefix(names[i], name)
	}
	return names[i] == name
}

// atomBaseName is an op's name without its qualifier (cute::,
// SM90::GMMA::MMA_64x... as SM90_64x...); ok is false for a name
// qualified by another namespace or hidden by one of the file's.
func (c *Code) atomBaseName(id *source.Ident) (string, bool) {
	q := strings.TrimPrefix(id.Qualifier(), "::")
	q = strings.TrimPrefix(strings.TrimPrefix(q, "cute"), "::")
	switch q {
	case "":
		if id.Qualifier() == "" && (!c.File.CuteAt(id.Start) || c.bound(id)) {
			return "", false
		}
		return id.Name, true
	case "SM90::GMMA":
		if strings.HasPrefix(id.Name, "MMA_64x") {
			return "SM90_" + id.Name[len("MMA_"):], true
		}
	}
	return "", false
}

// bound reports whether the file binds id's name where it is used.
func (c *Code) bound(id *source.Ident) bool {
	_, ok := c.lookup(id.Name, id.Start)
	return ok
}

// atomTemplateArg is one template argument of an op as the catalogue
// writes it: an element type, an enumerator (UMMA::Major::K), an integer.
func (c *Code) atomTemplateArg(n source.Node, sc scope, depth int) (string, bool) {
	if id, ok := n.(*source.Ident); ok {
		if t, ok := c.atomElementName(id, sc, 0); ok {
			return t, true
		}
		if q := strings.TrimPrefix(strings.TrimPrefix(id.Qualifier(), "::"), "cute::"); strings.HasSuffix(q, "::Major") || strings.HasSuffix(q, "::ScaleIn") || strings.HasSuffix(q, "::ScaleOut") {
			return q + "::" + id.Name, true
		}
	}
	v, err := c.eval(n, sc, depth+1)
	if err != nil {
		return "", false
	}
	t, ok := v.(layout.IntTuple)
	if !ok || !t.IsLeaf() || t.IsUnknown() || t.IsBasis() || t.IsUnderscore() {
		return "", false
	}
	return strconv.FormatInt(t.Value(), 10), true
}

// atomElementName is the element type n names, as the catalogue spells it
// (half_t for cutlass::half_t): a type it knows, or a name the file binds
// to one (using ElementA = cutlass::half_t;), as elementName reads them.
func (c *Code) atomElementName(n source.Node, sc scope, depth int) (string, bool) {
	id, ok := n.(*source.Ident)
	if !ok {
		return "", false
	}
	if _, ok := sc[id.Name]; ok && id.Qualifier() == "" {
		return "", false // an alias template's argument: its width alone is known
	}
	name, ok := c.elementName(id, depth)
	if !ok {
		return "", false
	}
	if _, ok := atom.ElementBits(name); !ok {
		return "", false
	}
	return name, true
}

// cutePrintAtom prints an atom, a TiledMMA or a TiledCopy as CuTe's
// print() does (mma_atom.hpp, copy_atom.hpp); ok is false for other values.
func cutePrintAtom(v layout.Value) (string, bool) {
	var b strings.Builder
	switch v := v.(type) {
	case AtomValue:
		if v.MMA != nil {
			a, err := v.TiledMMAAtom()
			if err != nil {
				return "", false
			}
			writeMMAAtom(&b, a)
			return b.String(), true
		}
		a, err := v.TiledCopyAtom()
		if err != nil {
			return "", false
		}
		if !writeCopyAtom(&b, a) {
			return "", false
		}
		return b.String(), true
	case tiled.TiledMMA:
		b.WriteString("TiledMMA\n")
		b.WriteString("  ThrLayoutVMNK:  " + v.ThrLayoutVMNK.Format(true) + "\n")
		b.WriteString("  PermutationMNK: " + CuTePrint(layout.Tiler{Modes: v.Permutation[:]}) + "\n")
		writeMMAAtom(&b, v.Atom)
		return b.String(), true
	case tiled.TiledCopy:
		b.WriteString("TiledCopy\n")
		b.WriteString("  Tiler_MN:       " + copyTiler(v) + "\n")
		b.WriteString("  TiledLayout_TV: " + v.TiledTV.Format(true) + "\n")
		if !writeCopyAtom(&b, v.Atom) {
			return "", false
		}
		return b.String(), true
	}
	return "", false
}

func writeMMAAtom(b *strings.Builder, a tiled.MMAAtom) {
	b.WriteString("MMA_Atom\n")
	b.WriteString("  ThrID:      " + a.ThrID.Format(true) + "\n")
	b.WriteString("  Shape_MNK:  " + a.ShapeMNK.Format(true) + "\n")
	b.WriteString("  LayoutA_TV: " + a.A.Format(true) + "\n")
	b.WriteString("  LayoutB_TV: " + a.B.Format(true) + "\n")
	b.WriteString("  LayoutC_TV: " + a.C.Format(true) + "\n")
}

func writeCopyAtom(b *strings.Builder, a tiled.CopyAtom) bool {
	src, dst, ref, err := a.ValLayouts("print")
	if err != nil {
		return false
	}
	b.WriteString("Copy_Atom\n")
	b.WriteString("  ThrID:        " + a.ThrID.Format(true) + "\n")
	b.WriteString("  ValLayoutSrc: " + src.Format(true) + "\n")
	b.WriteString("  ValLayoutDst: " + dst.Format(true) + "\n")
	b.WriteString("  ValLayoutRef: " + ref.Format(true) + "\n")
	b.WriteString("  ValueType:    " + strconv.FormatInt(a.ValBits, 10) + "b\n")
	return true
}

// copyTiler is a TiledCopy's Tiler_MN as CuTe prints it: a shape, or a
// tuple of layouts.
func copyTiler(c tiled.TiledCopy) string {
	if c.TilerModes == nil {
		return c.TilerMN.Format(true)
	}
	parts := make([]string, len(c.TilerModes))
	for i, m := range c.TilerModes {
		parts[i] = m.Format(true)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// atomSummary is the one line an inlay hint shows of an atom, TiledMMA or
// TiledCopy: the head of CuTe's print, its lines joined.
func atomSummary(v layout.Value) (string, bool) {
	s, ok := cutePrintAtom(v)
	if !ok {
		return "", false
	}
	lines := strings.Split(strings.TrimSpace(s), "\n")
	head := lines[0]
	var parts []string
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, " ") {
			break // the atom of a tiled value
		}
		parts = append(parts, strings.Join(strings.Fields(l), " "))
		if len(parts) == 2 {
			break
		}
	}
	return head + " " + strings.Join(parts, ", "), true
}

// tiledShape is the shape a TiledMMA's or TiledCopy's size reads (CuTe's
// size(TiledMMA) is size(ThrLayoutVMNK), static where it is).
func tiledShape(v layout.Value) (layout.IntTuple, bool) {
	switch v := v.(type) {
	case tiled.TiledMMA:
		return v.ThrLayoutVMNK.Shape, true
	case tiled.TiledCopy:
		if v.TiledTV.Rank() < 1 {
			return layout.IntTuple{}, false
		}
		return v.TiledTV.Shape.At(0), true
	}
	return layout.IntTuple{}, false
}

// tiledMember is a TiledMMA's or TiledCopy's member function CuTe code
// calls: mma.get_layoutA_TV(), copy.get_layoutS_TV().
func tiledMember(name string, x layout.Value) (layout.Value, error) {
	switch x.(type) {
	case tiled.TiledMMA:
		switch name {
		case "get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV":
			return apply(name, x)
		}
	case tiled.TiledCopy:
		switch name {
		case "get_layoutS_TV", "get_layoutD_TV":
			return apply(name, x)
		}
	}
	return nil, errUnresolved
}
