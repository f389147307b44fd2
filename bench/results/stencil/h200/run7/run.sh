#!/bin/bash
# diff_xv (the naive diffusion body x-vectorized with an interior fast path) against the
# hand-written float4 and register kernels, two runs of the same build.
# usage (on the GPU machine, from the repository root): OUT=DIR bash bench/results/stencil/h200/run7/run.sh
set -u
D=kernels/stencil/dev
ONLY=zvec,zr4,zreg,xv,xco OUT=$OUT/r1 timeout 280 bash $D/run.sh 30 diff256 diff512 > $OUT/r1.txt 2>&1
mkdir -p $OUT/r2; ONLY=zvec,zr4,xv timeout 200 $D/bench $OUT/r2 30 diff256 diff512 > $OUT/r2-log.txt 2>&1
