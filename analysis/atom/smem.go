package atom

import (
	"fmt"
	"strings"

	"github.com/cute-lsp/cute-lsp/layout"
)

// SmemAccess is the shared-memory side of a warp-wide copy atom, in the
// form a bank-conflict analysis takes: which instruction, and which element
// of the atom's shared-memory tile each (thread, value) touches.
type SmemAccess struct {
	Op       string // "ldmatrix" or "stmatrix"
	Matrices int    // 8x8 matrices of 16-bit elements one instruction moves: 1, 2 or 4
	Trans    bool   // .trans: changes which registers receive the data, not the addresses
	// TV maps (thread, value) to the element index in the atom's
	// shared-memory tile: the atom's shared-memory side layout recast from
	// bits to elements of the width asked for. Each thread's values are the
	// one 16-byte matrix row whose address it supplies; threads past
	// 8*Matrices repeat the first ones' rows (the hardware ignores their addresses).
	TV layout.Layout
}

// SmemAccess describes the atom's shared-memory access for elements of
// elemBits bits: the source of ldmatrix, the destination of stmatrix. Other
// atoms have no warp-wide shared-memory side an atom alone fixes (cp.async
// and the universal copies are one thread each: their warp access comes from
// the tiled copy built on them; TMA moves a whole box without thread addresses).
func (c *Copy) SmemAccess(elemBits int) (*SmemAccess, error) {
	var a SmemAccess
	var side layout.Layout
	switch {
	case strings.Contains(c.Name, "_LDSM_"):
		a.Op, side = "ldmatrix", c.SrcLayout
	case strings.Contains(c.Name, "_STSM_"):
		a.Op, side = "stmatrix", c.DstLayout
	default:
		return nil, &layout.Error{Op: "smem access", Detail: fmt.Sprintf("%s has no warp-wide shared-memory access of its own: analyze the tiled copy built on it", c.Name)}
	}
	a.Trans = strings.HasSuffix(c.Name, "_T")
	switch {
	case strings.Contains(c.PTX, ".x1."):
		a.Matrices = 1
	case strings.Contains(c.PTX, ".x2."):
		a.Matrices = 2
	case strings.Contains(c.PTX, ".x4."):
		a.Matrices = 4
	default:
		return nil, &layout.Error{Op: "smem access", Detail: fmt.Sprintf("%s: no matrix count in %q", c.Name, c.PTX)}
	}
	if elemBits <= 0 || 128%elemBits != 0 {
		return nil, &layout.Error{Op: "smem access", Detail: fmt.Sprintf("%d-bit elements: a 128-bit matrix row is not a whole number of them", elemBits)}
	}
	tv, err := layout.RecastLayout(side, 1, int64(elemBits))
	if err != nil {
		return nil, err
	}
	a.TV = tv
	return &a, nil
}
