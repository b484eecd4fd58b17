// Package tiled is CuTe's TiledMMA and TiledCopy (cute/atom/mma_atom.hpp,
// cute/atom/copy_atom.hpp): an MMA or copy atom repeated over a layout of
// threads and values, the thread-value layouts that gives (get_layoutA_TV,
// get_layoutS_TV, ...) and each thread's share of a tensor (partition_A,
// partition_S, retile_S, ...).
//
// It is not layout algebra, and so not package layout: CuTe keeps these
// types in cute/atom, beside and outside layout.hpp, and builds each of them
// from the algebra's operations (logical_divide, zipped_divide, composition,
// right_inverse, raked_product, ...), which know nothing of threads. So does
// this package: every function is CuTe's definition written with package
// layout's operations, so results carry CuTe's shapes and strides, not just
// the same mapping. The atoms' traits (the layouts of SM80_16x8x16_...) are
// analysis/atom's, generated from CuTe C++; the sheet's names for these
// operations are analysis's table (ops_tv.go).
package tiled
