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
)

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
