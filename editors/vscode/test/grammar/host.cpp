// SYNTAX TEST "source.cpp" "descriptors in C++ comments"
// smem tile: (_8,_64):(_64,_1)
//            ^^^^^^^^^^^^^^^^^ comment.line.double-slash.cpp meta.embedded.descriptor.cute
//             ^^ constant.numeric.integer.static.cute
//                    ^ keyword.operator.layout.cute
// swizzled: Sw<3,4,3> o _0 o (8,64):(64,1) done
//           ^^ meta.embedded.descriptor.cute entity.name.type.swizzle.cute
//                     ^ keyword.operator.composition.cute
//                             ^ constant.numeric.integer.cute
//                                          ^^^^ - meta.embedded.descriptor.cute
/* block: (4,8):(1@0,1@1) */
//        ^^^^^^^^^^^^^^^ comment.block.cpp meta.embedded.descriptor.cute
//                ^^ constant.other.basis.cute
// Prose is not a descriptor: Returns (M, N): the tile sizes; a time 10:30.
//                                    ^^^^^^^ - meta.embedded.descriptor.cute
//                                                                ^^^^^ - meta.embedded.descriptor.cute
