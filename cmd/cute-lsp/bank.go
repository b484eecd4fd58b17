package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis"
	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/layout"
)

func init() {
	commands["bank"] = command{
		summary: "shared-memory bank conflicts of an access (--smem LAYOUT --access LAYOUT --elem-bits N [--advise] [--json])",
		run:     runBank,
	}
}

// bankJSON is the --json output: W and I summed over all warp instructions.
type bankJSON struct {
	Wavefronts      int            `json:"wavefronts"`
	Ideal           int            `json:"ideal"`
	Instructions    int            `json:"instructions"`
	VectorBytes     int            `json:"vector_bytes"`
	Op              string         `json:"op"`
	Warps           int            `json:"warps"`
	PerWarp         int            `json:"per_warp"`
	ValueElems      int            `json:"value_elems"`
	ContiguousElems int            `json:"contiguous_elems"`
	Findings        []bank.Finding `json:"findings"`
	Phases          []phaseJSON    `json:"phases"`
	Advice          *adviceJSON    `json:"advice,omitempty"`
}

// adviceJSON is --advise's part of the --json output.
type adviceJSON struct {
	Already     bool            `json:"already"`      // the layout is conflict-free at the kept width
	VectorBytes int             `json:"vector_bytes"` // the width every candidate keeps
	Candidates  []candidateJSON `json:"candidates"`   // conflict-free layouts, best first
	Reason      string          `json:"reason,omitempty"`
}

type candidateJSON struct {
	Layout     string `json:"layout"`
	Canonical  bool   `json:"canonical,omitempty"`
	Pad        int64  `json:"pad,omitempty"`
	Row        int64  `json:"row,omitempty"`
	ExtraElems int64  `json:"extra_elems,omitempty"`
	Wavefronts int    `json:"wavefronts"`
	Ideal      int    `json:"ideal"`
}

type phaseJSON struct {
	Warp        int     `json:"warp"`
	Instruction int     `json:"instruction"`
	FirstLane   int     `json:"first_lane"`
	Lanes       int     `json:"lanes"`
	Paired      bool    `json:"paired,omitempty"`
	Wavefronts  int     `json:"wavefronts"`
	Banks       [32]int `json:"banks"` // distinct 4-byte words per bank
}

func runBank(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bank", flag.ContinueOnError)
	fs.SetOutput(stderr)
	smemSrc := fs.String("smem", "", "shared-memory layout (element offsets), plain or swizzled: 'Sw<3,4,3> o 0 o (8,64):(64,1)'")
	accessSrc := fs.String("access", "", "access layout (thread, value, step...) -> 1-D coordinate of the smem layout")
	elemBits := fs.Int("elem-bits", 0, "element width in bits: 4, 6, 8, 16, 32, 64 (also 1, 2, 128)")
	opName := fs.String("op", "ld", "instruction: ld, st, ldmatrix, stmatrix")
	matrices := fs.Int("matrices", 4, "ldmatrix/stmatrix matrix count: 1, 2 or 4")
	trans := fs.Bool("trans", false, "ldmatrix/stmatrix .trans")
	vectorBits := fs.Int("vector-bits", 0, "access width to ask for, in bits (0: the widest the layouts allow)")
	advise := fs.Bool("advise", false, "also advise the swizzle (or row padding) of --smem that makes the access conflict-free")
	asJSON := fs.Bool("json", false, "print JSON")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cute-lsp bank --smem LAYOUT --access LAYOUT --elem-bits N [--op ld|st|ldmatrix|stmatrix] [--matrices N] [--trans] [--vector-bits N] [--advise] [--json]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if *smemSrc == "" || *accessSrc == "" || *elemBits == 0 || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	op, err := bank.ParseOp(*opName)
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp bank: %v\n", err)
		return 2
	}
	smem, err := analysis.EvalString(*smemSrc)
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp bank: --smem: %s\n", describeEvalError(*smemSrc, err))
		return 1
	}
	accessV, err := analysis.EvalString(*accessSrc)
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp bank: --access: %s\n", describeEvalError(*accessSrc, err))
		return 1
	}
	tv, ok := accessV.(*layout.Layout)
	if !ok {
		fmt.Fprintf(stderr, "cute-lsp bank: --access: %s is not a layout\n", accessV)
		return 1
	}
	a := bank.Access{Smem: smem, TV: *tv, ElemBits: *elemBits, Op: op, Trans: *trans, VectorBits: *vectorBits}
	if op.IsMatrix() {
		a.Matrices = *matrices
	}
	r, err := bank.AnalyzeAccess(a)
	if err != nil {
		fmt.Fprintf(stderr, "cute-lsp bank: %v\n", err)
		return 1
	}
	var adv *bank.Advice
	if *advise {
		if adv, err = bank.Advise(a); err != nil {
			fmt.Fprintf(stderr, "cute-lsp bank: --advise: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		out := bankJSON{
			Wavefronts: r.Wavefronts, Ideal: r.Ideal, Instructions: len(r.Instructions), VectorBytes: r.VectorBytes,
			Op: op.String(), Warps: r.Warps, PerWarp: r.PerWarp, ValueElems: r.ValueElems, ContiguousElems: r.ContiguousElems,
			Findings: r.Findings, Phases: make([]phaseJSON, len(r.Phases)),
		}
		if out.Findings == nil {
			out.Findings = []bank.Finding{}
		}
		for i, p := range r.Phases {
			q := phaseJSON{Warp: p.Warp, Instruction: p.Step, FirstLane: p.FirstLane, Lanes: p.Lanes, Paired: p.Paired, Wavefronts: p.Wavefronts}
			for b, n := range p.Words() {
				q.Banks[b] = int(n)
			}
			out.Phases[i] = q
		}
		if adv != nil {
			out.Advice = &adviceJSON{Already: adv.Already, VectorBytes: adv.VectorBytes, Candidates: []candidateJSON{}, Reason: adv.Reason}
			for _, c := range adv.Candidates {
				out.Advice.Candidates = append(out.Advice.Candidates, candidateJSON{Layout: c.Layout.String(), Canonical: c.Canonical,
					Pad: c.Pad, Row: c.Row, ExtraElems: c.ExtraElems, Wavefronts: c.Report.Wavefronts, Ideal: c.Report.Ideal})
			}
		}
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false) // swizzles print as Sw<B,M,S>
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "cute-lsp bank: %v\n", err)
			return 1
		}
	} else {
		writeBankText(stdout, op, r)
		if adv != nil {
			writeAdviceText(stdout, adv)
		}
	}
	if len(r.Findings) > 0 {
		return 1
	}
	return 0
}

// writeBankText prints the summary, the findings and the phases that conflict.
func writeBankText(w io.Writer, op bank.Op, r *bank.Report) {
	fmt.Fprintf(w, "%s: %d warp(s) x %d instruction(s), %d bytes per lane (%d of %d value elements contiguous)\n",
		op, r.Warps, r.PerWarp, r.VectorBytes, r.ContiguousElems, r.ValueElems)
	fmt.Fprintf(w, "wavefronts %d, ideal %d", r.Wavefronts, r.Ideal)
	if r.Wavefronts == r.Ideal {
		fmt.Fprintln(w, " (no bank conflict)")
	} else {
		fmt.Fprintf(w, " (%d extra)\n", r.Wavefronts-r.Ideal)
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "%s: %s\n", f.Code, f.Message)
	}
	shown := 0
	for _, p := range r.Phases {
		if p.Wavefronts <= 1 {
			continue
		}
		if shown == 8 {
			fmt.Fprintln(w, "  ...")
			break
		}
		shown++
		var banks []string
		for b, n := range p.Words() {
			if int(n) == p.Wavefronts {
				banks = append(banks, fmt.Sprint(b))
			}
		}
		fmt.Fprintf(w, "  warp %d instruction %d lanes %d-%d: %d wavefronts (%d words in bank %s)\n",
			p.Warp, p.Step, p.FirstLane, p.FirstLane+p.Lanes-1, p.Wavefronts, p.Wavefronts, strings.Join(banks, ", "))
	}
}

// writeAdviceText prints the advice and the other conflict-free layouts.
func writeAdviceText(w io.Writer, adv *bank.Advice) {
	fmt.Fprintf(w, "advice: %s\n", adv.Summary())
	for i, c := range adv.Candidates {
		if i == 0 {
			continue
		}
		if i == 1 {
			fmt.Fprintln(w, "also conflict-free:")
		}
		note := ""
		if c.Canonical {
			note = " (CuTe's shared-memory atom)"
		}
		fmt.Fprintf(w, "  %s%s\n", c.String(), note)
	}
}
