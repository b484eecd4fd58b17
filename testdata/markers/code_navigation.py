# Go to definition in CuTe DSL code: a name goes to the assignment visible where it is used.
import cutlass.cute as cute

tile_m = 64  # @loc(mdef, "tile_m")
L = cute.make_layout((tile_m, 8), stride=(8, 1))  # @loc(ldef, "L") @def("tile_m", mdef) @refs("L", ldef, lread)
L = cute.coalesce(L)  # @loc(l2, re"^(L)") @def(re`\((L)`, ldef) @loc(lread, re`\((L)`)
n = cute.size(L)  # @def("L", l2) @refs("L", l2, re`\((L)`, suse)
s = L.shape  # @def("L", l2) @loc(suse, "L")
def f(m):  # @loc(mparam, "m")
    T = cute.make_layout((m, tile_m))  # @def(re`\(\((m)`, mparam) @def("tile_m", mdef)
