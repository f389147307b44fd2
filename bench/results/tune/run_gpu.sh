#!/usr/bin/env bash
# Tunes the bundled vcopy template end to end on a CUDA machine and keeps
# everything it produced.
#
# Usage: bench/results/tune/run_gpu.sh HONE_BINARY OUTDIR
#   HONE_BINARY  built with `cargo build --release -p hone-cli`
#   OUTDIR       gets vcopy.sqlite, tune.txt (human summary), tune.log (one
#                line per measurement), tune.json, rule.{json,rs,h,txt},
#                report/ (SVG plots, CSV and T4 exports), gpu.txt
#
# NVRTC is loaded at run time; the toolkit's library directory is added to
# LD_LIBRARY_PATH in case the loader does not know it.
set -uo pipefail
hone=$(realpath "${1:?hone binary}")
out=${2:?output directory}
mkdir -p "$out"
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
export HONE_CACHE_DIR=${HONE_CACHE_DIR:-/tmp/hone-cache}
job=kernels/examples/vcopy.tune.toml
db=$out/vcopy.sqlite

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu \
    --format=csv | tee "$out/gpu.txt"

echo '== tune: champion sieve, sampling, d-splines, rule, copy-engine comparison =='
start=$(date +%s.%N)
"$hone" tune "$job" --db "$db" --check-max 4194304 --reps 200 --warmup 10 --compare-memcpy -v \
    > "$out/tune.txt" 2> "$out/tune.log"
code=$?
end=$(date +%s.%N)
echo "tune exit $code after $(awk "BEGIN { printf \"%.1f\", $end - $start }") s" | tee -a "$out/tune.txt"

echo '== the same command again: resumes, measures nothing new (the copy engine again) =='
start=$(date +%s.%N)
"$hone" tune "$job" --db "$db" --check-max 4194304 --reps 200 --warmup 10 --compare-memcpy --json \
    > "$out/tune.json" 2>> "$out/tune.log"
code=$?
end=$(date +%s.%N)
echo "resume exit $code after $(awk "BEGIN { printf \"%.1f\", $end - $start }") s" | tee -a "$out/tune.txt"

echo '== rule =='
"$hone" rule --db "$db" --kernel vcopy --out-json "$out/rule.json" --out-rust "$out/rule.rs" \
    --out-c "$out/rule.h" > "$out/rule.txt" 2>&1
echo "rule exit $?"

echo '== report =='
"$hone" report --db "$db" -o "$out/report" --work "8 * N" --export csv,t4 > "$out/report.txt" 2>&1
echo "report exit $?"

cat "$out/tune.txt" "$out/rule.txt"
tail -3 "$out/tune.log"
