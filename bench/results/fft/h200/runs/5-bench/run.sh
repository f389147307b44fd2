#!/bin/bash
# Ran from a folder holding this script, `hone` (cargo build --release -p hone-cli, stripped)
# and, where used, `gpu_fft` (cargo test --release -p hone-kernels --test gpu_fft --no-run);
# OUT names the folder for the outputs.
# FFT with skewed rows on the H200: the benchmark against cuFFT with the new single-precision plans,
# the same plans with the skew removed, then double precision planned again and benchmarked.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
for v in new nosk; do
  s=$(date +%s)
  ./hone bench fft --rules $v --variants cfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-cfft3d-$v > $OUT/bench-cfft3d-$v.txt 2>&1
  echo "bench cfft3d $v: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
done
s=$(date +%s)
mkdir -p $OUT/plans && cp new/*.json $OUT/plans/
timeout 240 ./hone plan fft --force --out $OUT/plans --variants zfft3d > $OUT/plan-zfft3d.txt 2> $OUT/plan-zfft3d.log
echo "plan zfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
s=$(date +%s)
./hone bench fft --rules $OUT/plans --variants zfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-zfft3d-new > $OUT/bench-zfft3d-new.txt 2>&1
echo "bench zfft3d new: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
