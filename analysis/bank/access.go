package bank

import (
	"fmt"
	"sync"

	"github.com/cute-lsp/cute-lsp/layout"
)

// Access is a shared-memory access written with CuTe layouts.
//
// Smem maps a 1-D coordinate to an element offset (a Layout, or a Composed
// swizzled layout). TV maps (thread, value, step...) to Smem's 1-D
// coordinate: mode 0 holds the threads, a multiple of 32, each 32 a warp;
// mode 1 the elements one thread moves in one vector access; any further
// modes are successive instructions, colexicographically (mode 2 fastest).
//
// Elements of ElemBits bits are packed as CuTe packs them: element offset e
// starts at bit e*ElemBits of the buffer (sub-byte elements share bytes;
// 6-bit elements may straddle bytes, as CuTe's subbyte_iterator stores them).
type Access struct {
	Smem     layout.Value
	TV       layout.Layout
	ElemBits int
	Op       Op
	Matrices int  // ldmatrix and stmatrix: 1, 2 or 4
	Trans    bool // ldmatrix and stmatrix .trans
	// VectorBits is the access width asked for, in bits per lane; 0 asks
	// for the widest the layouts allow. A width the layouts cannot give
	// yields a finding and the widest they can.
	VectorBits int
}

// Finding is a neutral observation about an access, for diagnostics and hover.
type Finding struct {
	Code    string `json:"code"` // stable identifier, e.g. "bank-conflict", "vector-width"
	Message string `json:"message"`
}

// Finding codes.
const (
	FindingConflict    = "bank-conflict"
	FindingVectorWidth = "vector-width"
)

// Plan is an access lowered to the warp instructions the hardware runs.
type Plan struct {
	Instructions []Instruction // warp by warp, each warp's in issue order
	Warps        int
	PerWarp      int // instructions per warp
	ValueElems   int // size of the value mode
	// ContiguousElems is the largest power of two c dividing ValueElems such
	// that every thread's value mode, cut into runs of c, is c consecutive
	// elements in memory at every step (CuTe's max_common_vector of the
	// access, measured on the offsets).
	ContiguousElems int
	VectorBytes     int // bytes per lane per instruction
	Findings        []Finding
}

var legalElemBits = map[int]bool{1: true, 2: true, 4: true, 6: true, 8: true, 16: true, 32: true, 64: true, 128: true}

// Lower computes the warp instructions of an access: the byte address of
// every lane of every instruction.
//
// Each thread's value mode is cut into runs of ContiguousElems consecutive
// elements. A run that covers whole bytes is moved with the widest legal
// access (at most 16 bytes) that divides its length and the byte address of
// every run, one instruction per piece; a run that covers part of a byte
// (4-bit or 6-bit elements) is moved with one access of the narrowest
// aligned window that holds every lane's bits.
func Lower(a Access) (*Plan, error) {
	if !legalElemBits[a.ElemBits] {
		return nil, fmt.Errorf("bank: elements of %d bits: want 1, 2, 4, 6, 8, 16, 32, 64 or 128", a.ElemBits)
	}
	switch a.Op {
	case Load, Store:
	case LdMatrix, StMatrix:
		switch a.Matrices {
		case 1, 2, 4:
		default:
			return nil, fmt.Errorf("bank: %s.x%d: the matrix count is 1, 2 or 4", a.Op, a.Matrices)
		}
	default:
		return nil, fmt.Errorf("bank: unknown op %d", a.Op)
	}
	if a.VectorBits != 0 {
		switch a.VectorBits {
		case 8, 16, 32, 64, 128:
		default:
			return nil, fmt.Errorf("bank: a %d-bit access: shared-memory accesses are 8, 16, 32, 64 or 128 bits", a.VectorBits)
		}
	}
	smem, err := compileSmem(a.Smem)
	if err != nil {
		return nil, err
	}
	thr, val, step, err := splitTV(a.TV)
	if err != nil {
		return nil, err
	}
	if thr.size%WarpSize != 0 {
		return nil, fmt.Errorf("bank: access layout %s: %d threads is not a whole number of warps of 32", a.TV, thr.size)
	}
	if thr.size > 1<<20 || val.size > 1<<20 || step.size > 1<<20 || thr.size*val.size*step.size > 1<<26 {
		return nil, fmt.Errorf("bank: access layout %s: %d threads x %d values x %d steps is too many accesses to analyze", a.TV, thr.size, val.size, step.size)
	}
	T, V, R := int(thr.size), int(val.size), int(step.size)

	// Coordinates of each mode; the access at (t, v, r) is their sum.
	tc := make([]int64, T+V+R)
	vc, rc := tc[T:T+V], tc[T+V:]
	tc = tc[:T]
	thr.table(tc, 0)
	val.table(vc, 0)
	step.table(rc, 0)

	// Each (t, r) is a run of V values. A run that provably maps to V
	// consecutive elements keeps its start alone; any other has every
	// element evaluated into offs.
	n := T * R
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	sc.starts = grow(sc.starts, n)
	sc.offs = grow(sc.offs, 0)
	if cap(sc.full) < n {
		sc.full = make([]int32, n)
	}
	sc.full = sc.full[:n]
	els := elements{starts: sc.starts, full: sc.full, V: V, top: -1}
	check := newRunCheck(&smem, &val)
	contig := V & -V // runs can be no longer than the largest power of two dividing V
	// The common tile (two leaves, powers of two, digit test by shifts,
	// swizzle shifting right or none) runs check.run inline.
	fast := check.ok && !check.one && check.pow2 && len(smem.inner.log2) == 1 && smem.shift >= 0 && !noInlineRunCheck
	var (
		mask0, d0, d1  = smem.inner.shape[0] - 1, smem.inner.stride[0], smem.inner.stride[len(smem.inner.stride)-1]
		l0             uint8
		digitMask, lim = check.shape - 1, check.shape - check.V
		size, base     = smem.inner.size, smem.offset
		blockMask, yyy = check.block - 1, smem.yyy
		swz, swzShift  = smem.swizzled, smem.shift
		digitShift     = check.shift
	)
	if len(smem.inner.log2) > 0 {
		l0 = smem.inner.log2[0]
	}
	i := 0
	for r := 0; r < R; r++ {
		for t := 0; t < T; t++ {
			c0 := tc[t] + rc[r] + vc[0]
			if fast && c0 >= 0 && c0 < size && (c0>>digitShift)&digitMask <= lim {
				y := base + (c0&mask0)*d0 + (c0>>l0)*d1
				if y >= 0 && (!swz || y&blockMask+check.V <= blockMask+1) {
					if swz {
						y ^= (y & yyy) >> swzShift
					}
					els.starts[i] = y
					els.full[i] = -1
					els.startOr |= y
					els.top = max(els.top, y+int64(V-1))
					i++
					continue
				}
			}
			if y, ok := check.run(c0); ok {
				els.starts[i] = y
				els.full[i] = -1
				els.startOr |= y
				els.top = max(els.top, y+int64(V-1))
				i++
				continue
			}
			// Evaluate the run element by element.
			els.full[i] = int32(len(sc.offs) / max(V, 1))
			for v := 0; v < V; v++ {
				o, err := smem.eval(tc[t] + rc[r] + vc[v])
				if err != nil {
					return nil, err
				}
				if v > 0 && o != sc.offs[len(sc.offs)-1]+1 {
					// A break before value v: runs must start at or before it.
					contig = min(contig, v&-v)
				}
				sc.offs = append(sc.offs, o)
				els.top = max(els.top, o)
			}
			els.starts[i] = sc.offs[len(sc.offs)-V]
			els.generic = true
			i++
		}
	}
	els.offs = sc.offs
	p := &Plan{Warps: T / WarpSize, ValueElems: V, ContiguousElems: contig}
	if err := p.build(a, &els, T, V, R); err != nil {
		return nil, err
	}
	return p, nil
}

// noInlineRunCheck turns the inline copy of runCheck.run off (tests compare
// the two).
var noInlineRunCheck bool

// scratch holds the buffers of one lowering, reused across calls.
type scratch struct {
	starts, offs []int64
	full         []int32
}

// elements is the element offset of every (thread, value, step) of an
// access: run i (thread t, step r: i = r*T + t) starts at starts[i]; when
// full[i] < 0 its values are consecutive elements, otherwise they are
// offs[full[i]*V ...].
type elements struct {
	starts, offs []int64
	full         []int32
	V            int
	startOr      int64 // the bitwise or of the starts of the consecutive runs
	top          int64 // the largest element offset
	generic      bool  // some run was evaluated element by element
}

// at is the element offset of value v of run i.
func (e *elements) at(i, v int) int64 {
	if f := e.full[i]; f >= 0 {
		return e.offs[int(f)*e.V+v]
	}
	return e.starts[i] + int64(v)
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// grow is b with length n, reallocated only when too small.
func grow(b []int64, n int) []int64 {
	if cap(b) < n {
		return make([]int64, n)
	}
	return b[:n]
}

// splitTV compiles the thread mode, the value mode and the step modes of tv.
func splitTV(tv layout.Layout) (thr, val, step flat, err error) {
	one := layout.Layout{Shape: layout.Int(1), Stride: layout.Int(0)}
	modes := []layout.Layout{tv, one}
	var rest layout.Layout
	if tv.Shape.IsTuple() {
		if tv.Shape.Len() == 0 || !tv.Stride.IsTuple() || tv.Stride.Len() != tv.Shape.Len() {
			return thr, val, step, fmt.Errorf("bank: access layout %s: want (thread, value, step...) modes", tv)
		}
		modes[0] = layout.Layout{Shape: tv.Shape.At(0), Stride: tv.Stride.At(0)}
		if tv.Shape.Len() > 1 {
			modes[1] = layout.Layout{Shape: tv.Shape.At(1), Stride: tv.Stride.At(1)}
		}
		if tv.Shape.Len() > 2 {
			rest = layout.Layout{Shape: layout.Tup(tv.Shape.Elems()[2:]...), Stride: layout.Tup(tv.Stride.Elems()[2:]...)}
		}
	}
	if rest.Shape.Len() == 0 || !rest.Shape.IsTuple() {
		rest = one
	}
	const what = "access layout"
	if thr, err = compile(modes[0], what+" thread mode"); err != nil {
		return
	}
	if val, err = compile(modes[1], what+" value mode"); err != nil {
		return
	}
	step, err = compile(rest, what+" step modes")
	return
}

// build cuts the runs into instructions.
func (p *Plan) build(a Access, els *elements, T, V, R int) error {
	b := int64(a.ElemBits)
	run := p.ContiguousElems
	runs := V / run
	runBits := int64(run) * b
	// Bit offsets could overflow only for offsets beyond 2^57 elements.
	if els.top > 1<<56 {
		return fmt.Errorf("bank: element offset %d is beyond any shared memory", els.top)
	}
	// The alignment common to every piece start: only the lowest set bit
	// of the or of the starts matters, and a consecutive run starting at y
	// has pieces at y + k*run, whose or has the lowest bit of y | run.
	startOr := els.startOr
	if runs > 1 {
		startOr |= int64(run)
	}
	if els.generic {
		for i, f := range els.full {
			if f >= 0 {
				for k := 0; k < runs; k++ {
					startOr |= els.at(i, k*run)
				}
			}
		}
	}
	startBits := startOr * b
	if runBits%8 != 0 || startBits%8 != 0 {
		return p.buildSubByte(a, els, T, V, R)
	}
	// Whole bytes: the widest power of two dividing the length and every start.
	length := runBits / 8
	g := length | startBits/8
	width := int(min(g&-g, 16))
	pieces := int(length) / width
	if a.VectorBits != 0 {
		want := a.VectorBits / 8
		switch {
		case want < width:
			pieces *= width / want
			width = want
		case want > width:
			p.Findings = append(p.Findings, Finding{Code: FindingVectorWidth, Message: vectorWidthMessage(a, p, width)})
		}
	}
	if a.Op.IsMatrix() && width != 16 {
		return fmt.Errorf("bank: %s moves 16-byte rows, but each thread's value mode gives %d-byte aligned runs (%d contiguous %d-bit element%s)", a.Op, width, p.ContiguousElems, a.ElemBits, plural(p.ContiguousElems))
	}
	p.VectorBytes = width
	p.PerWarp = R * runs * pieces
	p.Instructions = make([]Instruction, p.Warps*p.PerWarp)
	idx := 0
	for w := 0; w < p.Warps; w++ {
		for r := 0; r < R; r++ {
			for k := 0; k < runs; k++ {
				for j := 0; j < pieces; j++ {
					in := &p.Instructions[idx]
					in.Op, in.Width, in.Matrices, in.Trans = a.Op, width, a.Matrices, a.Trans
					in.Warp, in.Step = w, idx-w*p.PerWarp
					base := r*T + w*WarpSize
					piece := int64(j * width)
					if !els.generic {
						starts := els.starts[base : base+WarpSize]
						v := int64(k * run)
						for lane, y := range starts {
							in.Addrs[lane] = (y+v)*b/8 + piece
						}
					} else {
						for lane := 0; lane < WarpSize; lane++ {
							in.Addrs[lane] = els.at(base+lane, k*run)*b/8 + piece
						}
					}
					idx++
				}
			}
		}
	}
	return nil
}

// buildSubByte lowers runs that do not cover whole bytes (4-bit elements
// at odd offsets, 6-bit elements) the way CuTe's subbyte_reference reads
// them: element by element, one byte access for the byte where the element
// starts, and, for the lanes whose element straddles into the next byte, a
// second byte access (the other lanes predicated off). A second access is
// issued for a value when an element straddles in any warp; in the other
// warps it has no lane active and costs nothing.
func (p *Plan) buildSubByte(a Access, els *elements, T, V, R int) error {
	b := int64(a.ElemBits)
	if a.Op.IsMatrix() {
		return fmt.Errorf("bank: %s moves 16-byte rows, but %d-bit elements at these offsets do not fill whole bytes", a.Op, a.ElemBits)
	}
	if a.VectorBits > 8 {
		p.Findings = append(p.Findings, Finding{Code: FindingVectorWidth, Message: fmt.Sprintf(
			"%d-bit accesses asked for, but the %d-bit elements of each thread's value mode do not cover whole aligned bytes: read element by element with byte accesses, as CuTe's sub-byte references do",
			a.VectorBits, a.ElemBits)})
	}
	straddles := func(o int64) bool { return o*b%8+b > 8 }
	second := make([]bool, R*V)
	perWarp := 0
	for r := 0; r < R; r++ {
		for v := 0; v < V; v++ {
			for t := 0; t < T && !second[r*V+v]; t++ {
				second[r*V+v] = straddles(els.at(r*T+t, v))
			}
			perWarp++
			if second[r*V+v] {
				perWarp++
			}
		}
	}
	p.ContiguousElems = 1
	p.VectorBytes = 1
	p.PerWarp = perWarp
	p.Instructions = make([]Instruction, p.Warps*perWarp)
	idx := 0
	for w := 0; w < p.Warps; w++ {
		for r := 0; r < R; r++ {
			for v := 0; v < V; v++ {
				for part := 0; part < 2; part++ {
					if part == 1 && !second[r*V+v] {
						continue
					}
					in := &p.Instructions[idx]
					in.Op, in.Width = a.Op, 1
					in.Warp, in.Step = w, idx-w*perWarp
					for lane := 0; lane < WarpSize; lane++ {
						o := els.at(r*T+w*WarpSize+lane, v)
						in.Addrs[lane] = o*b/8 + int64(part)
						if part == 1 && !straddles(o) {
							in.Inactive |= 1 << lane
							in.Addrs[lane] = 0
						}
					}
					idx++
				}
			}
		}
	}
	return nil
}

func vectorWidthMessage(a Access, p *Plan, width int) string {
	runBits := p.ContiguousElems * a.ElemBits
	why := fmt.Sprintf("each thread's value mode is contiguous only in runs of %d element(s) (%d bits)", p.ContiguousElems, runBits)
	if runBits >= a.VectorBits {
		why = fmt.Sprintf("the runs of %d contiguous element(s) are aligned to only %d bytes", p.ContiguousElems, width)
	}
	return fmt.Sprintf("%d-bit accesses asked for, but %s: %d-bit accesses used", a.VectorBits, why, width*8)
}

// Report is the bank analysis of an access.
type Report struct {
	*Plan
	Cost
}

// AnalyzeAccess lowers an access and costs every warp instruction.
func AnalyzeAccess(a Access) (*Report, error) {
	p, err := Lower(a)
	if err != nil {
		return nil, err
	}
	// Lower makes only instructions the hardware accepts (legal widths,
	// aligned, non-negative addresses), so they are costed unchecked.
	c := Cost{Phases: make([]Phase, 0, phaseCount(p.Instructions))}
	for i := range p.Instructions {
		c.add(&p.Instructions[i])
	}
	if c.Wavefronts > c.Ideal {
		p.Findings = append(p.Findings, Finding{Code: FindingConflict, Message: fmt.Sprintf(
			"%d-way worst bank conflict: %d wavefronts where %d would do (%d warp instruction(s) of %d bytes per lane)",
			worstPhase(c.Phases), c.Wavefronts, c.Ideal, len(p.Instructions), p.VectorBytes)})
	}
	return &Report{Plan: p, Cost: c}, nil
}

func worstPhase(ps []Phase) int {
	w := 0
	for i := range ps {
		w = max(w, ps[i].Wavefronts)
	}
	return w
}

// plural is the "s" a count other than one takes.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
