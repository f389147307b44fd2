#!/usr/bin/env bash
# GEMM shapes the square-size rules do not see: K much longer than M and N
# (the library splits K for them), one `hone run gemm` each, DGEMM and 3xTF32
# against cuBLAS on the same buffers.
#
#   cargo build --release -p hone-cli
#   bench/results/gemm/h100/rect/run.sh target/release/hone > run.txt
H="${1:?usage: run.sh HONE}"
for p in "m=256 n=256 k=16384" "m=512 n=512 k=8192" "m=128 n=128 k=65536" \
         "m=1024 n=1024 k=16384" "m=64 n=64 k=262144" "m=256" "m=256 n=256 k=16384 layout=tn"; do
  for r in dgemm sgemm_3xtf32; do
    echo "=== run $r $p"
    timeout 60 "$H" run gemm $p routine=$r --reps 30 2>&1
  done
done
