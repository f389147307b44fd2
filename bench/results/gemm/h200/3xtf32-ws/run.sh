#!/usr/bin/env bash
# sgemm_3xtf32 with the warp-specialized warpgroup-MMA kernels (WGMMA = 1, WS = 1) in its
# space: the development harness checks and times the 128 x 128 kernels (WS = 0 and 1) against
# cuBLAS SGEMM with the error of both against an FP64 product of the same inputs; then the four
# layouts are tuned with `hone tune` (kernels/gemm/tune/sgemm_3xtf32_*.toml), each rule fitted
# with `hone rule`, and the rules benchmarked against cuBLAS SGEMM in the same run.
# kernels/gemm/rules/nvidia-h200/sgemm_3xtf32_*.json ship this folder's rules.
#
#   cargo build --release -p hone-cli
#   bench/results/gemm/h200/3xtf32-ws/run.sh target/release/hone OUT
#
# On the GPU machine (nvcc for the harness). JOBS picks the layouts to tune (default all four;
# JOBS= none),
# BENCH=0 skips the benchmark, HARNESS=0 the harness, BUILTIN=1 benchmarks the rules built into
# hone instead of OUT/rules, BENCH_ARGS adds arguments to it (--no-other-shapes); OUT/gemm.sqlite
# resumes an interrupted run, so the work can be split over several calls with the database
# carried between them.
set -uo pipefail
H="${1:?usage: run.sh HONE OUT}"
OUT="${2:?usage: run.sh HONE OUT}"
mkdir -p "$OUT/rules"
OUT=$(cd "$OUT" && pwd)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt"
# SM clock, power and temperature every 200 ms through the whole run, to tell a clock or
# power limit under sustained tensor-core load from the kernels' own speed
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu \
    --format=csv -lms 200 > "$OUT/clocks.csv" 2>/dev/null &
clocks=$!
trap 'kill $clocks 2>/dev/null' EXIT
if [ "${HARNESS:-1}" = 1 ]; then
  ( cd kernels/gemm/dev &&
    OUT="$OUT/harness" ARCHFLAGS="-gencode arch=compute_90a,code=sm_90a" TIMEOUT=120 \
      bash run.sh configs_ws.txt both 1024 2048 4096 8192 ) > "$OUT/harness.txt" 2>&1
  rc=$?
  echo "harness rc=$rc $(date -u +%H:%M:%S)" | tee -a "$OUT/summary.txt"
  [ $rc = 0 ] || exit 1
fi
for l in ${JOBS-nn nt tn tt}; do
  job=sgemm_3xtf32_$l
  t0=$(date +%s)
  timeout "${TUNE_TIMEOUT:-150}" "$H" tune "kernels/gemm/tune/$job.toml" --db "$OUT/gemm.sqlite" --reps 10 \
      --warmup 2 --check-max 1024 --json > "$OUT/$job.tune.json" 2>> "$OUT/tune.log"; rc=$?
  "$H" rule --db "$OUT/gemm.sqlite" --job "$job" --out-json "$OUT/rules/$job.json" >> "$OUT/rule.log" 2>&1
  echo "$job tune rc=$rc rule rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
done
if [ "${BENCH:-1}" = 1 ]; then
  t0=$(date +%s)
  date -u +"bench start %H:%M:%S" >> "$OUT/summary.txt"
  rules=(--rules "$OUT/rules")
  [ "${BUILTIN:-0}" = 1 ] && rules=()
  timeout "${BENCH_TIMEOUT:-300}" "$H" bench gemm "${rules[@]}" \
      --variants sgemm_3xtf32_nn,sgemm_3xtf32_nt,sgemm_3xtf32_tn,sgemm_3xtf32_tt \
      --sizes 256,1024,2048,4096,8192 --plot-sizes 0 --reps 10 ${BENCH_ARGS:-} --out "$OUT/bench" \
      > "$OUT/bench.log" 2>&1
  echo "bench rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
fi
date -u +"end %Y/%m/%d %H:%M:%S" >> "$OUT/summary.txt"
