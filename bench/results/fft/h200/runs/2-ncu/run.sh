#!/bin/bash
# Ran from a folder holding this script, `hone` (cargo build --release -p hone-cli, stripped)
# and, where used, `gpu_fft` (cargo test --release -p hone-kernels --test gpu_fft --no-run);
# OUT names the folder for the outputs.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
for n in shipped r8_1024_pp1 r8_1024_pp8; do
  timeout 60 ./hone run fft n=256 precision=s --rules rules/$n --reps 20 --runs 1 > $OUT/run-$n.txt 2>&1
  timeout 120 ncu --clock-control none --kernel-name fft_pass --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section SourceCounters \
    ./hone run fft n=256 precision=s --rules rules/$n --reps 1 --runs 1 > $OUT/ncu-$n.txt 2>&1
done
