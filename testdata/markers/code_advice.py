# Coalesce advice in CuTe DSL code: a layout written with literals, coalesced in its own spelling.
import cutlass.cute as cute

L = cute.make_layout(((2, 4), 4), stride=((1, 2), 8))
# @refactor("make_layout", "Coalesce to") @refactor("make_layout", "mode by mode")
M = cute.make_layout((8, 4), stride=(4, 1))
# @refactor("make_layout", "as a comment")
