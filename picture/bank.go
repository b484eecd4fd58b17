package picture

import (
	"fmt"
	"sort"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/layout"
)

// BankData is what a bank map adds to an offsets grid: the element width,
// and the one phase of one warp instruction it highlights.
type BankData struct {
	Bits int // element width in bits
	// Phase is the highlighted phase (an index in the report's phases; -1
	// when the picture has no access), with its cost and where it is.
	Phase      int
	Phases     int // how many phases the access has
	Warp, Step int
	FirstLane  int
	Lanes      int
	Wavefronts int
	Width      int // bytes per lane
	Conflicts  int // wavefronts of the whole access beyond the ideal
	// Words is the distinct 4-byte words the phase touches in each bank.
	Words [bank.Banks]int
	// Mark is per cell: 0 not touched by the phase, 1 touched, 2 touched in
	// a bank where the phase touches more than one word (a conflict).
	Mark []uint8
	// CellLanes is the lanes of the phase that touch each touched cell.
	CellLanes map[int][]int
}

// Element marks.
const (
	MarkNone     = 0
	MarkTouched  = 1
	MarkConflict = 2
)

// elementBank is the bank of the first 4-byte word of element offset off of
// bits bits, and how many banks the element spans.
func elementBank(off int64, bits int) (first int64, span int) {
	word := off * int64(bits) / 32
	return word % bank.Banks, max(bits/32, 1)
}

// FromBanks is the bank map of a shared-memory layout of elements of bits
// bits: each element's bank, colours cycling over the 32 banks.
func FromBanks(smem layout.Value, bits int) (*Grid, error) {
	return fromBanks(smem, bits)
}

// FromAccess is the bank map of an access with one phase of one warp
// instruction highlighted: phase is an index in r.Phases, or -1 for the
// first of the costliest phases. r is the access's report (nil: analysed here).
func FromAccess(a bank.Access, r *bank.Report, phase int) (*Grid, error) {
	if r == nil {
		var err error
		if r, err = bank.AnalyzeAccess(a); err != nil {
			return nil, err
		}
	}
	g, err := fromBanks(a.Smem, a.ElemBits)
	if err != nil {
		return nil, err
	}
	if len(r.Phases) == 0 {
		g.Notes = append(g.Notes, "the access issues no phase")
		return g, nil
	}
	if phase < 0 {
		phase = 0
		for i, p := range r.Phases {
			if p.Wavefronts > r.Phases[phase].Wavefronts {
				phase = i
			}
		}
	}
	if phase >= len(r.Phases) {
		return nil, fmt.Errorf("phase %d: the access has phases 0..%d", phase, len(r.Phases)-1)
	}
	p := r.Phases[phase]
	var in *bank.Instruction
	for i := range r.Instructions {
		if r.Instructions[i].Warp == p.Warp && r.Instructions[i].Step == p.Step {
			in = &r.Instructions[i]
			break
		}
	}
	if in == nil {
		return nil, fmt.Errorf("phase %d: no instruction of warp %d step %d", phase, p.Warp, p.Step)
	}
	d := g.Bank
	d.Phase, d.Phases, d.Warp, d.Step, d.FirstLane, d.Lanes = phase, len(r.Phases), p.Warp, p.Step, p.FirstLane, p.Lanes
	d.Wavefronts, d.Width, d.Conflicts = p.Wavefronts, in.Width, r.Conflicts()
	words := p.Words()
	for b, n := range words {
		d.Words[b] = int(n)
	}
	markPhase(g, in, p, words)
	state := "no bank conflict"
	if p.Wavefronts > 1 {
		state = fmt.Sprintf("%d-way bank conflict: %d wavefronts", p.Wavefronts, p.Wavefronts)
	}
	g.Notes = append(g.Notes, fmt.Sprintf("%s: warp %d instruction %d, lanes %d-%d (%d bytes a lane), phase %d of %d: %s; the whole access: %d wavefronts, %d beyond the ideal",
		in.Op, p.Warp, p.Step, p.FirstLane, p.FirstLane+p.Lanes-1, in.Width, phase, len(r.Phases), state, r.Wavefronts, r.Conflicts()))
	return g, nil
}

func fromBanks(smem layout.Value, bits int) (*Grid, error) {
	switch bits {
	case 1, 2, 4, 6, 8, 16, 32, 64, 128:
	default:
		return nil, fmt.Errorf("elements of %d bits: want 1, 2, 4, 6, 8, 16, 32, 64 or 128", bits)
	}
	g, err := FromLayout(smem)
	if err != nil {
		return nil, err
	}
	if g.Offsets == nil {
		return nil, fmt.Errorf("%s: a bank map needs integer offsets", g.Title)
	}
	g.Kind = KindBanks
	g.Bank = &BankData{Bits: bits, Phase: -1, Mark: make([]uint8, len(g.Offsets))}
	g.Key = make([]int64, len(g.Offsets))
	for i, off := range g.Offsets {
		if off < 0 {
			g.Key[i] = -1
			continue
		}
		b, _ := elementBank(off, bits)
		g.Key[i] = b
	}
	g.Palette = NewCycle(bank.Banks)
	g.Notes = append(g.Notes, fmt.Sprintf("%d-bit elements: bank = (offset x %d / 32) mod 32, coloured by bank", bits, bits))
	return g, nil
}

// markPhase marks the cells whose bytes the phase's lanes touch.
func markPhase(g *Grid, in *bank.Instruction, p bank.Phase, words [bank.Banks]uint8) {
	d := g.Bank
	d.CellLanes = map[int][]int{}
	// The lanes touching each 4-byte word.
	byWord := map[int64][]int{}
	for lane := p.FirstLane; lane < p.FirstLane+p.Lanes && lane < bank.WarpSize; lane++ {
		if !in.Active(lane) {
			continue
		}
		a := in.Addrs[lane]
		for w := a / 4; w <= (a+int64(in.Width)-1)/4; w++ {
			byWord[w] = append(byWord[w], lane)
		}
	}
	bits := int64(d.Bits)
	for i, off := range g.Offsets {
		if off < 0 {
			continue
		}
		lo, hi := off*bits/8, ((off+1)*bits-1)/8 // the element's bytes
		var lanes []int
		conflict := false
		for w := lo / 4; w <= hi/4; w++ {
			for _, lane := range byWord[w] {
				a := in.Addrs[lane]
				if a <= hi && lo < a+int64(in.Width) {
					lanes = append(lanes, lane)
					conflict = conflict || words[w%bank.Banks] > 1
				}
			}
		}
		if lanes == nil {
			continue
		}
		sort.Ints(lanes)
		lanes = dedup(lanes)
		d.CellLanes[i] = lanes
		d.Mark[i] = MarkTouched
		if conflict {
			d.Mark[i] = MarkConflict
		}
	}
}

func dedup(s []int) []int {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
