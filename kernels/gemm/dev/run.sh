#!/bin/bash
# Build every config in a config list, check each against cuBLAS / an FP64
# reference, then time it. Runs on the GPU machine; writes under $OUT.
# usage: dev/run.sh [configs.txt] [mode: check|time|both] [N ...]
set -u
cd "$(dirname "$0")"
CFG=${1:-configs.txt}; MODE=${2:-both}; shift 2 2>/dev/null; NS="$*"
OUT=${OUT:-/tmp/gemm_out}; mkdir -p "$OUT" build
LOG=$OUT/log.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; nvcc --version | tail -1; } | tee -a "$LOG"
# build in parallel
grep -v '^\s*#' "$CFG" | grep -v '^\s*$' | while read -r name alg flags; do
  echo "nvcc -O3 ${ARCHFLAGS:--arch=sm_90} -std=c++17 -DALG=$alg $flags bench.cu -lcublas -o build/$name > build/$name.log 2>&1 || echo BUILD-FAIL $name"
done > build/cmds.sh
t0=$(date +%s)
xargs -P 16 -I{} bash -c '{}' < build/cmds.sh | tee -a "$LOG"
echo "build seconds: $(( $(date +%s) - t0 ))" | tee -a "$LOG"
cat build/*.log | grep -iE 'error|warning' | head -40 | tee -a "$LOG"
grep -v '^\s*#' "$CFG" | grep -v '^\s*$' | while read -r name alg flags; do
  [ -x build/$name ] || { echo "missing $name" | tee -a "$LOG"; continue; }
  echo "=== $name ALG=$alg $flags" | tee -a "$LOG"
  timeout ${TIMEOUT:-300} ./build/$name $MODE $NS > build/$name.out 2>&1; rc=$?
  cat build/$name.out >> "$LOG"
  grep -E '^#|FAIL|^time' build/$name.out | sed "s/^/$name: /"
  echo "$name rc=$rc"
done
