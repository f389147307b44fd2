#!/usr/bin/env bash
# SGEMM's four layouts tuned with `hone tune` (kernels/gemm/tune/sgemm_*.toml: split-K and
# 32-wide tiles in the sieve, each sieve size's winner kept), each rule fitted with `hone rule`,
# then benchmarked against cuBLAS SGEMM with those rules in the same run. This folder's
# 3-retune/ is its output on an H200 (run in two device calls, the database carried from the
# first to the second; the GPU test ran first in each); kernels/gemm/rules/nvidia-h200/ ships
# the rules.
#
#   cargo build --release -p hone-cli
#   cargo test --release -p hone-kernels --test gpu_gemm --no-run     # the test binary
#   bench/results/gemm/h200/sgemm-tune/run.sh target/release/hone OUT [GPU_GEMM_TEST_BINARY]
#
# OUT/gemm.sqlite resumes an interrupted run; TUNE_TIMEOUT bounds each job (170 s).
set -uo pipefail
H="${1:?usage: run.sh HONE OUT [GPU_GEMM_TEST_BINARY]}"
OUT="${2:?usage: run.sh HONE OUT [GPU_GEMM_TEST_BINARY]}"
mkdir -p "$OUT/rules"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt"
if [ -n "${3:-}" ]; then
  timeout "${TEST_TIMEOUT:-300}" "$3" --test-threads 1 --nocapture \
      every_measured_kernel_is_right_in_every_layout_at_odd_shapes > "$OUT/gpu_gemm_tests.txt" 2>&1
  echo "tests rc=$?" | tee -a "$OUT/summary.txt"
fi
for job in sgemm_nn sgemm_nt sgemm_tn sgemm_tt; do
  t0=$(date +%s)
  timeout "${TUNE_TIMEOUT:-170}" "$H" tune "kernels/gemm/tune/$job.toml" --db "$OUT/gemm.sqlite" --reps 10 \
      --warmup 2 --check-max 1024 --json > "$OUT/$job.tune.json" 2>> "$OUT/tune.log"; rc=$?
  "$H" rule --db "$OUT/gemm.sqlite" --job "$job" --out-json "$OUT/rules/$job.json" >> "$OUT/rule.log" 2>&1
  echo "$job tune rc=$rc rule rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
done
t0=$(date +%s)
timeout "${BENCH_TIMEOUT:-140}" "$H" bench gemm --rules "$OUT/rules" --variants sgemm_nn,sgemm_nt,sgemm_tn,sgemm_tt \
    --sizes 256,1024,4096 --plot-sizes 0 --reps 10 --out "$OUT/bench" > "$OUT/bench.log" 2>&1
echo "bench rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
