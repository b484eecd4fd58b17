# Prose of the CuTe DSL (examples/python/CuTeDSL, python/CuTeDSL).
# - block=(192, 1, 1): 6 warps × 32 threads/warp = 192 threads
# - gA shape = ((128, 64), (8, 8, 2))
# - (128, 64): One tile of A
# - (8, 8, 2): 8 tiles in M, 8 tiles in K, 2 batches = 128 total tiles
# [15:0] for column index and [31:16] for lane/row index
"""For 32-bit inputs, returns bits [63:32]. For 64-bit inputs, returns bits [127:64]."""
# Insert 0xF into bits [11:8] of 0x12345678
"""
* Bits ``[12:8]`` — *segmask*: ``(WARP_SIZE - 1) XOR (width - 1)``.
* Bits ``[4:0]``  — *clamp*: upper boundary (``width - 1``)
"""
# a vector slice of the innermost dimension, e.g. ``arr.subview((i, j, k, l, 0))[0:4]``.
# torch.testing.assert_close(dst[4:8], src[4:8])
# Descriptors that must still be read.
# tensor<ptr<f16, smem, align<32>> o (16,4):(1,16)>
# input:  S<3,4,3> o 0 o ((128,16),1,8,3):((128,1),0,16,16384)
#   tensor<ptr<f32, generic> o (100,?{div=8}):(?{i32 div=8},1)>
# (128,384):(1@0,1@1)
layout = "(4, 8):(1, 4)"
