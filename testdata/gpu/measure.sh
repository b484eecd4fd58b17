#!/bin/bash
# Runs on the GPU machine from the folder that holds it, with one subfolder
# per case set (each from `probegen gen -out`, holding bankprobe.cu and
# cases.bin): builds the probe once and writes $OUT/SET.csv per set, plus
# $OUT/device.txt. Usage: bash measure.sh SET...
set -euo pipefail
cd "$(dirname "$0")"
nvidia-smi -L | tee "$OUT/device.txt"
nvcc --version | tail -1 | tee -a "$OUT/device.txt"
ncu --version | tail -1 | tee -a "$OUT/device.txt"
nvcc -O2 -arch=sm_90a -o bankprobe "$1/bankprobe.cu"
M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum
M=$M,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
M=$M,smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_stsm.sum
for set in "$@"; do
  cmp "$1/bankprobe.cu" "$set/bankprobe.cu"
  time ncu --csv --clock-control none --metrics "$M" ./bankprobe "$set/cases.bin" > "$OUT/$set.csv"
done
