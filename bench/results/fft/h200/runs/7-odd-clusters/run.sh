#!/bin/bash
# Planes over clusters of 3, 5, 6 and 7 blocks: the GPU check, planning of the odd and mixed sizes, runs against cuFFT,
# and Nsight Compute on the double 243^3 passes.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/device.txt
s=$(date +%s)
timeout 150 ./gpu_fft --test-threads 1 plans_and_cufft_match_the_oracle > $OUT/test.txt 2>&1
echo "test: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
mkdir -p $OUT/plans
for w in "n=243 precision=s" "n=250 precision=s" "n=250 precision=d" "n=240 precision=s" "n=384 precision=s" "n=384 precision=d" "n=240 precision=d"; do
  s=$(date +%s)
  timeout 90 ./hone plan fft $w --force --out $OUT/plans >> $OUT/plan.txt 2>> $OUT/plan.log
  echo "plan $w: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
done
for w in "n=243 precision=s" "n=250 precision=s" "n=250 precision=d" "n=240 precision=s" "n=384 precision=s" "n=384 precision=d" "n=240 precision=d"; do
  for r in $OUT/plans ""; do
    timeout 60 ./hone run fft $w ${r:+--rules $r} --reps 20 --runs 2 >> $OUT/runs.txt 2>&1
  done
done
echo "runs: $(( $(date +%s) - s )) s" >> $OUT/steps.txt
s=$(date +%s)
timeout 120 ncu --clock-control none --kernel-name fft_pass --launch-count 3 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
  ./hone run fft n=243 precision=d --reps 1 --runs 1 > $OUT/ncu-243d.txt 2>&1
echo "ncu: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
