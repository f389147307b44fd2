#!/usr/bin/env bash
# Tunes GEMM jobs with `hone tune` (champion sieve, d-splines, rule), writes
# each rule with `hone rule`, then benchmarks the rules against cuBLAS with
# `hone bench gemm` (tables, CSV, JSON, charts and the HTML page).
#
#   cargo build --release -p hone-cli
#   bench/results/gemm/run_gpu.sh target/release/hone OUT sgemm_nn dgemm_nn sgemm_3xtf32_nn
#
# The rules land in OUT/rules (copy them into kernels/gemm/rules/ and rebuild
# to ship them); the tuning database OUT/gemm.sqlite resumes an interrupted run.
set -uo pipefail
hone="${1:?usage: run_gpu.sh HONE OUT JOB...}"
out="${2:?usage: run_gpu.sh HONE OUT JOB...}"
shift 2
mkdir -p "$out/rules"
log="$out/tune.log"
for job in "$@"; do
    start=$(date +%s)
    "$hone" tune "kernels/gemm/tune/$job.toml" --db "$out/gemm.sqlite" --reps 10 --warmup 2 \
        --json >"$out/$job.tune.json" 2>>"$log"
    status=$?
    "$hone" rule --db "$out/gemm.sqlite" --job "$job" --out-json "$out/rules/$job.json" >>"$log" 2>&1
    echo "== $job: tune exit $status, $(( $(date +%s) - start )) s" | tee -a "$log"
done
variants="$(IFS=,; echo "$*")"
"$hone" bench gemm --rules "$out/rules" --variants "$variants" --plot-sizes 6 --reps 20 \
    --out "$out/bench" --html "$out/bench/gemm.html" >"$out/bench.log" 2>&1
echo "== bench exit $?" | tee -a "$log"
