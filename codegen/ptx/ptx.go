// Package ptx lowers a CuTe atom to a self-contained PTX module that
// performs it: one .entry kernel per instruction form that reads the atom's
// register arrays from global memory (each thread its own fragment, stored
// contiguously per thread), issues exactly the atom's instruction and writes
// the results back. Operands that are not registers in CuTe (shared-memory
// descriptors, tensor-memory addresses, instruction descriptors, tensor maps)
// are kernel parameters, since they cannot be built without a tile.
//
// Atoms whose PTX cannot stand alone are refused with a *Skip that says why.
package ptx

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Module is an atom lowered to PTX.
type Module struct {
	Name    string // the atom, as the catalog names it
	Target  string // sm_90a or sm_100a
	Version string // the PTX ISA version the module declares
	Threads int64  // threads that issue the atom together (CuTe's ThrID)
	// Instructions are the lines that issue the atom's instruction, one per
	// entry (TMA: one per tensor rank), as they stand in Text.
	Instructions []string
	// Vectors are the register counts the instruction's brace groups must
	// have, in operand order, per entry (for checking operand counts).
	Vectors [][]int
	Text    string
}

// Skip is an atom that is not lowered, with the reason.
type Skip struct {
	Name   string
	Reason string
}

func (s *Skip) Error() string { return fmt.Sprintf("%s is not lowered to PTX: %s", s.Name, s.Reason) }

// Lower looks an atom up by CuTe's name and lowers it.
func Lower(name string) (*Module, error) {
	a, c, err := atom.Lookup(name)
	if err != nil {
		return nil, err
	}
	if a != nil {
		return LowerMMA(a)
	}
	return LowerCopy(c)
}

// All lowers every catalogued atom: the modules, and the atoms skipped.
func All() ([]*Module, []*Skip) {
	var mods []*Module
	var skips []*Skip
	add := func(m *Module, err error) {
		if err != nil {
			if s, ok := err.(*Skip); ok {
				skips = append(skips, s)
				return
			}
			skips = append(skips, &Skip{Reason: err.Error()})
			return
		}
		mods = append(mods, m)
	}
	for i := range atom.MMAs() {
		add(LowerMMA(&atom.MMAs()[i]))
	}
	for i := range atom.Copies() {
		add(LowerCopy(&atom.Copies()[i]))
	}
	return mods, skips
}

// kernel accumulates one .entry: its parameters, register declarations and body.
type kernel struct {
	name   string
	params []string
	regs   []string // declaration lines
	body   []string
	shared []string // module-scope .shared declarations, named after the kernel
}

// smem is the name of the kernel's shared buffer (module scope, so unique per kernel).
func (k *kernel) smem(what string) string { return k.name + "_" + what }

func (k *kernel) param(typ, name string) { k.params = append(k.params, "\t.param ."+typ+" "+name) }
func (k *kernel) reg(typ string, names ...string) {
	k.regs = append(k.regs, fmt.Sprintf("\t.reg .%s %s;", typ, strings.Join(names, ", ")))
}
func (k *kernel) emit(format string, args ...any) {
	k.body = append(k.body, "\t"+fmt.Sprintf(format, args...))
}
func (k *kernel) label(l string) { k.body = append(k.body, l+":") }

func (k *kernel) text() string {
	var b strings.Builder
	for _, s := range k.shared {
		b.WriteString(s + "\n")
	}
	fmt.Fprintf(&b, ".visible .entry %s(\n%s\n)\n{\n", k.name, strings.Join(k.params, ",\n"))
	for _, r := range k.regs {
		b.WriteString(r + "\n")
	}
	b.WriteString("\n")
	for _, l := range k.body {
		b.WriteString(l + "\n")
	}
	b.WriteString("\tret;\n}\n")
	return b.String()
}

// names is prefix0 .. prefix(n-1), as PTX registers.
func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%%%s%d", prefix, i)
	}
	return out
}

func vec(regs []string) string { return "{" + strings.Join(regs, ", ") + "}" }

// fragment declares an operand's registers and loads them from the global
// array in parameter param: thread t's register i at (t*Count + i) * bytes.
func (k *kernel) fragment(prefix, param string, r atom.Registers) ([]string, error) {
	typ := r.PTXType()
	if typ == "" || r.Bits%8 != 0 {
		return nil, fmt.Errorf("no PTX register holds %s", r)
	}
	regs := names(prefix, r.Count)
	k.reg(typ, regs...)
	ptr := "%p_" + prefix
	k.reg("b64", ptr)
	bytes := r.Bits / 8
	k.emit("ld.param.u64 %s, [%s];", ptr, param)
	k.emit("cvta.to.global.u64 %s, %s;", ptr, ptr)
	k.emit("mul.wide.u32 %%off, %%t, %d;", bytes*r.Count)
	k.emit("add.s64 %s, %s, %%off;", ptr, ptr)
	return regs, nil
}

func (k *kernel) load(param, prefix string, r atom.Registers) ([]string, error) {
	regs, err := k.fragment(prefix, param, r)
	if err != nil {
		return nil, err
	}
	for i, reg := range regs {
		k.emit("ld.global.%s %s, [%%p_%s+%d];", r.PTXType(), reg, prefix, i*r.Bits/8)
	}
	return regs, nil
}

func (k *kernel) store(param, prefix string, r atom.Registers, regs []string) {
	ptr := "%p_" + prefix + "out"
	k.reg("b64", ptr)
	k.emit("ld.param.u64 %s, [%s];", ptr, param)
	k.emit("cvta.to.global.u64 %s, %s;", ptr, ptr)
	k.emit("mul.wide.u32 %%off, %%t, %d;", r.Bits/8*r.Count)
	k.emit("add.s64 %s, %s, %%off;", ptr, ptr)
	for i, reg := range regs {
		k.emit("st.global.%s [%s+%d], %s;", r.PTXType(), ptr, i*r.Bits/8, reg)
	}
}

func (k *kernel) threadIndex() {
	// %tid is the special register; the thread index lives in %t.
	k.reg("b32", "%t")
	k.reg("b64", "%off")
	k.emit("mov.u32 %%t, %%tid.x;")
}

func module(name, target, version string, threads int64, kernels []*kernel) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// CuTe atom %s, lowered by cute-lsp.\n", name)
	fmt.Fprintf(&b, "// Launch with %d threads.\n", threads)
	fmt.Fprintf(&b, ".version %s\n.target %s\n.address_size 64\n", version, target)
	for _, k := range kernels {
		b.WriteString("\n")
		b.WriteString(k.text())
	}
	return b.String()
}

func threads(l layout.Layout) (int64, error) { return l.Size() }
