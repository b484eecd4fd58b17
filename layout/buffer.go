package layout

// Buffer is a caller's memory for result trees. The operations called
// through a Buffer (b.Coalesce, b.Composition, ...) build their results'
// tuples in it instead of allocating them, so a loop that reuses one
// Buffer, calling Reset between rounds, allocates nothing once the buffer
// has grown to the largest round. The results share the buffer's memory:
// they stay valid until Reset. A nil *Buffer allocates each result on
// the heap, as the package's functions do.
type Buffer struct {
	nodes []IntTuple
	used  int
	tiles []tileArg // the modes of tilers read from arguments
	tUsed int
}

// NewBuffer is a Buffer with room for n IntTuple nodes (it grows as needed).
func NewBuffer(n int) *Buffer { return &Buffer{nodes: make([]IntTuple, n)} }

// Reset makes the whole buffer free again; results built in it before are
// no longer valid.
func (b *Buffer) Reset() { b.used, b.tUsed = 0, 0 }

// tuples is n IntTuples, from the buffer or, for a nil buffer or one that
// is full, from the heap. Nodes handed out again after Reset still hold
// what they held: every writer writes whole IntTuples (putInt, tupleOf),
// which costs less than clearing pointer-holding memory, a write barrier
// per word while the collector runs. A full buffer moves to a new, larger block:
// results already built keep the old one alive.
func (b *Buffer) tuples(n int) []IntTuple {
	if b == nil {
		return make([]IntTuple, n)
	}
	return carve(&b.nodes, &b.used, n, 64)
}

// carve is the next n elements of *block past *used; a block without room
// is replaced by a new one, at least twice as large (and least elements).
func carve[T any](block *[]T, used *int, n, least int) []T {
	if len(*block)-*used < n {
		*block, *used = make([]T, max(2*len(*block), n, least)), 0
	}
	s := (*block)[*used : *used+n : *used+n]
	*used += n
	return s
}

// tileArgs is n tiler modes, as tuples is n IntTuples; every writer
// writes whole tileArgs.
func (b *Buffer) tileArgs(n int) []tileArg {
	if b == nil {
		return make([]tileArg, n)
	}
	return carve(&b.tiles, &b.tUsed, n, 16)
}

// flatLayout is the layout of flat modes in b: a single mode is the
// integer layout s:d, more modes the flat tuple layout.
// In the kernels' return statements, write
//
//	if len(shape) == 1 { return Layout{Shape: Int(shape[0]), Stride: Int(stride[0])}, nil }
//	return slabLayout(b.flatSlab(shape, stride)), nil
//
// instead: a Layout returned by a call that is not inlined is copied
// through memory right after the callee's stores, which stalls (about a
// fifth of a coalesce through a Buffer).
func (b *Buffer) flatLayout(shape, stride []int64) Layout {
	if len(shape) == 1 {
		return Layout{Shape: Int(shape[0]), Stride: Int(stride[0])}
	}
	return slabLayout(b.flatSlab(shape, stride))
}

// slabLayout is the flat layout whose leaves flatSlab laid out.
func slabLayout(slab []IntTuple) Layout {
	n := len(slab) / 2
	return Layout{Shape: tupleOf(slab[:n:n]), Stride: tupleOf(slab[n:])}
}

// flatTuples is the flat tuples of shape and stride, in one block of b.
func (b *Buffer) flatTuples(shape, stride []int64) (IntTuple, IntTuple) {
	n := len(shape)
	slab := b.flatSlab(shape, stride)
	return tupleOf(slab[:n:n]), tupleOf(slab[n:])
}

// flatSlab is the leaves of the flat tuples of shape and stride, shapes
// first, in one block of b. It returns the block, not the tuples: a slice
// comes back in registers, two IntTuples through memory, and a caller
// reading them right after this function's stores waits for the stores.
func (b *Buffer) flatSlab(shape, stride []int64) []IntTuple {
	n := len(shape)
	slab := b.tuples(2 * n)
	for i := range n {
		b.putInt(&slab[i], shape[i])
		b.putInt(&slab[n+i], stride[i])
	}
	return slab
}

// makeLayoutOf is MakeLayoutOf in b.
func (b *Buffer) makeLayoutOf(ls ...Layout) Layout {
	both := b.tuples(2 * len(ls))
	shapes, strides := both[:len(ls):len(ls)], both[len(ls):]
	for i, l := range ls {
		shapes[i], strides[i] = l.Shape, l.Stride
	}
	return Layout{Shape: tupleOf(shapes), Stride: tupleOf(strides)}
}

// putInt makes the node *t, from b.tuples, the static integer v: the whole
// IntTuple for a node of the buffer (it may hold an old value), only the
// pointer-free fields for a fresh, zeroed heap node (see setInt).
func (b *Buffer) putInt(t *IntTuple, v int64) {
	if b == nil {
		setInt(t, v)
	} else {
		*t = Int(v)
	}
}
