package bank

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// The public measured set, beside the checkout (see shared/gpu/README.md).
const publicTruth = "../../../shared/gpu/bank_truth.json"

type publicCase struct {
	ID        int     `json:"id"`
	Smem      string  `json:"smem"`
	Access    string  `json:"access"`
	ElemBits  int     `json:"elem_bits"`
	VecElems  int     `json:"vec_elems"`
	VecBytes  int     `json:"vec_bytes"`
	Addrs     []int64 `json:"addrs"`
	Wavefront int     `json:"ncu_wavefronts"`
}

func readPublic(t *testing.T) []publicCase {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(publicTruth))
	if err != nil {
		t.Fatalf("the public measured set is missing: %v", err)
	}
	var cs []publicCase
	if err := json.Unmarshal(data, &cs); err != nil {
		t.Fatal(err)
	}
	if len(cs) != 60 {
		t.Fatalf("public set has %d cases, want 60", len(cs))
	}
	return cs
}

// TestPublicAddresses checks the model on the lane addresses the hardware saw.
func TestPublicAddresses(t *testing.T) {
	for _, c := range readPublic(t) {
		in := Instruction{Op: Load, Width: c.VecBytes}
		copy(in.Addrs[:], c.Addrs)
		cost, err := Analyze(&in)
		if err != nil {
			t.Errorf("case %d: %v", c.ID, err)
			continue
		}
		if cost.Wavefronts != c.Wavefront {
			t.Errorf("case %d (%s, %s, %d bits): predicted %d wavefronts, measured %d", c.ID, c.Smem, c.Access, c.ElemBits, cost.Wavefronts, c.Wavefront)
		}
	}
}

// TestPublicLayouts lowers each public case from its layouts and checks the
// addresses and the wavefronts against what was measured.
func TestPublicLayouts(t *testing.T) {
	for _, c := range readPublic(t) {
		smem, err := readNotation(c.Smem)
		if err != nil {
			t.Fatalf("case %d: %v", c.ID, err)
		}
		tvv, err := readNotation(c.Access)
		if err != nil {
			t.Fatalf("case %d: %v", c.ID, err)
		}
		r, err := AnalyzeAccess(Access{Smem: smem, TV: *(tvv.(*layout.Layout)), ElemBits: c.ElemBits, Op: Load})
		if err != nil {
			t.Errorf("case %d: %v", c.ID, err)
			continue
		}
		if r.VectorBytes != c.VecBytes || len(r.Instructions) != 1 {
			t.Errorf("case %d: lowered to %d instruction(s) of %d bytes, want 1 of %d", c.ID, len(r.Instructions), r.VectorBytes, c.VecBytes)
			continue
		}
		for lane, a := range c.Addrs {
			if r.Instructions[0].Addrs[lane] != a {
				t.Errorf("case %d lane %d: address %d, want %d", c.ID, lane, r.Instructions[0].Addrs[lane], a)
				break
			}
		}
		if r.Wavefronts != c.Wavefront {
			t.Errorf("case %d: predicted %d wavefronts, measured %d", c.ID, r.Wavefronts, c.Wavefront)
		}
	}
}

// readNotation reads the two printed forms the measured sets hold,
// "S:D" and "Sw<B,M,S> o O o S:D", with integer leaves only. It is a test
// fixture reader, not the project's grammar.
func readNotation(s string) (layout.Value, error) {
	var sw layout.Swizzle
	var off int64
	if strings.HasPrefix(s, "Sw<") {
		var rest string
		i := strings.Index(s, " o ")
		j := strings.Index(s[i+3:], " o ")
		if i < 0 || j < 0 {
			return nil, fmt.Errorf("not a composed layout: %q", s)
		}
		if _, err := fmt.Sscanf(s[:i], "Sw<%d,%d,%d>", &sw.B, &sw.M, &sw.S); err != nil {
			return nil, fmt.Errorf("%q: %v", s, err)
		}
		if _, err := fmt.Sscanf(s[i+3:i+3+j], "%d", &off); err != nil {
			return nil, fmt.Errorf("%q: %v", s, err)
		}
		rest = s[i+3+j+3:]
		l, err := readPlain(rest)
		if err != nil {
			return nil, err
		}
		return layout.Composed{Outer: sw, Offset: layout.Int(off), Inner: l}, nil
	}
	return layout.Boxed(readPlain(s))
}

func readPlain(s string) (layout.Layout, error) {
	shape, stride, ok := strings.Cut(s, ":")
	if !ok {
		return layout.Layout{}, fmt.Errorf("not a layout: %q", s)
	}
	sh, err := readTuple(shape)
	if err != nil {
		return layout.Layout{}, err
	}
	st, err := readTuple(stride)
	if err != nil {
		return layout.Layout{}, err
	}
	return layout.Make(sh, st), nil
}

func readTuple(s string) (layout.IntTuple, error) {
	js := strings.NewReplacer("(", "[", ")", "]").Replace(s)
	var v any
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		return layout.IntTuple{}, fmt.Errorf("%q: %v", s, err)
	}
	return tupleOf(v)
}

func tupleOf(v any) (layout.IntTuple, error) {
	switch x := v.(type) {
	case float64:
		return layout.Int(int64(x)), nil
	case []any:
		elems := make([]layout.IntTuple, len(x))
		for i, e := range x {
			t, err := tupleOf(e)
			if err != nil {
				return layout.IntTuple{}, err
			}
			elems[i] = t
		}
		return layout.Tup(elems...), nil
	}
	return layout.IntTuple{}, fmt.Errorf("not an integer tuple: %v", v)
}
