package ptx

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
)

// LowerMMA lowers an MMA atom to a kernel cute_mma(a, b, c, d, ...) that
// loads the A, B and C fragments, issues the atom's instruction once and
// stores D (C, for the asynchronous MMAs that accumulate in place).
//
//   - mma.sync and dp4a/dp2a: every operand is a register array.
//   - wgmma (GMMA): A (SS) and B are shared-memory descriptors, passed as
//     .u64 parameters; the instruction is fenced, committed and waited on
//     as the PTX ISA requires. The immediates are CuTe's defaults: scale 1,
//     K-major (no transpose).
//   - tcgen05.mma (UMMA): the accumulator (and A, for TS) live in tensor
//     memory; their addresses, the descriptors and the instruction
//     descriptor are parameters.
func LowerMMA(a *atom.MMA) (*Module, error) {
	n, err := threads(a.ThrID)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.HasPrefix(a.Name, "UniversalFMA<"):
		return nil, &Skip{Name: a.Name, Reason: "CuTe issues no instruction of its own (UniversalFMA is C++'s fma on its element types, which the compiler lowers)"}
	case a.PTX == "":
		return nil, &Skip{Name: a.Name, Reason: "CuTe issues no single instruction for it (complex MMAs are several real ones, written in C++)"}
	case strings.HasPrefix(a.PTX, "dp2a."):
		// CuTe's SM61_DP2A writes "dp2a.s32.s32"; PTX requires the .lo or .hi
		// half, and ptxas 13.0 rejects it (testdata/ptx/assembled.tsv of the
		// first run). Choosing a half would be a different instruction.
		return nil, &Skip{Name: a.Name, Reason: "CuTe's dp2a.s32.s32 lacks the .lo/.hi mode PTX requires (ptxas: '.hi/.lo' modifier required for instruction 'dp2a')"}
	case strings.HasPrefix(a.PTX, "wgmma."):
		return lowerGMMA(a, n)
	case strings.HasPrefix(a.PTX, "tcgen05.mma"):
		return lowerUMMA(a, n)
	}
	k := &kernel{name: "cute_mma"}
	for _, p := range []string{"a", "b", "c", "d"} {
		k.param("u64", "param_"+p)
	}
	k.threadIndex()
	ra, err := k.load("param_a", "a", a.RegA)
	if err != nil {
		return nil, skipRegs(a.Name, "A", err)
	}
	rb, err := k.load("param_b", "b", a.RegB)
	if err != nil {
		return nil, skipRegs(a.Name, "B", err)
	}
	rc, err := k.load("param_c", "c", a.RegC)
	if err != nil {
		return nil, skipRegs(a.Name, "C", err)
	}
	if a.RegD.PTXType() == "" {
		return nil, skipRegs(a.Name, "D", fmt.Errorf("no PTX register holds %s", a.RegD))
	}
	rd := names("d", a.RegD.Count)
	k.reg(a.RegD.PTXType(), rd...)
	var instr string
	var vecs []int
	if strings.HasPrefix(a.PTX, "dp4a") || strings.HasPrefix(a.PTX, "dp2a") {
		instr = fmt.Sprintf("%s %s, %s, %s, %s;", a.PTX, rd[0], ra[0], rb[0], rc[0])
	} else {
		instr = fmt.Sprintf("%s %s, %s, %s, %s;", a.PTX, vec(rd), vec(ra), vec(rb), vec(rc))
		vecs = []int{a.RegD.Count, a.RegA.Count, a.RegB.Count, a.RegC.Count}
	}
	k.emit("%s", instr)
	k.store("param_d", "d", a.RegD, rd)
	v := mmaVersion(a.PTX)
	return &Module{
		Name: a.Name, Target: "sm_90a", Version: v, Threads: n,
		Instructions: []string{instr}, Vectors: [][]int{vecs},
		Text: module(a.Name, "sm_90a", v, n, []*kernel{k}),
	}, nil
}

// mmaVersion is the oldest PTX ISA that has the instruction, as ptxas 13.0
// reports it: FP8 mma.sync came with 8.4, its FP16 accumulation with 8.7,
// wgmma of mixed signed and unsigned 8-bit integers with 8.4; everything
// else here assembles for sm_90a at 8.0, the first ISA with sm_90a.
func mmaVersion(ptx string) string {
	fp8 := strings.Contains(ptx, ".e4m3") || strings.Contains(ptx, ".e5m2")
	switch {
	case strings.HasPrefix(ptx, "mma.sync") && fp8 && strings.Contains(ptx, ".f16.e"):
		return "8.7"
	case strings.HasPrefix(ptx, "mma.sync") && fp8:
		return "8.4"
	case strings.HasPrefix(ptx, "wgmma") && (strings.Contains(ptx, ".s8.u8") || strings.Contains(ptx, ".u8.s8")):
		return "8.4"
	}
	return "8.0"
}

func skipRegs(name, operand string, err error) error {
	return &Skip{Name: name, Reason: fmt.Sprintf("operand %s: %v", operand, err)}
}

// gmmaImmediates are the immediates that follow the scale-d predicate of a
// wgmma: scale-a and scale-b (1: not negated) for floating-point inputs, and
// the transposes (0: K-major) for 16-bit inputs, of A only where A comes from
// shared memory. Integer wgmma takes none.
func gmmaImmediates(ptx string, aFromSmem bool) []string {
	parts := strings.Split(ptx, ".")
	in := parts[len(parts)-1]
	if in == "satfinite" {
		in = parts[len(parts)-2]
	}
	switch in {
	case "s8", "u8":
		return nil
	case "f16", "bf16":
		if aFromSmem {
			return []string{"1", "1", "0", "0"}
		}
		return []string{"1", "1", "0"}
	}
	return []string{"1", "1"}
}

func lowerGMMA(a *atom.MMA, n int64) (*Module, error) {
	k := &kernel{name: "cute_mma"}
	aFromSmem := a.RegA.PTXType() == "b64"
	if !aFromSmem {
		k.param("u64", "param_a")
	} else {
		k.param("u64", "param_desc_a")
	}
	k.param("u64", "param_desc_b")
	k.param("u64", "param_c")
	k.param("u32", "param_scale_d")
	k.threadIndex()
	var aOperand string
	vecs := []int{a.RegC.Count}
	if aFromSmem {
		k.reg("b64", "%desc_a")
		k.emit("ld.param.u64 %%desc_a, [param_desc_a];")
		aOperand = "%desc_a"
	} else {
		ra, err := k.load("param_a", "a", a.RegA)
		if err != nil {
			return nil, skipRegs(a.Name, "A", err)
		}
		aOperand = vec(ra)
		vecs = append(vecs, a.RegA.Count)
	}
	k.reg("b64", "%desc_b")
	k.emit("ld.param.u64 %%desc_b, [param_desc_b];")
	rc, err := k.load("param_c", "c", a.RegC)
	if err != nil {
		return nil, skipRegs(a.Name, "C", err)
	}
	k.reg("b32", "%scale_d")
	k.reg("pred", "%p_scale_d")
	k.emit("ld.param.u32 %%scale_d, [param_scale_d];")
	k.emit("setp.ne.b32 %%p_scale_d, %%scale_d, 0;")
	ops := []string{vec(rc), aOperand, "%desc_b", "%p_scale_d"}
	ops = append(ops, gmmaImmediates(a.PTX, aFromSmem)...)
	instr := a.PTX + " " + strings.Join(ops, ", ") + ";"
	k.emit("wgmma.fence.sync.aligned;")
	k.emit("%s", instr)
	k.emit("wgmma.commit_group.sync.aligned;")
	k.emit("wgmma.wait_group.sync.aligned 0;")
	k.store("param_c", "c", a.RegC, rc)
	v := mmaVersion(a.PTX)
	return &Module{
		Name: a.Name, Target: "sm_90a", Version: v, Threads: n,
		Instructions: []string{instr}, Vectors: [][]int{vecs},
		Text: module(a.Name, "sm_90a", v, n, []*kernel{k}),
	}, nil
}

func lowerUMMA(a *atom.MMA, n int64) (*Module, error) {
	k := &kernel{name: "cute_mma"}
	aFromSmem := a.RegA.PTXType() == "b64"
	if aFromSmem {
		k.param("u64", "param_desc_a")
	} else {
		k.param("u32", "param_tmem_a")
	}
	k.param("u64", "param_desc_b")
	k.param("u32", "param_tmem_c")
	k.param("u32", "param_idesc")
	k.param("u32", "param_scale_c")
	k.reg("b32", "%tmem_c", "%idesc", "%scale_c")
	k.reg("b64", "%desc_b")
	k.reg("pred", "%p_scale_c")
	var aOperand string
	if aFromSmem {
		k.reg("b64", "%desc_a")
		k.emit("ld.param.u64 %%desc_a, [param_desc_a];")
		aOperand = "%desc_a"
	} else {
		k.reg("b32", "%tmem_a")
		k.emit("ld.param.u32 %%tmem_a, [param_tmem_a];")
		aOperand = "[%tmem_a]"
	}
	k.emit("ld.param.u64 %%desc_b, [param_desc_b];")
	k.emit("ld.param.u32 %%tmem_c, [param_tmem_c];")
	k.emit("ld.param.u32 %%idesc, [param_idesc];")
	k.emit("ld.param.u32 %%scale_c, [param_scale_c];")
	k.emit("setp.ne.b32 %%p_scale_c, %%scale_c, 0;")
	// CuTe passes a disable-output-lane mask of zeros: 4 words for one CTA, 8 for a pair.
	lanes := 4
	if strings.Contains(a.PTX, "cta_group::2") {
		lanes = 8
	}
	mask := names("mask", lanes)
	k.reg("b32", mask...)
	for _, m := range mask {
		k.emit("mov.b32 %s, 0;", m)
	}
	instr := fmt.Sprintf("%s [%%tmem_c], %s, %%desc_b, %%idesc, %s, %%p_scale_c;", a.PTX, aOperand, vec(mask))
	k.emit("%s", instr)
	return &Module{
		Name: a.Name, Target: "sm_100a", Version: "8.6", Threads: n,
		Instructions: []string{instr}, Vectors: [][]int{{lanes}},
		Text: module(a.Name, "sm_100a", "8.6", n, []*kernel{k}),
	}, nil
}
