package hover

import (
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/grammar"
)

// TestDescriptorTensorPrints: the hover of a tensor print names its
// iterator and takes its element width for the byte facts; other
// descriptors hover as their value.
func TestDescriptorTensorPrints(t *testing.T) {
	for _, c := range []struct{ src, want, notWant string }{
		{"gmem_ptr[32b](GMEM_ADDR_C) o (8,4):(4,_1)", "tensor over `gmem_ptr[32b](GMEM_ADDR_C)`: global memory, 32-bit elements\n", ""},
		{"gmem_ptr[32b](GMEM_ADDR_C) o (8,4):(4,_1)", "spans 128 bytes of 32-bit element", "half_t"},
		{"Sw<3,4,3>_smem_ptr[16b](SMEM_ADDR_A) o ((_128,_16),_1,_4):((_64,_1),_0,_16)", "shared memory, 16-bit elements, swizzled on byte addresses", ""},
		{"tmem_[32b](TMEM_ADDR) o ((_128,_256),_1,_1):((_65536,_1),_0,_0)", "tensor memory", ""},
		{"ArithTuple(_0,0) o (_128,_64,4):(_1@1,_1@0,_64@0)", "coordinates from (_0,0), an identity tensor", "-bit elements"},
		{"Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "", "tensor over"},
		{"(4,8):(1,4)", "", "tensor over"},
	} {
		n, err := grammar.ParseExpr(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		v, everr := analysis.Eval(n, nil)
		if everr != nil {
			t.Fatalf("%s: %v", c.src, everr)
		}
		got := Descriptor(n, v, DefaultOptions)
		if !strings.Contains(got, c.want) || c.notWant != "" && strings.Contains(got, c.notWant) {
			t.Errorf("%s:\n%s\nwant it to hold %q and not %q", c.src, got, c.want, c.notWant)
		}
		if !strings.Contains(got, Value(v, DefaultOptions)[:strings.Index(Value(v, DefaultOptions), "\n")]) {
			t.Errorf("%s: the hover does not show the value:\n%s", c.src, got)
		}
	}
}
