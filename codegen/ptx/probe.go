package ptx

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
)

// A Probe is a device program that shows which element each (thread, value)
// of an atom's operand holds on the hardware, independently of CuTe's
// layouts: its inputs carry codes that name physical places (a thread's
// register half, a byte of a shared-memory row, a digit of m + 64n), and
// Observe turns the raw outputs into those codes. CheckObserved then holds
// the codes against the atom's thread-value layouts as they stand today, so
// what the hardware did is recorded once (testdata/ptx/probed.tsv) and
// checked again by every test run.
//
// Operands probed:
//   - ldmatrix: "D", observed[t*W+j] is the code s*8+p of the b16 that
//     thread t's destination half j received, s being the thread whose row
//     address it came from and p its position in the row (W halves).
//   - stmatrix: "D", observed[s*8+p] is the code t*W+j of the source
//     register half stored at position p of thread s's row, -1 where nothing
//     was stored.
//   - cp.async: "D", observed[p] is the source byte that destination byte p holds.
//   - wgmma: "C", observed[t*V+v] is accumulator value v of thread t, with
//     A and B chosen so that D(m,n) = m + 64n; "A" (register-sourced A),
//     observed[t*V+v] is 1 + the code tA*VA+vA of the A register value that
//     reached D(m,n) through an identity B, 0 where n >= K.
type Probe struct {
	Atom     string // the atom, as the catalog names it
	Operand  string // "D" (copies), "C" or "A" (wgmma)
	Majors   string // wgmma: the majors of A and B ("K,K", "MN,K", ...); empty otherwise
	Entry    string // the kernel to launch, with parameters (in, out)
	Threads  int64  // threads of the one block launched
	Target   string
	Text     string   // the PTX module
	Inputs   [][]byte // the input buffer of each run
	OutBytes int      // the output buffer of each run
}

// Key names the probe in the recorded results.
func (p *Probe) Key() string { return p.Atom + "\t" + p.Operand + "\t" + p.Majors }

// probeGMMA are the wgmma atoms probed: every input type, both majors where
// the instruction allows a transpose (16-bit inputs), register-sourced A, and
// a spread of N. f16 accumulators hold integers exactly only below 2048, so
// their C probes keep 64N within it (N <= 32).
var probeGMMA = []struct{ name, majors, operand string }{
	{"SM90_64x8x16_F16F16F16_SS", "K,K", "C"},
	{"SM90_64x32x16_F16F16F16_SS", "MN,MN", "C"},
	{"SM90_64x16x16_F32F16F16_SS", "K,K", "C"},
	{"SM90_64x16x16_F32F16F16_SS", "MN,MN", "C"},
	{"SM90_64x24x16_F32F16F16_SS", "MN,K", "C"},
	{"SM90_64x64x16_F32F16F16_SS", "K,MN", "C"},
	{"SM90_64x256x16_F32F16F16_SS", "K,K", "C"},
	{"SM90_64x8x16_F32BF16BF16_SS", "K,K", "C"},
	{"SM90_64x40x16_F32BF16BF16_SS", "K,K", "C"},
	{"SM90_64x128x16_F32BF16BF16_SS", "MN,MN", "C"},
	{"SM90_64x192x16_F32BF16BF16_SS", "MN,K", "C"},
	{"SM90_64x8x8_F32TF32TF32_SS_TN", "K,K", "C"},
	{"SM90_64x64x8_F32TF32TF32_SS_TN", "K,K", "C"},
	{"SM90_64x200x8_F32TF32TF32_SS_TN", "K,K", "C"},
	{"SM90_64x8x32_F32E4M3E4M3_SS_TN", "K,K", "C"},
	{"SM90_64x16x32_F16E4M3E4M3_SS_TN", "K,K", "C"},
	{"SM90_64x96x32_F32E4M3E4M3_SS_TN", "K,K", "C"},
	{"SM90_64x32x32_F32E5M2E4M3_SS_TN", "K,K", "C"},
	{"SM90_64x24x32_F16E5M2E5M2_SS_TN", "K,K", "C"},
	{"SM90_64x16x32_S32S8S8_SS_TN", "K,K", "C"},
	{"SM90_64x64x32_S32U8U8_SS_TN", "K,K", "C"},
	{"SM90_64x8x32_S32S8U8_SS_TN", "K,K", "C"},
	{"SM90_64x16x16_F16F16F16_RS", "K,K", "A"},
	{"SM90_64x64x16_F32F16F16_RS", "K,MN", "A"},
	{"SM90_64x96x16_F16F16F16_RS", "K,MN", "A"},
	{"SM90_64x256x16_F32F16F16_RS", "K,K", "A"},
	{"SM90_64x32x16_F32BF16BF16_RS", "K,K", "A"},
	{"SM90_64x8x8_F32TF32TF32_RS_TN", "K,K", "A"},
	{"SM90_64x32x8_F32TF32TF32_RS_TN", "K,K", "A"},
	{"SM90_64x32x32_F32E4M3E4M3_RS_TN", "K,K", "A"},
	{"SM90_64x48x32_F16E4M3E5M2_RS_TN", "K,K", "A"},
	{"SM90_64x32x32_S32S8S8_RS_TN", "K,K", "A"},
	{"SM90_64x32x32_S32U8S8_RS_TN", "K,K", "A"},
}

// Probes builds every probe: all ldmatrix, stmatrix and cp.async atoms of
// the catalog, and the wgmma atoms of probeGMMA.
func Probes() ([]*Probe, error) {
	var out []*Probe
	for i := range atom.Copies() {
		c := &atom.Copies()[i]
		var p *Probe
		var err error
		switch {
		case strings.HasPrefix(c.PTX, "ldmatrix."):
			p, err = ldmatrixProbe(c)
		case strings.HasPrefix(c.PTX, "stmatrix."):
			p, err = stmatrixProbe(c)
		case cpAsync(c):
			p, err = cpAsyncProbe(c)
		case universal(c):
			p, err = universalProbe(c)
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	for _, g := range probeGMMA {
		a, err := atom.LookupMMA(g.name)
		if err != nil {
			return nil, err
		}
		p, err := gmmaProbe(a, g.majors, g.operand)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// halves is the number of 16-bit halves in a register array.
func halves(r atom.Registers) int { return r.Count * r.Bits / 16 }

// ldmatrixProbe runs the lowered module itself (rows staged from in, the
// ldmatrix, the destination registers stored to out) with row s, position p
// holding the b16 code s*8+p.
func ldmatrixProbe(c *atom.Copy) (*Probe, error) {
	m, err := LowerCopy(c)
	if err != nil {
		return nil, err
	}
	in := make([]byte, 32*16)
	for i := range 32 * 8 {
		putU16(in[2*i:], uint16(i))
	}
	return &Probe{
		Atom: c.Name, Operand: "D", Entry: "cute_copy", Threads: 32, Target: m.Target, Text: m.Text,
		Inputs: [][]byte{in}, OutBytes: 32 * c.RegD.Count * c.RegD.Bits / 8,
	}, nil
}

// stmatrixProbe stores registers whose halves hold t*W+j into rows
// prefilled with 0xffff, so rows no thread's address named stay marked.
func stmatrixProbe(c *atom.Copy) (*Probe, error) {
	if c.RegS.PTXType() != "b32" {
		return nil, fmt.Errorf("%s: expected 32-bit source registers, have %s", c.Name, c.RegS)
	}
	k := &kernel{name: "cute_probe"}
	k.param("u64", "param_in")
	k.param("u64", "param_out")
	k.threadIndex()
	k.threadRow(32, 16)
	k.reg("b32", "%row0", "%row1", "%row2", "%row3")
	for i := range 4 {
		k.emit("mov.b32 %%row%d, -1;", i)
	}
	k.emit("st.shared.v4.b32 [%%smem_row], {%%row0, %%row1, %%row2, %%row3};")
	k.emit("bar.sync 0;")
	rs, err := k.load("param_in", "s", c.RegS)
	if err != nil {
		return nil, err
	}
	k.emit("%s [%%smem_row], %s;", c.PTX, vec(rs))
	k.emit("bar.sync 0;")
	k.globalRow("%g_out", "param_out", 16)
	k.copyRow("%smem_row", "shared", "%g_out", "global")
	w := halves(c.RegS)
	in := make([]byte, 32*w*2)
	for i := range 32 * w {
		putU16(in[2*i:], uint16(i))
	}
	return &Probe{
		Atom: c.Name, Operand: "D", Entry: "cute_probe", Threads: 32, Target: "sm_90a",
		Text:   module(c.Name+" (stmatrix probe)", "sm_90a", "8.0", 32, []*kernel{k}),
		Inputs: [][]byte{in}, OutBytes: 32 * 16,
	}, nil
}

// cpAsyncBias marks the probed bytes, so that a byte the copy did not
// write is unlikely to read as a valid code.
const cpAsyncBias = 0x40

// cpAsyncProbe runs the lowered module (one thread: cp.async of its element
// into its shared row, wait, the row back out) on bytes cpAsyncBias+i.
func cpAsyncProbe(c *atom.Copy) (*Probe, error) {
	m, err := LowerCopy(c)
	if err != nil {
		return nil, err
	}
	n := c.RegS.Bits / 8
	in := make([]byte, n)
	for i := range in {
		in[i] = byte(cpAsyncBias + i)
	}
	return &Probe{
		Atom: c.Name, Operand: "D", Entry: "cute_copy", Threads: m.Threads, Target: m.Target, Text: m.Text,
		Inputs: [][]byte{in}, OutBytes: 16 * int(m.Threads),
	}, nil
}

// universal reports a copy CuTe writes as one C++ assignment of a
// register-sized integer (UniversalCopy<uintN_t>), which the compiler makes
// a single load and store of N bits.
func universal(c *atom.Copy) bool {
	return c.PTX == "" && strings.HasPrefix(c.Name, "UniversalCopy<") && c.RegS == c.RegD && c.RegS.Count == 1
}

// universalProbe is the plain copy the compiler makes of UniversalCopy: one
// thread loads its element from in with the widest single access (a
// vector of two 64-bit words for 128 bits), stores it to its shared row
// (prefilled with 0xff) and copies the row to out. Bytes as cpAsyncProbe.
func universalProbe(c *atom.Copy) (*Probe, error) {
	bits := c.RegS.Bits
	if bits < 8 || bits > 128 || bits&(bits-1) != 0 {
		return nil, fmt.Errorf("%s: no single access moves %d bits", c.Name, bits)
	}
	k := &kernel{name: "cute_probe"}
	k.param("u64", "param_in")
	k.param("u64", "param_out")
	k.threadIndex()
	k.threadRow(1, 16)
	k.reg("b32", "%row0", "%row1", "%row2", "%row3")
	for i := range 4 {
		k.emit("mov.b32 %%row%d, -1;", i)
	}
	k.emit("st.shared.v4.b32 [%%smem_row], {%%row0, %%row1, %%row2, %%row3};")
	k.globalRow("%g_in", "param_in", bits/8)
	switch bits {
	case 128:
		k.reg("b64", "%v0", "%v1")
		k.emit("ld.global.v2.b64 {%%v0, %%v1}, [%%g_in];")
		k.emit("st.shared.v2.b64 [%%smem_row], {%%v0, %%v1};")
	case 64:
		k.reg("b64", "%v0")
		k.emit("ld.global.b64 %%v0, [%%g_in];")
		k.emit("st.shared.b64 [%%smem_row], %%v0;")
	default:
		k.reg("b32", "%v0")
		k.emit("ld.global.u%d %%v0, [%%g_in];", bits)
		k.emit("st.shared.u%d [%%smem_row], %%v0;", bits)
	}
	k.globalRow("%g_out", "param_out", 16)
	k.copyRow("%smem_row", "shared", "%g_out", "global")
	in := make([]byte, bits/8)
	for i := range in {
		in[i] = byte(cpAsyncBias + i)
	}
	return &Probe{
		Atom: c.Name, Operand: "D", Entry: "cute_probe", Threads: 1, Target: "sm_90a",
		Text:   module(c.Name+" (plain copy probe)", "sm_90a", "8.0", 1, []*kernel{k}),
		Inputs: [][]byte{in}, OutBytes: 16,
	}, nil
}

func putU16(b []byte, v uint16) { b[0], b[1] = byte(v), byte(v>>8) }
