#!/bin/bash
# Builds bench.cu and runs every case on the GPU machine; writes device.txt,
# build.log, log.txt, results.csv and results.md under $OUT.
# usage: bash run.sh [reps] [case...]     (default 30 reps; cases: the diffusion
# ones and the tiny Himeno check, difftiny diff256 diff512 himT; `all` for every case)
set -u
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/stencil_out}
mkdir -p "$OUT"
REPS=${1:-30}
shift 2>/dev/null
CASES=("$@")
[ ${#CASES[@]} -eq 0 ] && CASES=(difftiny diff256 diff512 himT)
[ "${CASES[0]}" = all ] && CASES=()
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
timeout 200 ./bench "$OUT" "$REPS" "${CASES[@]}" > "$OUT/log.txt" 2>&1
rc=$?
grep -E '^device|^copy|check .*(FAILED|ERROR|SKIPPED)|CUDA error' "$OUT/log.txt"
[ -f "$OUT/results.md" ] && sed -n '/Best per case/,$p' "$OUT/results.md"
# the five fastest variants per diffusion size (time per sweep)
for sz in 256x256x256 512x512x512; do
  echo "fastest at $sz (ms/sweep, roof fraction):"
  awk -F'"' -v sz="$sz" '$0 ~ "^diffusion,"sz"," && $0 ~ ",ok," {split($1, a, ","); split($3, b, ","); print b[7], b[10], a[3], $2, "sweeps=" b[2]}' \
    "$OUT/results.csv" | sort -g | head -5
done
echo "bench rc=$rc, total seconds: $(( $(date +%s) - t0 ))"
