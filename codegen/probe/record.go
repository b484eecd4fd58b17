package probe

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Tree is an IntTuple as JSON: an integer, or an array of trees.
type Tree = any

// TreeOf writes an integer tuple as a Tree.
func TreeOf(t layout.IntTuple) Tree {
	if t.IsLeaf() {
		return t.Value()
	}
	out := make([]Tree, t.Len())
	for i, e := range t.Elems() {
		out[i] = TreeOf(e)
	}
	return out
}

// TupleOf reads a Tree (as encoding/json decodes it) back into an IntTuple.
func TupleOf(v Tree) (layout.IntTuple, error) {
	switch x := v.(type) {
	case float64:
		if x != float64(int64(x)) {
			return layout.IntTuple{}, fmt.Errorf("probe: %v is not an integer", x)
		}
		return layout.Int(int64(x)), nil
	case int64:
		return layout.Int(x), nil
	case int:
		return layout.Int(int64(x)), nil
	case []any:
		elems := make([]layout.IntTuple, len(x))
		for i, e := range x {
			t, err := TupleOf(e)
			if err != nil {
				return layout.IntTuple{}, err
			}
			elems[i] = t
		}
		return layout.Tup(elems...), nil
	}
	return layout.IntTuple{}, fmt.Errorf("probe: %v is not an integer tuple", v)
}

// LayoutTree is a layout as JSON; Swizzle (B, M, S) and Offset are set for a
// swizzled layout Sw<B,M,S> o Offset o Shape:Stride.
type LayoutTree struct {
	Swizzle []int `json:"swizzle,omitempty"`
	Offset  int64 `json:"offset,omitempty"`
	Shape   Tree  `json:"shape"`
	Stride  Tree  `json:"stride"`
}

// LayoutTreeOf encodes a Layout or a Composed.
func LayoutTreeOf(v layout.Value) (LayoutTree, error) {
	switch l := v.(type) {
	case *layout.Layout:
		return LayoutTree{Shape: TreeOf(l.Shape), Stride: TreeOf(l.Stride)}, nil
	case layout.Composed:
		t, _ := LayoutTreeOf(layout.Box(l.Inner))
		t.Swizzle = []int{l.Outer.B, l.Outer.M, l.Outer.S}
		t.Offset = l.Offset.Value()
		return t, nil
	}
	return LayoutTree{}, fmt.Errorf("probe: %v is not a layout", v)
}

// Value decodes the tree.
func (t LayoutTree) Value() (layout.Value, error) {
	sh, err := TupleOf(t.Shape)
	if err != nil {
		return nil, err
	}
	st, err := TupleOf(t.Stride)
	if err != nil {
		return nil, err
	}
	l := layout.Make(sh, st)
	if t.Swizzle == nil {
		return layout.Box(l), nil
	}
	if len(t.Swizzle) != 3 {
		return nil, fmt.Errorf("probe: swizzle %v: want [B, M, S]", t.Swizzle)
	}
	return layout.Composed{Outer: layout.Swizzle{B: t.Swizzle[0], M: t.Swizzle[1], S: t.Swizzle[2]}, Offset: layout.Int(t.Offset), Inner: l}, nil
}

// Record is one measured (or to-be-measured) case as testdata/gpu stores it.
type Record struct {
	ID          int         `json:"id"`
	Origin      string      `json:"origin"` // which generator made it: "public", "tile", "matrix", "scatter"
	Smem        string      `json:"smem"`
	SmemTree    *LayoutTree `json:"smem_tree,omitempty"` // absent for cases known only by their addresses
	Access      string      `json:"access"`
	AccessTree  *LayoutTree `json:"access_tree,omitempty"`
	ElemBits    int         `json:"elem_bits"`
	Op          string      `json:"op"`
	Matrices    int         `json:"matrices,omitempty"`
	Trans       bool        `json:"trans,omitempty"`
	VectorBytes int         `json:"vector_bytes"`
	Warps       int         `json:"warps"`
	PerWarp     int         `json:"per_warp"`
	Addrs       [][]int64   `json:"addrs"`              // per instruction, warp-major, 32 lane byte addresses
	Inactive    []uint32    `json:"inactive,omitempty"` // per instruction: lanes predicated off (bit l: lane l)
	Predicted   int         `json:"predicted"`
	// Measured: what Nsight Compute counted for the case's launch, by metric.
	Measured   map[string]float64 `json:"ncu,omitempty"`
	Wavefronts int                `json:"ncu_wavefronts"` // the wavefront counter of the case's op
}

// BankAccess rebuilds the bank access the record describes.
func (r *Record) BankAccess() (bank.Access, error) {
	if r.SmemTree == nil || r.AccessTree == nil {
		return bank.Access{}, fmt.Errorf("probe: record %d has no layouts", r.ID)
	}
	smem, err := r.SmemTree.Value()
	if err != nil {
		return bank.Access{}, err
	}
	tv, err := r.AccessTree.Value()
	if err != nil {
		return bank.Access{}, err
	}
	op, err := bank.ParseOp(r.Op)
	if err != nil {
		return bank.Access{}, err
	}
	return bank.Access{Smem: smem, TV: *(tv.(*layout.Layout)), ElemBits: r.ElemBits, Op: op, Matrices: r.Matrices, Trans: r.Trans}, nil
}

// NewRecord lowers an access and records it, with the model's prediction.
func NewRecord(origin string, a bank.Access) (*Record, error) {
	rep, err := bank.AnalyzeAccess(a)
	if err != nil {
		return nil, err
	}
	st, err := LayoutTreeOf(a.Smem)
	if err != nil {
		return nil, err
	}
	at, _ := LayoutTreeOf(layout.Box(a.TV))
	r := &Record{
		Origin: origin, Smem: a.Smem.String(), SmemTree: &st, Access: a.TV.String(), AccessTree: &at,
		ElemBits: a.ElemBits, Op: a.Op.String(), Trans: a.Trans, VectorBytes: rep.VectorBytes,
		Warps: rep.Warps, PerWarp: rep.PerWarp, Predicted: rep.Wavefronts,
	}
	if a.Op.IsMatrix() {
		r.Matrices = a.Matrices
	}
	anyOff := false
	for i := range rep.Instructions {
		r.Addrs = append(r.Addrs, append([]int64(nil), rep.Instructions[i].Addrs[:]...))
		r.Inactive = append(r.Inactive, rep.Instructions[i].Inactive)
		anyOff = anyOff || rep.Instructions[i].Inactive != 0
	}
	if !anyOff {
		r.Inactive = nil
	}
	return r, nil
}

// Case is the record as a probe case.
func (r *Record) Case() (Case, error) {
	op, err := bank.ParseOp(r.Op)
	if err != nil {
		return Case{}, err
	}
	c := Case{Warps: r.Warps, PerWarp: r.PerWarp}
	for i, a := range r.Addrs {
		in := bank.Instruction{Op: op, Width: r.VectorBytes, Matrices: r.Matrices, Trans: r.Trans, Warp: i / max(1, r.PerWarp), Step: i % max(1, r.PerWarp)}
		if len(a) != bank.WarpSize {
			return Case{}, fmt.Errorf("probe: record %d instruction %d has %d lane addresses", r.ID, i, len(a))
		}
		copy(in.Addrs[:], a)
		if r.Inactive != nil {
			if len(r.Inactive) != len(r.Addrs) {
				return Case{}, fmt.Errorf("probe: record %d has %d inactive masks for %d instructions", r.ID, len(r.Inactive), len(r.Addrs))
			}
			in.Inactive = r.Inactive[i]
		}
		c.Instructions = append(c.Instructions, in)
	}
	return c, nil
}

// WavefrontMetric is the counter that holds an op's wavefronts.
func WavefrontMetric(op string) string {
	if op == "st" || op == "stmatrix" {
		return "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
	}
	return "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
}

// ReadNCU reads Nsight Compute's --csv output (one row per kernel launch and
// metric) into per-launch metric maps, in launch order. Lines before the
// header (the program's and ncu's own messages) are skipped.
func ReadNCU(r io.Reader) ([]map[string]float64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	text := string(data)
	start := strings.Index(text, "\"ID\",")
	if start < 0 {
		return nil, fmt.Errorf("probe: no ncu CSV header (\"ID\",...) in the output")
	}
	cr := csv.NewReader(strings.NewReader(text[start:]))
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, need := range []string{"ID", "Metric Name", "Metric Value"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("probe: ncu CSV has no %q column", need)
		}
	}
	var out []map[string]float64
	index := map[string]int{}
	for _, row := range rows[1:] {
		if len(row) <= col["Metric Value"] {
			continue
		}
		id := row[col["ID"]]
		k, ok := index[id]
		if !ok {
			k = len(out)
			index[id] = k
			out = append(out, map[string]float64{})
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(row[col["Metric Value"]], ",", ""), 64)
		if err != nil {
			return nil, fmt.Errorf("probe: launch %s metric %s: value %q: %v", id, row[col["Metric Name"]], row[col["Metric Value"]], err)
		}
		out[k][row[col["Metric Name"]]] = v
	}
	return out, nil
}
