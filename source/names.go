package source

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"sort"
)

// cppTemplates are the CuTe (and C++) names after which "<" opens a
// template argument list; after any other name it is less-than.
var cppTemplates = setOf(
	"Layout", "ComposedLayout", "Shape", "Stride", "Step", "Tile", "Coord", "tuple", "Int", "C",
	"Swizzle", "smem_ptr_flag_bits", "constant", "integral_constant", "_",
	"get", "size", "shape", "stride", "layout", "select", "take", "group", "append", "prepend",
	"replace", "upcast", "downcast", "rank", "depth", "cosize", "flatten", "make_layout",
	"make_shape", "make_stride", "make_tile", "make_coord", "make_step", "recast_layout",
	"static_cast", "const_cast", "reinterpret_cast", "bit_cast", "decltype",
	"sizeof_bits", "sizeof_bits_v", "Underscore", "E",
	// CuTe's named GMMA/UMMA atoms (GMMA::Layout_K_SW128_Atom<half_t>).
	"Layout_MN_INTER_Atom", "Layout_MN_SW32_Atom", "Layout_MN_SW64_Atom", "Layout_MN_SW128_Atom",
	"Layout_K_INTER_Atom", "Layout_K_SW32_Atom", "Layout_K_SW64_Atom", "Layout_K_SW128_Atom",
	"Layout_MN_SW128_32B_Atom",
	// CuTe's atoms and tiled atoms (MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>,
	// Copy_Atom<UniversalCopy<uint128_t>, half_t>, TiledMMA<Atom, Layout<...>>);
	// the templated ops themselves (SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,
	// SM90_64x128x16_F32F16F16_SS<...>) are recognised by their names (atomTemplate).
	"MMA_Atom", "Copy_Atom", "MMA_Traits", "Copy_Traits", "TiledMMA", "tile_size",
	"UniversalCopy", "AutoVectorizingCopyWithAssumedAlignment", "UniversalFMA",
)

// codeNames are the functions and types whose presence makes a file worth
// reading and where the reader starts an expression that is not a binding.
var codeNames = setOf(
	"Layout", "ComposedLayout", "Shape", "Stride", "Step", "Tile", "Coord", "Swizzle",
	"make_layout", "make_shape", "make_stride", "make_tile", "make_coord", "make_step",
	"make_ordered_layout", "make_layout_like", "make_identity_layout",
	"composition", "complement", "coalesce", "filter", "filter_zeros",
	"right_inverse", "left_inverse",
	"logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
	"logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product",
	"tile_to_shape", "upcast", "downcast", "recast_layout", "max_common_layout", "max_common_vector",
	"select", "take", "group", "append", "prepend", "flatten",
	"cosize", "make_composed_layout", "make_swizzle", "group_modes", "domain_distribute",
	"Layout_MN_INTER_Atom", "Layout_MN_SW32_Atom", "Layout_MN_SW64_Atom", "Layout_MN_SW128_Atom",
	"Layout_K_INTER_Atom", "Layout_K_SW32_Atom", "Layout_K_SW64_Atom", "Layout_K_SW128_Atom",
	"Layout_MN_SW128_32B_Atom",
	"MMA_Atom", "Copy_Atom", "TiledMMA", "make_tiled_mma", "make_tiled_copy", "make_tiled_copy_A",
	"make_tiled_copy_B", "make_tiled_copy_C", "make_tiled_copy_S", "make_tiled_copy_D",
	"make_tiled_copy_C_atom",
)

// atomTemplate reports whether name is one of CuTe's templated MMA or copy
// operations, after which "<" opens template arguments: the architecture's
// ops (SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, SM90_64x128x16_F32F16F16_SS<...>,
// SM100_MMA_F16BF16_SS<...>) and GMMA's own names (SM90::GMMA::MMA_64x128x16_F32F16F16_SS<...>).
func atomTemplate(name string) bool {
	digitsThen := func(s string, end byte) bool {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > 0 && i < len(s) && s[i] == end
	}
	switch {
	case len(name) > 4 && name[:2] == "SM":
		return digitsThen(name[2:], '_')
	case len(name) > 5 && name[:4] == "MMA_":
		return digitsThen(name[4:], 'x')
	}
	return false
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// CodeCandidate reports cheaply whether src may hold CuTe code: it names
// CuTe's namespace or module, or one of its layout functions or types.
// Files without any are not tokenized.
func CodeCandidate(src []byte) bool {
	return containsAny(src, "cute", "Layout", "make_", "composition", "_divide", "_product", "complement", "coalesce", "Swizzle", "Shape<", "Stride<")
}

func containsAny(src []byte, words ...string) bool {
	for _, w := range words {
		if indexOf(src, w) >= 0 {
			return true
		}
	}
	return false
}

// CodeNames are the names at which the reader starts an expression that
// is not a binding (the types and functions of CuTe whose presence makes a
// file worth reading), sorted.
func CodeNames() []string {
	out := make([]string, 0, len(codeNames))
	for n := range codeNames {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// MayCall reports whether src may call one of names: whether one of them
// is written, as a whole word, right before "(", "<" or "{" with nothing
// between but what the tokenizers skip (blanks, line ends, comments,
// preprocessor lines, line joins). It errs only on the side of true.
//
// Exactness: the parser makes a Call only of a name whose next token is
// "(", "<" (C++) or "{" (C++), and the function's Name is that name's
// last component (cute::size, cute.size: size). So a file in which no
// name of the set is followed, token-wise, by one of those three holds no
// Call of any name of the set. MayCall looks at every "(", "<" and "{" of
// the text (inside comments and strings too: that only says true more
// often) and at what precedes it, backwards over blanks and line ends:
//   - a word of names (a maximal run of identifier bytes, as the
//     tokenizers delimit names) ends there: true;
//   - a '/' or '\\' (the end of a comment, a line join) ends there, or a
//     line end was crossed and the line reached holds '#', '/' or '\\', or
//     follows a line ending in '\\' (a comment, a preprocessor line or its
//     continuation may hide the name): true;
//   - anything else (a string's quote, another word, a punctuator): that
//     opener follows no name of the set, token-wise.
//
// Blanks are every byte up to ' ', a superset of what both tokenizers skip.
//
// Speed: bytes.IndexByte jumps from opener to opener (memchr speed); each
// one costs a look at the byte before it, and a word's map look-up when a
// word ends there. CuTe's largest inline-assembly header
// (arch/mma_sm90_gmma_sparse_ext.hpp: 2.9 MB, 57,000 "(") takes 0.6 ms
// (4.9 GB/s), against 13 ms for ReadCppForLint to tokenize and read it.
func MayCall(src []byte, names *Names) bool {
	return MayCallIn(src, 0, len(src), names)
}

// MayCallIn is MayCall's test of the openers ("(", "<", "{") of
// src[from:to] alone: whether one of them may follow, token-wise, a name
// of names (looking back past from where blanks or a word lead there).
// MayCall(src) is the disjunction of MayCallIn over any partition of src
// into stretches, and of CalledAt over its openers: analysis's descriptor
// scan answers it in its own pass that way (host_calls.go), testing the
// openers of the asm statements it walks one by one as it meets them and
// the stretches between them with MayCallIn.
func MayCallIn(src []byte, from, to int, names *Names) bool {
	for _, opener := range [...]byte{'(', '<', '{'} {
		for i := from; i < to; {
			k := bytes.IndexByte(src[i:to], opener)
			if k < 0 {
				break
			}
			if o := i + k; (o == 0 || mayEndName[src[o-1]]) && calledAt(src, o, names) {
				return true
			}
			i += k + 1
		}
	}
	return false
}

// CalledAt reports whether the opener at o may follow, token-wise, a name
// of names: MayCall's test of one opener. Most openers of CuTe's asm
// statements follow a quote ("+r"(d0), "{%0, %1},") or another punctuator,
// where the answer is no at once (MayEndName: callers in a loop test it
// first, as it inlines and CalledAt does not).
func CalledAt(src []byte, o int, names *Names) bool {
	if o > 0 && !mayEndName[src[o-1]] {
		return false
	}
	return calledAt(src, o, names)
}

// MayEndName reports whether c, the byte before an opener, lets CalledAt
// look further: where it does not, CalledAt is false.
func MayEndName(c byte) bool { return mayEndName[c] }

// mayEndName holds the bytes before an opener where calledAt may say true:
// a blank or a line end (it looks further back), '/' and '\\' (a comment's
// end, a line join), and the bytes of names. Before any other, calledAt
// stops at once and says false.
var mayEndName = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c <= ' ' || c == '/' || c == '\\' || isIdentByte(byte(c))
	}
	return t
}()

// calledAt reports whether the opener at o may follow, token-wise, a name
// of names (see MayCall).
func calledAt(src []byte, o int, names *Names) bool {
	j := o - 1
	crossed := false
	for j >= 0 && src[j] <= ' ' {
		if src[j] == '\n' {
			crossed = true
		}
		j--
	}
	if j < 0 {
		return false
	}
	if c := src[j]; c == '/' || c == '\\' {
		return true
	}
	if crossed {
		// The line reached, back to its start in one pass (where
		// bytes.LastIndexByte and bytes.IndexAny took two, IndexAny's
		// with a set built at each call), eight bytes at a time.
		start := j
		for start >= 8 {
			if m := lineBytes(binary.LittleEndian.Uint64(src[start-8 : start])); m != 0 {
				start -= bits.LeadingZeros64(m) >> 3 // past the bytes after the last one found
				break
			}
			start -= 8
		}
		for ; start > 0; start-- {
			if c := lineByte[src[start-1]]; c != 0 {
				if c == lineByteEnd {
					break
				}
				return true // '#', '/' or '\\' before src[j] on its line
			}
		}
		if lineByte[src[j]] == lineByteHides {
			return true
		}
		if start >= 2 && (src[start-2] == '\\' || src[start-2] == '\r' && start >= 3 && src[start-3] == '\\') {
			return true
		}
	}
	if !isIdentByte(src[j]) {
		return false
	}
	s := j
	for s >= 8 {
		if m := notIdentBytes(binary.LittleEndian.Uint64(src[s-8 : s])); m != 0 {
			s -= bits.LeadingZeros64(m) >> 3 // the name's bytes after the last other one
			return names.Has(src[s : j+1])
		}
		s -= 8
	}
	for s > 0 && isIdentByte(src[s-1]) {
		s--
	}
	return names.Has(src[s : j+1])
}

// Eight bytes of text read as one little-endian word, tested at once:
// each range or equality test below adds to the low seven bits of every
// byte (no sum carries into the next byte), leaving the high bit of each
// byte set where the test holds, and no other bit.
const (
	byteOnes  = 0x0101010101010101
	byteLow7  = 0x7f7f7f7f7f7f7f7f
	byteHighs = 0x8080808080808080
)

// notIdentBytes has the high bit set of each byte of x that is no byte of
// a name (isIdentByte: '_', letters, digits and every byte from 0x80).
func notIdentBytes(x uint64) uint64 {
	y := x & byteLow7
	digit := (y + (0x80-'0')*byteOnes) &^ (y + (0x80-'9'-1)*byteOnes)
	folded := y | 0x20*byteOnes // 'A'-'Z' onto 'a'-'z'; nothing else lands there
	letter := (folded + (0x80-'a')*byteOnes) &^ (folded + (0x80-'z'-1)*byteOnes)
	return (notByte(x, '_') &^ (digit | letter | x)) & byteHighs
}

// notByte has the high bit set of each byte of x other than c.
func notByte(x uint64, c byte) uint64 {
	v := x ^ uint64(c)*byteOnes
	return ((v & byteLow7) + byteLow7) | v
}

// lineBytes has the high bit set of each byte of x that lineByte marks
// ('\n', '#', '/', '\\').
func lineBytes(x uint64) uint64 {
	return ^(notByte(x, '\n') & notByte(x, '#') & notByte(x, '/') & notByte(x, '\\')) & byteHighs
}

// lineByte marks the bytes calledAt looks for on the line it reaches
// backwards: its end, and those that may hide a name before the opener
// (a preprocessor line's '#', a comment's '/', a line join's '\\').
var lineByte = [256]uint8{'\n': lineByteEnd, '#': lineByteHides, '/': lineByteHides, '\\': lineByteHides}

const (
	lineByteEnd = 1 + iota
	lineByteHides
)
