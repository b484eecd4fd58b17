package probe

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/layout"
)

func TestWriteCUDA(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCUDA(&b); err != nil {
		t.Fatal(err)
	}
	src := b.String()
	for _, want := range []string{
		"ld.shared.u8", "ld.shared.u16", "ld.shared.u32", "ld.shared.v2.u32", "ld.shared.v4.u32",
		"st.shared.u8", "st.shared.v4.u32",
		"ldmatrix.sync.aligned.m8n8.x1.shared.b16", "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
		"stmatrix.sync.aligned.m8n8.x2.shared.b16", "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
		"case 240: return probe_ldmatrix_x4;", "case 341: return probe_stmatrix_x4_trans;",
		`memcmp(magic, "CUTEBNK1", 8)`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("probe source lacks %q", want)
		}
	}
	if n := strings.Count(src, "__global__ void probe_"); n != 22 {
		t.Errorf("%d kernels, want 22", n)
	}
}

func TestWriteInput(t *testing.T) {
	in := bank.Instruction{Op: bank.Load, Width: 16, Inactive: 1 << 3}
	for l := range in.Addrs {
		in.Addrs[l] = int64(16 * l)
	}
	in.Addrs[3] = 0
	c := Case{Warps: 1, PerWarp: 1, Instructions: []bank.Instruction{in}}
	var b bytes.Buffer
	if err := WriteInput(&b, []Case{c}); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	if string(data[:8]) != "CUTEBNK1" || len(data) != 8+4+6*4+32*4 {
		t.Fatalf("input of %d bytes starting %q", len(data), data[:8])
	}
	u := func(i int) uint32 { return binary.LittleEndian.Uint32(data[12+4*i:]) }
	if binary.LittleEndian.Uint32(data[8:]) != 1 || u(0) != 16 || u(1) != 1 || u(2) != 1 || u(3) != 31*16+16 {
		t.Errorf("header %d %d %d %d", u(0), u(1), u(2), u(3))
	}
	if u(6+2) != 32 || u(6+3) != 0xffffffff {
		t.Errorf("lane 2 at %d, lane 3 (off) %#x", u(8), u(9))
	}
	bad := []Case{
		{Warps: 2, PerWarp: 1, Instructions: []bank.Instruction{in}},
		{Warps: 1, PerWarp: 1, Instructions: []bank.Instruction{{Op: bank.Load, Width: 3}}},
		{Warps: 1, PerWarp: 2, Instructions: []bank.Instruction{in, {Op: bank.Store, Width: 16}}},
		{Warps: 1, PerWarp: 1, Instructions: []bank.Instruction{{Op: bank.Load, Width: 4, Addrs: [32]int64{MaxSmemBytes}}}},
	}
	for i, c := range bad {
		if err := WriteInput(&bytes.Buffer{}, []Case{c}); err == nil {
			t.Errorf("bad case %d accepted", i)
		}
	}
}

func TestRecordRoundTrip(t *testing.T) {
	smem := layout.Composed{Outer: layout.Swizzle{B: 3, M: 3, S: 3}, Offset: layout.Int(0),
		Inner: layout.Make(layout.Ints(16, 64), layout.Ints(64, 1))}
	tv := layout.Make(layout.Tup(layout.Tup(layout.Ints(8, 2, 2), layout.Int(1)), layout.Int(8), layout.Int(2)),
		layout.Tup(layout.Tup(layout.Ints(1, 8, 128), layout.Int(0)), layout.Int(16), layout.Int(256)))
	r, err := NewRecord("matrix", bank.Access{Smem: smem, TV: tv, ElemBits: 16, Op: bank.LdMatrix, Matrices: 4})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	a, err := back.BankAccess()
	if err != nil {
		t.Fatal(err)
	}
	if a.Smem.String() != smem.String() || a.TV.String() != tv.String() || a.Op != bank.LdMatrix || a.Matrices != 4 {
		t.Errorf("round trip: %v, %v, %v x%d", a.Smem, a.TV, a.Op, a.Matrices)
	}
	c, err := back.Case()
	if err != nil {
		t.Fatal(err)
	}
	cost, err := bank.AnalyzeAll(c.Instructions)
	if err != nil || cost.Wavefronts != r.Predicted || r.Predicted != 8 {
		t.Errorf("case costs %d (%v), predicted %d, want 8", cost.Wavefronts, err, r.Predicted)
	}
	if _, err := (&Record{}).BankAccess(); err == nil {
		t.Error("a record without layouts gave an access")
	}
	if _, err := (&Record{Op: "ld", Addrs: [][]int64{{1, 2}}}).Case(); err == nil {
		t.Error("a record with 2 lanes gave a case")
	}
	if _, err := TupleOf("x"); err == nil {
		t.Error("TupleOf accepted a string")
	}
	if _, err := (LayoutTree{Shape: 4.0, Stride: 1.0, Swizzle: []int{1}}).Value(); err == nil {
		t.Error("a two-number swizzle was accepted")
	}
}

func TestReadNCU(t *testing.T) {
	csv := `ran 2 cases
==PROF== Connected
"ID","Process ID","Kernel Name","Metric Name","Metric Unit","Metric Value"
"0","1","probe_ld_4","l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum","","2"
"0","1","probe_ld_4","smsp__inst_executed_op_shared_ld.sum","inst","1"
"1","1","probe_st_16","l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum","","1,024"
`
	got, err := ReadNCU(strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] != 2 || got[1][WavefrontMetric("st")] != 1024 {
		t.Errorf("read %v", got)
	}
	if _, err := ReadNCU(strings.NewReader("no header")); err == nil {
		t.Error("no header accepted")
	}
	if _, err := ReadNCU(strings.NewReader("\"ID\",\"Metric Name\",\"Metric Value\"\n\"0\",\"m\",\"n/a\"\n")); err == nil {
		t.Error("n/a accepted as a number")
	}
	if InstructionMetric("stmatrix") != "smsp__inst_executed_op_shared_stsm.sum" || WavefrontMetric("ldmatrix") != Metrics[0] {
		t.Error("metric names")
	}
}

func TestGeneratorsDeterministic(t *testing.T) {
	for _, origin := range []string{"tile", "matrix", "scatter"} {
		a, b := Random(origin, 3, 20), Random(origin, 3, 20)
		if len(a) != 20 || len(b) != 20 {
			t.Fatalf("%s: %d and %d cases", origin, len(a), len(b))
		}
		for i := range a {
			if a[i].Smem != b[i].Smem || a[i].Access != b[i].Access || a[i].Predicted != b[i].Predicted {
				t.Fatalf("%s case %d differs between runs", origin, i)
			}
		}
	}
	if Random("nothing", 1, 3) != nil {
		t.Error("unknown origin gave cases")
	}
	if n := len(Patterns(1, 120)); n != 120 {
		t.Errorf("%d patterns", n)
	}
	if n := len(Families(1)); n != 128 {
		t.Errorf("%d families", n)
	}
	if n := len(Mixed(1)); n != 112 {
		t.Errorf("%d mixed", n)
	}
	if n := len(Masks(1, 30)); n != 30 {
		t.Errorf("%d masks", n)
	}
}
