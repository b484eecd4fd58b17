package hover

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/analysis/bank"
)

// maxInstructionRows bounds the per-instruction lines of a bank report.
const maxInstructionRows = 16

// bankReport renders what a bank operation found: the access, per
// instruction the wavefronts against the ideal, and the worst phase's words
// per bank.
func bankReport(v analysis.BankValue) string {
	var b strings.Builder
	r, a := v.Report, v.Access
	op := a.Op.String()
	if a.Op.IsMatrix() {
		op += fmt.Sprintf(".x%d", a.Matrices)
		if a.Trans {
			op += ".trans"
		}
	}
	fmt.Fprintf(&b, "%s: %s, %d-bit elements, %d warp(s) x %d instruction(s) of %d bytes per lane (%d of %d value elements contiguous)\n\n",
		v.Quantity, op, a.ElemBits, r.Warps, r.PerWarp, r.VectorBytes, r.ContiguousElems, r.ValueElems)
	if r.Conflicts() == 0 {
		fmt.Fprintf(&b, "%d wavefronts, the ideal: no bank conflict\n", r.Wavefronts)
	} else {
		fmt.Fprintf(&b, "%s\n", analysis.ConflictSummary(r))
	}
	for _, f := range r.Findings {
		if f.Code == bank.FindingVectorWidth {
			fmt.Fprintf(&b, "\n**%s:** %s\n", f.Code, f.Message)
		}
	}
	b.WriteString("\n```text\nwarp instr  wavefronts / ideal\n")
	rows := 0
	for i := 0; i < len(r.Phases); {
		p := r.Phases[i]
		w, ideal := 0, 0
		for ; i < len(r.Phases) && r.Phases[i].Warp == p.Warp && r.Phases[i].Step == p.Step; i++ {
			w += r.Phases[i].Wavefronts
			ideal++
		}
		if rows == maxInstructionRows {
			fmt.Fprintf(&b, "... (%d instructions in all)\n", len(r.Instructions))
			break
		}
		rows++
		mark := ""
		if w > ideal {
			mark = "  conflict"
		}
		fmt.Fprintf(&b, "%4d %5d  %10d / %d%s\n", p.Warp, p.Step, w, ideal, mark)
	}
	b.WriteString("```\n")
	if w := analysis.WorstPhase(r); w != nil && w.Wavefronts > 1 {
		fmt.Fprintf(&b, "\nworst phase: warp %d instruction %d, lanes %d-%d, %d wavefronts (%s); distinct words per bank:\n", w.Warp, w.Step, w.FirstLane, w.FirstLane+w.Lanes-1, w.Wavefronts, analysis.WorstBanks(w))
		b.WriteString("\n```text\n")
		words := w.Words()
		for half := 0; half < bank.Banks; half += 16 {
			b.WriteString("bank ")
			for k := half; k < half+16; k++ {
				fmt.Fprintf(&b, "%3d", k)
			}
			b.WriteString("\nwords")
			for k := half; k < half+16; k++ {
				fmt.Fprintf(&b, "%3d", words[k])
			}
			b.WriteString("\n")
		}
		b.WriteString("```\n")
	}
	return b.String()
}

// maxCandidateRows bounds the alternatives an advice hover lists.
const maxCandidateRows = 6

// adviceText renders swizzle_advice's advice: what it changes, the access
// before and after, and the other conflict-free layouts.
func adviceText(v analysis.AdviceValue) string {
	var b strings.Builder
	adv := v.Advice
	fmt.Fprintf(&b, "%s\n\n", adv.Summary())
	fmt.Fprintf(&b, "given: `%v`, %s\n", adv.Access.Smem, analysis.ConflictSummary(adv.Before))
	if len(adv.Candidates) > 1 {
		b.WriteString("\nconflict-free alternatives, best first:\n\n")
		for i, c := range adv.Candidates {
			if i == maxCandidateRows {
				fmt.Fprintf(&b, "- ... (%d in all)\n", len(adv.Candidates))
				break
			}
			note := ""
			if c.Canonical {
				note = " (CuTe's shared-memory atom)"
			}
			fmt.Fprintf(&b, "- `%s`%s\n", c.String(), note)
		}
	}
	return b.String()
}
