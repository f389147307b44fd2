#!/bin/bash
# Interleaved lines in the strided passes: the GPU check, the shipped plans with IY/IZ = 1 and 2 against
# the same plans as shipped, then 243^3 planned again in both precisions.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
for w in "n=243 precision=s" "n=243 precision=d" "n=240 precision=s" "n=256 precision=d" "n=384 precision=s" "n=250 precision=d"; do
  for r in "" il1 il2; do
    echo "== $w ${r:-shipped}" >> $OUT/runs.txt
    timeout 60 ./hone run fft $w ${r:+--rules $r} --reps 20 --runs 2 2>&1 | grep -E "^(hone|cufft|speedup)|kernel|plan" >> $OUT/runs.txt
  done
done
echo "runs done $(date +%s)" >> $OUT/steps.txt
mkdir -p $OUT/plans
for w in "n=243 precision=s" "n=243 precision=d"; do
  s=$(date +%s)
  timeout 90 ./hone plan fft $w --force --out $OUT/plans >> $OUT/plan.txt 2>> $OUT/plan.log
  echo "plan $w: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
  timeout 60 ./hone run fft $w --rules $OUT/plans --reps 20 --runs 2 2>&1 | grep -E "^(hone|cufft|speedup)" >> $OUT/runs-planned.txt
done
s=$(date +%s)
timeout 150 ./gpu_fft --test-threads 1 plans_and_cufft_match_the_oracle > $OUT/test.txt 2>&1
echo "test: exit $?, $(( $(date +%s) - s )) s" >> $OUT/steps.txt
