#!/bin/bash
# The shipped double-precision complex plans with their twiddle powers (TW=2) replaced by
# corrected powers (setC, TW=4) or by the table (setD, TW=1), benchmarked against cuFFT, errors
# measured in double-double at sampled points.
START=$(date +%s)
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
step() { local name=$1 t=$2; shift 2; local left=$(( 400 - ($(date +%s) - START) )); [ $left -lt $t ] && t=$left; [ $t -lt 20 ] && { echo "$name: skipped, ${left}s left" >> $OUT/steps.txt; return; }; local s=$(date +%s); timeout $t "$@"; echo "$name: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt; }
step bench-zfft3d-C 170 bash -c "./hone bench fft --rules setC --variants zfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-zfft3d-C > $OUT/bench-zfft3d-C.txt 2>&1"
step bench-zfft3d-D 170 bash -c "./hone bench fft --rules setD --variants zfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-zfft3d-D > $OUT/bench-zfft3d-D.txt 2>&1"
cd $OUT && tar czf bench.tgz bench-* && rm -rf bench-zfft3d-C bench-zfft3d-D
