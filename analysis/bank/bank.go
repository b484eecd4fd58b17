// Package bank models shared-memory bank conflicts as an NVIDIA Hopper GPU
// (H100, sm_90) serves them, one warp instruction at a time, and lowers a
// CuTe access (a shared-memory layout and a thread-value access layout) to
// the warp instructions and lane byte addresses the hardware sees.
//
// The rule, checked against wavefronts measured with Nsight Compute on an
// H100 (testdata/gpu, and the public set in shared/gpu):
//
//   - shared memory is 32 banks of 4-byte words: bank = (byte address / 4) mod 32;
//   - a warp instruction is served in phases of 128 bytes of lane requests:
//     32 lanes when each lane moves at most 4 bytes, 16 lanes for 8 bytes,
//     8 lanes for 16 bytes; ldmatrix and stmatrix serve one 8x16-byte matrix
//     (the row addresses of lanes 8m..8m+7) per phase;
//   - a phase costs as many wavefronts as the largest number of distinct
//     4-byte words that fall in one bank: lanes touching the same word are
//     served together (broadcast on loads, merged on stores);
//   - paired loads: when an 8- or 16-byte load has every lane at the same
//     address as its neighbour (lane i as lane i^1, for every lane) or as the
//     lane two away (lane i as lane i^2, for every lane), the hardware serves
//     a lane pair as one request, so a phase takes twice the lanes: the whole
//     warp for 8 bytes, each half-warp for 16 bytes. Pairings that differ
//     from one group of four lanes to the next, lanes equal four apart, and
//     stores, ldmatrix and stmatrix get no such pairing;
//   - lanes predicated off take no part; in the pairing test they match any
//     address, and a phase with no active lane is not issued.
//
// Lower turns (shared-memory layout, access layout, element bits) into those
// instructions: each thread's value mode is cut into runs of consecutive
// elements and moved with the widest aligned access (at most 16 bytes) that
// every run allows. Sub-byte elements sit where CuTe packs them (element e at
// bit e*bits): runs covering whole bytes move like any other (4-bit x8 is one
// 4-byte access, 6-bit x64 three 16-byte ones); runs that do not (a lone
// 4-bit element, 6-bit elements) are read as CuTe's subbyte_reference reads
// them, a byte access where each element starts and, for the lanes whose
// element straddles into the next byte, a second one with the others off.
//
// Addresses are byte offsets from the start of a shared-memory buffer that is
// at least 128-byte aligned (swizzled layouts assume the alignment their
// swizzle period needs, as CuTe does).
package bank

import (
	"fmt"
	"math/bits"
)

// Banks is the number of shared-memory banks; each bank serves one 4-byte word per wavefront.
const Banks = 32

// WarpSize is the number of lanes of a warp.
const WarpSize = 32

// phaseBytes is the number of bytes of lane requests one phase takes.
const phaseBytes = 128

// Op is the kind of a shared-memory instruction.
type Op uint8

const (
	Load     Op = iota // ld.shared (LDS)
	Store              // st.shared (STS)
	LdMatrix           // ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16 (LDSM)
	StMatrix           // stmatrix.sync.aligned.m8n8.xN[.trans].shared.b16 (STSM)
)

func (o Op) String() string {
	switch o {
	case Load:
		return "ld"
	case Store:
		return "st"
	case LdMatrix:
		return "ldmatrix"
	case StMatrix:
		return "stmatrix"
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// ParseOp reads an op name as String prints it.
func ParseOp(s string) (Op, error) {
	for _, o := range []Op{Load, Store, LdMatrix, StMatrix} {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("bank: unknown shared-memory op %q (want ld, st, ldmatrix or stmatrix)", s)
}

// IsMatrix reports whether o is ldmatrix or stmatrix, whose lanes each address one 16-byte matrix row.
func (o Op) IsMatrix() bool { return o == LdMatrix || o == StMatrix }

// IsStore reports whether o writes shared memory.
func (o Op) IsStore() bool { return o == Store || o == StMatrix }

// Instruction is one warp's shared-memory instruction as the hardware sees it:
// the byte address each lane accesses and the width of each lane's access.
type Instruction struct {
	Op       Op
	Width    int  // bytes per lane: 1, 2, 4, 8 or 16; ldmatrix and stmatrix: 16 (one matrix row)
	Matrices int  // ldmatrix and stmatrix: 1, 2 or 4 (.x1, .x2, .x4); lanes 8*Matrices.. are ignored
	Trans    bool // ldmatrix and stmatrix .trans: changes registers, not the memory access
	Warp     int  // which warp of the access issues it
	Step     int  // which of that warp's instructions it is, in issue order
	Addrs    [WarpSize]int64
	// Inactive has bit l set when lane l is predicated off and takes no
	// part (ld and st only: ldmatrix and stmatrix need the whole warp).
	Inactive uint32
}

// Active reports whether lane takes part in the instruction.
func (in *Instruction) Active(lane int) bool { return in.Inactive&(1<<lane) == 0 }

// Lanes is the number of lanes whose addresses the instruction uses.
func (in *Instruction) Lanes() int {
	if in.Op.IsMatrix() {
		return 8 * in.Matrices
	}
	return WarpSize
}

// LanesPerPhase is the number of lanes whose requests one phase takes.
func (in *Instruction) LanesPerPhase() int {
	if in.Op.IsMatrix() {
		return 8
	}
	n := phaseBytes / max(in.Width, 4)
	if in.Paired() {
		n *= 2
	}
	return n
}

// phaseLanes is LanesPerPhase given whether the instruction is paired.
func (in *Instruction) phaseLanes(paired bool) int {
	if in.Op.IsMatrix() {
		return 8
	}
	n := phaseBytes / max(in.Width, 4)
	if paired {
		n *= 2
	}
	return n
}

// Paired reports whether the instruction is a paired load: an 8- or 16-byte
// load in which every lane i has the address of lane i^1, or every lane i
// has the address of lane i^2, a lane predicated off matching any address.
// The hardware then serves two lanes as one request and a phase takes twice
// the lanes (measured: testdata/gpu).
func (in *Instruction) Paired() bool {
	if in.Op != Load || in.Width < 8 {
		return false
	}
	for _, d := range [...]int{1, 2} {
		all := true
		for lane := 0; lane < WarpSize && all; lane++ {
			all = in.Addrs[lane] == in.Addrs[lane^d] || !in.Active(lane) || !in.Active(lane^d)
		}
		if all {
			return true
		}
	}
	return false
}

// Phase is the cost of one phase of one warp instruction.
type Phase struct {
	Warp, Step int
	FirstLane  int // lanes FirstLane .. FirstLane+Lanes-1
	Lanes      int
	Paired     bool // a paired load: the phase takes twice the usual lanes (see the package rule)
	Wavefronts int
	// Slots holds the distinct accesses in each slot: the phase's 128 bytes
	// as 128/Unit slots of Unit bytes side by side over the banks (Unit is
	// max(width, 4); slot s covers banks s*Unit/4 ...). Every access in a
	// slot covers all of its banks, so its count is each bank's count of
	// distinct 4-byte words: see Words.
	Slots [Banks]uint8
	Unit  int
}

// Words is the histogram of the phase: the distinct 4-byte words it
// touches in each bank.
func (p *Phase) Words() [Banks]uint8 {
	var w [Banks]uint8
	per := max(p.Unit/4, 1)
	for b := range w {
		w[b] = p.Slots[b/per]
	}
	return w
}

// Cost is the wavefront count of one or more warp instructions.
type Cost struct {
	Wavefronts int // what the hardware spends
	Ideal      int // one wavefront per phase: the count with no bank conflict
	Phases     []Phase
}

// Conflicts is the number of wavefronts spent beyond the ideal.
func (c Cost) Conflicts() int { return c.Wavefronts - c.Ideal }

// validate checks what the hardware requires of an instruction: a legal
// width, naturally aligned non-negative addresses, a legal matrix count.
func (in *Instruction) validate() error {
	switch in.Op {
	case Load, Store:
		switch in.Width {
		case 1, 2, 4, 8, 16:
		default:
			return fmt.Errorf("bank: %s of %d bytes per lane: shared-memory accesses are 1, 2, 4, 8 or 16 bytes", in.Op, in.Width)
		}
	case LdMatrix, StMatrix:
		if in.Width != 16 {
			return fmt.Errorf("bank: %s rows are 16 bytes, not %d", in.Op, in.Width)
		}
		switch in.Matrices {
		case 1, 2, 4:
		default:
			return fmt.Errorf("bank: %s.x%d: the matrix count is 1, 2 or 4", in.Op, in.Matrices)
		}
	default:
		return fmt.Errorf("bank: unknown op %d", in.Op)
	}
	if in.Op.IsMatrix() && in.Inactive != 0 {
		return fmt.Errorf("bank: %s is warp-synchronous: every lane takes part", in.Op)
	}
	for lane := 0; lane < in.Lanes(); lane++ {
		if !in.Active(lane) {
			continue
		}
		a := in.Addrs[lane]
		if a < 0 {
			return fmt.Errorf("bank: warp %d instruction %d lane %d: negative byte address %d", in.Warp, in.Step, lane, a)
		}
		if a&int64(in.Width-1) != 0 { // widths are powers of two
			return fmt.Errorf("bank: warp %d instruction %d lane %d: byte address %d is not aligned to the %d-byte access", in.Warp, in.Step, lane, a, in.Width)
		}
	}
	return nil
}

// Analyze returns the wavefronts of one warp instruction, phase by phase.
func Analyze(in *Instruction) (Cost, error) {
	var c Cost
	if err := in.validate(); err != nil {
		return c, err
	}
	c.Phases = make([]Phase, 0, in.Lanes()/in.phaseLanes(false))
	c.add(in)
	return c, nil
}

// add appends the phases of a validated instruction to c.
func (c *Cost) add(in *Instruction) {
	paired := in.Paired()
	per := in.phaseLanes(paired)
	// A lane's access is one naturally aligned unit of max(width, 4) bytes;
	// a phase's 128 bytes are slots of units side by side over the banks.
	// Every unit in a slot covers the same banks, so the distinct words in
	// each of those banks are the distinct units in the slot.
	unit := max(in.Width, 4)
	shift := uint(bits.TrailingZeros(uint(unit)))
	slots := int64(phaseBytes / unit)
	// Distinct units per slot: a chain per slot through the units seen so
	// far; a chain is as long as the slot's conflict degree, so this is
	// linear in conflict-free phases. units and next are read only below n.
	var units [2 * WarpSize]int64
	var next [2 * WarpSize]int8
	var head [Banks]int8
	var count [Banks]uint8
	lanes := in.Lanes()
	for first := 0; first < lanes; first += per {
		// Fast path: every active lane in a slot of its own costs one wavefront.
		var used uint32
		active, clash := in.Inactive == 0, false
		for lane := first; lane < first+per; lane++ {
			if in.Inactive != 0 {
				if !in.Active(lane) {
					continue
				}
				active = true
			}
			bit := uint32(1) << ((in.Addrs[lane] >> shift) & (slots - 1))
			if used&bit != 0 {
				clash = true
				break
			}
			used |= bit
		}
		if !active {
			continue // a phase with no active lane is not issued
		}
		c.Phases = append(c.Phases, Phase{Warp: in.Warp, Step: in.Step, FirstLane: first, Lanes: per, Paired: paired, Unit: unit})
		p := &c.Phases[len(c.Phases)-1]
		c.Ideal++
		if !clash {
			for used != 0 {
				p.Slots[bits.TrailingZeros32(used)] = 1
				used &= used - 1
			}
			p.Wavefronts = 1
			c.Wavefronts++
			continue
		}
		for s := range slots {
			head[s] = -1
			count[s] = 0
		}
		n := int8(0)
		for lane := first; lane < first+per; lane++ {
			if !in.Active(lane) {
				continue
			}
			u := in.Addrs[lane] >> shift
			s := u & (slots - 1)
			seen := false
			for i := head[s]; i >= 0; i = next[i] {
				if units[i] == u {
					seen = true
					break
				}
			}
			if seen {
				continue
			}
			units[n] = u
			next[n] = head[s]
			head[s] = n
			n++
			count[s]++
			if int(count[s]) > p.Wavefronts {
				p.Wavefronts = int(count[s])
			}
		}
		p.Slots = count
		c.Wavefronts += p.Wavefronts
	}
}

// phaseCount is the most phases the instructions can take.
func phaseCount(ins []Instruction) int {
	n := 0
	for i := range ins {
		n += ins[i].Lanes() / ins[i].phaseLanes(false)
	}
	return n
}

// AnalyzeAll returns the summed cost of a sequence of warp instructions.
func AnalyzeAll(ins []Instruction) (Cost, error) {
	for i := range ins {
		if err := ins[i].validate(); err != nil {
			return Cost{}, err
		}
	}
	c := Cost{Phases: make([]Phase, 0, phaseCount(ins))}
	for i := range ins {
		c.add(&ins[i])
	}
	return c, nil
}
