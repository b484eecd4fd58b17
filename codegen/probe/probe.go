// Package probe emits a CUDA program that performs given shared-memory warp
// instructions on a GPU, one thread block per case, so that Nsight Compute
// can count the wavefronts each case costs, and reads the counts back.
//
// The program (WriteCUDA) is the same for every set of cases; the cases
// travel in a binary input file (WriteInput). Each case is launched as one
// kernel: ncu's per-launch counters attribute wavefronts to cases by launch
// order.
package probe

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
)

// MaxSmemBytes is the dynamic shared memory one H100 thread block can have
// (227 KiB); the probe reserves 1 KiB more to align its buffer to 1024 bytes.
const MaxSmemBytes = 227*1024 - 1024

// Case is one launch: Warps warps, each running PerWarp instructions, all of
// one op, width and matrix count.
type Case struct {
	Warps, PerWarp int
	Instructions   []bank.Instruction // warp-major: warp w's i-th at w*PerWarp+i
}

// CaseOf packs a lowered access as a probe case.
func CaseOf(p *bank.Plan) Case {
	return Case{Warps: p.Warps, PerWarp: p.PerWarp, Instructions: p.Instructions}
}

// opCode numbers the kernels of the probe program: op*100 + width for ld/st,
// op*100 + matrices*10 + trans for ldmatrix/stmatrix.
func opCode(in *bank.Instruction) uint32 {
	if in.Op.IsMatrix() {
		t := 0
		if in.Trans {
			t = 1
		}
		return uint32(int(in.Op)*100 + in.Matrices*10 + t)
	}
	return uint32(int(in.Op)*100 + in.Width)
}

func (c *Case) check(idx int) error {
	if c.Warps < 1 || c.Warps > 32 || c.PerWarp < 1 || len(c.Instructions) != c.Warps*c.PerWarp {
		return fmt.Errorf("probe: case %d: %d warps x %d instructions does not match %d instructions", idx, c.Warps, c.PerWarp, len(c.Instructions))
	}
	first := &c.Instructions[0]
	for i := range c.Instructions {
		in := &c.Instructions[i]
		if _, err := bank.Analyze(in); err != nil {
			return fmt.Errorf("probe: case %d: %v", idx, err)
		}
		if opCode(in) != opCode(first) {
			return fmt.Errorf("probe: case %d: instruction %d is %s of %d bytes, the first is %s of %d: one kind per case", idx, i, in.Op, in.Width, first.Op, first.Width)
		}
		for lane, a := range in.Addrs {
			if in.Active(lane) && a+int64(in.Width) > MaxSmemBytes {
				return fmt.Errorf("probe: case %d: instruction %d lane %d: byte address %d is past the %d bytes of shared memory a block can have", idx, i, lane, a, MaxSmemBytes)
			}
		}
	}
	return nil
}

// WriteInput writes the binary input of the probe program: the magic
// "CUTEBNK1", the case count, then per case six little-endian uint32
// (kernel code, warps, instructions per warp, shared-memory bytes, 0, 0) and
// the byte addresses, 32 per instruction, warp-major; 0xffffffff marks a
// lane predicated off.
func WriteInput(w io.Writer, cases []Case) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("CUTEBNK1")
	put := func(v uint32) { binary.Write(bw, binary.LittleEndian, v) }
	put(uint32(len(cases)))
	for i := range cases {
		c := &cases[i]
		if err := c.check(i); err != nil {
			return err
		}
		var top int64
		for j := range c.Instructions {
			for _, a := range c.Instructions[j].Addrs {
				top = max(top, a+16)
			}
		}
		off := uint32(0xffffffff) // an inactive lane
		put(opCode(&c.Instructions[0]))
		put(uint32(c.Warps))
		put(uint32(c.PerWarp))
		put(uint32(top))
		put(0)
		put(0)
		for j := range c.Instructions {
			in := &c.Instructions[j]
			for lane, a := range in.Addrs {
				if in.Active(lane) {
					put(uint32(a))
				} else {
					put(off)
				}
			}
		}
	}
	return bw.Flush()
}

// Metrics are the Nsight Compute counters the probe is read with: the
// wavefronts of shared-memory loads and stores (ldmatrix and stmatrix
// included; see testdata/gpu/README.md for what each counts) and the
// instructions executed, which check that the program ran exactly the
// instructions of each case.
var Metrics = []string{
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
	"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
	"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
	"smsp__inst_executed_op_shared_ld.sum",
	"smsp__inst_executed_op_shared_st.sum",
	"smsp__inst_executed_op_ldsm.sum",
	"smsp__inst_executed_op_shared_stsm.sum",
}

// InstructionMetric is the counter of the warp instructions of an op.
func InstructionMetric(op string) string {
	switch op {
	case "ld":
		return "smsp__inst_executed_op_shared_ld.sum"
	case "st":
		return "smsp__inst_executed_op_shared_st.sum"
	case "ldmatrix":
		return "smsp__inst_executed_op_ldsm.sum"
	}
	return "smsp__inst_executed_op_shared_stsm.sum"
}
