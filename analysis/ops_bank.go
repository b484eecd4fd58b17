package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/bank"
	"github.com/cute-lsp/cute-lsp/layout"
)

// The shared-memory operations: an access is (smem, access, bits [, op]
// [, vector_bits]) as analysis/bank reads it: smem maps a 1-D coordinate to
// an element offset, access maps (thread, value, step...) to that
// coordinate, bits is the element width; op is ld (the default), st,
// ldmatrix or stmatrix, with _x1, _x2 or _x4 (x4 by default) and _trans;
// vector_bits asks for an access width. The access may also be an
// ldmatrix/stmatrix copy_atom(...): the atom fixes the instruction and its
// (thread, value) map, and smem's 1-D coordinate is then the atom's tile —
// the elements of each 16-byte row, then the rows (8 per matrix).
func applyBankConflicts(args []layout.Value) (layout.Value, error) {
	return bankOp("bank_conflicts", args, func(r *bank.Report) int64 { return int64(r.Conflicts()) })
}

func applyBankWavefronts(args []layout.Value) (layout.Value, error) {
	return bankOp("bank_wavefronts", args, func(r *bank.Report) int64 { return int64(r.Wavefronts) })
}

// bankKeywords are the instruction kinds the bank operations read: ld,
// st, and ldmatrix and stmatrix, each plain and _x1, _x2, _x4, each also
// _trans. Written out, the linker lays the list out and no init builds it.
var bankKeywords = []string{"ld", "st",
	"ldmatrix", "ldmatrix_trans", "ldmatrix_x1", "ldmatrix_x1_trans", "ldmatrix_x2", "ldmatrix_x2_trans", "ldmatrix_x4", "ldmatrix_x4_trans",
	"stmatrix", "stmatrix_trans", "stmatrix_x1", "stmatrix_x1_trans", "stmatrix_x2", "stmatrix_x2_trans", "stmatrix_x4", "stmatrix_x4_trans",
}

// BankValue is a number a bank operation computed, with the access and the
// report it comes from (hovers show the report).
type BankValue struct {
	Quantity string // "conflicts", "wavefronts" or "vector bits"
	N        int64
	Access   bank.Access
	Report   *bank.Report
}

func (v BankValue) String() string { return strconv.FormatInt(v.N, 10) }

// Plain is the number.
func (v BankValue) Plain() layout.Value { return layout.Int(v.N) }

// AdviceValue is the layout swizzle_advice advises, with the advice.
type AdviceValue struct {
	Layout layout.Value
	Advice *bank.Advice
}

func (v AdviceValue) String() string { return v.Layout.String() }

// Plain is the advised layout.
func (v AdviceValue) Plain() layout.Value { return v.Layout }

var legalElemBits = []int64{1, 2, 4, 6, 8, 16, 32, 64, 128}

// bankAccess reads the arguments of a bank operation.
func bankAccess(name string, args []layout.Value) (bank.Access, error) {
	var a bank.Access
	if len(args) < 3 || len(args) > 5 {
		return a, opArgError(name, 0, "takes (smem, access, bits [, op] [, vector_bits]): %d argument(s) given", len(args))
	}
	switch s := args[0].(type) {
	case *layout.Layout, layout.Composed:
		a.Smem = s
	default:
		return a, opArgError(name, 1, "the shared-memory layout %v is a %s, not a layout or a swizzled layout", args[0], kindOf(args[0]))
	}
	tv, isLayout := args[1].(*layout.Layout)
	atomArg, isAtom := args[1].(AtomValue)
	switch {
	case isLayout:
		a.TV = *tv
	case isAtom && atomArg.Copy != nil:
		// An ldmatrix/stmatrix atom's own warp access (set once bits are known).
	default:
		return a, opArgError(name, 2, "the access %v is a %s, not a (thread, value, step...) layout or an ldmatrix/stmatrix copy_atom", args[1], kindOf(args[1]))
	}
	bits, ok := plainInt(args[2])
	if !ok {
		return a, opArgError(name, 3, "the element width %v is a %s, not a number of bits", args[2], kindOf(args[2]))
	}
	legal := false
	for _, b := range legalElemBits {
		legal = legal || b == bits
	}
	if !legal {
		e := opArgError(name, 3, "elements of %d bits: want 1, 2, 4, 6, 8, 16, 32, 64 or 128", bits)
		e.Code = CodeAlgebra
		return a, e
	}
	a.ElemBits = int(bits)
	a.Op, a.Matrices = bank.Load, 0
	if isAtom {
		if len(args) > 3 {
			return a, opArgError(name, 4, "a copy atom fixes the instruction: give (smem, copy_atom(...), bits) only")
		}
		sa, err := atomArg.Copy.SmemAccess(int(bits))
		if err != nil {
			return a, opArgError(name, 2, "%v", strings.TrimPrefix(err.Error(), "smem access: "))
		}
		if err := readBankOp(sa.Op, &a); err != nil {
			return a, opArgError(name, 2, "%v", err)
		}
		a.TV, a.Matrices, a.Trans = sa.TV, sa.Matrices, sa.Trans
		return a, nil
	}
	var sawOp, sawWidth bool
	for i, v := range args[3:] {
		arg := i + 4
		switch v := v.(type) {
		case Keyword:
			if sawOp {
				return a, opArgError(name, arg, "a second instruction kind %s: give one of ld, st, ldmatrix_xN, stmatrix_xN", v)
			}
			sawOp = true
			if err := readBankOp(string(v), &a); err != nil {
				return a, opArgError(name, arg, "%v", err)
			}
		default:
			n, ok := plainInt(v)
			if !ok {
				return a, opArgError(name, arg, "%v is a %s: the optional arguments are an instruction kind (ld, st, ldmatrix_x4, ...) and an access width in bits", v, kindOf(v))
			}
			if sawWidth {
				return a, opArgError(name, arg, "a second access width %d", n)
			}
			sawWidth = true
			switch n {
			case 8, 16, 32, 64, 128:
			default:
				e := opArgError(name, arg, "a %d-bit access: shared-memory accesses are 8, 16, 32, 64 or 128 bits", n)
				e.Code = CodeAlgebra
				return a, e
			}
			a.VectorBits = int(n)
		}
	}
	return a, nil
}

// readBankOp reads ld, st, ldmatrix[_xN][_trans], stmatrix[_xN][_trans].
func readBankOp(s string, a *bank.Access) error {
	base, trans := strings.CutSuffix(s, "_trans")
	base, count, hasCount := strings.Cut(base, "_x")
	op, err := bank.ParseOp(base)
	if err != nil {
		return err
	}
	a.Op, a.Trans = op, trans
	if !op.IsMatrix() {
		if trans || hasCount {
			return fmt.Errorf("%s takes no matrix count or .trans", op)
		}
		return nil
	}
	a.Matrices = 4
	if hasCount {
		n, err := strconv.Atoi(count)
		if err != nil {
			return fmt.Errorf("%s: %q is not a matrix count", s, count)
		}
		a.Matrices = n
	}
	return nil
}

// plainInt is the integer of a plain integer leaf.
func plainInt(v layout.Value) (int64, bool) {
	t, ok := v.(layout.IntTuple)
	if !ok || !t.IsLeaf() || t.IsBasis() || t.IsUnknown() || t.IsUnderscore() {
		return 0, false
	}
	return t.Value(), true
}

// bankOp is the bank operation name: count of the report of its access.
func bankOp(name string, args []layout.Value, count func(*bank.Report) int64) (layout.Value, error) {
	a, err := bankAccess(name, args)
	if err != nil {
		return nil, err
	}
	r, err := bank.AnalyzeAccess(a)
	if err != nil {
		return nil, &layout.Error{Op: name, Detail: strings.TrimPrefix(err.Error(), "bank: ")}
	}
	return BankValue{Quantity: strings.TrimPrefix(name, "bank_"), N: count(r), Access: a, Report: r}, nil
}

func vectorWidth(args []layout.Value) (layout.Value, error) {
	const name = "vector_width"
	a, err := bankAccess(name, args)
	if err != nil {
		return nil, err
	}
	widest := a
	widest.VectorBits = 0
	r, err := bank.AnalyzeAccess(widest)
	if err != nil {
		return nil, &layout.Error{Op: name, Detail: strings.TrimPrefix(err.Error(), "bank: ")}
	}
	v := BankValue{Quantity: "vector bits", N: int64(r.VectorBytes) * 8, Access: a, Report: r}
	if a.VectorBits != 0 {
		// The report of the access as asked, for its vector-width finding.
		if asked, err := bank.AnalyzeAccess(a); err == nil {
			v.Report = asked
		}
	}
	return v, nil
}

func swizzleAdvice(args []layout.Value) (layout.Value, error) {
	const name = "swizzle_advice"
	a, err := bankAccess(name, args)
	if err != nil {
		return nil, err
	}
	adv, err := bank.Advise(a)
	if err != nil {
		return nil, &layout.Error{Op: name, Detail: strings.TrimPrefix(err.Error(), "bank: ")}
	}
	switch {
	case adv.Already:
		return AdviceValue{Layout: a.Smem, Advice: adv}, nil
	case adv.Best() == nil:
		return nil, &OpError{Op: name, Code: CodeNoAdvice, Message: adv.Summary()}
	}
	return AdviceValue{Layout: adv.Best().Layout, Advice: adv}, nil
}

// checkBank warns at a call whose access has bank conflicts, with the
// advised layout as a fix on the smem argument.
func checkBank(c *CallSite) []CallFinding {
	v, ok := c.Result.(BankValue)
	if !ok {
		return nil
	}
	out := vectorWidthFindings(c, v.Report)
	r := v.Report
	if r.Conflicts() == 0 {
		return out
	}
	f := CallFinding{Finding: Finding{Range: c.Call.Span(), Severity: SeverityWarning, Code: CodeBankConflict}}
	msg := "bank conflicts: " + ConflictSummary(r)
	if adv, err := bank.Advise(v.Access); err == nil {
		if b := adv.Best(); b != nil {
			msg += fmt.Sprintf("; %s removes them", b.String())
			f.Replace = &ArgReplacement{Arg: 0, Title: "Use " + b.Layout.String() + " (conflict-free)", Text: b.Layout.String()}
		} else if !adv.Already {
			msg += "; " + adv.Summary()
		}
	}
	f.Message = msg
	return append(out, f)
}

func checkVectorWidth(c *CallSite) []CallFinding {
	v, ok := c.Result.(BankValue)
	if !ok {
		return nil
	}
	return vectorWidthFindings(c, v.Report)
}

// vectorWidthFindings reports a requested width the layouts cannot give.
func vectorWidthFindings(c *CallSite, r *bank.Report) []CallFinding {
	var out []CallFinding
	for _, f := range r.Findings {
		if f.Code == bank.FindingVectorWidth {
			out = append(out, CallFinding{Finding: Finding{Range: c.Call.Span(), Severity: SeverityWarning, Code: CodeVectorWidth, Message: f.Message}})
		}
	}
	return out
}

// ConflictSummary is wavefronts against the ideal and the worst phase: its
// instruction, lanes and the banks that hold the most words.
func ConflictSummary(r *bank.Report) string {
	s := fmt.Sprintf("%d wavefronts where %d would do", r.Wavefronts, r.Ideal)
	w := WorstPhase(r)
	if w == nil || w.Wavefronts <= 1 {
		return s
	}
	return s + fmt.Sprintf(" (%d-way at worst: warp %d instruction %d, lanes %d-%d, %s)", w.Wavefronts, w.Warp, w.Step, w.FirstLane, w.FirstLane+w.Lanes-1, WorstBanks(w))
}

// WorstPhase is the first phase with the most wavefronts (nil for none).
func WorstPhase(r *bank.Report) *bank.Phase {
	var w *bank.Phase
	for i := range r.Phases {
		if w == nil || r.Phases[i].Wavefronts > w.Wavefronts {
			w = &r.Phases[i]
		}
	}
	return w
}

// WorstBanks names the banks of a phase that hold its most words: "banks
// 0-3 hold 8 words each".
func WorstBanks(p *bank.Phase) string {
	words := p.Words()
	var runs []string
	for b := 0; b < bank.Banks; b++ {
		if int(words[b]) != p.Wavefronts {
			continue
		}
		e := b
		for e+1 < bank.Banks && int(words[e+1]) == p.Wavefronts {
			e++
		}
		if e > b {
			runs = append(runs, fmt.Sprintf("%d-%d", b, e))
		} else {
			runs = append(runs, strconv.Itoa(b))
		}
		b = e
	}
	noun := "bank"
	if len(runs) > 1 || strings.Contains(strings.Join(runs, ""), "-") {
		noun = "banks"
	}
	verb := "holds"
	if noun == "banks" {
		verb = "hold"
	}
	return fmt.Sprintf("%s %s %s %d words each", noun, strings.Join(runs, ", "), verb, p.Wavefronts)
}

func (BankValue) IsValue() {} // a layout.Value

func (AdviceValue) IsValue() {} // a layout.Value
