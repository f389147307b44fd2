#!/usr/bin/env bash
# DGEMM's four layouts tuned with `hone tune` (the jobs in kernels/gemm/tune/),
# each rule fitted with `hone rule`, then all four benchmarked against cuBLAS
# DGEMM with `hone bench gemm` in one run. This folder is its output on an H100.
#
#   cargo build --release -p hone-cli
#   bench/results/gemm/h100/tune-run4/run.sh target/release/hone OUT
#
# The rules land in OUT/rules (kernels/gemm/rules/ ships them); OUT/gemm.sqlite
# resumes an interrupted run; TUNE_TIMEOUT bounds each job (105 s by
# default). The GPU tests ran first on the same machine:
#   cargo test --release -p hone-kernels --test gpu_gemm -- --test-threads 1 \
#       every_measured_kernel_is_right_in_every_layout_at_odd_shapes
set -uo pipefail
H="${1:?usage: run.sh HONE OUT}"
OUT="${2:?usage: run.sh HONE OUT}"
mkdir -p "$OUT/rules"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$OUT/gpu.txt"
cp kernels/gemm/rules/*.json "$OUT/rules/"
for job in dgemm_nn dgemm_nt dgemm_tn dgemm_tt; do
  t0=$(date +%s)
  timeout "${TUNE_TIMEOUT:-105}" "$H" tune "kernels/gemm/tune/$job.toml" --db "$OUT/gemm.sqlite" --reps 10 --warmup 2 \
      --check-max 1024 --json > "$OUT/$job.tune.json" 2>> "$OUT/tune.log"; rc=$?
  "$H" rule --db "$OUT/gemm.sqlite" --job "$job" --out-json "$OUT/rules/$job.json" >> "$OUT/rule.log" 2>&1
  echo "$job tune rc=$rc rule rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
done
t0=$(date +%s)
timeout "${BENCH_TIMEOUT:-150}" "$H" bench gemm --rules "$OUT/rules" --variants dgemm_nn,dgemm_nt,dgemm_tn,dgemm_tt \
    --sizes "${BENCH_SIZES:-256,1024,2048,4096,8192}" --plot-sizes 0 --reps 20 --out "$OUT/bench" \
    --html "$OUT/bench/gemm.html" > "$OUT/bench.log" 2>&1
echo "bench rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
