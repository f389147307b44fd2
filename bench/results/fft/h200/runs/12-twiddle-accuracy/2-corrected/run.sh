#!/bin/bash
# Corrected twiddle powers (TW=4) beside wide powers (TW=3), with accuracy-aware planning: the GPU
# plans test, then the single-precision complex plans made again, each checked beside cuFFT.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
s=$(date +%s)
timeout 130 ./gpu_fft --test-threads 1 --nocapture plans_and_cufft_match_the_oracle > $OUT/test.txt 2>&1
echo "test: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
s=$(date +%s)
mkdir -p $OUT/plans
timeout 420 ./hone plan fft --force --out $OUT/plans --variants cfft3d > $OUT/plan-cfft3d.txt 2> $OUT/plan-cfft3d.log
echo "plan cfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
cd $OUT && tar czf plans.tgz plans && rm -rf plans
