#!/bin/bash
# Ran from a folder holding this script, `hone` (cargo build --release -p hone-cli, stripped)
# and, where used, `gpu_fft` (cargo test --release -p hone-kernels --test gpu_fft --no-run);
# OUT names the folder for the outputs.
# FFT with skewed rows on the H200: the GPU tests, then the real single-precision transforms
# planned again (skew allowed in their X pass) and benchmarked, with the same plans unskewed.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
pack() { tar czf $OUT/results.tar.gz -C $OUT --exclude results.tar.gz --exclude work . ; }
s=$(date +%s); timeout 200 ./gpu_fft --test-threads 1 > $OUT/tests.txt 2>&1
echo "tests: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt; pack
mkdir -p $OUT/plans
s=$(date +%s); timeout 100 ./hone plan fft --force --out $OUT/plans --variants scfft3d > $OUT/plan-scfft3d.txt 2> $OUT/plan-scfft3d.log
echo "plan scfft3d: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt; pack
mkdir -p $OUT/nosk && python3 -c "
import json,sys;d=json.load(open('$OUT/plans/scfft3d.json'))
for p in d['plans']: p['config'].pop('SK',None)
json.dump(d,open('$OUT/nosk/scfft3d.json','w'),indent=1)"
for v in plans nosk; do
  s=$(date +%s); timeout 95 ./hone bench fft --rules $OUT/$v --variants scfft3d --plot-sizes 0 --reps 20 --out $OUT/bench-scfft3d-$v > $OUT/bench-scfft3d-$v.txt 2>&1
  echo "bench scfft3d $v: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt; pack
done
