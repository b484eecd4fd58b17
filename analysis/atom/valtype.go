package atom

import (
	"slices"
	"strings"
)

// ElementBits is the width of an element type a Copy_Atom may name
// (Copy_Atom<Op, half_t>), spelt as CuTe spells it, with or without the
// cute:: or cutlass:: qualifier.
func ElementBits(name string) (int, bool) {
	n := strings.TrimSpace(name)
	n = strings.TrimPrefix(n, "cute::")
	n = strings.TrimPrefix(n, "cutlass::")
	bits, ok := typeBits[n]
	return bits, ok
}

// ElementTypes is every element type ElementBits knows, sorted.
func ElementTypes() []string {
	out := make([]string, 0, len(typeBits))
	for n := range typeBits {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
