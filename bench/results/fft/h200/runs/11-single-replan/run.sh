#!/bin/bash
# Twiddles as powers (TW=2) and interleaved strided lines (IY/IZ): single-precision complex plans made
# again over the whole space and benchmarked against cuFFT.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
s=$(date +%s)
mkdir -p $OUT/plans
timeout 260 ./hone plan fft --force --out $OUT/plans --variants cfft3d > $OUT/plan-cfft3d.txt 2> $OUT/plan-cfft3d.log
echo "plan cfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
s=$(date +%s)
timeout 125 ./hone bench fft --rules $OUT/plans --variants cfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-cfft3d > $OUT/bench-cfft3d.txt 2>&1
echo "bench cfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
cd $OUT && tar czf plans.tgz plans bench-cfft3d && rm -rf plans bench-cfft3d
