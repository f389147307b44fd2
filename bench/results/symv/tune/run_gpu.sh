#!/usr/bin/env bash
# Tunes SYMV kernels with hone's engine on a CUDA machine (champion sieve,
# sampling over N, d-splines, rule) and keeps everything it produced.
#
# Usage: bench/results/symv/tune/run_gpu.sh HONE_BINARY OUTDIR LIB...
#   HONE_BINARY  built with `cargo build --release -p hone-cli`
#   OUTDIR       gets symv.sqlite (every measurement), and per LIB:
#                LIB.txt (summary), LIB.log (one line per measurement, with
#                the seconds since the start), LIB.rule.{json,rs,h,txt},
#                report-LIB/ (SVG plots, CSV and T4 exports), and the rules
#                again as rules/LIB.json, for `hone bench symv --rules OUT/rules`
#   LIB          dsymv_lower, dsymv_upper, ssymv_lower or ssymv_upper (the
#                job kernels/symv/tune/LIB.toml)
#
# TUNE_ARGS (default `--reps 20 --warmup 2`) go to `hone tune`.
set -uo pipefail
hone=$(realpath "${1:?hone binary}")
out=${2:?output directory}
shift 2
mkdir -p "$out"
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
export HONE_CACHE_DIR=${HONE_CACHE_DIR:-/tmp/hone-cache}
db=$out/symv.sqlite
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu \
    --format=csv | tee "$out/gpu.txt"
for lib in "$@"; do
    job=kernels/symv/tune/$lib.toml
    echo "== $lib: tune =="
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$hone" tune "$job" --db "$db" ${TUNE_ARGS:---reps 20 --warmup 2} -v \
        > "$out/$lib.txt" 2> "$out/$lib.log"
    code=$?
    end=$(date +%s.%N)
    echo "tune exit $code after $(awk "BEGIN { printf \"%.1f\", $end - $start }") s" | tee -a "$out/$lib.txt"
    "$hone" rule --db "$db" --job "$lib" --out-json "$out/$lib.rule.json" --out-rust "$out/$lib.rule.rs" \
        --out-c "$out/$lib.rule.h" > "$out/$lib.rule.txt" 2>&1
    echo "rule exit $?"
    # The layout `hone bench symv --rules DIR` reads.
    mkdir -p "$out/rules" && cp "$out/$lib.rule.json" "$out/rules/$lib.json"
    "$hone" report --db "$db" --job "$lib" -o "$out/report-$lib" \
        --work "$(case $lib in d*) echo 8;; *) echo 4;; esac) * (N * (N + 1) / 2 + 3 * N)" \
        --export csv,t4 > "$out/report-$lib.txt" 2>&1
    echo "report exit $?"
    cat "$out/$lib.txt" "$out/$lib.rule.txt"
done
