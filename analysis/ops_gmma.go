package analysis

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/gmma"
	"github.com/cute-lsp/cute-lsp/layout"
)

// gmma_desc(smem, bits [, sm90|sm100]): the matrix descriptor of the first
// instruction block of a shared-memory tile, as make_gmma_desc (SM90) or
// make_umma_desc (SM100) computes it.
// gmmaKeywords are the architectures gmma_desc reads.
var gmmaKeywords = []string{"sm90", "sm100"}

// DescValue is a descriptor a sheet computed: its 64-bit value, with the
// report (tiling, block, fields) that hovers show.
type DescValue struct {
	Report gmma.Report
}

// String is the descriptor's value in hex, as CuTe prints it.
func (v DescValue) String() string { return fmt.Sprintf("0x%016x", v.Report.Desc.Encode()) }

// Plain is the 64-bit value as an integer (its bit pattern, so asserts can
// compare it with a hex or decimal literal).
func (v DescValue) Plain() layout.Value { return layout.Int(int64(v.Report.Desc.Encode())) }

func gmmaDesc(args []layout.Value) (layout.Value, error) {
	const op = "gmma_desc"
	if len(args) < 2 || len(args) > 3 {
		return nil, &OpError{Op: op, Message: fmt.Sprintf("takes (smem, bits [, sm90|sm100]), not %d arguments", len(args))}
	}
	switch args[0].(type) {
	case *layout.Layout, layout.Composed:
	default:
		return nil, &OpError{Op: op, Arg: 1, Message: fmt.Sprintf("the shared-memory layout must be a layout or a swizzled layout, not %s", kindOf(args[0]))}
	}
	bits, ok := args[1].(layout.IntTuple)
	if !ok || !bits.IsLeaf() || bits.IsBasis() || bits.IsUnknown() {
		return nil, &OpError{Op: op, Arg: 2, Message: fmt.Sprintf("the element width must be a number of bits, not %v", args[1])}
	}
	arch := gmma.SM90
	if len(args) == 3 {
		k, ok := args[2].(Keyword)
		switch {
		case ok && k == "sm90":
		case ok && k == "sm100":
			arch = gmma.SM100
		default:
			return nil, &OpError{Op: op, Arg: 3, Message: fmt.Sprintf("the architecture is sm90 or sm100, not %v", args[2])}
		}
	}
	r, err := gmma.Analyze(arch, gmma.Operand{Smem: args[0], Bits: int(bits.Value())})
	if err != nil {
		var nc *gmma.NotCanonical
		if errors.As(err, &nc) {
			return nil, &OpError{Op: op, Arg: 1, Code: CodeNotCanonical, Message: strings.TrimPrefix(err.Error(), op+": "), Err: err}
		}
		return nil, &OpError{Op: op, Message: err.Error(), Err: err}
	}
	return DescValue{Report: r}, nil
}

func (DescValue) IsValue() {} // a layout.Value
