#!/bin/bash
# The double-precision complex plans as shipped (each shape's twiddle mode picked from calls 3's
# two runs), benchmarked against cuFFT once more.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
s=$(date +%s)
timeout 200 ./hone bench fft --rules setE --variants zfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-zfft3d-E > $OUT/bench-zfft3d-E.txt 2>&1
echo "bench-zfft3d-E: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
