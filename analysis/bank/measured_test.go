package bank

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cute-lsp/cute-lsp/layout"
)

// The cases measured for this project (testdata/gpu/README.md says how).
var measuredSets = []string{"layouts", "layouts_first", "patterns", "families", "mixed", "masks"}

type measuredCase struct {
	ID          int                `json:"id"`
	Origin      string             `json:"origin"`
	Smem        string             `json:"smem"`
	SmemTree    *treeCase          `json:"smem_tree"`
	Access      string             `json:"access"`
	AccessTree  *treeCase          `json:"access_tree"`
	ElemBits    int                `json:"elem_bits"`
	Op          string             `json:"op"`
	Matrices    int                `json:"matrices"`
	Trans       bool               `json:"trans"`
	VectorBytes int                `json:"vector_bytes"`
	Warps       int                `json:"warps"`
	PerWarp     int                `json:"per_warp"`
	Addrs       [][]int64          `json:"addrs"`
	Inactive    []uint32           `json:"inactive"`
	Wavefronts  int                `json:"ncu_wavefronts"`
	Measured    map[string]float64 `json:"ncu"`
}

type treeCase struct {
	Swizzle []int `json:"swizzle"`
	Offset  int64 `json:"offset"`
	Shape   any   `json:"shape"`
	Stride  any   `json:"stride"`
}

func (t *treeCase) value() (layout.Value, error) {
	sh, err := tupleOf(t.Shape)
	if err != nil {
		return nil, err
	}
	st, err := tupleOf(t.Stride)
	if err != nil {
		return nil, err
	}
	l := layout.Make(sh, st)
	if t.Swizzle == nil {
		return layout.Box(l), nil
	}
	if len(t.Swizzle) != 3 {
		return nil, fmt.Errorf("swizzle %v", t.Swizzle)
	}
	return layout.Composed{Outer: layout.Swizzle{B: t.Swizzle[0], M: t.Swizzle[1], S: t.Swizzle[2]}, Offset: layout.Int(t.Offset), Inner: l}, nil
}

func readMeasured(t *testing.T, name string) []measuredCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "gpu", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var cs []measuredCase
	if err := json.Unmarshal(data, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

// instructions rebuilds the warp instructions the probe ran.
func (c *measuredCase) instructions() ([]Instruction, error) {
	op, err := ParseOp(c.Op)
	if err != nil {
		return nil, err
	}
	if len(c.Addrs) != c.Warps*c.PerWarp {
		return nil, fmt.Errorf("%d address rows for %d warps x %d instructions", len(c.Addrs), c.Warps, c.PerWarp)
	}
	ins := make([]Instruction, len(c.Addrs))
	for i, a := range c.Addrs {
		if len(a) != WarpSize {
			return nil, fmt.Errorf("instruction %d has %d lanes", i, len(a))
		}
		ins[i] = Instruction{Op: op, Width: c.VectorBytes, Matrices: c.Matrices, Trans: c.Trans, Warp: i / c.PerWarp, Step: i % c.PerWarp}
		copy(ins[i].Addrs[:], a)
		if c.Inactive != nil {
			ins[i].Inactive = c.Inactive[i]
		}
	}
	return ins, nil
}

// TestMeasuredAddresses predicts every measured case from the lane
// addresses the probe used and compares with what Nsight Compute counted.
func TestMeasuredAddresses(t *testing.T) {
	total, byOp := 0, map[string]int{}
	for _, set := range measuredSets {
		for _, c := range readMeasured(t, set) {
			ins, err := c.instructions()
			if err != nil {
				t.Fatalf("%s case %d: %v", set, c.ID, err)
			}
			cost, err := AnalyzeAll(ins)
			if err != nil {
				t.Errorf("%s case %d: %v", set, c.ID, err)
				continue
			}
			if cost.Wavefronts != c.Wavefronts {
				t.Errorf("%s case %d (%s %d B, %s, %s): predicted %d wavefronts, measured %d",
					set, c.ID, c.Op, c.VectorBytes, c.Smem, c.Access, cost.Wavefronts, c.Wavefronts)
			}
			total++
			byOp[c.Op]++
		}
	}
	if total < 1000 {
		t.Errorf("only %d measured cases", total)
	}
	t.Logf("%d measured cases predicted (%v)", total, byOp)
}

// TestMeasuredLayouts lowers every case that was made from layouts and
// checks the lowering against the addresses the probe ran and the model
// against the measurement.
func TestMeasuredLayouts(t *testing.T) {
	n := 0
	for _, c := range readMeasured(t, "layouts") {
		var smem layout.Value
		var tv layout.Value
		var err error
		switch {
		case c.SmemTree != nil && c.AccessTree != nil:
			if smem, err = c.SmemTree.value(); err == nil {
				tv, err = c.AccessTree.value()
			}
		case c.Origin == "public":
			if smem, err = readNotation(c.Smem); err == nil {
				tv, err = readNotation(c.Access)
			}
		default:
			t.Fatalf("case %d has no layouts", c.ID)
		}
		if err != nil {
			t.Fatalf("case %d: %v", c.ID, err)
		}
		op, _ := ParseOp(c.Op)
		r, err := AnalyzeAccess(Access{Smem: smem, TV: *(tv.(*layout.Layout)), ElemBits: c.ElemBits, Op: op, Matrices: c.Matrices, Trans: c.Trans})
		if err != nil {
			t.Errorf("case %d: %v", c.ID, err)
			continue
		}
		if len(r.Instructions) != len(c.Addrs) || r.VectorBytes != c.VectorBytes || r.Warps != c.Warps {
			t.Fatalf("case %d: lowered to %d warps x %d instructions of %d bytes, the probe ran %d x %d of %d",
				c.ID, r.Warps, r.PerWarp, r.VectorBytes, c.Warps, c.PerWarp, c.VectorBytes)
			continue
		}
		for i := range c.Addrs {
			for lane, a := range c.Addrs[i] {
				if r.Instructions[i].Active(lane) && r.Instructions[i].Addrs[lane] != a {
					t.Fatalf("case %d instruction %d lane %d: address %d, the probe used %d", c.ID, i, lane, r.Instructions[i].Addrs[lane], a)
				}
			}
		}
		if r.Wavefronts != c.Wavefronts {
			t.Errorf("case %d: predicted %d wavefronts, measured %d", c.ID, r.Wavefronts, c.Wavefronts)
		}
		// The inline copy of the run check must lower exactly as the check.
		noInlineRunCheck = true
		slow, err := Lower(Access{Smem: smem, TV: *(tv.(*layout.Layout)), ElemBits: c.ElemBits, Op: op, Matrices: c.Matrices, Trans: c.Trans})
		noInlineRunCheck = false
		if err != nil || len(slow.Instructions) != len(r.Instructions) {
			t.Fatalf("case %d: without the inline check: %v", c.ID, err)
		}
		for i := range slow.Instructions {
			if slow.Instructions[i] != r.Instructions[i] {
				t.Fatalf("case %d instruction %d differs without the inline check", c.ID, i)
			}
		}
		// AnalyzeAccess costs its own lowering unchecked: it must be valid.
		if checked, err := AnalyzeAll(r.Instructions); err != nil || checked.Wavefronts != r.Wavefronts {
			t.Errorf("case %d: the lowering does not pass the checks: %v", c.ID, err)
		}
		n++
	}
	if n < 400 {
		t.Errorf("only %d layout cases", n)
	}
}
