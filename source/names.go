package source

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
