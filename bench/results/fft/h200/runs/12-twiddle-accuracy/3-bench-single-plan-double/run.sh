#!/bin/bash
# The single-precision complex plans of the previous call benchmarked against cuFFT; then the
# double-precision complex plans made again with accuracy-aware planning and benchmarked.
# Carried beside it: hone and the cfft3d.json of ../2-corrected/plans as plans/ (the plans/ kept here
# are this call's double-precision output).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
s=$(date +%s)
timeout 125 ./hone bench fft --rules plans --variants cfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-cfft3d > $OUT/bench-cfft3d.txt 2>&1
echo "bench cfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
s=$(date +%s)
mkdir -p $OUT/plans
timeout 240 ./hone plan fft --force --out $OUT/plans --variants zfft3d > $OUT/plan-zfft3d.txt 2> $OUT/plan-zfft3d.log
echo "plan zfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
s=$(date +%s)
timeout 130 ./hone bench fft --rules $OUT/plans --variants zfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-zfft3d > $OUT/bench-zfft3d.txt 2>&1
echo "bench zfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
cd $OUT && tar czf plans.tgz plans bench-cfft3d bench-zfft3d && rm -rf plans bench-cfft3d bench-zfft3d
