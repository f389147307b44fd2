#!/bin/bash
# The eight double-precision complex plans of call 3 (accuracy-aware planning) and the four
# earlier ones benchmarked against cuFFT (the shipped set keeps 128^3's earlier plan instead).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
s=$(date +%s)
timeout 150 ./hone bench fft --rules plans --variants zfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-zfft3d > $OUT/bench-zfft3d.txt 2>&1
echo "bench zfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
