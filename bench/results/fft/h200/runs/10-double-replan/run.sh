#!/bin/bash
# Twiddles as powers (TW=2) and interleaved strided lines (IY/IZ): the GPU check, then double-precision
# complex plans made again over the whole space and benchmarked against cuFFT.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
s=$(date +%s)
timeout 130 ./gpu_fft --test-threads 1 plans_and_cufft_match_the_oracle > $OUT/test.txt 2>&1
echo "test: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
s=$(date +%s)
mkdir -p $OUT/plans
timeout 300 ./hone plan fft --force --out $OUT/plans --variants zfft3d > $OUT/plan-zfft3d.txt 2> $OUT/plan-zfft3d.log
echo "plan zfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
s=$(date +%s)
timeout 150 ./hone bench fft --rules $OUT/plans --variants zfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-zfft3d > $OUT/bench-zfft3d.txt 2>&1
echo "bench zfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
cd $OUT && tar czf plans.tgz plans bench-zfft3d && rm -rf plans bench-zfft3d
