# Descriptors in Python comments and strings (the CuTe DSL, pycute).
import cutlass.cute as cute

# thread layout: (32,4):(4,1)
# @hover("(32,4)")
tv = "((16,2),8):((1,1024),128)"   # @hover("((16")
bad = "(4,8):(1,(2,3))"            # @diag("(4,8)", "incongruent", "")
# Ünïcödé prose, and 😀 before a layout: (8,8):(8,1)
# @hover("(8,8)")
def kernel():  # @nodiag
    pass
# Returns (m, n): the shape.  @nodiag @hover("(m, n)")
layout = cute.make_layout((4, 8), stride=(1, 4))  # @nodiag @hover("(4, 8)")
s = "Sw<3,4,3> o 0 o (8,64):(64,1)"  # @hover("Sw")
'''Docstring: the smem layout is (8,64):(64,1) here.'''
# @hover("(8,64)")
L = cute.make_layout((4, (3, 2)), stride=(2, (8, 1)))  # @hover("make_layout") @hover("L")
def f(m: cutlass.Int32):
    T = cute.make_layout((m, 8))  # @hover("make_layout")
# @inlay
