package atom

import (
	"fmt"
	"github.com/cute-lsp/cute-lsp/internal/editdist"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// typeBits is the width of the element types a copy atom's template may
// name; CuTe's copy traits depend on the type only through its width.
var typeBits = map[string]int{
	"int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8, "char": 8,
	"int16_t": 16, "uint16_t": 16, "half_t": 16, "bfloat16_t": 16, "half": 16, "__half": 16,
	"int32_t": 32, "uint32_t": 32, "float": 32, "tfloat32_t": 32, "int": 32,
	"int64_t": 64, "uint64_t": 64, "double": 64,
	"uint128_t": 128,
}

var uintOfBits = map[int]string{8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t", 128: "uint128_t"}

// typedCopy finds a copy atom whose template names an element type, such
// as UniversalCopy<half_t>, as the catalogued atom of the same width
// (UniversalCopy<uint16_t>). It returns nil, nil when name is no such atom.
func typedCopy(key string) (*Copy, error) {
	open := strings.IndexByte(key, '<')
	if open < 0 || !strings.HasSuffix(key, ">") {
		return nil, nil
	}
	family, arg := key[:open], key[open+1:len(key)-1]
	bits, ok := typeBits[arg]
	if !ok {
		return nil, nil
	}
	i, ok := copyIndex(family + "<" + uintOfBits[bits] + ">")
	if !ok {
		hasFamily := false
		for _, n := range catalogNames {
			hasFamily = hasFamily || strings.HasPrefix(n, family+"<")
		}
		if !hasFamily {
			return nil, nil
		}
		return nil, &NotFound{Name: key, Kind: "copy atom", Hint: fmt.Sprintf("%s does not move %d-bit values", family, bits),
			Suggestion: Suggest(family, 3)}
	}
	typed := *built.copy(i)
	typed.Name = key
	return &typed, nil
}

// bulkFamilies are the copies whose traits take the bits one copy moves as a
// template argument (NumBitsPerTMA).
var bulkFamilies = []string{"SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST", "SM90_TMA_STORE", "SM90_TMA_REDUCE_ADD",
	"SM90_BULK_COPY_G2S", "SM90_BULK_COPY_S2G"}

const bitsArg = "<NumBitsPerTMA="

// bulkCopy builds a TMA or bulk copy atom for any NumBitsPerTMA from a
// catalogued instance of its family: the traits use the number only as the
// size of the value mode, so the instance's layouts are rebuilt with the new
// number where the old one stood. It returns nil, nil for a name of no such family.
func bulkCopy(key string) (*Copy, error) {
	family, arg := key, ""
	if i := strings.IndexByte(key, '<'); i >= 0 {
		family, arg = key[:i], key[i:]
	}
	known := false
	for _, f := range bulkFamilies {
		known = known || f == family
	}
	if !known {
		return nil, nil
	}
	if arg == "" {
		return nil, &NotFound{Name: key, Kind: "copy atom",
			Hint:       family + "'s layouts depend on the bits one copy moves, fixed by the tile it is made for",
			Suggestion: []string{family + bitsArg + "65536>"}}
	}
	bits, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(arg, bitsArg), ">"), 10, 64)
	if err != nil || !strings.HasPrefix(arg, bitsArg) || !strings.HasSuffix(arg, ">") || bits <= 0 {
		return nil, &NotFound{Name: key, Kind: "copy atom", Hint: "expected " + family + bitsArg + "N> with N > 0 bits",
			Suggestion: []string{family + bitsArg + "65536>"}}
	}
	var proto *Copy
	for i := range catalogCopies {
		if strings.HasPrefix(catalogCopies[i].Name, family+bitsArg) {
			proto = built.copy(i)
			break
		}
	}
	if proto == nil {
		return nil, nil
	}
	c := *proto
	c.Name = family + bitsArg + strconv.FormatInt(bits, 10) + ">"
	c.NumBitsPerTMA = bits
	c.SrcLayout.Shape = replaceLeaf(c.SrcLayout.Shape, proto.NumBitsPerTMA, bits)
	c.DstLayout.Shape = replaceLeaf(c.DstLayout.Shape, proto.NumBitsPerTMA, bits)
	c.RefLayout.Shape = replaceLeaf(c.RefLayout.Shape, proto.NumBitsPerTMA, bits)
	return &c, nil
}

func replaceLeaf(t layoutTuple, from, to int64) layoutTuple {
	if t.IsTuple() {
		es := t.Elems()
		out := make([]layoutTuple, len(es))
		for i, e := range es {
			out[i] = replaceLeaf(e, from, to)
		}
		return tup(out...)
	}
	if t.Value() == from {
		return intLeaf(to)
	}
	return t
}

// Suggest is up to n catalogued names nearest to name: names that contain
// what was typed first, then by edit distance, case ignored; none when
// nothing is close.
func Suggest(name string, n int) []string {
	q := strings.ToLower(Key(name))
	if q == "" {
		return nil
	}
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	limit := len(q)/3 + 2
	x := lowered()
	for i, full := range catalogNames {
		k := x.lowerKeys[i]
		d := editdist.Within(q, k, limit)
		if strings.Contains(k, q) && len(q) >= 4 {
			d = 0
		}
		if d <= limit {
			cs = append(cs, cand{full, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return len(cs[i].name) < len(cs[j].name)
	})
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		if len(out) == n {
			break
		}
		if k := Key(c.name); !seen[k] {
			seen[k] = true
			out = append(out, c.name)
		}
	}
	return out
}

// Complete is up to n catalogued names that start with prefix (case
// ignored, compared as keys), in sorted order: for completion as a name is typed.
func Complete(prefix string, n int) []string {
	p := strings.ToLower(Key(prefix))
	x := lowered()
	i := sort.SearchStrings(x.sortedLowerKeys, p)
	var out []string
	for ; i < len(x.sortedLowerKeys) && len(out) < n && strings.HasPrefix(x.sortedLowerKeys[i], p); i++ {
		out = append(out, x.nameOfLowerKey[x.sortedLowerKeys[i]])
	}
	return out
}

// fmaFamily is CuTe's UniversalFMA<D, A = D, B = A, C = D> (cute/arch/mma.hpp).
const fmaFamily = "UniversalFMA"

// universalFMA finds UniversalFMA<D, A, B, C> for any element types, named
// or template parameters the caller cannot resolve (UniversalFMA<TC,TA,TB>):
// CuTe's MMA_Traits<UniversalFMA<D,A,B,C>> (cute/atom/mma_traits.hpp) fixes
// Shape_MNK (1,1,1), ThrID and the A, B, C layouts whatever the types, which
// only give ValTypeD..C and the one-element register arrays D[1]..C[1]. The
// atom returned is the catalogued one with the types as written, defaulted
// as CuTe defaults them; a type the catalogue does not know keeps its name
// with width 0. It returns nil, nil when key names no UniversalFMA.
func universalFMA(key string) (*MMA, error) {
	if key == fmaFamily {
		return nil, &NotFound{Name: key, Kind: "MMA atom", Hint: "UniversalFMA takes the element types, at least D: UniversalFMA<D, A = D, B = A, C = D>",
			Suggestion: []string{fmaFamily + "<float>"}}
	}
	if !strings.HasPrefix(key, fmaFamily+"<") || !strings.HasSuffix(key, ">") {
		return nil, nil
	}
	args := splitTemplateArgs(key[len(fmaFamily)+1 : len(key)-1])
	if len(args) > 4 || slices.Contains(args, "") {
		return nil, &NotFound{Name: key, Kind: "MMA atom", Hint: "UniversalFMA takes 1 to 4 element types: UniversalFMA<D, A = D, B = A, C = D>",
			Suggestion: []string{fmaFamily + "<float>"}}
	}
	// CuTe's defaults: A = D, B = A, C = D.
	for len(args) < 4 {
		switch len(args) {
		case 1, 3:
			args = append(args, args[0])
		case 2:
			args = append(args, args[1])
		}
	}
	i, ok := mmaIndex(fmaKey)
	if !ok {
		return nil, nil
	}
	a := *built.mma(i)
	a.Name = key
	a.Instantiation = ""
	vals := []*ValType{&a.ValD, &a.ValA, &a.ValB, &a.ValC}
	regs := []*Registers{&a.RegD, &a.RegA, &a.RegB, &a.RegC}
	for i, t := range args {
		bits := typeBits[t]
		*vals[i] = ValType{Name: t, Bits: bits}
		*regs[i] = Registers{Type: t, Count: 1, Bits: bits}
	}
	return &a, nil
}

// fmaKey is the key of the catalogued UniversalFMA, Key(fmaFamily +
// "<float, float, float, float>"), spelled out so that it costs nothing at
// start (TestFMAKey checks the two agree).
const fmaKey = fmaFamily + "<float,float,float,float>"

// splitTemplateArgs splits a template's argument list at its top-level commas.
func splitTemplateArgs(s string) []string {
	var out []string
	depth, from := 0, 0
	for i, c := range s {
		switch c {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[from:i]))
				from = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[from:]))
}
