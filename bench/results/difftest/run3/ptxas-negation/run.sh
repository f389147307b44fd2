#!/usr/bin/env bash
# nvcc -O3 against builds without optimisation on one kernel per difference; PTX and SASS of the optimised build to $OUT.
set -x
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
nvcc --version | tail -2
for opt in "-O3" "-O3 -fmad=false" "-G" "-Xptxas -O0" "-Xcicc -O0"; do
  nvcc -arch=sm_90 $opt neg.cu -o neg && echo "== nvcc $opt" && ./neg
done
nvcc -arch=sm_90 -ptx neg.cu -o $OUT/neg-O3.ptx
nvcc -arch=sm_90 -Xcicc -O0 -ptx neg.cu -o $OUT/neg-cicc-O0.ptx
nvcc -arch=sm_90 -cubin neg.cu -o neg.cubin && cuobjdump -sass neg.cubin > $OUT/neg-O3.sass
