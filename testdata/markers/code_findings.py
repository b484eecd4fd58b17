# Errors in CuTe DSL code where CuTe rejects a call (the checks of CuTe C++'s static_asserts).
import cutlass
import cutlass.cute as cute

a = cute.make_layout((4, 3), stride=(3, 1))  # @nodiag
bad = cute.composition(a, cute.make_layout(6))  # @diag("cute.composition", "precondition", "Shape Divisibility Condition")
L = cute.make_layout((8, 8))
tiled = cute.logical_divide(L, (2, 2, 2))  # @diag("cute.logical_divide", "precondition", "Too many modes in tiler")
holes = cute.complement(cute.make_layout((2, 4), stride=(2, 1)), 16)  # @diag("cute.complement", "precondition", "Non-injective")
m = cutlass.Int32(4)
dyn = cute.composition(cute.make_layout((m, 3), stride=(3, 1)), cute.make_layout(6))  # @nodiag
def f(n):
    t = cute.logical_divide(cute.make_layout((n, n)), (2, 2, 2))  # @nodiag
quiet = cute.composition(a, cute.make_layout(6))  # cute-lsp: ignore[precondition] @nodiag
# Layout comments beside code: a comment that states another layout is stale.
K = cute.make_layout((4, 8), stride=(8, 1))  # (4,8):(1,4)
# @diag("(4,8)", "stale-comment", "the comment says (4,8):(1,4) but K is (_4,_8):(_8,_1)") @fix("(4,8)", "Write")
V = cute.make_layout((4, 8), stride=(8, 1))  # (4,8):(8,1) @nodiag
