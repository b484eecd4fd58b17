#!/usr/bin/env bash
# CuTe C++ with run-time integers on runtime_cases.txt (composition, complement, logical_divide):
# builds cute_runtime_bench.cpp with the host g++ and runs it, printing `cute-c++ OP: N inputs, X ns/op`.
# Needs CuTe's headers and CCCL's libcu++ headers (see ../../../shared/oracle/README.md):
#   CUTLASS_DIR=<cutlass with include/> CCCL_INC=<cccl>/libcudacxx/include bash cute_runtime_bench.sh [SECONDS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${CUTLASS_DIR:?set CUTLASS_DIR to a CUTLASS checkout (its include/ is used)}"
: "${CCCL_INC:?set CCCL_INC to the libcudacxx/include folder of CCCL}"
stub="${ORACLE_STUB:-$here/../../../shared/oracle/stub}"
bin="$(mktemp -d)/cute_runtime_bench"
g++ -std=c++17 -O2 -w -I"$CUTLASS_DIR/include" -I"$stub" -I"$CCCL_INC" "$here/cute_runtime_bench.cpp" -o "$bin"
"$bin" "$here/runtime_cases.txt" "${1:-1}"
