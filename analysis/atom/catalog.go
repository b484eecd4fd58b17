package atom

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cute-lsp/cute-lsp/layout"
)

// mmaEntry is an MMA atom of the generated catalog (catalog_gen.go): its
// shape an index of catalogTupleStart, its layouts of catalogLayouts, its
// value types of catalogValTypes and its registers of catalogRegisters.
type mmaEntry struct {
	Name, Instantiation, PTX                   string
	ShapeMNK, ThrID, ALayout, BLayout, CLayout uint16
	ValD, ValA, ValB, ValC                     uint8
	RegD, RegA, RegB, RegC                     uint8
}

// copyEntry is a copy atom of the generated catalog, as mmaEntry.
type copyEntry struct {
	Name, PTX                              string
	ThrID, SrcLayout, DstLayout, RefLayout uint16
	RegS, RegD                             uint8
	PTXByRank                              []string
	NumBitsPerTMA                          int64
}

// keyedIndex is an atom's key (Key of its name) and its index in
// catalogMMAs or catalogCopies: the generated catalogMMAKeys and
// catalogCopyKeys list them sorted by key.
type keyedIndex struct {
	Key   string
	Index uint16
}

// catalogBuild is the catalog's atoms as far as they have been asked for:
// each atom is built from its generated entry on its first look-up, and
// each distinct tuple and layout once, shared by the atoms that have it.
// Lint looks up a handful of the 1,549 atoms; building them all at its
// first look-up took 0.6 ms of CPU and 1.1 MB of fresh memory (memory the
// kernel zeroes), and computing every name's key for the look-up maps a
// third as much again. The zero catalogBuild is ready; it is safe for
// concurrent use (lint's workers look atoms up in parallel).
type catalogBuild struct {
	mmas   [len(catalogMMAs)]atomic.Pointer[MMA]
	copies [len(catalogCopies)]atomic.Pointer[Copy]

	mu                    sync.Mutex        // held while an atom is built
	tuples                []layout.IntTuple // by index of catalogTupleStart, once decoded (tupleDone)
	layouts               []layout.Layout   // by index of catalogLayouts, once built (layoutDone)
	tupleDone, layoutDone []bool
}

// built is the process's catalog.
var built catalogBuild

// mmaIndex is the index in catalogMMAs of the MMA atom whose key is k.
func mmaIndex(k string) (int, bool) { return keyIndex(catalogMMAKeys[:], k) }

// copyIndex is the index in catalogCopies of the copy atom whose key is k.
func copyIndex(k string) (int, bool) { return keyIndex(catalogCopyKeys[:], k) }

func keyIndex(keys []keyedIndex, k string) (int, bool) {
	i, ok := slices.BinarySearchFunc(keys, k, func(e keyedIndex, k string) int { return strings.Compare(e.Key, k) })
	if !ok {
		return 0, false
	}
	return int(keys[i].Index), true
}

// mma is the i-th MMA atom of the catalog, built on first use: the same
// pointer for every call.
func (c *catalogBuild) mma(i int) *MMA {
	return builtOnce(&c.mmas[i], &c.mu, func() *MMA {
		e := &catalogMMAs[i]
		return &MMA{Name: e.Name, Instantiation: e.Instantiation, ShapeMNK: c.tuple(e.ShapeMNK),
			ThrID: c.layout(e.ThrID), ALayout: c.layout(e.ALayout), BLayout: c.layout(e.BLayout), CLayout: c.layout(e.CLayout),
			ValD: catalogValTypes[e.ValD], ValA: catalogValTypes[e.ValA], ValB: catalogValTypes[e.ValB], ValC: catalogValTypes[e.ValC],
			RegD: catalogRegisters[e.RegD], RegA: catalogRegisters[e.RegA], RegB: catalogRegisters[e.RegB], RegC: catalogRegisters[e.RegC],
			PTX: e.PTX}
	})
}

// copy is the i-th copy atom of the catalog, built on first use, as mma.
func (c *catalogBuild) copy(i int) *Copy {
	return builtOnce(&c.copies[i], &c.mu, func() *Copy {
		e := &catalogCopies[i]
		return &Copy{Name: e.Name, ThrID: c.layout(e.ThrID), SrcLayout: c.layout(e.SrcLayout), DstLayout: c.layout(e.DstLayout),
			RefLayout: c.layout(e.RefLayout), RegS: catalogRegisters[e.RegS], RegD: catalogRegisters[e.RegD],
			PTX: e.PTX, PTXByRank: e.PTXByRank, NumBitsPerTMA: e.NumBitsPerTMA}
	})
}

// builtOnce is *p, built by build under mu the first time it is asked
// for: every caller gets the same pointer, and a caller that finds it
// built takes no lock.
func builtOnce[T any](p *atomic.Pointer[T], mu *sync.Mutex, build func() *T) *T {
	if a := p.Load(); a != nil {
		return a
	}
	mu.Lock()
	defer mu.Unlock()
	if a := p.Load(); a != nil {
		return a
	}
	a := build()
	p.Store(a)
	return a
}

// tuple is the i-th tuple of catalogTupleStart, decoded once; c.mu is held.
func (c *catalogBuild) tuple(i uint16) layout.IntTuple {
	if c.tupleDone == nil {
		c.tuples = make([]layout.IntTuple, len(catalogTupleStart))
		c.tupleDone = make([]bool, len(catalogTupleStart))
	}
	if !c.tupleDone[i] {
		c.tuples[i], _ = tupleAt(catalogTupleCode[catalogTupleStart[i]:])
		c.tupleDone[i] = true
	}
	return c.tuples[i]
}

// layout is the i-th layout of catalogLayouts, built once; c.mu is held.
func (c *catalogBuild) layout(i uint16) layout.Layout {
	if c.layoutDone == nil {
		c.layouts = make([]layout.Layout, len(catalogLayouts))
		c.layoutDone = make([]bool, len(catalogLayouts))
	}
	if !c.layoutDone[i] {
		l := catalogLayouts[i]
		c.layouts[i] = layout.Make(c.tuple(l[0]), c.tuple(l[1]))
		c.layoutDone[i] = true
	}
	return c.layouts[i]
}

// tupleAt reads the tuple that code starts with (the generator's
// tupleCode: v<<2 | tag, tag 0 a static integer, 1 a run-time one, 2 a
// tuple of v elements that follow) and returns the code after it.
func tupleAt(code []int64) (layout.IntTuple, []int64) {
	x := code[0]
	code = code[1:]
	switch x & 3 {
	case 0:
		return layout.Int(x >> 2), code
	case 1:
		return layout.Dyn(x >> 2), code
	}
	elems := make([]layout.IntTuple, x>>2)
	for i := range elems {
		elems[i], code = tupleAt(code)
	}
	return layout.Tup(elems...), code
}
