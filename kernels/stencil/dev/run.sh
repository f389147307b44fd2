#!/bin/bash
# Builds bench.cu and runs every case on the GPU machine; writes device.txt,
# build.log, log.txt, results.csv and results.md under $OUT.
# usage: bash run.sh [reps] [case...]     (default 30 reps, all cases)
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/stencil_out}
mkdir -p "$OUT"
REPS=${1:-30}
shift 2>/dev/null
{
  date -u
  nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv,noheader
  nvcc --version | tail -1
} 2>&1 | tee "$OUT/device.txt"
t0=$(date +%s)
if ! nvcc -O3 -arch=sm_90 -lineinfo -std=c++17 -Xptxas -v bench.cu -o bench > "$OUT/build.log" 2>&1; then
  echo "BUILD FAILED"
  grep -iE 'error' "$OUT/build.log" | head -30
  exit 1
fi
echo "build seconds: $(( $(date +%s) - t0 ))" | tee -a "$OUT/device.txt"
grep -E 'spill stores' "$OUT/build.log" | grep -v ' 0 bytes spill stores' | head -5
timeout 150 ./bench "$OUT" "$REPS" "$@" > "$OUT/log.txt" 2>&1
rc=$?
grep -E '^device|^copy|check .*(FAILED|ERROR|SKIPPED)|CUDA error' "$OUT/log.txt"
[ -f "$OUT/results.md" ] && sed -n '/Best per case/,$p' "$OUT/results.md"
echo "bench rc=$rc, total seconds: $(( $(date +%s) - t0 ))"
