#!/bin/bash
# Butterfly constants and table twiddles rounded from double-double values, double-precision
# errors measured in double-double at sampled points: the GPU plans test, then the double
# complex benchmark with the shipped plans (setA) and with call 1's plans (setB), then the
# single complex benchmark with the shipped plans.
START=$(date +%s)
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
step() { local name=$1 t=$2; shift 2; local left=$(( 585 - ($(date +%s) - START) )); [ $left -lt $t ] && t=$left; [ $t -lt 20 ] && { echo "$name: skipped, ${left}s left" >> $OUT/steps.txt; return; }; local s=$(date +%s); timeout $t "$@"; echo "$name: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt; }
step test 130 bash -c "./gpu_fft --test-threads 1 --nocapture plans_and_cufft_match_the_oracle > $OUT/test.txt 2>&1"
step bench-zfft3d-A 150 bash -c "./hone bench fft --rules setA --variants zfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-zfft3d-A > $OUT/bench-zfft3d-A.txt 2>&1"
step bench-zfft3d-B 150 bash -c "./hone bench fft --rules setB --variants zfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-zfft3d-B > $OUT/bench-zfft3d-B.txt 2>&1"
step bench-cfft3d-A 150 bash -c "./hone bench fft --rules setA --variants cfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-cfft3d-A > $OUT/bench-cfft3d-A.txt 2>&1"
cd $OUT && tar czf bench.tgz bench-* && rm -rf bench-zfft3d-A bench-zfft3d-B bench-cfft3d-A
