package hover

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/grammar"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Descriptor renders a descriptor of a host file (a comment, a string, an
// MLIR type) whose value is v: Value's text, and for a CuTe tensor print
// ("gmem_ptr[16b](A) o (512,256):(256,_1)") first a line naming its
// iterator, the memory it points into and its element width, which then
// stands for the configured element type in the byte facts.
func Descriptor(n grammar.Node, v layout.Value, opts Options) string {
	ptr := tensorIterator(n)
	if ptr == nil {
		return Value(v, opts)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tensor over `%s`: %s", grammar.Print(ptr, grammar.Cute), iteratorKind(ptr))
	if bits, err := strconv.Atoi(strings.TrimSuffix(ptr.Bits, "b")); err == nil && bits > 0 && strings.HasSuffix(ptr.Bits, "b") {
		fmt.Fprintf(&b, ", %d-bit elements", bits)
		opts.Element = Element{Name: fmt.Sprintf("%d-bit element", bits), Bits: bits}
	}
	if ptr.Swizzled {
		b.WriteString(", swizzled on byte addresses (the layout below is on element offsets)")
	}
	b.WriteString("\n\n")
	b.WriteString(Value(v, opts))
	return b.String()
}

// tensorIterator is the iterator stage of a tensor's print, nil for any
// other descriptor (a composed layout's "smem_ptr[16b](unset)" included:
// CuTe prints that pointer between a swizzle and a layout, not first).
func tensorIterator(n grammar.Node) *grammar.Pointer {
	c, ok := n.(*grammar.Composed)
	if !ok || len(c.Stages) < 2 {
		return nil
	}
	if p, ok := c.Stages[0].(*grammar.Pointer); ok {
		return p
	}
	if p, ok := c.Stages[1].(*grammar.Pointer); ok && p.Swizzled {
		return p
	}
	return nil
}

// iteratorKind says what an iterator CuTe prints points into.
func iteratorKind(p *grammar.Pointer) string {
	switch p.Kind {
	case "gmem_ptr":
		return "global memory"
	case "smem_ptr":
		return "shared memory"
	case "rmem_ptr":
		return "registers"
	case "tmem_":
		return "tensor memory (address lane.column)"
	case "subptr":
		return "sub-byte elements (address.index)"
	case "ArithTuple":
		return "coordinates from (" + p.Addr + "), an identity tensor"
	case "counting_iter":
		return "integers counting from " + p.Addr
	}
	return "memory"
}
