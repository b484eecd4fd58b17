import cutlass
import cutlass.cute as cute

@cute.jit
def f(m: cutlass.Int32):
    L = cute.make_layout((m, 8), stride=(8, 1))
    T = cute.logical_divide(L, (2, 4))
    return cute.size(T, mode=[0])
