// Package atom is the catalog of CuTe's MMA and copy atoms: for every atom,
// named as CuTe names it, the thread-value layouts of its traits (printed by
// CuTe C++ itself, see testdata/oracle/atoms.md), its value and register
// types, and the PTX instruction it issues.
//
// Conventions are CuTe's. An MMA atom's ALayout maps (thread, value) to the
// column-major index m + M*k of its M x K tile, BLayout to n + N*k of N x K,
// CLayout to m + M*n of M x N; the thread is the logical one, and ThrID maps
// it to the hardware thread. A copy atom's SrcLayout and DstLayout map
// (thread, value) to a bit of the data one copy moves; RefLayout is the one
// of the two a TiledCopy partitions by.
package atom

//go:generate go run ./internal/gen -in ../../testdata/oracle/atoms.jsonl -out catalog_gen.go

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/cute-lsp/cute-lsp/layout"
)

// ValType is an element type of an operand, as CuTe names it, with its width.
type ValType struct {
	Name string // half_t, bfloat16_t, tfloat32_t, float_e4m3_t, float, int8_t, ...
	Bits int
}

// Registers is the register array one thread passes for an operand: Count
// registers of Type, each Bits wide. The zero value is CuTe's void (no
// registers: the operand lives in shared or tensor memory, or is C itself).
type Registers struct {
	Type  string // uint32_t, float, double, uint64_t (a shared-memory descriptor), ...
	Count int
	Bits  int
}

// None reports whether the operand passes no registers (CuTe's void).
func (r Registers) None() bool { return r.Count == 0 }

// MMA is an MMA atom: CuTe's MMA_Traits of one MMA operation.
type MMA struct {
	Name string
	// Instantiation is the C++ type the data was printed from where the atom
	// is a template (GMMA: its majors, which do not change the layouts).
	Instantiation string
	ShapeMNK      layout.IntTuple
	ThrID         layout.Layout
	ALayout       layout.Layout // (thread, value) -> m + M*k
	BLayout       layout.Layout // (thread, value) -> n + N*k
	CLayout       layout.Layout // (thread, value) -> m + M*n
	ValD          ValType
	ValA          ValType
	ValB          ValType
	ValC          ValType
	RegD          Registers
	RegA          Registers
	RegB          Registers
	RegC          Registers
	PTX           string // the instruction with its modifiers; empty where CuTe issues several (complex) or none
}

// Copy is a copy atom: CuTe's Copy_Traits of one copy operation.
type Copy struct {
	Name      string
	ThrID     layout.Layout
	SrcLayout layout.Layout // (thread, value) -> bit
	DstLayout layout.Layout // (thread, value) -> bit
	RefLayout layout.Layout
	RegS      Registers
	RegD      Registers
	PTX       string   // the instruction; empty for copies CuTe writes as plain C++ assignments
	PTXByRank []string // TMA: the instruction for tensors of rank 1, 2, ...
	// NumBitsPerTMA is the bits one TMA or bulk copy moves (a template
	// argument of its traits, fixed when CuTe builds the atom from a tile).
	NumBitsPerTMA int64
}

// Kind of an atom.
type Kind int

const (
	KindMMA Kind = iota
	KindCopy
)

// M, N and K of an MMA atom's tile.
func (a *MMA) M() int64 { return a.ShapeMNK.At(0).Value() }
func (a *MMA) N() int64 { return a.ShapeMNK.At(1).Value() }
func (a *MMA) K() int64 { return a.ShapeMNK.At(2).Value() }

// Threads is the number of threads that issue the atom together.
func (a *MMA) Threads() (int64, error) { return a.ThrID.Size() }

// Threads is the number of threads that issue the copy together.
func (c *Copy) Threads() (int64, error) { return c.ThrID.Size() }

// lowerIndex is the catalogued names by their keys in lower case, for
// Suggest and Complete.
type lowerIndex struct {
	lowerKeys       []string          // lowerKeys[i] is Key(catalogNames[i]) in lower case, for Suggest
	sortedLowerKeys []string          // lowerKeys sorted, for Complete
	nameOfLowerKey  map[string]string // a lower-case key's catalogued name
}

// lowered is the lowerIndex, built on first use apart from the catalog: a
// look-up that finds its atom (lint's, file after file) needs neither it
// nor its 1,549 lower-cased copies of the names.
var lowered = sync.OnceValue(func() *lowerIndex {
	x := &lowerIndex{nameOfLowerKey: make(map[string]string, len(catalogNames))}
	for _, n := range catalogNames {
		k := strings.ToLower(Key(n))
		x.lowerKeys = append(x.lowerKeys, k)
		x.nameOfLowerKey[k] = n
	}
	x.sortedLowerKeys = slices.Sorted(maps.Keys(x.nameOfLowerKey))
	return x
})

// MMAs is every catalogued MMA atom, in CuTe's header order: copies of
// the atoms a look-up returns (equal, at other addresses).
func MMAs() []MMA { return allMMAs() }

// Copies is every catalogued copy atom (copies, as MMAs).
func Copies() []Copy { return allCopies() }

// allMMAs and allCopies are the whole catalog, built on first use (a
// look-up builds only the atom it finds).
var (
	allMMAs = sync.OnceValue(func() []MMA {
		s := make([]MMA, len(catalogMMAs))
		for i := range s {
			s[i] = *built.mma(i)
		}
		return s
	})
	allCopies = sync.OnceValue(func() []Copy {
		s := make([]Copy, len(catalogCopies))
		for i := range s {
			s[i] = *built.copy(i)
		}
		return s
	})
)

// Names is every catalogued atom name, sorted. It builds nothing: lint
// asks it whether a name in the code is an atom's (analysis.catalogued),
// file after file, and building the catalog for that was 4% of lint's
// CPU over include/cute and examples/cute.
func Names() []string { return catalogNames[:] }

// Key is the form names are compared in: spaces and the cute:: and cutlass::
// qualifiers dropped, and a GMMA atom's template arguments (its majors and
// scales, which leave the layouts unchanged) dropped.
func Key(name string) string {
	if isKey(name) {
		return name
	}
	return normalizeKey(name)
}

// normalizeKey is Key without its shortcut: blanks and the namespaces
// dropped, the wrapper unwrapped, GMMA's template arguments cut.
func normalizeKey(name string) string {
	s := strings.Join(strings.Fields(name), "")
	s = strings.ReplaceAll(s, "cute::", "")
	s = strings.ReplaceAll(s, "cutlass::", "")
	s, _ = Unwrap(s)
	if strings.HasPrefix(s, "SM90_64x") {
		if i := strings.IndexByte(s, '<'); i > 0 {
			s = s[:i]
		}
	}
	return s
}

// isKey reports, without allocating, that Key(name) is name itself: name
// is ASCII without blanks (nothing for strings.Fields to drop), without
// "::" (no qualifier), not one of the spellings Unwrap takes apart, and no
// GMMA atom with template arguments. Most names are (every lookup's and
// most of the catalog's), and Key is called for each.
func isKey(name string) bool {
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 0x80, c == ' ', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ':' && i+1 < len(name) && name[i+1] == ':':
			return false
		}
	}
	for _, w := range []string{"MMA_Atom<", "Copy_Atom<", "MMA_Traits<", "Copy_Traits<"} {
		if strings.HasPrefix(name, w) {
			return false
		}
	}
	return !strings.HasPrefix(name, "SM90_64x") || strings.IndexByte(name, '<') <= 0
}

// Unwrap reads the atom out of the C++ spellings that wrap it:
// MMA_Atom<Op>, Copy_Atom<Op, T>, MMA_Traits<Op> and Copy_Traits<Op>, giving
// the op and, for Copy_Atom, its value type T. Any other text is returned as is.
func Unwrap(s string) (op, valType string) {
	for _, w := range []string{"MMA_Atom<", "Copy_Atom<", "MMA_Traits<", "Copy_Traits<"} {
		if !strings.HasPrefix(s, w) || !strings.HasSuffix(s, ">") {
			continue
		}
		inner := s[len(w) : len(s)-1]
		depth := 0
		for i, c := range inner {
			switch c {
			case '<':
				depth++
			case '>':
				depth--
			case ',':
				if depth == 0 {
					return strings.TrimSpace(inner[:i]), strings.TrimSpace(inner[i+1:])
				}
			}
		}
		return strings.TrimSpace(inner), ""
	}
	return s, ""
}

// NotFound is a name the catalog does not hold, with the nearest names it does.
type NotFound struct {
	Name       string
	Kind       string // "MMA atom", "copy atom" or "atom"
	Suggestion []string
	Hint       string // why a family name alone is not enough, where it is one
}

func (e *NotFound) Error() string {
	msg := fmt.Sprintf("no %s named %s", e.Kind, e.Name)
	if e.Hint != "" {
		msg += ": " + e.Hint
	}
	if len(e.Suggestion) > 0 {
		msg += "; did you mean " + strings.Join(e.Suggestion, ", ") + "?"
	}
	return msg
}

// LookupMMA finds an MMA atom by CuTe's name (see Key for what is ignored).
func LookupMMA(name string) (*MMA, error) {
	k := Key(name)
	if i, ok := mmaIndex(k); ok {
		return built.mma(i), nil
	}
	if a, err := universalFMA(k); a != nil || err != nil {
		return a, err
	}
	return nil, notFound(name, "MMA atom")
}

// LookupCopy finds a copy atom by CuTe's name. A copy templated on its
// element type may name any type: UniversalCopy<half_t> is the atom of
// UniversalCopy<uint16_t> (CuTe's traits use only the width). A TMA or bulk copy is named
// with the bits it moves, SM90_TMA_LOAD<NumBitsPerTMA=65536>: its layouts
// depend on that number, which CuTe fixes from the tile it is built for.
func LookupCopy(name string) (*Copy, error) {
	k := Key(name)
	if i, ok := copyIndex(k); ok {
		return built.copy(i), nil
	}
	if c, err := bulkCopy(k); c != nil || err != nil {
		return c, err
	}
	if c, err := typedCopy(k); c != nil || err != nil {
		return c, err
	}
	return nil, notFound(name, "copy atom")
}

// Lookup finds an atom of either kind; exactly one of the results is non-nil
// when the error is nil.
func Lookup(name string) (*MMA, *Copy, error) {
	if a, err := LookupMMA(name); err == nil {
		return a, nil, nil
	}
	if c, err := LookupCopy(name); err == nil {
		return nil, c, nil
	} else if nf, ok := err.(*NotFound); !ok || nf.Hint != "" {
		return nil, nil, err
	}
	return nil, nil, notFound(name, "atom")
}

// isMMA and isCopy report whether the catalog holds an atom of that kind
// whose key is k (building nothing).
func isMMA(k string) bool  { _, ok := mmaIndex(k); return ok }
func isCopy(k string) bool { _, ok := copyIndex(k); return ok }

func notFound(name, kind string) *NotFound {
	nf := &NotFound{Name: name, Kind: kind}
	k := Key(name)
	switch {
	case kind == "copy atom" && isMMA(k):
		nf.Hint = fmt.Sprintf("it is an MMA atom: mma_atom(%q) reads it", name)
		return nf
	case kind == "MMA atom" && isCopy(k):
		nf.Hint = fmt.Sprintf("it is a copy atom: copy_atom(%q) reads it", name)
		return nf
	}
	// The nearest names of the kind asked for: an MMA atom is no answer
	// to a copy atom's misspelling.
	for _, s := range Suggest(name, 20) {
		sk := Key(s)
		if kind == "MMA atom" && !isMMA(sk) || kind == "copy atom" && !isCopy(sk) {
			continue
		}
		if nf.Suggestion = append(nf.Suggestion, s); len(nf.Suggestion) == 3 {
			break
		}
	}
	return nf
}

type layoutTuple = layout.IntTuple

func tup(es ...layout.IntTuple) layout.IntTuple { return layout.Tup(es...) }
func intLeaf(v int64) layout.IntTuple           { return layout.Int(v) }
