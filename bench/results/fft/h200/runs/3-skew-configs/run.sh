#!/bin/bash
# Ran from a folder holding this script, `hone` (cargo build --release -p hone-cli, stripped)
# and, where used, `gpu_fft` (cargo test --release -p hone-kernels --test gpu_fft --no-run);
# OUT names the folder for the outputs.
# FFT plane pass, clusters taking planes in turn: hand-picked configurations, then the GPU tests, then planning.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
for d in rules/*/; do
  n=$(basename $d)
  echo "== $n" >> $OUT/runs.txt
  timeout 60 ./hone run fft n=256 precision=s --rules $d --reps 20 --runs 2 >> $OUT/runs.txt 2>&1
done
timeout 200 ./gpu_fft --test-threads 1 plans_and_cufft_match > $OUT/tests.txt 2>&1; echo "tests rc $?" >> $OUT/tests.txt
