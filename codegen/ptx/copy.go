package ptx

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
)

// LowerCopy lowers a copy atom to a kernel cute_copy(in, out, ...):
//
//   - ldmatrix: each thread stages its 16-byte row of in into shared memory,
//     then the warp issues the ldmatrix with that row's address and stores
//     its destination registers to out.
//   - stmatrix: the reverse: registers from in, stmatrix to the thread's
//     row, the rows back to out.
//   - movmatrix: registers in, registers out.
//   - cp.async: each thread copies its element from in to shared memory,
//     waits, and writes it back to out.
//   - TMA (cp.async.bulk.tensor) and bulk copies: one entry per tensor rank,
//     cute_copy_1d .. cute_copy_5d, taking the tensor map's generic address
//     and the coordinates as parameters; loads wait on an mbarrier, stores
//     commit and wait on their bulk group.
func LowerCopy(c *atom.Copy) (*Module, error) {
	n, err := threads(c.ThrID)
	if err != nil {
		return nil, err
	}
	switch {
	case c.PTX == "":
		return nil, &Skip{Name: c.Name, Reason: "CuTe issues no instruction of its own (a C++ assignment, vectorized copy or warp shuffle the compiler chooses)"}
	case strings.HasPrefix(c.PTX, "ldmatrix."):
		return lowerMatrix(c, n, true)
	case strings.HasPrefix(c.PTX, "stmatrix."):
		return lowerMatrix(c, n, false)
	case strings.HasPrefix(c.PTX, "movmatrix."):
		return lowerMovmatrix(c, n)
	case strings.HasPrefix(c.PTX, "cp.async.ca.") || strings.HasPrefix(c.PTX, "cp.async.cg."):
		return lowerCpAsync(c, n)
	case strings.Contains(c.PTX, "bulk"):
		return lowerBulk(c, n)
	}
	return nil, &Skip{Name: c.Name, Reason: "no lowering for " + c.PTX}
}

func copyKernel() *kernel {
	k := &kernel{name: "cute_copy"}
	k.param("u64", "param_in")
	k.param("u64", "param_out")
	k.threadIndex()
	return k
}

// threadRow declares the shared buffer of rowBytes per thread and sets
// %smem_row to this thread's row in it.
func (k *kernel) threadRow(threads int64, rowBytes int) {
	k.shared = append(k.shared, fmt.Sprintf(".shared .align 128 .b8 %s[%d];", k.smem("smem"), threads*int64(rowBytes)))
	k.reg("b32", "%smem_row", "%row_off")
	k.emit("mov.u32 %%smem_row, %s;", k.smem("smem"))
	k.emit("mul.lo.u32 %%row_off, %%t, %d;", rowBytes)
	k.emit("add.u32 %%smem_row, %%smem_row, %%row_off;")
}

// globalRow sets reg to param's global array at this thread's rowBytes row.
func (k *kernel) globalRow(reg, param string, rowBytes int) {
	k.reg("b64", reg)
	k.emit("ld.param.u64 %s, [%s];", reg, param)
	k.emit("cvta.to.global.u64 %s, %s;", reg, reg)
	k.emit("mul.wide.u32 %%off, %%t, %d;", rowBytes)
	k.emit("add.s64 %s, %s, %%off;", reg, reg)
}

// copyRow moves a 16-byte row between two addresses of the given state spaces.
func (k *kernel) copyRow(from, fromSpace, to, toSpace string) {
	k.emit("ld.%s.v4.b32 {%%row0, %%row1, %%row2, %%row3}, [%s];", fromSpace, from)
	k.emit("st.%s.v4.b32 [%s], {%%row0, %%row1, %%row2, %%row3};", toSpace, to)
}

func lowerMatrix(c *atom.Copy, n int64, load bool) (*Module, error) {
	k := copyKernel()
	regs := c.RegD
	if !load {
		regs = c.RegS
	}
	if regs.PTXType() != "b32" {
		return nil, &Skip{Name: c.Name, Reason: fmt.Sprintf("expected 32-bit registers, have %s", regs)}
	}
	k.threadRow(n, 16)
	k.reg("b32", "%row0", "%row1", "%row2", "%row3")
	var instr string
	var vecs []int
	if load {
		k.globalRow("%g_in", "param_in", 16)
		k.copyRow("%g_in", "global", "%smem_row", "shared")
		k.emit("bar.sync 0;")
		rd := names("d", regs.Count)
		k.reg("b32", rd...)
		instr = fmt.Sprintf("%s %s, [%%smem_row];", c.PTX, vec(rd))
		vecs = []int{regs.Count}
		k.emit("%s", instr)
		k.store("param_out", "d", regs, rd)
	} else {
		rs, err := k.load("param_in", "s", regs)
		if err != nil {
			return nil, skipRegs(c.Name, "S", err)
		}
		instr = fmt.Sprintf("%s [%%smem_row], %s;", c.PTX, vec(rs))
		vecs = []int{regs.Count}
		k.emit("%s", instr)
		k.emit("bar.sync 0;")
		k.globalRow("%g_out", "param_out", 16)
		k.copyRow("%smem_row", "shared", "%g_out", "global")
	}
	return &Module{
		Name: c.Name, Target: "sm_90a", Version: "8.0", Threads: n,
		Instructions: []string{instr}, Vectors: [][]int{vecs},
		Text: module(c.Name, "sm_90a", "8.0", n, []*kernel{k}),
	}, nil
}

func lowerMovmatrix(c *atom.Copy, n int64) (*Module, error) {
	k := copyKernel()
	rs, err := k.load("param_in", "s", c.RegS)
	if err != nil {
		return nil, skipRegs(c.Name, "S", err)
	}
	if c.RegD.PTXType() != "b32" || c.RegD.Count != 1 || len(rs) != 1 {
		return nil, &Skip{Name: c.Name, Reason: fmt.Sprintf("expected one 32-bit register each way, have %s and %s", c.RegS, c.RegD)}
	}
	rd := names("d", 1)
	k.reg("b32", rd...)
	instr := fmt.Sprintf("%s %s, %s;", c.PTX, rd[0], rs[0])
	k.emit("%s", instr)
	k.store("param_out", "d", c.RegD, rd)
	return &Module{
		Name: c.Name, Target: "sm_90a", Version: "8.0", Threads: n,
		Instructions: []string{instr}, Vectors: [][]int{nil},
		Text: module(c.Name, "sm_90a", "8.0", n, []*kernel{k}),
	}, nil
}

func lowerCpAsync(c *atom.Copy, n int64) (*Module, error) {
	bytes := c.RegS.Bits / 8
	if c.RegS.Count != 1 || (bytes != 4 && bytes != 8 && bytes != 16) {
		return nil, &Skip{Name: c.Name, Reason: fmt.Sprintf("cp.async copies 4, 8 or 16 bytes, the atom moves %s", c.RegS)}
	}
	k := copyKernel()
	k.threadRow(n, 16)
	k.globalRow("%g_in", "param_in", bytes)
	instr := fmt.Sprintf("%s [%%smem_row], [%%g_in], %d;", c.PTX, bytes)
	if strings.Contains(c.Name, "ZFILL") {
		// CuTe's ZFILL passes the bytes to read, 0 to fill with zeros.
		k.reg("b32", "%src_bytes")
		k.emit("mov.u32 %%src_bytes, %d;", bytes)
		instr = fmt.Sprintf("%s [%%smem_row], [%%g_in], %d, %%src_bytes;", c.PTX, bytes)
	}
	k.emit("%s", instr)
	k.emit("cp.async.wait_all;")
	k.reg("b32", "%row0", "%row1", "%row2", "%row3")
	k.globalRow("%g_out", "param_out", 16)
	k.copyRow("%smem_row", "shared", "%g_out", "global")
	return &Module{
		Name: c.Name, Target: "sm_90a", Version: "8.0", Threads: n,
		Instructions: []string{instr}, Vectors: [][]int{nil},
		Text: module(c.Name, "sm_90a", "8.0", n, []*kernel{k}),
	}, nil
}

// lowerBulk lowers TMA and bulk copies: one entry per form (rank).
func lowerBulk(c *atom.Copy, n int64) (*Module, error) {
	bytes := c.NumBitsPerTMA / 8
	if bytes <= 0 || c.NumBitsPerTMA%8 != 0 {
		return nil, &Skip{Name: c.Name, Reason: fmt.Sprintf("moves %d bits, not whole bytes", c.NumBitsPerTMA)}
	}
	forms := c.PTXByRank
	if len(forms) == 0 {
		forms = []string{c.PTX}
	}
	var kernels []*kernel
	var instrs []string
	var vecs [][]int
	version := "8.0"
	for rank, op := range forms {
		if strings.Contains(op, "shared::cta.global") {
			version = "8.6" // a CTA-local destination came with PTX ISA 8.6
		}
		k := &kernel{name: "cute_copy"}
		tensor := strings.Contains(op, ".tensor.")
		if tensor {
			k.name = fmt.Sprintf("cute_copy_%dd", rank+1)
		}
		instr, vec := bulkKernel(k, op, rank+1, bytes, tensor)
		kernels = append(kernels, k)
		instrs = append(instrs, instr)
		vecs = append(vecs, vec)
	}
	return &Module{
		Name: c.Name, Target: "sm_90a", Version: version, Threads: n,
		Instructions: instrs, Vectors: vecs,
		Text: module(c.Name, "sm_90a", version, n, kernels),
	}, nil
}

func bulkKernel(k *kernel, op string, rank int, bytes int64, tensor bool) (string, []int) {
	load := strings.Contains(op, ".global.mbarrier") // shared <- global, completing on an mbarrier
	k.shared = append(k.shared, fmt.Sprintf(".shared .align 128 .b8 %s[%d];", k.smem("smem"), bytes))
	if load {
		k.shared = append(k.shared, fmt.Sprintf(".shared .align 8 .b64 %s;", k.smem("mbar")))
	}
	var coords []string
	if tensor {
		k.param("u64", "param_tensormap")
		coords = names("crd", rank)
		for i := range coords {
			k.param("s32", fmt.Sprintf("param_crd%d", i))
		}
	} else {
		k.param("u64", "param_gmem")
	}
	multicast := strings.Contains(op, "multicast")
	if multicast {
		k.param("u16", "param_cta_mask")
	}
	hint := strings.Contains(op, "cache_hint")
	if hint {
		k.param("u64", "param_cache_hint")
	}
	k.threadIndex()
	k.reg("b32", "%smem_addr")
	k.reg("pred", "%p_not_leader")
	k.emit("mov.u32 %%smem_addr, %s;", k.smem("smem"))
	k.emit("setp.ne.u32 %%p_not_leader, %%t, 0;")
	k.emit("@%%p_not_leader bra DONE;")
	var gaddr string
	if tensor {
		k.reg("b64", "%tensormap")
		k.reg("b32", coords...)
		k.emit("ld.param.u64 %%tensormap, [param_tensormap];")
		for i, r := range coords {
			k.emit("ld.param.s32 %s, [param_crd%d];", r, i)
		}
		gaddr = fmt.Sprintf("[%%tensormap, %s]", vec(coords))
	} else {
		k.reg("b64", "%gmem")
		k.reg("b32", "%bytes")
		k.emit("ld.param.u64 %%gmem, [param_gmem];")
		k.emit("mov.u32 %%bytes, %d;", bytes)
		gaddr = "[%gmem]"
	}
	if multicast {
		k.reg("b16", "%cta_mask")
		k.emit("ld.param.u16 %%cta_mask, [param_cta_mask];")
	}
	if hint {
		k.reg("b64", "%cache_hint")
		k.emit("ld.param.u64 %%cache_hint, [param_cache_hint];")
	}
	var ops []string
	if load {
		k.reg("b32", "%mbar_addr")
		k.reg("b32", "%phase")
		k.reg("pred", "%p_done")
		k.emit("mov.u32 %%mbar_addr, %s;", k.smem("mbar"))
		k.emit("mov.u32 %%phase, 0;")
		k.emit("mbarrier.init.shared::cta.b64 [%%mbar_addr], 1;")
		k.emit("fence.mbarrier_init.release.cluster;")
		k.emit("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%%mbar_addr], %d;", bytes)
		ops = []string{"[%smem_addr]", gaddr}
		if !tensor {
			ops = append(ops, "%bytes")
		}
		ops = append(ops, "[%mbar_addr]")
		if multicast {
			ops = append(ops, "%cta_mask")
		}
	} else {
		k.emit("fence.proxy.async.shared::cta;")
		ops = []string{gaddr, "[%smem_addr]"}
		if !tensor {
			ops = append(ops, "%bytes")
		}
	}
	if hint {
		ops = append(ops, "%cache_hint")
	}
	instr := op + " " + strings.Join(ops, ", ") + ";"
	k.emit("%s", instr)
	if load {
		k.label("WAIT")
		k.emit("mbarrier.try_wait.parity.shared::cta.b64 %%p_done, [%%mbar_addr], %%phase;")
		k.emit("@!%%p_done bra WAIT;")
	} else {
		k.emit("cp.async.bulk.commit_group;")
		k.emit("cp.async.bulk.wait_group.read 0;")
	}
	k.label("DONE")
	var vecs []int
	if tensor {
		vecs = []int{rank}
	}
	return instr, vecs
}
