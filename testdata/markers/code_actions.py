# Code actions in CuTe DSL code: the value as a comment.
import cutlass.cute as cute

L = cute.make_layout((4, 8), stride=(8, 1))
# @refactor("L", "as a comment")
