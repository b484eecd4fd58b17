#!/bin/bash
# Runs on the GPU machine, in a folder holding bankprobe.cu and cases.bin
# (from `probegen gen`); writes ncu.csv (and the build log) to $OUT.
set -euo pipefail
cd "$(dirname "$0")"
nvidia-smi -L | tee "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
ncu --version | tail -1 | tee -a "$OUT/device.txt"
nvcc -O2 -arch=sm_90a -o bankprobe bankprobe.cu
M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum
M=$M,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
M=$M,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_stsm.sum
time ncu --csv --clock-control none --metrics "$M" ./bankprobe cases.bin > "$OUT/ncu.csv"
