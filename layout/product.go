package layout

import "fmt"

// Products: CuTe's logical_product, its rearrangements (zipped_, tiled_,
// flat_product) and the rank-sensitive blocked_ and raked_product.

// LogicalProduct is CuTe's logical_product(A, T): the block A repeated as T
// says. For a layout tiler B,
//
//	logical_product(A, B) == make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
//
// so mode 0 is A itself and mode 1 lays copies of A out as B, in the
// offsets A leaves free. A Tiler (or tuple shape) multiplies mode by mode,
// "_" leaving a mode alone, modes past the tiler's rank kept as they are.
// Each step of the definition is that operation's one body, the complement
// held on the stack: only the result is allocated. A failure is worded as
// its step's.
func LogicalProduct(a *Layout, tiler Value) (*Layout, error) {
	const op = "logical_product"
	b, ok := tiler.(*Layout)
	if !ok { // a tiler, a shape or "_": by mode
		r, err := productByTiler(*a, tiler)
		return r.boxed(), err
	}
	var ab [flatInline + 1]mode // A's modes, then their complement's (one more)
	var bb [flatInline]mode
	var tb, atb bases
	am, err := leafModes(op, a, ab[:0], &atb)
	if err != nil && !congruent(&a.Shape, &a.Stride) {
		return nil, err // CheckCongruent's error, as every product of an incongruent A says it
	}
	for i := 0; i < len(am) && err == nil; i++ {
		if !am[i].s.plain() {
			err = CheckIntLeaf(op, am[i].s.leaf(&atb))
		}
	}
	if err != nil {
		return nil, InOp(op, fmt.Sprintf("size(%v)", *a), err)
	}
	sa := numInt(1, true) // CuTe's product(shape), from a static 1
	for _, x := range am {
		if p, ok := mulSmall(sa, x.s); ok {
			sa = p
		} else if sa, err = mulAny(op, sa, x.s); err != nil {
			return nil, InOp(op, fmt.Sprintf("size(%v)", *a), err)
		}
	}
	bm, err := leafModes(op, b, bb[:0], &tb)
	if err == nil {
		err = checkInts(op, bm, &tb, false)
	}
	var cb num
	if err == nil {
		cb, err = cosize(op, bm)
	}
	if err != nil {
		return nil, InOp(op, fmt.Sprintf("cosize(%v)", *b), err)
	}
	n, err := mul(op, sa, cb)
	if err != nil {
		return nil, Errorf(op, CondOverflow, "size(%v)*cosize(%v) = %d*%d overflows int64", *a, *b, sa.v, cb.v)
	}
	r, err := complement(a, am, &atb, []mode{{s: n}}, IntTuple{}, am[:0]) // A's modes, walked once, overwritten
	if err != nil {
		return nil, InOp(op, fmt.Sprintf("complement(%v, %d)", *a, n.v), err)
	}
	// coalesce_x of the complement, which is coalesced already (bw_coalesce
	// of its own result changes nothing): only a last mode of static size 1
	// differs, in place; a failure words the complement anew.
	if r[len(r)-1].s.is(1) {
		if r, err = coalesceX(op, r); err != nil {
			return nil, productCompositionError(*a, n, *b, err)
		}
	}
	c := composer{am: r}
	// The result's top level, (A, A o B) shapes then strides, at the end of A o B's block.
	rep, top, err := c.composeModes(bm, &tb, &b.Shape, 4)
	if err != nil {
		return nil, productCompositionError(*a, n, *b, err)
	}
	top[0], top[1], top[2], top[3] = a.Shape, rep.Shape, a.Stride, rep.Stride
	rep.Shape, rep.Stride = tupleOf(top[:2:2]), tupleOf(top[2:]) // A o B's block, now the product's
	return rep, nil
}

// productByTiler is LogicalProduct(a, T) of a tiler T that is no layout.
func productByTiler(a Layout, tiler Value) (Layout, error) {
	const op = "logical_product"
	if err := CheckCongruent(op, a.Shape, a.Stride); err != nil {
		return Layout{}, err
	}
	t, err := toTileArg(op, tiler)
	if err != nil {
		return Layout{}, err
	}
	return logicalProduct(a, t)
}

func logicalProduct(a Layout, t tileArg) (Layout, error) {
	const op = "logical_product"
	switch t.kind {
	case tileSkip:
		return a, nil
	case tileTuple:
		return byMode(op, CondProductTooManyModes, a, t, logicalProduct)
	}
	return Deref(LogicalProduct(&a, Box(t.layout))) // the Value the mode was read from, or a shared small one: rarely a new box
}

// ZippedProduct is CuTe's zipped_product(A, T) == tile_unzip(logical_product(A, T), T):
// ((BLOCK...),(REPEAT...)).
func ZippedProduct(a Layout, tiler Value) (Layout, error) {
	const op = "zipped_product"
	t, err := toTileArg(op, tiler)
	if err != nil {
		return Layout{}, err
	}
	return zippedProduct(op, a, t)
}

func zippedProduct(op string, a Layout, t tileArg) (Layout, error) {
	if err := CheckCongruent(op, a.Shape, a.Stride); err != nil {
		return Layout{}, err
	}
	p, err := logicalProduct(a, t)
	if err != nil {
		return Layout{}, InOp(op, "", err)
	}
	return tileUnzip(op, p, t)
}

// TiledProduct is CuTe's tiled_product(A, T): zipped_product with the repeat
// mode unpacked, ((BLOCK...), r0, r1, ...); a repeat mode of rank 1 stays whole.
func TiledProduct(a Layout, tiler Value) (Layout, error) {
	return unpacked("tiled_product", a, tiler, zippedProduct, false)
}

// FlatProduct is CuTe's flat_product(A, T): zipped_product with both modes
// unpacked, (b0, b1, ..., r0, r1, ...); a mode of rank 1 stays whole.
func FlatProduct(a Layout, tiler Value) (Layout, error) {
	return unpacked("flat_product", a, tiler, zippedProduct, true)
}

// BlockedProduct is CuTe's blocked_product(A, B): with R = max(rank(A), rank(B))
// and both padded to rank R with 1:0 modes (append<R>),
//
//	blocked_product(A, B) == zip(P0, P1) where (P0, P1) = logical_product(append<R>(A), append<R>(B))
//
// so mode i is (A_i, B_i): the block varies fastest, then the repetition.
// RakedProduct is the same modes the other way round.
func BlockedProduct(a, b Layout) (Layout, error) {
	return rankedProduct("blocked_product", a, b, false)
}

// RakedProduct is CuTe's raked_product(A, B):
//
//	raked_product(A, B) == zip(P1, P0) where (P0, P1) = logical_product(append<R>(A), append<R>(B))
//
// the same function set as BlockedProduct with each mode's (block, repeat)
// swapped to (repeat, block): copies of the block are interleaved.
func RakedProduct(a, b Layout) (Layout, error) {
	return rankedProduct("raked_product", a, b, true)
}

func rankedProduct(op string, a, b Layout, raked bool) (Layout, error) {
	for _, l := range []Layout{a, b} {
		if err := CheckCongruent(op, l.Shape, l.Stride); err != nil {
			return Layout{}, err
		}
	}
	r := max(a.Rank(), b.Rank())
	pa, err := AppendN(a, r, PadLayout)
	if err != nil {
		return Layout{}, InOp(op, "", err)
	}
	pb, err := AppendN(b, r, PadLayout)
	if err != nil {
		return Layout{}, InOp(op, "", err)
	}
	p, err := logicalProduct(pa, tileArg{kind: tileLayout, layout: pb})
	if err != nil {
		return Layout{}, InOp(op, "", err)
	}
	first, second := modeAt(p, 0), modeAt(p, 1)
	if raked {
		first, second = second, first
	}
	return zipLayouts(op, first, second)
}

// productCompositionError is LogicalProduct's failure in its last step, composition(complement(A, n), B).
func productCompositionError(a Layout, n num, b Layout, err error) error {
	rest, _ := Deref(ComplementTo(&a, n.leaf(nil)))
	return InOp("logical_product", fmt.Sprintf("composition(%v, %v)", rest, b), err)
}
