package atom

import "github.com/cute-lsp/cute-lsp/layout"

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

// buildCatalog builds the catalog's MMA and copy atoms from the generated
// tables, each distinct tuple and layout once, shared by the atoms that
// have it. It runs when an atom is first looked up (loaded), not at start.
func buildCatalog() (mmas []MMA, copies []Copy) {
	var tuples [len(catalogTupleStart)]layout.IntTuple
	for i, start := range catalogTupleStart {
		tuples[i], _ = tupleAt(catalogTupleCode[start:])
	}
	var layouts [len(catalogLayouts)]layout.Layout
	for i, l := range catalogLayouts {
		layouts[i] = layout.Make(tuples[l[0]], tuples[l[1]])
	}
	mmas = make([]MMA, len(catalogMMAs))
	for i := range catalogMMAs {
		e := &catalogMMAs[i]
		mmas[i] = MMA{Name: e.Name, Instantiation: e.Instantiation, ShapeMNK: tuples[e.ShapeMNK],
			ThrID: layouts[e.ThrID], ALayout: layouts[e.ALayout], BLayout: layouts[e.BLayout], CLayout: layouts[e.CLayout],
			ValD: catalogValTypes[e.ValD], ValA: catalogValTypes[e.ValA], ValB: catalogValTypes[e.ValB], ValC: catalogValTypes[e.ValC],
			RegD: catalogRegisters[e.RegD], RegA: catalogRegisters[e.RegA], RegB: catalogRegisters[e.RegB], RegC: catalogRegisters[e.RegC],
			PTX: e.PTX}
	}
	copies = make([]Copy, len(catalogCopies))
	for i := range catalogCopies {
		e := &catalogCopies[i]
		copies[i] = Copy{Name: e.Name, ThrID: layouts[e.ThrID], SrcLayout: layouts[e.SrcLayout], DstLayout: layouts[e.DstLayout],
			RefLayout: layouts[e.RefLayout], RegS: catalogRegisters[e.RegS], RegD: catalogRegisters[e.RegD],
			PTX: e.PTX, PTXByRank: e.PTXByRank, NumBitsPerTMA: e.NumBitsPerTMA}
	}
	return mmas, copies
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
