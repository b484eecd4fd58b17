package ptx

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/analysis/atom"
	"github.com/cute-lsp/cute-lsp/layout"
)

// Observe turns the raw output buffers of a probe's runs into its observed
// codes (see Probe); an output that is no valid code reads as -1.
func (p *Probe) Observe(outs [][]byte) ([]int64, error) {
	if len(outs) != len(p.Inputs) {
		return nil, fmt.Errorf("%s: %d outputs for %d runs", p.Atom, len(outs), len(p.Inputs))
	}
	for _, o := range outs {
		if len(o) != p.OutBytes {
			return nil, fmt.Errorf("%s: output of %d bytes, expected %d", p.Atom, len(o), p.OutBytes)
		}
	}
	out := outs[0]
	if a, err := atom.LookupMMA(p.Atom); err == nil {
		return observeGMMA(p, a, outs), nil
	}
	c, err := atom.LookupCopy(p.Atom)
	if err != nil {
		return nil, err
	}
	var obs []int64
	switch {
	case strings.HasPrefix(c.PTX, "ldmatrix."):
		w, per := halves(c.RegD), c.RegD.Count*c.RegD.Bits/8
		for t := range 32 {
			for j := range w {
				x := int64(binary.LittleEndian.Uint16(out[t*per+2*j:]))
				if x >= 32*8 {
					x = -1
				}
				obs = append(obs, x)
			}
		}
	case strings.HasPrefix(c.PTX, "stmatrix."):
		w := halves(c.RegS)
		for i := range 32 * 8 {
			x := int64(binary.LittleEndian.Uint16(out[2*i:]))
			if x >= int64(32*w) {
				x = -1
			}
			obs = append(obs, x)
		}
	case cpAsync(c) || universal(c):
		n := c.RegS.Bits / 8
		for i := range n {
			x := int64(out[i]) - cpAsyncBias
			if x < 0 || x >= int64(n) {
				x = -1
			}
			obs = append(obs, x)
		}
	default:
		return nil, fmt.Errorf("%s: no probe for %s", p.Atom, c.PTX)
	}
	return obs, nil
}

func observeGMMA(p *Probe, a *atom.MMA, outs [][]byte) []int64 {
	per := a.RegC.Count * a.RegC.Bits / 8
	vals := per * 8 / a.ValD.Bits
	obs := make([]int64, 128*vals)
	for t := range 128 {
		for v := range vals {
			var code int64
			for r, out := range outs {
				x, ok := valueAt(out[t*per:], v, a.ValD)
				if !ok || x < 0 || (p.Operand == "A" && x > 7) {
					code = -1
					break
				}
				code |= x << (3 * r)
			}
			obs[t*vals+v] = code
		}
	}
	return obs
}

// cpAsync reports the per-thread cp.async (not its bulk and tensor forms).
func cpAsync(c *atom.Copy) bool {
	return strings.HasPrefix(c.PTX, "cp.async.ca.") || strings.HasPrefix(c.PTX, "cp.async.cg.")
}

// tv is a thread-value layout at (thread t, value v).
func tv(l layout.Layout, t, v int64) (int64, error) {
	thr, err := l.Get(0)
	if err != nil {
		return 0, err
	}
	n, err := thr.Size()
	if err != nil {
		return 0, err
	}
	return l.Eval(t + n*v)
}

// tvSize is the threads and values of a thread-value layout.
func tvSize(l layout.Layout) (threads, values int64, err error) {
	thr, err := l.Get(0)
	if err != nil {
		return 0, 0, err
	}
	threads, err = thr.Size()
	if err != nil {
		return 0, 0, err
	}
	size, err := l.Size()
	return threads, size / threads, err
}

// element16 is the b16 element of a copy's data that bits 16j..16j+15 of
// (thread t) are, checking that the layout keeps those bits together.
func element16(l layout.Layout, t, j int64) (int64, error) {
	first, err := tv(l, t, 16*j)
	if err != nil {
		return 0, err
	}
	for b := int64(1); b < 16; b++ {
		x, err := tv(l, t, 16*j+b)
		if err != nil {
			return 0, err
		}
		if x != first+b {
			return 0, fmt.Errorf("thread %d bit %d is data bit %d, not %d: the b16 element is split", t, 16*j+b, x, first+b)
		}
	}
	if first%16 != 0 {
		return 0, fmt.Errorf("thread %d half %d starts at data bit %d, not on a b16 boundary", t, j, first)
	}
	return first / 16, nil
}

// CheckObserved holds a probe's observed codes against the atom's
// thread-value layouts as the catalog has them now: nil when every
// (thread, value) holds the element CuTe's layout says it does.
func CheckObserved(atomName, operand string, obs []int64) error {
	if a, err := atom.LookupMMA(atomName); err == nil {
		return checkGMMA(a, operand, obs)
	}
	c, err := atom.LookupCopy(atomName)
	if err != nil {
		return err
	}
	return checkCopy(c, obs)
}

// checkCopy holds a copy probe's codes against c's source and destination layouts.
func checkCopy(c *atom.Copy, obs []int64) error {
	atomName := c.Name
	var bad []string
	fail := func(format string, args ...any) {
		if len(bad) < 4 {
			bad = append(bad, fmt.Sprintf(format, args...))
		}
	}
	switch {
	case strings.HasPrefix(c.PTX, "ldmatrix."):
		w := int64(halves(c.RegD))
		if len(obs) != int(32*w) {
			return fmt.Errorf("%s: %d observations, expected %d", atomName, len(obs), 32*w)
		}
		for t := int64(0); t < 32; t++ {
			for j := int64(0); j < w; j++ {
				want, err := element16(c.DstLayout, t, j)
				if err != nil {
					return fmt.Errorf("%s: DstLayout: %w", atomName, err)
				}
				code := obs[t*w+j]
				if code < 0 {
					fail("thread %d half %d received no row element", t, j)
					continue
				}
				got, err := element16(c.SrcLayout, code/8, code%8)
				if err != nil {
					return fmt.Errorf("%s: SrcLayout: %w", atomName, err)
				}
				if got != want {
					fail("thread %d half %d received thread %d's row position %d, element %d by SrcLayout; DstLayout says element %d", t, j, code/8, code%8, got, want)
				}
			}
		}
	case strings.HasPrefix(c.PTX, "stmatrix."):
		w := int64(halves(c.RegS))
		if len(obs) != 32*8 {
			return fmt.Errorf("%s: %d observations, expected %d", atomName, len(obs), 32*8)
		}
		stored := map[int64]bool{}
		from := map[int64]bool{}
		for s := int64(0); s < 32; s++ {
			for p := int64(0); p < 8; p++ {
				code := obs[s*8+p]
				if code < 0 {
					continue
				}
				want, err := element16(c.DstLayout, s, p)
				if err != nil {
					return fmt.Errorf("%s: DstLayout: %w", atomName, err)
				}
				got, err := element16(c.SrcLayout, code/w, code%w)
				if err != nil {
					return fmt.Errorf("%s: SrcLayout: %w", atomName, err)
				}
				if got != want {
					fail("thread %d's row position %d got thread %d's half %d, element %d by SrcLayout; DstLayout says element %d", s, p, code/w, code%w, got, want)
				}
				stored[want] = true
				from[code] = true
			}
		}
		if len(from) != int(32*w) {
			fail("%d of %d source halves were stored", len(from), 32*w)
		}
		// A row no address named is one DstLayout gives a stride-0 copy of a stored row.
		for s := int64(0); s < 32; s++ {
			for p := int64(0); p < 8; p++ {
				if obs[s*8+p] >= 0 {
					continue
				}
				e, err := element16(c.DstLayout, s, p)
				if err != nil {
					return fmt.Errorf("%s: DstLayout: %w", atomName, err)
				}
				if !stored[e] {
					fail("thread %d's row position %d was not stored, and DstLayout's element %d is stored nowhere", s, p, e)
				}
			}
		}
	case cpAsync(c) || universal(c):
		n := int64(c.RegS.Bits / 8)
		if len(obs) != int(n) {
			return fmt.Errorf("%s: %d observations, expected %d", atomName, len(obs), n)
		}
		for p := int64(0); p < n; p++ {
			want, err := tv(c.DstLayout, 0, 8*p)
			if err != nil {
				return err
			}
			if obs[p] < 0 {
				fail("byte %d was not copied", p)
				continue
			}
			got, err := tv(c.SrcLayout, 0, 8*obs[p])
			if err != nil {
				return err
			}
			if got != want {
				fail("byte %d holds source byte %d, data bit %d by SrcLayout; DstLayout says bit %d", p, obs[p], got, want)
			}
		}
	default:
		return fmt.Errorf("%s: no probe for %s", atomName, c.PTX)
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: %s", atomName, strings.Join(bad, "; "))
	}
	return nil
}

func checkGMMA(a *atom.MMA, operand string, obs []int64) error {
	threads, vals, err := tvSize(a.CLayout)
	if err != nil {
		return err
	}
	if len(obs) != int(threads*vals) {
		return fmt.Errorf("%s: %d observations, C has %d", a.Name, len(obs), threads*vals)
	}
	M, K := a.M(), a.K()
	var bad []string
	fail := func(format string, args ...any) {
		if len(bad) < 4 {
			bad = append(bad, fmt.Sprintf(format, args...))
		}
	}
	switch operand {
	case "C":
		for t := int64(0); t < threads; t++ {
			for v := int64(0); v < vals; v++ {
				want, err := tv(a.CLayout, t, v)
				if err != nil {
					return err
				}
				if got := obs[t*vals+v]; got != want {
					fail("thread %d value %d holds D(%d,%d); CLayout says (%d,%d)", t, v, got%M, got/M, want%M, want/M)
				}
			}
		}
	case "A":
		_, va, err := tvSize(a.ALayout)
		if err != nil {
			return err
		}
		seen := map[int64]bool{}
		for t := int64(0); t < threads; t++ {
			for v := int64(0); v < vals; v++ {
				mn, err := tv(a.CLayout, t, v)
				if err != nil {
					return err
				}
				m, n := mn%M, mn/M
				code := obs[t*vals+v] - 1
				switch {
				case n >= K && code != -1:
					fail("D(%d,%d), past K, holds A code %d", m, n, code)
				case n >= K:
				case code < 0:
					fail("D(%d,%d) holds no A value", m, n)
				default:
					ta, vA := code/va, code%va
					got, err := tv(a.ALayout, ta, vA)
					if err != nil {
						return err
					}
					if got != m+M*n {
						fail("thread %d's A value %d reached A(%d,%d); ALayout says (%d,%d)", ta, vA, m, n, got%M, got/M)
					}
					seen[code] = true
				}
			}
		}
		if len(seen) != int(threads*va) {
			fail("%d of %d A values were seen", len(seen), threads*va)
		}
	default:
		return fmt.Errorf("%s: no %s probe", a.Name, operand)
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s %s: %s", a.Name, operand, strings.Join(bad, "; "))
	}
	return nil
}
