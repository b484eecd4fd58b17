# Hover in CuTe DSL code: the steps of compositions and divides, and names bound again.
import cutlass.cute as cute

A = cute.make_layout((8, 4), stride=(4, 1))
C = cute.composition(A, cute.make_layout((4, 2), stride=(1, 8)))
# @hover("composition")
T = cute.logical_divide(A, cute.make_layout(4, stride=2))
# @hover("logical_divide")

L = cute.make_layout(8)
n = cute.size(L)
# @hover(re`(L)\)`)
for i in range(3):
    M = cute.make_layout(4)
    k = cute.size(M)
    # @hover(re`(M)\)`) @hover("size")
    M = cute.make_layout(16)
